package dev.voicelink.core.internal;

import dev.voicelink.core.Clock;
import dev.voicelink.core.ServerBusyException;
import java.io.IOException;
import java.util.Date;
import org.jspecify.annotations.Nullable;
import okhttp3.Response;

/**
 * Turns a failed HTTP answer into the exception the app sees: a {@link ServerBusyException} when the
 * server said when to come back, a plain {@link IOException} otherwise.
 */
public final class HttpFailure {
  /** A Retry-After longer than this is read as this: no client loop waits a day on one answer. */
  static final long MAX_RETRY_AFTER_MILLIS = 24L * 60 * 60 * 1000;

  private HttpFailure() {
  }

  /**
   * The exception for a failed {@code response}, with {@code message}; {@code serverClock} as in
   * {@link #retryAfterMillis}.
   */
  public static IOException of(Response response, String message, Clock serverClock) {
    long retryAfter = retryAfterMillis(response, serverClock);
    return retryAfter >= 0
        ? new ServerBusyException(message, response.code(), retryAfter)
        : new IOException(message);
  }

  /**
   * The failure for a redirect that is not followed: {@code requests} says which requests,
   * {@code cargo} what would have gone with them to the other address.
   */
  public static IOException redirect(Response response, String requests, String cargo) {
    return new IOException("HTTP " + response.code() + ", a redirect: " + requests + " are not sent"
        + " on to another address, as " + cargo + " would go with them; configure the address the"
        + " server names");
  }

  /**
   * The wait asked for by {@code response}'s Retry-After, in milliseconds, or -1 if the answer is not a
   * 429 or 5xx or has no valid header (RFC 9110 10.2.3: delay-seconds or an HTTP date). An HTTP date
   * is read against the answer's own {@code Date} header, so a device clock that is off does not
   * matter; without one, against {@code serverClock}: the client's {@link SkewCorrectedClock}, which
   * holds the device's best estimate of the servers' time.
   */
  public static long retryAfterMillis(Response response, Clock serverClock) {
    int code = response.code();
    if (code != 429 && code < 500) return -1;
    String value = response.header("Retry-After");
    if (value == null) return -1;
    value = value.trim();
    if (isDigits(value)) {
      String seconds = value.replaceFirst("^0+(?=.)", ""); // "0005" is 5 s
      // More digits than a day has seconds is still a valid header; it is simply capped.
      if (seconds.length() > 9) return MAX_RETRY_AFTER_MILLIS;
      return Math.min(MAX_RETRY_AFTER_MILLIS, Long.parseLong(seconds) * 1000L);
    }
    @Nullable Date date = response.headers().getDate("Retry-After");
    if (date == null) return -1;
    @Nullable Date serverNow = response.headers().getDate("Date");
    long now = serverNow != null ? serverNow.getTime() : serverClock.wallMillis();
    return Math.min(MAX_RETRY_AFTER_MILLIS, Math.max(0, date.getTime() - now));
  }

  private static boolean isDigits(String value) {
    if (value.isEmpty()) return false;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') return false;
    }
    return true;
  }
}
