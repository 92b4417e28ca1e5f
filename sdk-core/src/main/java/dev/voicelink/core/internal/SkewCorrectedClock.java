package dev.voicelink.core.internal;

import dev.voicelink.core.Clock;
import java.util.concurrent.TimeUnit;

/**
 * The device clock, corrected by the offset to the servers' clock when the device is known to be
 * off by more than {@linkplain #TOLERANCE_MILLIS a minute}.
 *
 * <p>A smart speaker often boots with a wrong clock and sets it only when NTP answers; the platform
 * rejects signed requests whose time is more than five minutes off. The SDK therefore learns the
 * servers' time from every response ({@code Date} header, token {@code created_at}) and uses this clock
 * wherever it sends wall time. Monotonic time is passed through unchanged.
 *
 * <p>Thread-safe: observations may come from any thread.
 */
public final class SkewCorrectedClock extends Clock {
  /** Offsets within this tolerance are treated as zero: HTTP dates have one-second resolution. */
  public static final long TOLERANCE_MILLIS = TimeUnit.MINUTES.toMillis(1);

  private final Clock device;
  private volatile long offsetMillis;

  public SkewCorrectedClock(Clock device) {
    this.device = device;
  }

  @Override public long wallMillis() {
    return device.wallMillis() + offsetMillis;
  }

  @Override public long monotonicNanos() {
    return device.monotonicNanos();
  }

  /** The correction currently applied to the device's wall clock, in milliseconds (0 if none). */
  public long offsetMillis() {
    return offsetMillis;
  }

  /**
   * Records that a server just said the time is {@code serverMillis}. An offset to the device clock
   * beyond the tolerance replaces the current correction; a smaller one means the device clock is right
   * (again), and the correction is dropped.
   */
  public void observeServerTime(long serverMillis) {
    long offset = serverMillis - device.wallMillis();
    offsetMillis = Math.abs(offset) > TOLERANCE_MILLIS ? offset : 0L;
  }

  @Override public String toString() {
    return "SkewCorrectedClock{offsetMillis=" + offsetMillis + "}";
  }
}
