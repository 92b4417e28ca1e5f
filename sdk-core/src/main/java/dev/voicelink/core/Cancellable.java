package dev.voicelink.core;

/**
 * Something in progress that the caller may stop: a scheduled task, a polling flow, an upload wait.
 *
 * <p>{@link #cancel()} may be called from any thread, any number of times; only the first call has
 * an effect.
 */
public interface Cancellable {
  /** Stops the work as soon as possible. Has no effect if it already finished. */
  void cancel();

  /** True once {@link #cancel()} has been called. */
  boolean isCancelled();
}
