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
 * ({@link FileTokenStore} and the Android store: the same file). The managers of one store share the
 * lock of its reads and writes, so that each write and its news to the others come in one order.
 * Managers are held weakly: one the app dropped is forgotten. Thread-safe.
 */
final class SameStoreManagers {
  private static final Map<TokenStore, Managers> BY_STORE = new HashMap<>();

  private SameStoreManagers() {
  }

  /**
   * One store's managers, the lock of its reads and writes, and the numbers of their sign-ins, in one
   * sequence so that a sign-out through one manager knows which sign-ins of the others came before it.
   */
  static final class Managers {
    final Object storeLock = new Object();
    private final List<WeakReference<TokenKeeper>> keepers = new ArrayList<>(2);
    private long signIns; // guarded by this

    /** Numbers a sign-in, or a record taken from another manager. */
    synchronized long numberSignIn() {
      return ++signIns;
    }

    /** The number of the last sign-in: a sign-out asked for now comes after those up to it. */
    synchronized long signInsNumbered() {
      return signIns;
    }
  }

  /** Makes {@code keeper} one of {@code store}'s managers; returns what they share. */
  static Managers join(TokenStore store, TokenKeeper keeper) {
    synchronized (BY_STORE) {
      forgetDropped();
      Managers managers = BY_STORE.get(store);
      if (managers == null) {
        managers = new Managers();
        BY_STORE.put(store, managers);
      }
      managers.keepers.add(new WeakReference<>(keeper));
      return managers;
    }
  }

  /** The other managers of {@code keeper}'s {@code store}, alive now. */
  static List<TokenKeeper> besides(TokenStore store, TokenKeeper keeper) {
    List<TokenKeeper> others = new ArrayList<>(2);
    synchronized (BY_STORE) {
      forgetDropped();
      Managers managers = BY_STORE.get(store);
      if (managers == null) return others;
      for (WeakReference<TokenKeeper> reference : managers.keepers) {
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
      Managers managers = BY_STORE.get(store);
      return managers == null ? 0 : managers.keepers.size();
    }
  }

  private static void forgetDropped() {
    // caller holds BY_STORE
    for (Iterator<Managers> stores = BY_STORE.values().iterator(); stores.hasNext(); ) {
      List<WeakReference<TokenKeeper>> keepers = stores.next().keepers;
      for (Iterator<WeakReference<TokenKeeper>> each = keepers.iterator(); each.hasNext(); ) {
        if (each.next().get() == null) each.remove();
      }
      if (keepers.isEmpty()) stores.remove();
    }
  }
}
