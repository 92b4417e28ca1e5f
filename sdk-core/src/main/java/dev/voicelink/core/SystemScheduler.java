package dev.voicelink.core;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The client's own scheduler: one daemon thread, started by the first task, stopped by shutdown. */
final class SystemScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor executor;
  private final String threadName;

  SystemScheduler(String threadName) {
    if (threadName == null || threadName.isEmpty()) {
      throw new IllegalArgumentException("threadName must not be empty");
    }
    this.threadName = threadName;
    this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, threadName);
      thread.setDaemon(true);
      return thread;
    });
    // Cancelled waits (a cancelled 5-minute poll, say) must not pin their tasks until they expire.
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  @Override public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
    if (task == null) throw new IllegalArgumentException("task must not be null");
    if (unit == null) throw new IllegalArgumentException("unit must not be null");
    final ScheduledFuture<?> future;
    try {
      future = executor.schedule(task, Math.max(0, delay), unit);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      throw new IllegalStateException("the VoiceLinkClient was closed; its scheduler takes no more"
          + " waits", e);
    }
    return new Cancellable() {
      @Override public void cancel() {
        future.cancel(false);
      }

      @Override public boolean isCancelled() {
        return future.isCancelled();
      }
    };
  }

  /**
   * Drops every waiting task and lets the thread end once the task it runs, if any, returns. That
   * task is not interrupted: it may be a token refresh already sent, whose answer must be read and
   * saved (the server voids the old refresh token when it answers); the exchanges of cancelled calls
   * end by their own cancel.
   */
  void shutdown() {
    // Cleared before, so that the idle thread shutdown() wakes finds no due task, and after, for
    // one a running task scheduled meanwhile.
    executor.getQueue().clear();
    executor.shutdown();
    executor.getQueue().clear();
  }

  /** For tests: the executor, to see that its thread ended. */
  ThreadPoolExecutor executor() {
    return executor;
  }

  @Override public String toString() {
    return "SystemScheduler(" + threadName + ")";
  }
}
