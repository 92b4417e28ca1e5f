package dev.voicelink.core;

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
      return System.nanoTime();
    }

    @Override public String toString() {
      return "Clock.system()";
    }
  };

  /** The device's own clock: {@link System#currentTimeMillis()} and {@link System#nanoTime()}. */
  public static Clock system() {
    return SYSTEM;
  }

  /** Milliseconds since 1970-01-01T00:00:00Z as this clock believes them to be. */
  public abstract long wallMillis();

  /** A monotonic reading in nanoseconds; only differences between two readings mean anything. */
  public abstract long monotonicNanos();
}
