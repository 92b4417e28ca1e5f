package dev.voicelink.core;

import dev.voicelink.core.internal.SinceBootClock;
import org.jspecify.annotations.Nullable;

/**
 * The two times the SDK needs: wall time, which is sent to servers and may be wrong on a device
 * whose clock has not been set yet, and monotonic time, which only measures intervals and cannot
 * jump.
 *
 * <p>Every time-dependent part of the SDK takes a {@code Clock}, so that tests can control it. The
 * {@linkplain #system() system clock} is safe to share between threads; implementations must be too.
 */
public abstract class Clock {
  private static final Clock SYSTEM = new Clock() {
    @Override public long wallMillis() {
      return System.currentTimeMillis();
    }

    @Override public long monotonicNanos() {
      Clock sinceBoot = SinceBoot.CLOCK;
      return sinceBoot != null ? sinceBoot.monotonicNanos() : System.nanoTime();
    }

    @Override public String toString() {
      return "Clock.system()";
    }
  };

  /** Looked up at the first reading, not when {@link #system()} is first called. */
  private static final class SinceBoot {
    static final @Nullable Clock CLOCK = Platform.onAndroidRuntime() ? SinceBootClock.find() : null;
  }

  /**
   * The device's own clock: {@link System#currentTimeMillis()}, and for monotonic time {@link
   * System#nanoTime()}, or on Android {@code SystemClock.elapsedRealtimeNanos()}. Android's {@code
   * nanoTime} stops while the device is in deep sleep: a token that expired, or a connection that a
   * server closed, while a phone or speaker slept would look fresh when it wakes.
   */
  public static Clock system() {
    return SYSTEM;
  }

  /** Milliseconds since 1970-01-01T00:00:00Z as this clock believes them to be. */
  public abstract long wallMillis();

  /**
   * A monotonic reading in nanoseconds; only differences between two readings mean anything. It must
   * count the time the device sleeps (on Android, {@code SystemClock.elapsedRealtimeNanos()}, not
   * {@link System#nanoTime()}): token lifetimes and the idle time of connections are measured on it.
   */
  public abstract long monotonicNanos();
}
