package dev.voicelink.testing;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import okhttp3.Headers;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import okio.Buffer;
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
  /**
   * The body is UTF-8, as every interface's text is (protocol 5.3.3); when not, {@link #body} shows
   * it with U+FFFD in place of each bad byte, for the journal only.
   */
  final boolean bodyIsUtf8;

  HttpCall(RecordedRequest raw, long now) {
    this.raw = raw;
    this.method = raw.getMethod() == null ? "" : raw.getMethod();
    this.target = raw.getPath() == null ? "/" : raw.getPath();
    int q = target.indexOf('?');
    this.route = q < 0 ? target : target.substring(0, q);
    this.headers = raw.getHeaders();
    this.bodyCutOff = raw.getBodySize() > raw.getBody().size();
    // A cut-off body is refused unread: neither the handlers nor the journal keep its 64 MiB.
    byte[] bytes = bodyCutOff ? new byte[0] : raw.getBody().clone().readByteArray();
    String strict = utf8(bytes);
    this.bodyIsUtf8 = strict != null;
    this.body = strict != null ? strict : new String(bytes, StandardCharsets.UTF_8);
    this.now = now;
  }

  /** {@code bytes} as UTF-8; null when they are not UTF-8. */
  private static @Nullable String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /**
   * Why the body cannot be read as the UTF-8 text every interface sends (protocol 5.3.3): a charset
   * parameter other than UTF-8, or bytes that are not UTF-8; null when it can.
   */
  @Nullable String notUtf8() {
    String charset = charset();
    if (charset != null && !charset.equals("utf-8")) return "charset must be utf-8; was: " + charset;
    return bodyIsUtf8 ? null : "the body is not UTF-8";
  }

  /** The body as a form, strictly: UTF-8 only, each name once, every escape well formed. */
  Map<String, String> form() throws FormException {
    String problem = notUtf8();
    if (problem != null) throw new FormException(problem);
    return parseForm(body);
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

  /** Percent-decodes {@code s}, strictly: what the escapes spell must be UTF-8. */
  private static String decode(String s, String what) throws FormException {
    Buffer bytes = new Buffer();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '+') {
        bytes.writeByte(' ');
      } else if (c == '%') {
        int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
        int lo = hi < 0 ? -1 : Character.digit(s.charAt(i + 2), 16);
        if (lo < 0) throw new FormException(what + " is not correctly URL-encoded");
        bytes.writeByte(hi << 4 | lo);
        i += 2;
      } else {
        int codePoint = s.codePointAt(i);
        bytes.writeUtf8CodePoint(codePoint);
        i += Character.charCount(codePoint) - 1;
      }
    }
    String text = utf8(bytes.readByteArray());
    if (text == null) throw new FormException(what + " is not UTF-8 once URL-decoded");
    return text;
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
