package dev.voicelink.android.r8check;

import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.voicelink.android.internal.MainThreadExecutor;
import java.io.IOException;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okio.Buffer;

/**
 * A stand-in for an app that uses the SDK, shrunk by R8 with the SDK's consumer rules during the
 * build. It touches what the SDK uses at run time; R8 then shows what the rules keep. Never shipped.
 */
public final class ShrunkApp {
  private ShrunkApp() {}

  public static void main(String[] args) throws IOException {
    new MainThreadExecutor().execute(new Runnable() {
      @Override public void run() {}
    });

    OkHttpClient client = new OkHttpClient.Builder().build();
    HttpUrl url = HttpUrl.get("https://auth.example.com/oauth/device");
    // topPrivateDomain() loads okhttp's public suffix list by a path relative to its class.
    Request request = new Request.Builder().url(url).header("X-Domain", String.valueOf(url.topPrivateDomain())).build();
    client.newCall(request);

    Buffer buffer = new Buffer();
    JsonWriter writer = JsonWriter.of(buffer);
    writer.beginObject().name("device_code").value("x").endObject();
    writer.close();
    JsonReader reader = JsonReader.of(buffer);
    reader.beginObject();
    reader.nextName();
    reader.nextString();
    reader.endObject();
  }
}
