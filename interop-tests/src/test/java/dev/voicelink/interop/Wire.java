package dev.voicelink.interop;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Credentials;
import okhttp3.FormBody;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Plain HTTP as an RFC 8628 device speaks it, for tests that check the server without the SDK: form posts
 * with the client authenticated as none, Basic or post, and JSON answers read into maps. Thread-safe.
 */
public final class Wire {
  private Wire() {}

  /** One client for every test: no cookies, no redirects followed, bounded timeouts. */
  static final OkHttpClient HTTP = new OkHttpClient.Builder()
      .followRedirects(false)
      .connectTimeout(10, TimeUnit.SECONDS)
      .readTimeout(10, TimeUnit.SECONDS)
      .build();

  private static final JsonAdapter<Map<String, Object>> JSON =
      new Moshi.Builder().build().adapter(Types.newParameterizedType(Map.class, String.class, Object.class));

  /** An answer: status, headers that matter, body. Immutable. */
  public record Answer(int status, String contentType, String cacheControl, String wwwAuthenticate, String location,
      String body) {
    public Map<String, Object> json() {
      return Wire.json(body);
    }

    @Override public String toString() {
      return "Answer{" + status + " " + contentType + " " + Exchange.maskJson(body) + "}";
    }
  }

  public static Map<String, Object> json(String body) {
    try {
      Map<String, Object> parsed = JSON.fromJson(body);
      if (parsed == null) throw new IllegalArgumentException("not a JSON object: null");
      return parsed;
    } catch (IOException e) {
      throw new IllegalArgumentException("not a JSON object (" + body.length() + " characters)", e);
    }
  }

  /**
   * POSTs a form as {@code client} authenticates: {@code none} adds {@code client_id}, {@code client_secret_basic}
   * an Authorization header, {@code client_secret_post} {@code client_id} and {@code client_secret}.
   * {@code nameValues} are the other parameters, name then value.
   */
  public static Answer post(String url, InteropAccounts.Client client, String... nameValues) {
    FormBody.Builder form = new FormBody.Builder();
    Request.Builder request = new Request.Builder().url(url).header("Accept", "application/json");
    switch (client.method()) {
      case NONE -> form.add("client_id", client.id());
      case CLIENT_SECRET_POST -> form.add("client_id", client.id()).add("client_secret", client.secret());
      case CLIENT_SECRET_BASIC -> request.header("Authorization",
          Credentials.basic(formEncode(client.id()), formEncode(client.secret())));
    }
    return post(request, form, nameValues);
  }

  /** POSTs a form with exactly these parameters and headers (header name, value pairs), nothing added. */
  public static Answer postRaw(String url, Map<String, String> headers, String... nameValues) {
    Request.Builder request = new Request.Builder().url(url);
    headers.forEach(request::header);
    return post(request, new FormBody.Builder(), nameValues);
  }

  private static Answer post(Request.Builder request, FormBody.Builder form, String... nameValues) {
    if (nameValues.length % 2 != 0) throw new IllegalArgumentException("parameters come in name, value pairs");
    for (int i = 0; i < nameValues.length; i += 2) form.add(nameValues[i], nameValues[i + 1]);
    return call(request.post(form.build()).build());
  }

  /** GETs {@code url} with these headers (name, value pairs). */
  public static Answer get(String url, String... headers) {
    Request.Builder request = new Request.Builder().url(url);
    for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
    return call(request.build());
  }

  private static Answer call(Request request) {
    try (Response response = HTTP.newCall(request).execute()) {
      return new Answer(response.code(), response.header("Content-Type"), response.header("Cache-Control"),
          response.header("WWW-Authenticate"), response.header("Location"), response.body().string());
    } catch (IOException e) {
      throw new UncheckedIOException(request.method() + " " + request.url() + " failed", e);
    }
  }

  /** RFC 6749 section 2.3.1: client id and secret are form-urlencoded before they go into HTTP Basic. */
  static String formEncode(String value) {
    return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
  }
}
