package dev.voicelink.core.internal;

import dev.voicelink.core.ServerBusyException;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import java.util.concurrent.TimeUnit;

/**
 * Bounded exponential backoff with full jitter: before retry {@code n} (1-based) wait a random time in
 * {@code [0, min(cap, base * 2^(n-1))]}. Full jitter spreads the retries of many devices that failed
 * together (a server restart) instead of bringing them back in lockstep.
 *
 * <p>Immutable and thread-safe as far as the {@link Random} is ({@code java.util.Random} is). Tests pass
 * a seeded or scripted {@code Random}.
 */
public final class Backoff {
  private final long baseMillis;
  private final long capMillis;
  private final int maxRetries;
  private final Random random;

  /**
   * @param base first retry waits up to this long; must be positive
   * @param cap no wait is longer than this; must be at least {@code base}
   * @param maxRetries how many retries are allowed after the first attempt; must be at least 0
   */
  public Backoff(long base, long cap, TimeUnit unit, int maxRetries, Random random) {
    if (base <= 0) throw new IllegalArgumentException("base must be positive; was: " + base);
    if (cap < base) {
      throw new IllegalArgumentException("cap must be at least base (" + base + "); was: " + cap);
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be 0 or more; was: " + maxRetries);
    }
    if (random == null) throw new IllegalArgumentException("random must not be null");
    this.baseMillis = unit.toMillis(base);
    this.capMillis = unit.toMillis(cap);
    this.maxRetries = maxRetries;
    this.random = random;
  }

  /** The number of retries allowed after the first attempt. */
  public int maxRetries() {
    return maxRetries;
  }

  /** True if retry number {@code retry} (1-based) is still allowed. */
  public boolean allows(int retry) {
    return retry >= 1 && retry <= maxRetries;
  }

  /** The largest wait before retry {@code retry} (1-based): {@code min(cap, base * 2^(retry-1))}. */
  public long ceilingMillis(int retry) {
    if (retry < 1) throw new IllegalArgumentException("retry must be 1 or more; was: " + retry);
    int doublings = Math.min(retry - 1, 62);
    long ceiling = baseMillis;
    for (int i = 0; i < doublings && ceiling < capMillis; i++) {
      if (ceiling > capMillis >>> 1) return capMillis; // doubling would pass the cap, or overflow
      ceiling <<= 1;
    }
    return Math.min(capMillis, ceiling);
  }

  /** A random wait in {@code [0, ceilingMillis(retry)]} before retry {@code retry} (1-based). */
  public long delayMillis(int retry) {
    long ceiling = ceilingMillis(retry);
    return (long) (random.nextDouble() * (Math.min(ceiling, Long.MAX_VALUE - 1) + 1));
  }

  /**
   * {@code delayMillis}, or longer when {@code failure} carries the server's Retry-After: the server's
   * wish is honoured up to this backoff's cap, so a loop stays bounded whatever the server says.
   */
  public long honouringRetryAfter(@Nullable Throwable failure, long delayMillis) {
    return failure instanceof ServerBusyException
        ? honouringRetryAfter(((ServerBusyException) failure).retryAfterMillis(), delayMillis)
        : delayMillis;
  }

  /** As {@link #honouringRetryAfter(Throwable, long)}, for a Retry-After of -1 (none) or more ms. */
  public long honouringRetryAfter(long retryAfterMillis, long delayMillis) {
    return Math.max(delayMillis, Math.min(capMillis, retryAfterMillis));
  }

  @Override public String toString() {
    return "Backoff{base=" + baseMillis + "ms, cap=" + capMillis + "ms, maxRetries=" + maxRetries
        + "}";
  }
}
