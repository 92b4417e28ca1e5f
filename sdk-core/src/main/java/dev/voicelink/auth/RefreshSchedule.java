package dev.voicelink.auth;

import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.Log;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * When a {@link TokenManager}'s current token expires, when it is due for a refresh, and how long a
 * failed refresh waits before the next try. All instants are on the monotonic clock, in nanoseconds.
 * Not thread-safe: its manager calls it under its lock.
 */
final class RefreshSchedule {
  private static final String TAG = "auth";
  static final long MIN_MARGIN_MILLIS = TimeUnit.MINUTES.toMillis(5);
  static final long MAX_MARGIN_MILLIS = TimeUnit.DAYS.toMillis(1);
  /** How many times a store that failed its first read is read again by itself (1.5 to 3 minutes). */
  static final int STORE_READ_RETRIES = 8;

  /** The margin the app chose, or -1 for the default. */
  private final long fixedMarginMillis;
  private final Backoff backoff;
  private final Backoff storeReads;
  private long expiresAtNanos;
  private long refreshAtNanos;
  private long retryNotBeforeNanos;
  private int transientFailures;

  RefreshSchedule(long fixedMarginMillis, Random random) {
    this.fixedMarginMillis = fixedMarginMillis;
    this.backoff = new Backoff(1, 300, TimeUnit.SECONDS, 10, random);
    this.storeReads = new Backoff(1, 60, TimeUnit.SECONDS, STORE_READ_RETRIES, random);
  }

  /**
   * How long to wait before reading the store again after {@code failures} failed reads in a row at
   * start, or -1 when it is not read again by itself any more.
   */
  long storeReadRetryMillis(int failures) {
    if (!storeReads.allows(failures)) return -1;
    // At least half of each step (1.5 to 3 minutes for all 8): full jitter could spend them at once.
    return storeReads.ceilingMillis(failures) / 2 + storeReads.delayMillis(failures) / 2;
  }

  /**
   * Starts the schedule of {@code record} at {@code nowNanos}, when the servers' time is {@code
   * nowWallMillis}; {@code fresh} means it was received just now.
   */
  void start(TokenRecord record, boolean fresh, boolean renewable, long nowNanos,
      long nowWallMillis) {
    long lifetimeMillis = TimeUnit.SECONDS.toMillis(record.expiresInSeconds());
    long remainingMillis;
    if (fresh) {
      remainingMillis = lifetimeMillis;
    } else if (record.receivedAtEpochMillis() - nowWallMillis > MIN_MARGIN_MILLIS) {
      // Received well after "now": the device clock is behind (a restart before NTP, no real-time
      // clock), so the token's age is unknown. It is served, and refreshed at its first use; one that
      // cannot be renewed is served until a server rejects it. A clock behind by less misjudges the
      // remaining life by less than the smallest refresh margin.
      Log.warn(TAG, "the stored token was received after the device clock's now: the clock is"
          + " behind, so the token is " + (renewable ? "refreshed at its first use"
          : "served until a server rejects it"), null);
      remainingMillis = renewable ? marginMillis(lifetimeMillis) : lifetimeMillis;
    } else {
      remainingMillis = record.expiresAtEpochMillis() - nowWallMillis;
    }
    start(nowNanos, lifetimeMillis, remainingMillis, renewable);
  }

  /**
   * Starts the schedule of a token with {@code lifetimeMillis} of which {@code remainingMillis} are
   * left at {@code nowNanos}. A token that cannot be {@code renewable} (no refresh token, no client
   * secret) is due only when it expires: asking early would only end in a refusal.
   */
  private void start(long nowNanos, long lifetimeMillis, long remainingMillis, boolean renewable) {
    remainingMillis = Math.max(0, Math.min(remainingMillis, lifetimeMillis));
    expiresAtNanos = nowNanos + TimeUnit.MILLISECONDS.toNanos(remainingMillis);
    refreshAtNanos = renewable
        ? expiresAtNanos - TimeUnit.MILLISECONDS.toNanos(marginMillis(lifetimeMillis))
        : expiresAtNanos;
    retryNotBeforeNanos = nowNanos;
  }

  /**
   * The refresh margin of a token that lives {@code lifetimeMillis}, as {@link TokenManager} says.
   * Reads only final settings: safe without the keeper's lock.
   */
  long marginMillis(long lifetimeMillis) {
    long margin = fixedMarginMillis >= 0 ? fixedMarginMillis
        : Math.min(MAX_MARGIN_MILLIS, Math.max(lifetimeMillis / 10, MIN_MARGIN_MILLIS));
    return Math.min(margin, lifetimeMillis / 2);
  }

  /** The server rejected the token: it is due and expired now. */
  void expireNow(long nowNanos) {
    expiresAtNanos = nowNanos;
    refreshAtNanos = nowNanos;
    retryNotBeforeNanos = nowNanos;
  }

  /** True if the token may be served at {@code nowNanos} without refreshing first. */
  boolean canServe(long nowNanos) {
    if (nowNanos - refreshAtNanos < 0) return true;
    // due, but the last refresh failed transiently: wait out its backoff while the token lasts
    return nowNanos - retryNotBeforeNanos < 0 && !isExpired(nowNanos);
  }

  boolean isExpired(long nowNanos) {
    return nowNanos - expiresAtNanos >= 0;
  }

  /** A refresh succeeded: the failures in a row end. */
  void succeeded() {
    transientFailures = 0;
  }

  /**
   * A refresh failed with {@code failure} (transiently, or refused while the token lasts): returns
   * how long the next one waits (at least the server's Retry-After, within the backoff's cap).
   */
  long failed(long nowNanos, Exception failure) {
    transientFailures++;
    long delay = backoff.honouringRetryAfter(failure,
        backoff.delayMillis(Math.min(transientFailures, backoff.maxRetries())));
    retryNotBeforeNanos = nowNanos + TimeUnit.MILLISECONDS.toNanos(delay);
    return delay;
  }
}
