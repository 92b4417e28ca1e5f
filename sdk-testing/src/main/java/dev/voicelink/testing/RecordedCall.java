package dev.voicelink.testing;

import okhttp3.Headers;
import org.jspecify.annotations.Nullable;

/**
 * One request the server received and what it answered. Immutable.
 *
 * <p>Faulted calls that never got an answer have {@link #responseStatus()} -1. WebSocket upgrades answer 101.
 * Each frame received on an open interaction channel is recorded too, with method {@code WS}, the frame's
 * text as body (binary frames as {@code <N bytes of audio>}), status 0 and the server's reply (if any) as
 * response body.
 */
public final class RecordedCall {
  private final String method;
  private final String path;
  private final Headers headers;
  private final String body;
  private final long receivedAtMillis;
  private final int responseStatus;
  private final String responseBody;

  RecordedCall(String method, String path, Headers headers, String body, long receivedAtMillis, int responseStatus,
      String responseBody) {
    this.method = method;
    this.path = path;
    this.headers = headers;
    this.body = body;
    this.receivedAtMillis = receivedAtMillis;
    this.responseStatus = responseStatus;
    this.responseBody = responseBody;
  }

  /** This call with each body cut to {@code maxChars}, marked with how long it was. */
  RecordedCall withBodiesCutTo(int maxChars) {
    return new RecordedCall(method, path, headers, cut(body, maxChars), receivedAtMillis, responseStatus,
        cut(responseBody, maxChars));
  }

  private static String cut(String text, int maxChars) {
    return text.length() <= maxChars ? text
        : text.substring(0, maxChars) + "…(" + text.length() + " characters)";
  }

  public String method() {
    return method;
  }

  /** The request target: path and query, e.g. {@code /auth/verify?user_code=BCDFGHJK}. */
  public String path() {
    return path;
  }

  public Headers headers() {
    return headers;
  }

  /** The request header {@code name}, or null when the request had none. */
  public @Nullable String header(String name) {
    return headers.get(name);
  }

  /** The request body decoded as UTF-8 (empty when there was none). */
  public String body() {
    return body;
  }

  /** When the request arrived, by the server's clock. */
  public long receivedAtMillis() {
    return receivedAtMillis;
  }

  public int responseStatus() {
    return responseStatus;
  }

  public String responseBody() {
    return responseBody;
  }

  /** Method, path and status only: bodies and headers may hold secrets. */
  @Override public String toString() {
    return method + " " + path + " -> " + responseStatus;
  }
}
