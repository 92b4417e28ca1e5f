package dev.voicelink.core;

/**
 * A task that a {@link Scheduler} will run later, and that the SDK may stop before it runs.
 *
 * <p>{@link #cancel()} may be called from any thread, any number of times; only the first call has
 * an effect.
 */
public interface Cancellable {
  /** Stops the task if it has not started. Has no effect if it already ran. */
  void cancel();

  /** True once {@link #cancel()} has been called. */
  boolean isCancelled();
}
