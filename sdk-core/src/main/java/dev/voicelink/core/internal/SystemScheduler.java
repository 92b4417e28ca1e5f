package dev.voicelink.core.internal;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Scheduler;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The client's own scheduler. One daemon thread keeps time (started by the first task, stopped by
 * {@link #shutdown}); a task that falls due runs on {@code runner}, the client's workers. A task may
 * block (a check's HTTP exchange, a token fetch), and on the timing thread it would hold up every
 * other wait of the client: a device poll, a reconnect, another upload's check.
 */
public final class SystemScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor timer;
  private final Executor runner;
  private final String threadName;

  public SystemScheduler(String threadName, Executor runner) {
    if (threadName == null || threadName.isEmpty()) {
      throw new IllegalArgumentException("threadName must not be empty");
    }
    if (runner == null) throw new IllegalArgumentException("runner must not be null");
    this.threadName = threadName;
    this.runner = runner;
    this.timer = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, threadName);
      thread.setDaemon(true);
      return thread;
    });
    // Cancelled waits (a cancelled 5-minute poll, say) must not pin their tasks until they expire.
    timer.setRemoveOnCancelPolicy(true);
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  @Override public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
    if (task == null) throw new IllegalArgumentException("task must not be null");
    if (unit == null) throw new IllegalArgumentException("unit must not be null");
    final AtomicBoolean cancelled = new AtomicBoolean();
    // Checked again on the worker: a wait cancelled after it fell due but before it ran never runs.
    final Runnable unlessCancelled = () -> {
      if (cancelled.get()) return;
      try {
        task.run();
      } catch (Exception e) { // a checked one too, from a Kotlin task
        // As the scheduler's own thread did: one failing task must not end a worker (on Android, the
        // default handler would end the app).
        Log.error("core", "a scheduled task failed", e);
      }
    };
    final ScheduledFuture<?> future;
    try {
      future = timer.schedule(() -> handOver(unlessCancelled), Math.max(0, delay), unit);
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException("the VoiceLinkClient was closed; its scheduler takes no more"
          + " waits", e);
    }
    return new Cancellable() {
      @Override public void cancel() {
        cancelled.set(true);
        future.cancel(false);
      }

      @Override public boolean isCancelled() {
        return cancelled.get();
      }
    };
  }

  private void handOver(Runnable task) {
    try {
      runner.execute(task);
    } catch (RejectedExecutionException closing) {
      // The client is closing: its waits are dropped, as the timer's own queue is.
      Log.debug("core", "a wait fell due while the client closed; dropped");
    }
  }

  /**
   * Drops every waiting task and lets the timing thread end. A task already handed to the runner is
   * not interrupted: it may be a token refresh already sent, whose answer must be read and saved
   * (the server voids the old refresh token when it answers); the exchanges of cancelled calls end
   * by their own cancel.
   */
  public void shutdown() {
    // Cleared before, so that the idle thread shutdown() wakes finds no due task, and after, for
    // one handed over meanwhile.
    timer.getQueue().clear();
    timer.shutdown();
    timer.getQueue().clear();
  }

  /** For tests: the timer, to see that its thread ended. */
  ThreadPoolExecutor timer() {
    return timer;
  }

  @Override public String toString() {
    return "SystemScheduler(" + threadName + ")";
  }
}
