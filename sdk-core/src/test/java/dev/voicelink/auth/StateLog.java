package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.TokenManager.State;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A token-state listener that keeps what it is told. A refresh's states are told from the worker that
 * ran it, after its callers were released, so tests wait here for the news instead of reading a list.
 */
final class StateLog implements TokenManager.Listener {
  private final List<State> told = new ArrayList<>();
  private final List<TokenManager.StateChange> changes = new ArrayList<>();

  @Override public synchronized void onStateChanged(TokenManager.StateChange change) {
    told.add(change.state());
    changes.add(change);
    notifyAll();
  }

  /** The changes told so far, with their causes. */
  synchronized List<TokenManager.StateChange> changes() {
    return new ArrayList<>(changes);
  }

  /**
   * Waits (10 s at most) until {@code manager} has read its store, which this starts; returns the
   * state it found. A barrier for a test that reads what the manager holds before asking it for a token.
   */
  static TokenManager.StateChange awaitLoaded(TokenManager manager) throws InterruptedException {
    StateLog log = new StateLog();
    manager.addListener(log);
    try {
      synchronized (log) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
          for (TokenManager.StateChange change : log.changes) {
            if (change.state() != State.LOADING) return change;
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) throw new AssertionError("the store was not read: " + log.changes);
          TimeUnit.NANOSECONDS.timedWait(log, left);
        }
      }
    } finally {
      manager.removeListener(log);
    }
  }

  /** Waits (10 s at most) until a change of {@code cause} was told; returns the first such. */
  synchronized TokenManager.StateChange awaitCause(TokenManager.Cause cause) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      for (TokenManager.StateChange change : changes) {
        if (change.cause() == cause) return change;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) throw new AssertionError("no " + cause + " was told: " + changes);
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** Waits (10 s at most) until {@code expected.length} states were told, and checks they are those. */
  synchronized void awaitExactly(State... expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (told.size() < expected.length) {
      long left = deadline - System.nanoTime();
      if (left <= 0) break;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    assertThat(told).as("the states told").containsExactly(expected);
  }
}
