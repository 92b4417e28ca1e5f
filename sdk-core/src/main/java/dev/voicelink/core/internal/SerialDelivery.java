package dev.voicelink.core.internal;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Delivers tasks one at a time, in the order they were queued, on an executor that may be a pool,
 * the main thread or a direct executor. This is how the SDK calls an app's listeners in order.
 *
 * <p>Queuing and handing over are two steps, so that code can decide what to deliver while it holds
 * its own lock and deliver it after releasing that lock (a listener may call back into it, or block):
 *
 * <pre>{@code
 * synchronized (lock) {
 *   state = next;
 *   delivery.enqueue(() -> listener.onChanged(next)); // runs nothing
 * }
 * delivery.flush();                                    // outside the lock
 * }</pre>
 *
 * <p>{@link #flush()} hands queued tasks to the executor in queue order, one flushing thread at a
 * time, so tasks queued by different threads keep the order in which they were queued. A thread that
 * flushes while another one is handing over does not wait for it: the other one hands its tasks over
 * too, and on a same-thread executor runs them. A task queued with {@link #enqueueInline} is run by
 * the flushing thread once everything queued before it has been handed over; it is for the caller's
 * own bookkeeping, not for app code.
 *
 * <p>A task that throws an exception (a checked one too, as Kotlin code may) is logged and skipped;
 * the tasks after it still run.
 * Tests wait for delivery with {@link #awaitIdle}. Thread-safe.
 */
public final class SerialDelivery implements Executor {
  /** Tasks run per turn on the executor before the rest is resubmitted, so a busy queue shares it. */
  static final int MAX_TASKS_PER_TURN = 64;

  private final Executor target;
  private final String tag;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>(); // guarded by this
  private final ArrayDeque<Runnable> ready = new ArrayDeque<>(); // guarded by this
  private boolean draining; // guarded by this
  private @Nullable Thread flusher; // guarded by this: the thread handing tasks over, if any
  private @Nullable Thread drainThread; // guarded by this

  /** Delivers on {@code target}; {@code tag} names the component in the log when a task throws. */
  public SerialDelivery(Executor target, String tag) {
    this.target = target;
    this.tag = tag;
  }

  /** Queues {@code task} for the executor. Runs nothing, so it is safe while holding a lock. */
  public void enqueue(Runnable task) {
    synchronized (this) {
      pending.add(new Pending(task, false));
    }
  }

  /**
   * Queues {@code task} to run on the thread that is flushing ({@link #flush()}), after every task
   * queued before it has been handed to the executor (not necessarily run).
   */
  public void enqueueInline(Runnable task) {
    synchronized (this) {
      pending.add(new Pending(task, true));
    }
  }

  /**
   * Hands everything queued so far to the executor, in order. Call it without holding a lock. If
   * another thread is handing over already, it returns at once: that thread hands these tasks over
   * too before it stops. So a task running on a same-thread executor may wait for a thread that
   * flushes, and neither waits for the other. Called again by a task it runs, it hands over what was
   * queued meanwhile before it returns.
   *
   * <p>An {@link Error} thrown by a task on a same-thread executor does not stop the hand-over: the
   * tasks behind it (some queued by threads that left them to this one) are still handed over, and
   * the first such error is thrown at the end.
   */
  public void flush() {
    boolean outermost;
    synchronized (this) {
      if (flusher != null && flusher != Thread.currentThread()) return;
      outermost = flusher == null;
      flusher = Thread.currentThread();
    }
    Throwable thrown = null;
    for (Pending next = nextPending(outermost); next != null; next = nextPending(outermost)) {
      try {
        if (next.inline) {
          run(next.task);
        } else {
          handOver(next.task);
        }
      } catch (Throwable e) { // an Error: the tasks' exceptions are logged where they run
        if (thrown == null) {
          thrown = e;
        } else {
          thrown.addSuppressed(e);
        }
      }
    }
    if (thrown instanceof Error) throw (Error) thrown;
    if (thrown instanceof RuntimeException) throw (RuntimeException) thrown;
    if (thrown != null) throw new UndeclaredThrowableException(thrown);
  }

  /**
   * The next task to hand over or, when none is left, null; the outermost flush then gives up its role
   * under the lock that {@link #enqueue} takes, so a task queued after this finds no flusher.
   */
  private synchronized @Nullable Pending nextPending(boolean releaseWhenEmpty) {
    Pending next = pending.poll();
    if (next == null && releaseWhenEmpty) {
      flusher = null;
      if (isIdle()) notifyAll();
    }
    return next;
  }

  /** Queues {@code task} and flushes: the {@link Executor} form, for callers that hold no lock. */
  @Override public void execute(Runnable task) {
    enqueue(task);
    flush();
  }

  /**
   * Waits until every queued task has run, or the timeout passes. Returns whether the queue is idle.
   * A barrier for tests; it must not be called from a task of this delivery, nor from the executor's
   * only thread (such as the main thread), which would wait for itself.
   */
  public boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    synchronized (this) {
      if (drainThread == Thread.currentThread()) {
        throw new IllegalStateException("awaitIdle called from a task it would wait for");
      }
      while (!isIdle()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) return false;
        TimeUnit.NANOSECONDS.timedWait(this, remaining);
      }
      return true;
    }
  }

  private boolean isIdle() {
    // caller holds this
    return pending.isEmpty() && ready.isEmpty() && !draining && flusher == null;
  }

  private void handOver(Runnable task) {
    synchronized (this) {
      ready.add(task);
      if (draining) return;
      draining = true;
    }
    submitDrain();
  }

  private void submitDrain() {
    try {
      target.execute(this::drain);
    } catch (RejectedExecutionException e) {
      int dropped;
      synchronized (this) {
        dropped = ready.size();
        ready.clear();
        draining = false;
        notifyAll();
      }
      Log.warn(tag, "the executor refused delivery; " + dropped + " calls dropped", e);
    }
  }

  private void drain() {
    try {
      for (int i = 0; i < MAX_TASKS_PER_TURN; i++) {
        Runnable task;
        synchronized (this) {
          task = ready.poll();
          if (task == null) return;
          drainThread = Thread.currentThread();
        }
        run(task);
      }
    } finally {
      boolean resubmit;
      synchronized (this) {
        drainThread = null;
        // Resubmitted when the turn ran out or a task threw an Error: nothing queued is stranded.
        resubmit = !ready.isEmpty();
        if (!resubmit) {
          draining = false;
          if (isIdle()) notifyAll();
        }
      }
      if (resubmit) submitDrain();
    }
  }

  private void run(Runnable task) {
    try {
      task.run();
    } catch (Exception e) { // a checked one too: Kotlin code throws them from a Runnable
      Log.warn(tag, "a listener threw; ignored", e);
    }
  }

  private static final class Pending {
    final Runnable task;
    final boolean inline;

    Pending(Runnable task, boolean inline) {
      this.task = task;
      this.inline = inline;
    }
  }
}
