package dev.voicelink.auth;

import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.SerialDelivery;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * The listeners of a {@link TokenManager} and the news of its state changes: queued while the manager
 * holds its lock, told on the listener executor one at a time and in order after {@link #flush()}.
 * Thread-safe.
 */
final class StateNotices {
  private static final String TAG = "auth";

  private final SerialDelivery delivery;
  private final CopyOnWriteArrayList<TokenManager.Listener> listeners = new CopyOnWriteArrayList<>();

  StateNotices(Executor listenerExecutor) {
    this.delivery = new SerialDelivery(listenerExecutor, TAG);
  }

  /** Adds {@code listener} and queues the news of {@code current} for it alone. */
  void add(TokenManager.Listener listener, TokenManager.StateChange current) {
    listeners.add(listener);
    delivery.enqueue(() -> {
      if (listeners.contains(listener)) tell(listener, current); // unless removed meanwhile
    });
  }

  void remove(TokenManager.Listener listener) {
    listeners.remove(listener);
  }

  /**
   * Queues the news of {@code change} for the listeners there are now. Runs nothing, so it is safe
   * under a lock. A listener added later is not told this news, which its first call already
   * supersedes; one removed before delivery is not told either.
   */
  void changed(TokenManager.StateChange change) {
    Log.debug(TAG, "token state: " + change);
    TokenManager.Listener[] present = listeners.toArray(new TokenManager.Listener[0]);
    delivery.enqueue(() -> {
      for (TokenManager.Listener listener : present) {
        if (listeners.contains(listener)) tell(listener, change);
      }
    });
  }

  /** Hands what was queued to the listener executor; call it without holding the manager's lock. */
  void flush() {
    delivery.flush();
  }

  private static void tell(TokenManager.Listener listener, TokenManager.StateChange change) {
    try {
      listener.onStateChanged(change);
    } catch (Exception e) { // a checked one too (Kotlin): the other listeners are still told
      Log.warn(TAG, "a token state listener threw; ignored", e);
    }
  }
}
