package dev.voicelink.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The reference server's idea of "now". Every time rule of the platform (user-code expiry, token expiry,
 * the 5-minute checksum window, the 10-second and 5-minute upload rules) is judged against this clock, and
 * the HTTP {@code Date} header of every response is written from it.
 *
 * <p>Tests use {@link #manual(long)} and {@link #advance(long, TimeUnit)} so that time rules are covered
 * without sleeping. Demos use {@link #scaled(double)}. All clocks are thread-safe.
 */
public abstract class ServerClock {
  ServerClock() {
  }

  /** Milliseconds since the epoch, as the server sees it. */
  public abstract long nowMillis();

  /**
   * Moves a {@linkplain #manual(long) manual} clock forward.
   *
   * @throws IllegalStateException if this clock is not manual
   * @throws IllegalArgumentException if {@code amount} is negative
   */
  public void advance(long amount, TimeUnit unit) {
    throw new IllegalStateException("advance() needs a clock made by ServerClock.manual(...); this one is " + this);
  }

  /**
   * Runs {@code listener} after each {@link #advance}, on the advancing thread, until the returned
   * task is run. A clock that is not manual moves by itself, never calls it, and returns null.
   */
  @Nullable Runnable onAdvance(Runnable listener) {
    return null;
  }

  /** A clock that stands still until {@link #advance(long, TimeUnit)} moves it. */
  public static ServerClock manual(long startEpochMillis) {
    return new Manual(startEpochMillis);
  }

  /** The machine's wall clock. */
  public static ServerClock system() {
    return new Scaled(1.0);
  }

  /** A clock that starts at the wall-clock time and runs {@code factor} times faster (factor &gt; 0). */
  public static ServerClock scaled(double factor) {
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("factor must be a positive number; was: " + factor);
    }
    return new Scaled(factor);
  }

  static final class Manual extends ServerClock {
    private final AtomicLong now;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    Manual(long start) {
      now = new AtomicLong(start);
    }

    @Override public long nowMillis() {
      return now.get();
    }

    @Override public void advance(long amount, TimeUnit unit) {
      if (amount < 0) throw new IllegalArgumentException("amount must be >= 0; was: " + amount);
      now.addAndGet(unit.toMillis(amount));
      for (Runnable listener : listeners) listener.run();
    }

    @Override Runnable onAdvance(Runnable listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }

    @Override public String toString() {
      return "ServerClock.manual(" + now.get() + ")";
    }
  }

  static final class Scaled extends ServerClock {
    private final double factor;
    private final long startWall = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();

    Scaled(double factor) {
      this.factor = factor;
    }

    /** How many times faster than real time it runs. */
    double factor() {
      return factor;
    }

    @Override public long nowMillis() {
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
      return startWall + (long) (elapsedMillis * factor);
    }

    @Override public String toString() {
      return factor == 1.0 ? "ServerClock.system()" : "ServerClock.scaled(" + factor + ")";
    }
  }
}
