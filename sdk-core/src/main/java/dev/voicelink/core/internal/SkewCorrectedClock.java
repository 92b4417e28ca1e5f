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
 * wherever it sends wall time; a server time outside 2020–2099 is a broken clock and is ignored.
 * Monotonic time is passed through unchanged.
 *
 * <p>Thread-safe: observations may come from any thread.
 */
public final class SkewCorrectedClock extends Clock {
  /** Offsets within this tolerance are treated as zero: HTTP dates have one-second resolution. */
  public static final long TOLERANCE_MILLIS = TimeUnit.MINUTES.toMillis(1);
  /** 2020-01-01 and 2100-01-01 (UTC): a server time outside is a broken clock, not the time. */
  static final long MIN_PLAUSIBLE_MILLIS = 1_577_836_800_000L;
  static final long MAX_PLAUSIBLE_MILLIS = 4_102_444_800_000L;

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

  /** Whether {@code serverMillis} can be a server's time: 2020 to 2099; else its clock is broken. */
  public static boolean isPlausible(long serverMillis) {
    return serverMillis >= MIN_PLAUSIBLE_MILLIS && serverMillis < MAX_PLAUSIBLE_MILLIS;
  }

  /**
   * Records that a server just said the time is {@code serverMillis}. An offset to the device clock
   * beyond the tolerance replaces the current correction; a smaller one means the device clock is right
   * (again), and the correction is dropped.
   */
  public void observeServerTime(long serverMillis) {
    if (!isPlausible(serverMillis)) {
      // A proxy or load balancer whose clock reads 1970 must not shift every signature.
      Log.debug("core", "ignored a server time outside 2020-2099: " + serverMillis + " ms");
      return;
    }
    long offset = serverMillis - device.wallMillis();
    offsetMillis = Math.abs(offset) > TOLERANCE_MILLIS ? offset : 0L;
  }

  @Override public String toString() {
    return "SkewCorrectedClock{offsetMillis=" + offsetMillis + "}";
  }
}
