package dev.voicelink.core;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;

/** A server's {@code Date} or {@code Retry-After} value, written without OkHttp's internal formatter. */
public final class HttpDates {
  private HttpDates() {
  }

  /** {@code epochMillis} as an IMF-fixdate (RFC 9110 section 5.6.7). */
  public static String format(long epochMillis) {
    SimpleDateFormat format = new SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    format.setTimeZone(TimeZone.getTimeZone("GMT"));
    return format.format(new Date(epochMillis));
  }
}
