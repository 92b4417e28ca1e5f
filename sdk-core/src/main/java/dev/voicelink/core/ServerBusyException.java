package dev.voicelink.core;

import java.io.IOException;

/**
 * A transport failure where the server also said when to come back: an HTTP 429 or 5xx answer that
 * carried a valid {@code Retry-After} header. It is an {@link IOException} like every other transient
 * failure, so code that catches those keeps working; code that wants to honour the server's wish reads
 * {@link #retryAfterMillis()}.
 *
 * <p>The SDK's own retry loops (device-flow polling, background token refresh, upload checks,
 * interaction reconnects) already wait at least this long before their next attempt, up to their own
 * bound. Uploads are never retried by the SDK; an app that retries one should wait this long first.
 *
 * <p>Instances are immutable. Their messages never contain a secret.
 */
public final class ServerBusyException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int httpCode;
  private final long retryAfterMillis;

  public ServerBusyException(String message, int httpCode, long retryAfterMillis) {
    super(message + "; the server asks to retry after " + seconds(retryAfterMillis) + " s");
    if (retryAfterMillis < 0) {
      throw new IllegalArgumentException("retryAfterMillis must be 0 or more; was: "
          + retryAfterMillis);
    }
    this.httpCode = httpCode;
    this.retryAfterMillis = retryAfterMillis;
  }

  private static long seconds(long millis) {
    return (millis + 999) / 1000;
  }

  /** The HTTP status of the answer, for example 503. */
  public int httpCode() {
    return httpCode;
  }

  /** How long the server asked clients to wait, in milliseconds, from when its answer arrived. */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }
}
