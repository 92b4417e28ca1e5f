package dev.voicelink.android.internal;

import java.util.Random;

/** Exponential backoff with jitter: attempt n waits between half and all of min(max, base * 2^(n-1)). */
public final class Backoff {
  private final long baseMillis;
  private final long maxMillis;
  private final Random random;

  public Backoff(long baseMillis, long maxMillis, Random random) {
    this.baseMillis = baseMillis;
    this.maxMillis = maxMillis;
    this.random = random;
  }

  public long delayMillis(int attempt) {
    long ceiling = baseMillis;
    for (int i = 1; i < attempt && ceiling < maxMillis; i++) ceiling *= 2;
    ceiling = Math.min(ceiling, maxMillis);
    long half = ceiling / 2;
    return half + (long) (random.nextDouble() * (ceiling - half));
  }
}
