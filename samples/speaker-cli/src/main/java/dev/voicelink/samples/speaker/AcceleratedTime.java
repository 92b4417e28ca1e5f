package dev.voicelink.samples.speaker;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Time that runs {@code factor} times faster than real time, for the demo: its clock and the
 * waits scheduled on it agree, so a 5-minute rule passes in 5/factor minutes. The reference server
 * gets a clock with the same factor, started at the same moment, so device and server stay in step.
 */
final class AcceleratedTime extends Clock implements Scheduler {
  private final double factor;
  private final long startWallMillis = System.currentTimeMillis();
  private final long startNanos = System.nanoTime();
  private final ScheduledThreadPoolExecutor executor;

  AcceleratedTime(double factor) {
    if (!(factor >= 1)) throw new IllegalArgumentException("factor must be 1 or more: " + factor);
    this.factor = factor;
    this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "demo-scheduler");
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
  }

  /**
   * Ends the demo's scheduler thread. The SDK never shuts down a scheduler the app gave it, so the
   * demo, as that app, does it once its client is closed.
   */
  void stop() {
    executor.shutdownNow();
  }

  double factor() {
    return factor;
  }

  @Override public long wallMillis() {
    return startWallMillis + (long) (TimeUnit.NANOSECONDS.toMillis(elapsedRealNanos()) * factor);
  }

  @Override public long monotonicNanos() {
    return (long) (elapsedRealNanos() * factor);
  }

  private long elapsedRealNanos() {
    return System.nanoTime() - startNanos;
  }

  @Override public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
    long realNanos = (long) (unit.toNanos(Math.max(0, delay)) / factor);
    final ScheduledFuture<?> future = executor.schedule(task, realNanos, TimeUnit.NANOSECONDS);
    return new Cancellable() {
      @Override public void cancel() {
        future.cancel(false);
      }

      @Override public boolean isCancelled() {
        return future.isCancelled();
      }
    };
  }

  /** Real milliseconds that {@code acceleratedMillis} of this clock's time take. */
  long realMillis(long acceleratedMillis) {
    return (long) Math.ceil(acceleratedMillis / factor);
  }
}
