package dev.voicelink.samples.app;

import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.entity.ChecksumSigner;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;

/**
 * Asks the app's backend for each web API checksum, so that the account key stays on the backend and
 * never ships in the APK. The protocol is the sample's own (the platform defines none):
 *
 * <pre>
 * POST {sample.checksum_url}
 * Authorization: &lt;the device's access token&gt;      (so the backend knows which device asks)
 * {"nonce": "...", "cur_time": "..."}
 * → 200 {"checksum": "&lt;md5hex(accountKey + nonce + cur_time)&gt;"}
 * </pre>
 *
 * <p>Called by the SDK's signer on the thread that makes the web API request; thread-safe.
 */
final class BackendChecksums implements ChecksumSigner.ChecksumSource {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  private final OkHttpClient http;
  private final HttpUrl url;
  private final TokenSource tokens;

  BackendChecksums(OkHttpClient http, HttpUrl url, TokenSource tokens) {
    this.http = http;
    this.url = url;
    this.tokens = tokens;
  }

  @Override public String checksum(String nonce, String curTime) throws IOException {
    String token;
    try {
      token = tokens.accessToken();
    } catch (ServerRefusalException e) {
      throw new IOException("no device token to show the signing backend: " + e.getMessage(), e);
    }
    Buffer body = new Buffer();
    try (JsonWriter writer = JsonWriter.of(body)) {
      writer.beginObject().name("nonce").value(nonce).name("cur_time").value(curTime).endObject();
    }
    Request request = new Request.Builder().url(url).header("Authorization", token)
        .post(RequestBody.create(body.readByteString(), JSON)).build();
    try (Response response = http.newCall(request).execute()) {
      if (!response.isSuccessful()) {
        throw new IOException("the signing backend " + url + " answered HTTP " + response.code());
      }
      ResponseBody answer = response.body();
      String checksum = answer == null ? null : readChecksum(answer);
      if (checksum == null) throw new IOException("the signing backend " + url + " sent no checksum");
      return checksum;
    }
  }

  private static @Nullable String readChecksum(ResponseBody body) throws IOException {
    JsonReader reader = JsonReader.of(body.source());
    reader.beginObject();
    String checksum = null;
    while (reader.hasNext()) {
      if (reader.nextName().equals("checksum") && reader.peek() == JsonReader.Token.STRING) {
        checksum = reader.nextString();
      } else {
        reader.skipValue();
      }
    }
    reader.endObject();
    return checksum;
  }

  @Override public String toString() {
    return "BackendChecksums{" + url + "}";
  }
}
