package dev.voicelink.testing;

import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import okhttp3.Headers;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.jspecify.annotations.Nullable;

/** One received request, as the endpoint handlers see it. */
final class HttpCall {
  final String method;
  /** Path without the query. */
  final String route;
  final String target;
  final Headers headers;
  final String body;
  final long now;
  final RecordedRequest raw;
  /** The body was longer than the server keeps ({@link ReferenceServer#MAX_BODY_BYTES}). */
  final boolean bodyCutOff;

  HttpCall(RecordedRequest raw, long now) {
    this.raw = raw;
    this.method = raw.getMethod() == null ? "" : raw.getMethod();
    this.target = raw.getPath() == null ? "/" : raw.getPath();
    int q = target.indexOf('?');
    this.route = q < 0 ? target : target.substring(0, q);
    this.headers = raw.getHeaders();
    this.bodyCutOff = raw.getBodySize() > raw.getBody().size();
    // A cut-off body is refused unread: neither the handlers nor the journal keep its 64 MiB.
    this.body = bodyCutOff ? "" : raw.getBody().clone().readString(StandardCharsets.UTF_8);
    this.now = now;
  }

  String header(String name) {
    return headers.get(name);
  }

  String query() {
    int q = target.indexOf('?');
    return q < 0 ? "" : target.substring(q + 1);
  }

  /** The media type of the body, lower case, without parameters; "" when absent. */
  @Nullable String mediaType() {
    String ct = header("Content-Type");
    if (ct == null) return "";
    int semi = ct.indexOf(';');
    return (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(java.util.Locale.ROOT);
  }

  /** The charset parameter of Content-Type, lower case; null when absent. */
  @Nullable String charset() {
    String ct = header("Content-Type");
    if (ct == null) return null;
    for (String part : ct.split(";")) {
      String p = part.trim();
      if (p.toLowerCase(java.util.Locale.ROOT).startsWith("charset=")) {
        return p.substring(8).replace("\"", "").trim().toLowerCase(java.util.Locale.ROOT);
      }
    }
    return null;
  }

  boolean isForm() {
    return "application/x-www-form-urlencoded".equals(mediaType());
  }

  boolean isJson() {
    return "application/json".equals(mediaType());
  }

  /**
   * Decodes an {@code application/x-www-form-urlencoded} text strictly: a repeated name or a broken
   * percent escape is an error (the message names the field), never silently resolved.
   */
  static Map<String, String> parseForm(String text) throws FormException {
    Map<String, String> out = new LinkedHashMap<>();
    if (text.isEmpty()) return out;
    for (String pair : text.split("&", -1)) {
      if (pair.isEmpty()) continue;
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq), "parameter name");
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1), name);
      if (out.containsKey(name)) throw new FormException(name + " must be given once; it appears more than once");
      out.put(name, value);
    }
    return out;
  }

  private static String decode(String s, String what) throws FormException {
    try {
      return URLDecoder.decode(s, "UTF-8");
    } catch (IllegalArgumentException e) {
      throw new FormException(what + " is not correctly URL-encoded");
    } catch (UnsupportedEncodingException e) {
      throw new AssertionError(e);
    }
  }

  static final class FormException extends Exception {
    private static final long serialVersionUID = 1L;

    FormException(String message) {
      super(message);
    }
  }

  /** The status code of a response; -1 for one that is no HTTP answer (a dropped connection). */
  static int status(MockResponse response) {
    if (response.getSocketPolicy() == SocketPolicy.DISCONNECT_AFTER_REQUEST) return -1;
    if (response.getWebSocketListener() != null) return 101;
    String[] parts = response.getStatus().split(" ");
    return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
  }

  static MockResponse json(int status, Object body) {
    return new MockResponse().setResponseCode(status)
        .setHeader("Content-Type", "application/json; charset=utf-8")
        .setHeader("Cache-Control", "no-store")
        .setBody(Json.write(body));
  }

  static MockResponse html(int status, String page) {
    return new MockResponse().setResponseCode(status)
        .setHeader("Content-Type", "text/html; charset=utf-8")
        .setHeader("Cache-Control", "no-store")
        .setBody(page);
  }
}
