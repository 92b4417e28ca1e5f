package dev.voicelink.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.FormBody;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** Raw HTTP requests built by hand, so tests see exactly what goes over the wire. */
final class Wire {
  static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  static final MediaType FORM = MediaType.get("application/x-www-form-urlencoded");
  static final OkHttpClient HTTP = new OkHttpClient.Builder().retryOnConnectionFailure(false)
      .callTimeout(10, TimeUnit.SECONDS).build();

  /** Status, headers and body of one answer. */
  static final class Answer {
    final int status;
    final String body;
    final Response response;

    Answer(Response response, String body) {
      this.status = response.code();
      this.body = body;
      this.response = response;
    }

    Map<String, Object> json() {
      Map<String, Object> m = Json.parseObject(body);
      if (m == null) throw new AssertionError("not a JSON object: " + body);
      return m;
    }

    String header(String name) {
      return response.header(name);
    }
  }

  private Wire() {
  }

  static Answer call(Request request) throws IOException {
    try (Response r = HTTP.newCall(request).execute()) {
      return new Answer(r, r.body() == null ? "" : r.body().string());
    }
  }

  static Answer postJson(String url, String json) throws IOException {
    return call(new Request.Builder().url(url).post(RequestBody.create(json, JSON)).build());
  }

  static Answer postRaw(String url, String body, String contentType) throws IOException {
    return call(new Request.Builder().url(url)
        .post(RequestBody.create(body.getBytes(StandardCharsets.UTF_8), contentType == null ? null : MediaType.get(contentType)))
        .build());
  }

  static Answer postForm(String url, String... namesAndValues) throws IOException {
    return call(new Request.Builder().url(url).post(form(namesAndValues)).build());
  }

  static FormBody form(String... namesAndValues) {
    FormBody.Builder b = new FormBody.Builder(StandardCharsets.UTF_8);
    for (int i = 0; i < namesAndValues.length; i += 2) b.add(namesAndValues[i], namesAndValues[i + 1]);
    return b.build();
  }

  static String md5(String s) {
    try {
      StringBuilder sb = new StringBuilder();
      for (byte b : MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8))) {
        sb.append(String.format("%02x", b));
      }
      return sb.toString();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
