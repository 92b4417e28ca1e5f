package dev.voicelink.android;

import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.NamedThreads;
import dev.voicelink.core.internal.AbstractVoiceLinkCall;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The agent's one thread ({@code voicelink-agent}), to which all of the engine's state is confined.
 * Web API calls run asynchronously on the client's threads and hand their results straight to it
 * ({@link #enqueue}): no thread waits for another. It counts its tasks and the calls in flight, so
 * that a test can wait until nothing is left to do ({@link #awaitIdle}) instead of waiting in real
 * time. Made and stopped by {@link AgentEngine}.
 */
final class AgentWorker {
  private static final String TAG = "VoiceLinkAgent";

  /** What to do on the worker thread with a value. */
  interface Then<T> {
    void accept(T value);
  }

  private final ThreadPoolExecutor worker;
  private final Object lock = new Object();
  private int workerTasks; // accepted and not finished; guarded by lock
  private int callsInFlight; // enqueued, their result not yet with the worker; guarded by lock
  private boolean closed; // confined to the worker thread

  AgentWorker() {
    // The thread starts with the first task, not here.
    this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<Runnable>(), new NamedThreads("voicelink-agent"));
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
      // Stopped: late results and channel callbacks have nobody left to tell.
      count(-1, 0);
    }
  }

  /**
   * Enqueues {@code call}, one of the SDK's, and runs {@code done} with its result on the worker
   * thread: the call's callback comes straight here, neither through the client's callback executor
   * (the main thread) nor through a thread that waits. Once stopped, the result is dropped (the
   * engine has answered every pending command by then).
   *
   * @throws IllegalStateException if the call cannot start (its client is closed); nothing ran
   */
  <T> void enqueue(VoiceLinkCall<T> call, Then<CallResult<T>> done) {
    count(0, 1);
    Executor toWorker = new Executor() {
      // Called exactly once, by the thread that ends the call: a client's worker, or one that cancels.
      @Override public void execute(Runnable callback) {
        AgentWorker.this.execute(callback);
        count(0, -1); // after the worker counted the task: the two never look idle in between
      }
    };
    try {
      AbstractVoiceLinkCall.enqueue(call, toWorker, done::accept);
    } catch (RuntimeException notStarted) {
      count(0, -1);
      throw notStarted;
    }
  }

  /** Whether {@link #stop}'s task has run; on the worker thread. */
  boolean isClosed() {
    return closed;
  }

  /**
   * Runs {@code last} on the worker thread after everything queued so far, then drops every later
   * task and lets the thread end. Any thread.
   */
  void stop(Runnable last) {
    execute(() -> {
      try {
        last.run();
      } finally {
        closed = true;
        worker.shutdown();
      }
    });
  }

  /**
   * For tests: waits until the worker has nothing left to do and no call is in flight (a call's
   * result is queued to the worker before the call stops counting, so the two never look idle in
   * between). Every event so far has then been handed to the sink. Returns false if {@code timeout}
   * passed first. Not to be called from the worker thread.
   */
  boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
    return await(true, timeout, unit);
  }

  /**
   * For tests: like {@link #awaitIdle} for the worker thread alone, for a test that holds a call in
   * flight on purpose.
   */
  boolean awaitWorkerIdle(long timeout, TimeUnit unit) throws InterruptedException {
    return await(false, timeout, unit);
  }

  private boolean await(boolean withCalls, long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    synchronized (lock) {
      while (workerTasks > 0 || (withCalls && callsInFlight > 0)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return true;
    }
  }

  private void count(int workerDelta, int callDelta) {
    synchronized (lock) {
      workerTasks += workerDelta;
      callsInFlight += callDelta;
      if (workerTasks == 0 || callsInFlight == 0) lock.notifyAll();
    }
  }
}
