package dev.voicelink.samples.speaker;

import dev.voicelink.core.Clock;

/**
 * A clock whose monotonic time moves {@link #tick} nanoseconds at every reading, so that work measured
 * with it takes a known time without anyone sleeping. Wall time is the real one (servers check it).
 */
final class TickingClock extends Clock {
  volatile long tick;
  private long now;

  TickingClock(long tick) {
    this.tick = tick;
  }

  @Override public long wallMillis() {
    return System.currentTimeMillis();
  }

  @Override public synchronized long monotonicNanos() {
    now += tick;
    return now;
  }
}
