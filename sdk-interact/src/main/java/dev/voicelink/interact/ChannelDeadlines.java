package dev.voicelink.interact;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Scheduler;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The deadlines of one {@link ChannelConnection}, on the client's {@link Scheduler}: the greeting's,
 * from the upgrade to the server's {@code connected} message, and each write's, from the write to its
 * result or error. Not thread-safe: the connection calls it under its lock, and the tasks it schedules
 * take that lock before they act.
 */
final class ChannelDeadlines {
  private final Scheduler scheduler;
  final long greetingMillis;
  final long resultMillis;
  private @Nullable Cancellable greeting;
  private final Map<Integer, Cancellable> results = new HashMap<>();
  /** Writes whose deadline passed: an answer that comes later is not delivered. */
  private final Set<Integer> timedOut = new HashSet<>();

  ChannelDeadlines(Scheduler scheduler, long greetingMillis, long resultMillis) {
    this.scheduler = scheduler;
    this.greetingMillis = greetingMillis;
    this.resultMillis = resultMillis;
  }

  void armGreeting(Runnable overdue) {
    greeting = scheduler.schedule(overdue, greetingMillis, TimeUnit.MILLISECONDS);
  }

  void greeted() {
    if (greeting != null) {
      greeting.cancel();
      greeting = null;
    }
  }

  /** Arms (or arms again) the deadline of write {@code seq}. */
  void armResult(int seq, Runnable overdue) {
    results.put(seq, scheduler.schedule(overdue, resultMillis, TimeUnit.MILLISECONDS));
  }

  /** Whether write {@code seq} still waits for its answer. */
  boolean awaiting(int seq) {
    return results.containsKey(seq);
  }

  /** Write {@code seq} gets no answer in time: a later one is dropped. */
  void expired(int seq) {
    results.remove(seq);
    timedOut.add(seq);
  }

  /**
   * Write {@code seq} was answered: ends its deadline. Returns false when the answer is late (its
   * deadline passed, and the listener was told so), and is not to be delivered.
   */
  boolean answered(int seq) {
    Cancellable deadline = results.remove(seq);
    if (deadline != null) deadline.cancel();
    return !timedOut.remove(seq);
  }

  /** The connection ended: no deadline of it is left on the scheduler. */
  void cancelAll() {
    greeted();
    for (Cancellable deadline : results.values()) deadline.cancel();
    results.clear();
    timedOut.clear();
  }

  /** {@code 10 s} for whole seconds, else {@code 2500 ms}: for log lines and messages. */
  static String describe(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }
}
