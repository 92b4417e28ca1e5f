package dev.voicelink.auth;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The token managers of each store in this process, so that each hears what the others write to it:
 * an Agent made per screen has its own manager on the store {@code default}, and the user signs in
 * and out through one of them. Stores are the same when they are {@linkplain Object#equals equal}
 * ({@link FileTokenStore} and the Android store: the same file). Managers are held weakly: one the app
 * dropped is forgotten. Thread-safe.
 */
final class SameStoreManagers {
  private static final Map<TokenStore, List<WeakReference<TokenKeeper>>> BY_STORE = new HashMap<>();

  private SameStoreManagers() {
  }

  /** Makes {@code keeper} one of {@code store}'s managers. */
  static void join(TokenStore store, TokenKeeper keeper) {
    synchronized (BY_STORE) {
      forgetDropped();
      List<WeakReference<TokenKeeper>> keepers = BY_STORE.get(store);
      if (keepers == null) {
        keepers = new ArrayList<>(2);
        BY_STORE.put(store, keepers);
      }
      keepers.add(new WeakReference<>(keeper));
    }
  }

  /** The other managers of {@code keeper}'s {@code store}, alive now. */
  static List<TokenKeeper> besides(TokenStore store, TokenKeeper keeper) {
    List<TokenKeeper> others = new ArrayList<>(2);
    synchronized (BY_STORE) {
      forgetDropped();
      List<WeakReference<TokenKeeper>> keepers = BY_STORE.get(store);
      if (keepers == null) return others;
      for (WeakReference<TokenKeeper> reference : keepers) {
        TokenKeeper other = reference.get();
        if (other != null && other != keeper) others.add(other);
      }
    }
    return others;
  }

  /** For tests: how many managers {@code store} has alive, after the dropped ones are forgotten. */
  static int managersOf(TokenStore store) {
    synchronized (BY_STORE) {
      forgetDropped();
      List<WeakReference<TokenKeeper>> keepers = BY_STORE.get(store);
      return keepers == null ? 0 : keepers.size();
    }
  }

  private static void forgetDropped() {
    // caller holds BY_STORE
    for (Iterator<List<WeakReference<TokenKeeper>>> stores = BY_STORE.values().iterator();
        stores.hasNext(); ) {
      List<WeakReference<TokenKeeper>> keepers = stores.next();
      for (Iterator<WeakReference<TokenKeeper>> each = keepers.iterator(); each.hasNext(); ) {
        if (each.next().get() == null) each.remove();
      }
      if (keepers.isEmpty()) stores.remove();
    }
  }
}
