package dev.voicelink.core;

import dev.voicelink.core.internal.SkewCorrectedClock;
import java.io.IOException;
import java.util.Date;
import okhttp3.Interceptor;
import okhttp3.Response;

/** Feeds each response's {@code Date} header to the skew-corrected clock. */
final class ServerDateInterceptor implements Interceptor {
  private final SkewCorrectedClock clock;

  ServerDateInterceptor(SkewCorrectedClock clock) {
    this.clock = clock;
  }

  @Override public Response intercept(Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    Date serverDate = response.headers().getDate("Date");
    if (serverDate != null) {
      // The header is written about half a round trip before it arrives; with its one-second
      // resolution and the clock's one-minute tolerance, that error does not matter.
      clock.observeServerTime(serverDate.getTime());
    }
    return response;
  }
}
