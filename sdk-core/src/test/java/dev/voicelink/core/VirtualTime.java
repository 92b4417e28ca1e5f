package dev.voicelink.core;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A clock and scheduler that tests drive by hand: time stands still until {@link #advance} moves
 * it, and moving it runs every task that became due, in due order, on the calling thread.
 *
 * <p>Thread-safe, so production code may schedule from its own threads while a test advances time.
 * {@link #awaitScheduled(int)} lets a test wait (with a real, short timeout) until code under test has
 * scheduled its next wait before advancing past it.
 */
public final class VirtualTime extends Clock implements Scheduler {
  private final Object lock = new Object();
  private final PriorityQueue<Task> queue = new PriorityQueue<>();
  private static final long START_NANOS = TimeUnit.DAYS.toNanos(3);
  private long nowNanos = START_NANOS;
  private long wallOffsetMillis;
  private long sequence;
  private int scheduledCount;

  /** Starts at the given wall time (epoch millis); monotonic time starts at an arbitrary value. */
  public VirtualTime(long startWallMillis) {
    this.wallOffsetMillis = startWallMillis;
  }

  public VirtualTime() {
    this(1_763_712_000_000L);
  }

  @Override public long wallMillis() {
    synchronized (lock) {
      return wallOffsetMillis + TimeUnit.NANOSECONDS.toMillis(nowNanos - START_NANOS);
    }
  }

  @Override public long monotonicNanos() {
    synchronized (lock) {
      return nowNanos;
    }
  }

  /** Sets the wall clock off by {@code millis} without moving monotonic time (a wrong device clock). */
  public void shiftWallClock(long millis) {
    synchronized (lock) {
      wallOffsetMillis += millis;
    }
  }

  @Override public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
    synchronized (lock) {
      Task scheduled = new Task(task, nowNanos + Math.max(0, unit.toNanos(delay)), sequence++);
      queue.add(scheduled);
      scheduledCount++;
      lock.notifyAll();
      return scheduled;
    }
  }

  /** Number of tasks ever scheduled. */
  public int scheduledCount() {
    synchronized (lock) {
      return scheduledCount;
    }
  }

  /** Delays (from now) of the tasks still waiting, soonest first, in milliseconds (rounded down). */
  public List<Long> pendingDelaysMillis() {
    List<Long> result = new ArrayList<>();
    for (long nanos : pendingDelaysNanos()) result.add(TimeUnit.NANOSECONDS.toMillis(nanos));
    return result;
  }

  /** Delays (from now) of the tasks still waiting, soonest first, in nanoseconds. */
  public List<Long> pendingDelaysNanos() {
    synchronized (lock) {
      List<Task> sorted = new ArrayList<>(queue);
      java.util.Collections.sort(sorted);
      List<Long> result = new ArrayList<>();
      for (Task task : sorted) {
        if (!task.cancelled) result.add(task.dueNanos - nowNanos);
      }
      return result;
    }
  }

  /** Blocks (up to 10 real seconds) until at least {@code count} tasks have ever been scheduled. */
  public void awaitScheduled(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    synchronized (lock) {
      while (scheduledCount < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("expected " + count + " scheduled tasks, saw " + scheduledCount);
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
    }
  }

  /**
   * Blocks until at least {@code count} tasks have ever been scheduled or {@code done} is true, up
   * to {@code timeout} of real time; returns whether one of them happened. Whoever makes {@code done}
   * true calls {@link #signal()} after, so that the wait is a barrier, never a poll.
   */
  public boolean awaitScheduledOr(int count, BooleanSupplier done, long timeout, TimeUnit unit)
      throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    synchronized (lock) {
      while (scheduledCount < count && !done.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return true;
    }
  }

  /** Wakes the threads in {@link #awaitScheduledOr} to look at their condition again. */
  public void signal() {
    synchronized (lock) {
      lock.notifyAll();
    }
  }

  /** Moves time forward, running each task that becomes due at its due time. */
  public void advance(long amount, TimeUnit unit) {
    long target;
    synchronized (lock) {
      target = nowNanos + unit.toNanos(amount);
    }
    while (true) {
      Task next;
      synchronized (lock) {
        next = queue.peek();
        if (next == null || next.dueNanos > target) {
          nowNanos = target;
          return;
        }
        queue.poll();
        nowNanos = Math.max(nowNanos, next.dueNanos);
      }
      if (!next.cancelled) next.runnable.run();
    }
  }

  /**
   * Moves time forward by {@code millis}, running what becomes due, then waits (like {@link
   * #awaitScheduled}) until code under test has scheduled its next task.
   */
  public void step(long millis) throws InterruptedException {
    step(millis, 1);
  }

  /**
   * As {@link #step(long)}, waiting until code under test has scheduled {@code tasks} tasks: a
   * device flow's poll, for one, arms its deadline while it is out, and its answer schedules the wait
   * before the next poll.
   */
  public void step(long millis, int tasks) throws InterruptedException {
    int before = scheduledCount();
    advance(millis, TimeUnit.MILLISECONDS);
    awaitScheduled(before + tasks);
  }

  /** Runs the tasks that are due now without moving time. */
  public void runDueTasks() {
    advance(0, TimeUnit.NANOSECONDS);
  }

  private static final class Task implements Cancellable, Comparable<Task> {
    final Runnable runnable;
    final long dueNanos;
    final long order;
    volatile boolean cancelled;

    Task(Runnable runnable, long dueNanos, long order) {
      this.runnable = runnable;
      this.dueNanos = dueNanos;
      this.order = order;
    }

    @Override public void cancel() {
      cancelled = true;
    }

    @Override public boolean isCancelled() {
      return cancelled;
    }

    @Override public int compareTo(Task other) {
      int byTime = Long.compare(dueNanos, other.dueNanos);
      return byTime != 0 ? byTime : Long.compare(order, other.order);
    }
  }
}
