package dev.voicelink.interact;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Scheduler;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
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
  /** The writes that wait for their answer: every write arms one, and its answer or timeout ends it. */
  private final Map<Integer, Cancellable> results = new HashMap<>();
  /** The audio writes among {@link #results}. */
  private final Set<Integer> audio = new HashSet<>();
  /**
   * Audio writes refused while their frames were on the way: the server refuses each of those frames
   * too, without a seq, up to its answer to their end (docs/interaction-channel.md, 60003).
   */
  private final Set<Integer> refusedAudio = new HashSet<>();

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

  /** Write {@code seq}, armed already, is an audio write. */
  void isAudio(int seq) {
    audio.add(seq);
  }

  /** Whether write {@code seq} still waits for its answer. */
  boolean awaiting(int seq) {
    return results.containsKey(seq);
  }

  /** Write {@code seq} gets no answer in time: a later one is dropped. */
  void expired(int seq) {
    results.remove(seq);
    audio.remove(seq);
  }

  /**
   * Write {@code seq} was answered, with an {@code error} or a result: ends its deadline. Returns false
   * when it waits for no answer (it was answered already, or its deadline passed and the listener was
   * told so): this one is not to be delivered, so that each write is answered once.
   */
  boolean answered(int seq, boolean error) {
    // The server answers in order: once it answers a write, the frames of those before are behind it.
    for (Iterator<Integer> refused = refusedAudio.iterator(); refused.hasNext(); ) {
      if (refused.next() < seq) refused.remove();
    }
    Cancellable deadline = results.remove(seq);
    boolean audioWrite = audio.remove(seq);
    if (deadline == null) {
      refusedAudio.remove(seq); // the answer to its end
      return false;
    }
    deadline.cancel();
    if (error && audioWrite) refusedAudio.add(seq);
    return true;
  }

  /** Whether a seq-less 60003 may be the refusal of a frame of a refused audio write. */
  boolean refusedAudioOnTheWay() {
    return !refusedAudio.isEmpty();
  }

  /** The connection ended: no deadline of it is left on the scheduler. */
  void cancelAll() {
    greeted();
    for (Cancellable deadline : results.values()) deadline.cancel();
    results.clear();
    audio.clear();
    refusedAudio.clear();
  }

  /** {@code 10 s} for whole seconds, else {@code 2500 ms}: for log lines and messages. */
  static String describe(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }
}
