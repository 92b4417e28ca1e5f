package dev.voicelink.android;

import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.NamedThreads;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The agent's threads: one worker ({@code voicelink-agent}) to which all of the engine's state is
 * confined, and a small I/O pool ({@code voicelink-agent-io}) for blocking web API calls, whose
 * outcomes come back to the worker. It counts the tasks in flight on both, so that a test can wait
 * until nothing is left to do ({@link #awaitIdle}) instead of waiting in real time. Made and closed
 * by {@link AgentEngine}.
 */
final class AgentWorker {
  private static final String TAG = "VoiceLinkAgent";

  /** Blocking work for the I/O pool. */
  interface Blocking<T> {
    T run() throws Exception;
  }

  /** What to do on the worker thread with a value. */
  interface Then<T> {
    void accept(T value);
  }

  private final ThreadPoolExecutor worker;
  private final ThreadPoolExecutor io;
  private final Object lock = new Object();
  private int workerTasks; // accepted and not finished; guarded by lock
  private int ioTasks; // accepted and not finished; guarded by lock
  private boolean closed; // confined to the worker thread

  AgentWorker() {
    this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<Runnable>(), new NamedThreads("voicelink-agent"));
    this.io = new ThreadPoolExecutor(3, 3, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<Runnable>(), new NamedThreads("voicelink-agent-io"));
    this.io.allowCoreThreadTimeOut(true);
  }

  /** Runs {@code task} on the worker thread, after everything queued before it; nothing once closed. */
  void execute(Runnable task) {
    count(1, 0);
    try {
      worker.execute(() -> {
        try {
          if (!closed) task.run();
        } catch (Exception e) { // a checked one too, from the app's Kotlin code
          Log.error(TAG, "agent task failed", e);
        } finally {
          count(-1, 0);
        }
      });
    } catch (RejectedExecutionException e) {
      // Closed: late I/O outcomes and channel callbacks have nobody left to tell.
      count(-1, 0);
    }
  }

  /**
   * Runs {@code work} on the I/O pool, then, on the worker thread, {@code done} with its value or
   * {@code failed} with what it threw.
   */
  <T> void offload(Blocking<T> work, Then<T> done, Then<Exception> failed) {
    count(0, 1);
    try {
      io.execute(() -> {
        try {
          T value = work.run();
          execute(() -> done.accept(value));
        } catch (Exception e) {
          execute(() -> failed.accept(e));
        } finally {
          count(0, -1);
        }
      });
    } catch (RejectedExecutionException e) {
      // Closed meanwhile: the engine has answered every pending command.
      count(0, -1);
    }
  }

  /** Whether {@link #close} has run; on the worker thread. */
  boolean isClosed() {
    return closed;
  }

  /**
   * On the worker thread: drops every later task, lets the worker thread end and interrupts the I/O
   * calls still running.
   */
  void close() {
    closed = true;
    worker.shutdown();
    int neverRun = io.shutdownNow().size();
    count(0, -neverRun);
  }

  /**
   * For tests: waits until the worker and the I/O pool have nothing left to do (an I/O outcome is
   * queued to the worker before its I/O task ends, so the two never look idle in between). Every
   * event so far has then been handed to the sink. Returns false if {@code timeout} passed first.
   * Not to be called from the worker thread.
   */
  boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
    return await(true, timeout, unit);
  }

  /**
   * For tests: like {@link #awaitIdle} for the worker thread alone, for a test that holds an I/O
   * call on purpose.
   */
  boolean awaitWorkerIdle(long timeout, TimeUnit unit) throws InterruptedException {
    return await(false, timeout, unit);
  }

  private boolean await(boolean withIo, long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    synchronized (lock) {
      while (workerTasks > 0 || (withIo && ioTasks > 0)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return true;
    }
  }

  private void count(int workerDelta, int ioDelta) {
    synchronized (lock) {
      workerTasks += workerDelta;
      ioTasks += ioDelta;
      if (workerTasks == 0 || ioTasks == 0) lock.notifyAll();
    }
  }
}
