package dev.voicelink.core;

import java.util.concurrent.TimeUnit;

/**
 * Runs tasks later. Every wait in the SDK (polling intervals, retry backoff, the 10-second rule
 * before checking an upload) goes through the client's {@code Scheduler}, so that waits are
 * cancellable and time can be simulated.
 *
 * <p>A {@link VoiceLinkClient} has its own (one daemon thread, stopped by {@code close()}); an app
 * passes one to {@link VoiceLinkClient.Builder#scheduler} only to run the SDK in simulated time, with
 * a matching {@link Clock}. Implementations must be thread-safe, and must not run a task on the
 * thread that schedules it.
 */
public interface Scheduler {
  /**
   * Runs {@code task} once after {@code delay}. A delay of zero or less runs it as soon as possible.
   * The returned handle cancels the task if it has not started.
   */
  Cancellable schedule(Runnable task, long delay, TimeUnit unit);
}
