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

  @Override public synchronized void onStateChanged(State state) {
    told.add(state);
    notifyAll();
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
