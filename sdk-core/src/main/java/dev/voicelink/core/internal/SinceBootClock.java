package dev.voicelink.core.internal;

import dev.voicelink.core.Clock;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;

/**
 * Android's clock: monotonic time from {@code SystemClock.elapsedRealtimeNanos()}, which counts deep
 * sleep, where {@code System.nanoTime()} stops while the device sleeps. Found by reflection, so that
 * this plain-Java module needs no Android classes to build. The monotonic time of {@link
 * Clock#system()} on Android's runtime. Thread-safe.
 */
public final class SinceBootClock extends Clock {
  private final Method elapsedRealtimeNanos;

  private SinceBootClock(Method elapsedRealtimeNanos) {
    this.elapsedRealtimeNanos = elapsedRealtimeNanos;
  }

  /**
   * The clock, or null where {@code android.os.SystemClock} cannot be read (a JVM, the stub classes
   * of a build). Reads it once, so that a stub fails here rather than at a later reading.
   */
  public static @Nullable Clock find() {
    try {
      Method method = Class.forName("android.os.SystemClock").getMethod("elapsedRealtimeNanos");
      return method.invoke(null) instanceof Long ? new SinceBootClock(method) : null;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  @Override public long wallMillis() {
    return System.currentTimeMillis();
  }

  @Override public long monotonicNanos() {
    try {
      return (Long) elapsedRealtimeNanos.invoke(null);
    } catch (ReflectiveOperationException e) {
      // It was read once when found: falling back to nanoTime would mix two time bases.
      throw new IllegalStateException("cannot read SystemClock.elapsedRealtimeNanos()", e);
    }
  }

  @Override public String toString() {
    return "Clock.system()";
  }
}
