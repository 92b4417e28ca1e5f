package dev.voicelink.core;

import java.util.concurrent.TimeUnit;

/**
 * Runs tasks later. Every wait in the SDK (polling intervals, retry backoff, the 10-second rule
 * before checking an upload) goes through a {@code Scheduler}, so that waits are cancellable and tests
 * never sleep for real.
 *
 * <p>The {@linkplain #system(String) system scheduler} runs tasks on one named daemon thread per
 * scheduler, in the order they become due. Implementations must be thread-safe.
 */
public interface Scheduler {
  /**
   * Runs {@code task} once after {@code delay}. A delay of zero or less runs it as soon as possible.
   * The returned handle cancels the task if it has not started.
   */
  Cancellable schedule(Runnable task, long delay, TimeUnit unit);

  /** A scheduler backed by one daemon thread named {@code threadName}. */
  static Scheduler system(String threadName) {
    return new SystemScheduler(threadName);
  }
}
