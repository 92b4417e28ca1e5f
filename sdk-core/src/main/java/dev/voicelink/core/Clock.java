package dev.voicelink.core;

import java.lang.reflect.Method;
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
    private final @Nullable Method sinceBoot = Platform.androidElapsedRealtimeNanos();

    @Override public long wallMillis() {
      return System.currentTimeMillis();
    }

    @Override public long monotonicNanos() {
      if (sinceBoot == null) return System.nanoTime();
      try {
        return (Long) sinceBoot.invoke(null);
      } catch (ReflectiveOperationException e) {
        // Read once already when it was found; falling back to nanoTime would mix two time bases.
        throw new IllegalStateException("cannot read SystemClock.elapsedRealtimeNanos()", e);
      }
    }

    @Override public String toString() {
      return "Clock.system()";
    }
  };

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

  /** A monotonic reading in nanoseconds; only differences between two readings mean anything. */
  public abstract long monotonicNanos();
}
