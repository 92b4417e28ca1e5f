package dev.voicelink.auth;

import dev.voicelink.auth.TokenManager.Cause;
import dev.voicelink.auth.TokenManager.Listener;
import dev.voicelink.auth.TokenManager.State;
import dev.voicelink.auth.TokenManager.StateChange;
import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.internal.Log;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link TokenManager} holds and decides: its record and whether it is saved, its state and
 * why, the refresh in flight, and what each refresh's outcome does to them. State changes are told
 * to the listeners outside any lock. Thread-safe. The manager checks the client is open and the
 * arguments before it calls in.
 *
 * <p>Two locks. {@link #lock} guards what the manager holds and is never held across I/O, so the
 * methods an app calls on Android's main thread ({@link #state()}, {@link #addListener}, {@link
 * #record()}, {@link #setRecord}) return at once. {@link #storeLock} orders the store's reads and
 * writes, which run on the threads that ask for tokens, refresh, sign in or out: a write is asked for
 * under {@link #lock} with the next sequence number, and done under {@link #storeLock} unless a later
 * one was done first, so the store always ends with what the manager holds. The managers of one
 * store in the process share its {@link #storeLock}: under it a write is done and told to the others,
 * which take it under their own {@link #lock}, so every manager hears the store's writes in their
 * order. The order is always {@link #storeLock}, then a {@link #lock}.
 */
final class TokenKeeper {
  private static final String TAG = "auth";
  /** Rounds of {@link #obtain} that each found the record changed under it, before it gives up. */
  private static final int MAX_ROUNDS = 8;

  private final AuthClient client;
  private final TokenExchange exchange;
  private final Clock clock;
  private final TokenStore store;
  private final CredentialKind kind;
  private final Revoker revoker;
  /** State changes, decided under {@link #lock} and told to the listeners in order outside it. */
  private final StateNotices notices;

  private final Object lock = new Object();
  /** What the managers of this store in the process share (see {@link SameStoreManagers}). */
  private final SameStoreManagers.Managers sameStore;
  /** Shared by the managers of this store in the process: {@link #sameStore}'s. */
  private final Object storeLock;
  private final RefreshSchedule schedule; // guarded by lock
  private boolean loaded;
  /** A read of the store runs on a worker for {@link #state()} or a listener. */
  private boolean loading;
  private @Nullable TokenRecord current;
  /** The record {@link #current} replaced: requests sent before a refresh still carry its token. */
  private @Nullable TokenRecord replaced;
  /** Whether {@link #current} may not be in the store yet: the next token request saves it first. */
  private boolean unsaved;
  /** The sequence number of the last store write asked for. */
  private long writes;
  /** Why the write numbered {@link #writes} was asked for: what the store's other managers hear. */
  private Cause writeCause = Cause.STORE_READ;
  /**
   * The record the write numbered {@link #writes} renewed (a refresh: the other managers take it only
   * if they hold that one) or forgot (a sign-out: they revoke what they hold beyond it).
   */
  private @Nullable TokenRecord writeBefore;
  /** The sequence number of the last store write done; guarded by {@link #storeLock}. */
  private long written;
  /**
   * The write number at which the store took what is held here from another manager: this one's
   * writes asked for before it are overtaken and not done.
   */
  private long storeHeldFrom;
  private State state = State.LOADING;
  private StateChange last;
  private @Nullable ReauthorizationRequiredException reauthorization;
  private @Nullable RefreshFlight inFlight;
  /**
   * Counts sign-ins, sign-outs and the app's records: a refresh that started before one of them
   * answers for a credential that is gone, and must not bring it back.
   */
  private long generation;
  /** The generation a sign-out ended: a refresh it overtook has its new tokens revoked too. */
  private long signedOutAt = -1;
  /** The number of the sign-in whose record {@link #current} is (0: none's); see {@link #signOut}. */
  private long currentSignIn;
  /** Sign-ins numbered up to this one were ended by a sign-out: their approval is not kept. */
  private long signInsEndedUpTo;
  /** For a sign-out's write: it came after the sign-ins numbered up to this one. */
  private long writeSignInsUpTo;
  /** Another manager's sign-out heard: this one's sign-ins numbered up to it are still to end. */
  private long signInsToEnd;
  private final SignIns signIns;
  /** Failed reads of the store in a row since it was last read (a failure, or a record lost). */
  private int storeReadFailures;
  /** The store's next read by itself, after a failed one; null when none is due. */
  private @Nullable Cancellable storeReadAgain;

  /** The manager's running sign-in calls, which a sign-out ends. */
  interface SignIns {
    /** Cancels those numbered up to {@code number}. Called holding no lock of the keeper. */
    void endUpTo(long number);
  }

  TokenKeeper(AuthClient client, TokenExchange exchange, TokenStore store, CredentialKind kind,
      Revoker revoker, RefreshSchedule schedule, StateNotices notices, SignIns signIns) {
    this.client = client;
    this.signIns = signIns;
    this.exchange = exchange;
    this.clock = client.config.deviceClock();
    this.store = store;
    this.kind = kind;
    this.revoker = revoker;
    this.schedule = schedule;
    this.notices = notices;
    this.last = change(State.LOADING, Cause.READING_STORE, null);
    // Last: another manager's write may reach this one at once (its news takes only lock).
    this.sameStore = SameStoreManagers.join(store, this);
    this.storeLock = sameStore.storeLock;
  }

  /** The server rejected {@code rejectedToken}: if it is the current one, the next call refreshes. */
  void invalidate(String rejectedToken) {
    synchronized (lock) {
      invalidateLocked(rejectedToken);
    }
  }

  /**
   * As {@link #invalidate}, for the value of the {@code Authorization} header that was rejected:
   * invalidates the current token if {@code rejected} carries it.
   * Returns whether it carries this credential's current token or the one that token replaced: a
   * request with any other credential is not this credential's to answer.
   */
  boolean invalidateAuthorization(String rejected) {
    synchronized (lock) {
      if (current != null && TokenExchange.authorization(current).equals(rejected)) {
        invalidateLocked(current.accessToken());
        return true;
      }
      return replaced != null && TokenExchange.authorization(replaced).equals(rejected);
    }
  }

  private void invalidateLocked(String rejectedToken) {
    if (current != null && current.accessToken().equals(rejectedToken)) {
      schedule.expireNow(clock.monotonicNanos());
      Log.info(TAG, "access token " + current + " was rejected; it will be refreshed");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // What the app calls on any thread: no I/O.

  /** The current state; starts reading the store the first time. */
  State state() {
    try {
      synchronized (lock) {
        loadInBackground();
        return state;
      }
    } finally {
      notices.flush();
    }
  }

  /** The record held now, or null (none, or the store not read yet, which this starts). */
  @Nullable TokenRecord record() {
    try {
      synchronized (lock) {
        loadInBackground();
        return current;
      }
    } finally {
      notices.flush();
    }
  }

  /** Adds a listener and tells it the last change at once (on the listener executor). */
  void addListener(Listener listener) {
    try {
      synchronized (lock) {
        loadInBackground();
        notices.add(listener, last);
      }
    } finally {
      notices.flush();
    }
  }

  void removeListener(Listener listener) {
    notices.remove(listener);
  }

  /**
   * Makes {@code record}, checked by the manager, the credential at once and saves it on a worker
   * ({@code cause} {@link Cause#RECORD_SET}); a save that fails is told to the listeners as {@link
   * Cause#STORE_FAILED}, and the next token request saves it first.
   */
  void setRecord(TokenRecord record) {
    final long write;
    try {
      synchronized (lock) {
        write = replaceLocked(record, Cause.RECORD_SET);
        currentSignIn = sameStore.numberSignIn(); // a sign-out asked for before leaves it alone
      }
    } finally {
      notices.flush();
    }
    try {
      client.config.workers().execute(() -> {
        try {
          write(write, record);
        } catch (IOException | RuntimeException e) {
          storeFailed(write, e);
        } finally {
          notices.flush();
        }
      });
    } catch (RejectedExecutionException closed) {
      Log.warn(TAG, "the client is closed: the record is held, but not saved", null);
    }
  }

  /** Numbers a sign-in, in one sequence with those of the store's other managers. */
  long numberSignIn() {
    return sameStore.numberSignIn();
  }

  /** The number of the last sign-in of the store's managers: a sign-out asked for now ends those. */
  long signInsNumbered() {
    return sameStore.signInsNumbered();
  }

  // ---------------------------------------------------------------------------------------------
  // Sign-in and sign-out: on SDK threads.

  /**
   * The device flow of a sign-in authorized {@code record}: it becomes the credential and is saved
   * before this returns, on the calling SDK thread.
   *
   * @throws IOException if it could not be saved: it is held all the same, and the next token request
   *     saves it first; or if a sign-out asked for after sign-in number {@code signIn} ended it
   */
  void signedIn(TokenRecord record, long signIn) throws IOException {
    long write;
    try {
      synchronized (lock) {
        if (signIn <= signInsEndedUpTo) {
          throw new IOException("signed out while signing in: the approval is not kept");
        }
        write = replaceLocked(record, Cause.SIGNED_IN);
        currentSignIn = signIn;
      }
    } finally {
      notices.flush();
    }
    try {
      write(write, record);
    } catch (IOException | RuntimeException e) {
      storeFailed(write, e);
      notices.flush();
      throw e instanceof IOException ? (IOException) e
          : new IOException("the sign-in could not be saved: " + e, e);
    }
  }

  /** Caller holds lock. */
  private long replaceLocked(TokenRecord record, Cause cause) {
    generation++;
    loaded = true;
    reauthorization = null;
    TokenRecord held = current;
    install(record, false);
    currentSignIn = 0;
    replaced = null; // a new sign-in: a 401 on the old one's token is not this one's to answer
    unsaved = true;
    setState(State.VALID, cause, null, !TokenRecord.sameCredential(held, record));
    return nextWrite(cause, null);
  }

  /** A sign-out: the record it forgot, and the store write that forgets it there too. */
  static final class SignedOut {
    final @Nullable TokenRecord record;
    final long write;

    SignedOut(@Nullable TokenRecord record, long write) {
      this.record = record;
      this.write = write;
    }
  }

  /**
   * The record a sign-out revokes before it forgets it: the one held, read from the store first if
   * it was not read yet. Null when there is none, and when it is the record of a sign-in asked for
   * after the sign-out ({@code signInsUpTo}, see {@link #signOut}). On an SDK thread.
   *
   * @throws IOException if the store cannot be read (the sign-out clears it all the same)
   */
  @Nullable TokenRecord recordToSignOut(long signInsUpTo) throws IOException {
    ensureLoaded();
    synchronized (lock) {
      return currentSignIn > signInsUpTo ? null : current;
    }
  }

  /**
   * Forgets the credential in memory and tells the listeners ({@link Cause#SIGNED_OUT}); {@link
   * #clearStore} forgets it in the store. Returns what was forgotten. The sign-out was asked for after
   * the sign-ins numbered up to {@code signInsUpTo}: their approvals, if any come, are not kept, and a
   * record of a later sign-in (an account switch whose user was quick) is left alone.
   */
  SignedOut signOut(long signInsUpTo) {
    try {
      synchronized (lock) {
        signInsEndedUpTo = Math.max(signInsEndedUpTo, signInsUpTo);
        if (currentSignIn > signInsUpTo) return new SignedOut(null, 0); // write 0: none is done
        TokenRecord signedOut = current;
        generation++;
        signedOutAt = generation;
        loaded = true;
        current = null;
        currentSignIn = 0;
        replaced = null;
        unsaved = false;
        reauthorization = null;
        setState(State.NO_TOKEN, Cause.SIGNED_OUT, null);
        writeSignInsUpTo = signInsUpTo;
        return new SignedOut(signedOut, nextWrite(Cause.SIGNED_OUT, signedOut));
      }
    } finally {
      notices.flush();
    }
  }

  /**
   * Clears the store after {@code signedOut}, unless a sign-in or a record came since.
   *
   * @throws IOException if it could not; listeners hear {@link Cause#STORE_FAILED}
   */
  void clearStore(SignedOut signedOut) throws IOException {
    try {
      write(signedOut.write, null);
    } catch (IOException | RuntimeException e) {
      storeFailed(signedOut.write, e);
      throw e instanceof IOException ? (IOException) e : new IOException(e.toString(), e);
    } finally {
      notices.flush();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens: on the threads that ask for them (never the main thread) and on client workers.

  /**
   * A valid record: the current one, or a new one when it is due or {@code force}; joins a refresh
   * in flight.
   */
  TokenRecord obtain(boolean force) throws IOException, AuthorizationException {
    ensureLoaded();
    for (int round = 1; ; round++) {
      if (round > MAX_ROUNDS) {
        throw new IOException("the token record kept changing while a token was asked for; ask again");
      }
      RefreshFlight flight = null;
      boolean mine = false;
      long save = 0;
      TokenRecord unsavedRecord = null;
      TokenRecord base = null;
      try {
        synchronized (lock) {
          if (inFlight != null) {
            flight = inFlight;
          } else if (state == State.REAUTHORIZATION_REQUIRED && reauthorization != null
              && (current != null || !exchange.canObtainWithoutRecord())) {
            base = current;
          } else { // a cloud credential whose record was lost obtains a new one with its secret
            if (current == null && !exchange.canObtainWithoutRecord()) {
              throw new NotSignedInException();
            }
            if (current != null && unsaved) {
              // The write that is due, under its own number: if it is still under way (a sign-in
              // saving), this waits for it and then skips it; if it failed, this does it again.
              unsavedRecord = current;
              save = writes;
            } else if (!force && current != null && schedule.canServe(clock.monotonicNanos())) {
              return current;
            } else {
              // Due (or forced) in the first round: another manager or process may have refreshed it
              // already, so the flight looks in the store first, once for every caller that joins it.
              flight = inFlight = new RefreshFlight(current != null && round == 1, generation);
              mine = true;
              setState(State.REFRESHING, Cause.REFRESH_STARTED, null);
            }
          }
        }
        // Handed over before the listeners hear of it: a listener on a same-thread executor that
        // asks for a token joins a refresh that is already under way, and a listener that throws
        // cannot leave the refresh unstarted with its waiters waiting for ever.
        if (mine) start(flight);
      } finally {
        notices.flush();
      }
      if (flight != null) {
        TokenRecord record = flight.await(force);
        if (record == null) continue; // forced, and the flight found another manager's record
        long due;
        synchronized (lock) {
          due = record == current && unsaved ? writes : -1;
        }
        // A record the app set while the refresh ran is handed out, like any, once it is saved.
        if (due >= 0) write(due, record);
        return record;
      }
      if (unsavedRecord != null) {
        write(save, unsavedRecord); // the caller gets the failure, and the next one tries again
        continue;
      }
      // Refused before: another manager of the store may have saved a record since. Lost before,
      // and kept by its store (an Android Keystore out of reach also says its key is missing): the
      // record may be readable now.
      boolean adopted = base != null ? adoptRefreshedElsewhere(base, false) : readLostRecordAgain();
      try {
        synchronized (lock) {
          if (state == State.REAUTHORIZATION_REQUIRED && reauthorization != null) {
            // A record read again cleared the loss itself: a refusal here came after it, and stands.
            if (!adopted || base == null) throw reauthorization;
            reauthorization = null;
            setState(stateAfterFailure(), Cause.REFRESHED, null);
          }
          if (adopted && !force && current != null && schedule.canServe(clock.monotonicNanos())) {
            return current;
          }
        }
      } finally {
        notices.flush(); // the listeners hear the state left, also when its token is handed out
      }
    }
  }

  private void start(RefreshFlight owned) {
    try {
      client.config.workers().execute(() -> refresh(owned));
    } catch (RuntimeException | Error e) {
      // The client is closed, or no thread could be made (an OutOfMemoryError): the waiters fail now
      // and the next caller starts again, instead of all of them waiting for a refresh never run.
      synchronized (lock) {
        if (inFlight == owned) {
          inFlight = null;
          setState(stateAfterFailure(), Cause.REFRESH_FAILED, e instanceof Exception ? (Exception) e : null);
        }
      }
      owned.complete(null, e instanceof RejectedExecutionException
          ? new IOException("the VoiceLinkClient is closed: no token refresh was sent", e) : e);
    }
  }

  /**
   * Runs {@code flight}'s refresh on a client worker, never on a caller's thread: a caller that stops
   * waiting (interrupted, its call cancelled) cannot abandon an answer whose rotation already voided the
   * stored refresh token, and the answer is saved whoever still waits.
   */
  private void refresh(RefreshFlight flight) {
    try {
      if (flight.looksInStoreFirst() && endedWithoutSending(flight)) return;
      flight.complete(refreshNow(flight.generation()), null);
    } catch (StillValid e) {
      flight.complete(e.record, e.failure);
    } catch (IOException | AuthorizationException | RuntimeException | Error e) {
      // An Error (out of memory, a broken security provider) reaches the callers too; the next caller
      // tries again.
      flight.complete(null, e);
    } catch (Exception e) { // checked, yet undeclared: a Kotlin store's save, say
      flight.complete(null, fromAppCode(e));
    } finally {
      // After the waiters are released: on a same-thread executor the listeners run here, on this
      // worker, and one that waits for this refresh's result would otherwise wait for itself.
      notices.flush();
    }
  }

  /**
   * Ends {@code flight} without a request when the store holds a record another manager or process
   * refreshed since this one loaded its own and it serves now, or when the app set or cleared the
   * record since the flight started (its callers get what is current, as after {@link
   * #settleReplaced}). Returns whether it ended it. On the worker of {@link #refresh(RefreshFlight)},
   * before {@link #refreshNow(long)}.
   */
  private boolean endedWithoutSending(RefreshFlight flight) throws IOException, NotSignedInException {
    TokenRecord base;
    synchronized (lock) {
      if (generation != flight.generation()) {
        flight.complete(settleReplaced(), null);
        return true;
      }
      base = current;
    }
    boolean adopted = adoptForRefresh(base, flight.generation());
    synchronized (lock) {
      if (generation != flight.generation()) {
        flight.complete(settleReplaced(), null);
        return true;
      }
      if (!adopted || current == null || !schedule.canServe(clock.monotonicNanos())) return false;
      inFlight = null;
      setState(State.VALID, Cause.REFRESHED, null);
      flight.completeFoundInStore(current);
      return true;
    }
  }

  /**
   * Runs one refresh, on the worker of {@link #refresh(RefreshFlight)}, for the credential of
   * generation {@code started} (the flight's, taken when a caller found the token due).
   */
  private TokenRecord refreshNow(long started) throws IOException, AuthorizationException, StillValid {
    TokenRecord base;
    synchronized (lock) {
      // Signed out, in, or set while the flight waited for this worker: nothing is sent for a
      // credential that is gone, and its callers get what is current (a sign-out: NotSignedIn).
      if (generation != started) return settleReplaced();
      base = current;
    }
    TokenExchange.Result result;
    try {
      result = exchange.run(base);
    } catch (RuntimeException | Error e) {
      abandon(started, e);
      throw e;
    } catch (Exception e) { // checked, yet undeclared: a Kotlin interceptor on the app's client
      abandon(started, e);
      throw fromAppCode(e);
    }
    long save = 0;
    TokenRecord toSave = null;
    // A refusal of the refresh token may be of one another manager of the store has just rotated:
    // its record is looked for, and the answer settled, under one hold of the store lock. Another
    // manager's write between the two would be heard while this refresh is under way, and dropped.
    synchronized (storeLock) {
      boolean adopted = result.refusal instanceof ReauthorizationRequiredException
          && adoptForRefresh(base, started);
      synchronized (lock) {
        // setRecord of the same credential (a restore, a migration) replaces nothing: the answer
        // counts
        if (generation != started && !TokenRecord.sameCredential(base, current)) {
          // New tokens that a sign-out overtook: it could not know to revoke them, so they are now.
          if (signedOutAt > started && result.record != null) revoker.revokeLater(result.record);
          return settleReplaced();
        }
        if (result.record != null) {
          toSave = result.record;
          save = settleSuccess(base, result.record);
        } else if (result.refusal != null) {
          return settleRefusal(base, result.refusal, adopted);
        } else {
          if (result.rotated != null && TokenRecord.sameCredential(base, current)) {
            toSave = result.rotated;
            save = keepRotated(base, result.rotated, result.failure);
            base = result.rotated;
          }
          if (toSave == null) return settleTransient(base, result.failure);
        }
      }
    }
    // The news of this refresh waits until refresh(RefreshFlight) has released its callers (tokens.md).
    if (result.record != null) {
      // Persisted before it is handed out: the old refresh token is already void on the server. If
      // saving fails, the record stays held and unsaved, and the next call saves it first.
      try {
        write(save, toSave);
      } catch (IOException | RuntimeException e) {
        storeFailed(save, e);
        throw e;
      }
      synchronized (lock) {
        // A sign-in or sign-out heard from another manager of the store before this one was saved:
        // this answer is for a credential that is gone.
        if (generation != started) return currentOrNone();
      }
      Log.info(TAG, "token refreshed and saved: " + toSave);
      return toSave;
    }
    try {
      write(save, toSave);
    } catch (IOException | RuntimeException e) {
      Log.warn(TAG, "cannot save the token record; the next call tries again: " + e.getMessage(), null);
    }
    synchronized (lock) {
      if (generation != started) { // as after a record saved, above
        inFlight = null;
        return currentOrNone();
      }
      return settleTransient(base, result.failure);
    }
  }

  /**
   * {@link #adoptRefreshedElsewhere} for the refresh started at {@code started}, which a store that
   * throws what it should not (a RuntimeException, a Kotlin store's checked exception) abandons: the
   * next caller starts a refresh of its own instead of joining this ended one.
   */
  private boolean adoptForRefresh(@Nullable TokenRecord base, long started) throws IOException {
    try {
      return adoptRefreshedElsewhere(base, true);
    } catch (RuntimeException | Error e) {
      abandon(started, e);
      throw e;
    } catch (Exception e) { // checked, yet undeclared: a Kotlin store's load
      abandon(started, e);
      throw fromAppCode(e);
    }
  }

  /** The refresh started at {@code started} ended without an answer to settle. */
  private void abandon(long started, Throwable why) {
    synchronized (lock) {
      inFlight = null;
      if (generation == started) {
        setState(stateAfterFailure(), Cause.REFRESH_FAILED, why instanceof Exception ? (Exception) why : null);
      }
    }
  }

  /**
   * Whether the token the refresh of {@code base} would replace is still current and valid at
   * {@code now}, so that a failed refresh leaves it served.
   */
  private boolean stillServes(@Nullable TokenRecord base, long now) {
    // caller holds lock
    return TokenRecord.sameCredential(base, current) && !schedule.isExpired(now);
  }

  /**
   * The app set or cleared the record while the refresh ran: its answer is about a credential that
   * is gone, so it is dropped (neither installed nor saved) and the callers get what is current now.
   */
  private TokenRecord settleReplaced() throws IOException, NotSignedInException {
    // caller holds lock
    inFlight = null;
    Log.info(TAG, "the record was " + (current == null ? "cleared" : "replaced")
        + " while a token refresh ran; its answer, if any, is dropped");
    return currentOrNone();
  }

  /** What the callers of a refresh whose credential is gone get: the record held now, or none. */
  private TokenRecord currentOrNone() throws IOException, NotSignedInException {
    // caller holds lock
    if (current != null) return current;
    if (!exchange.canObtainWithoutRecord()) throw new NotSignedInException();
    throw new IOException("the token record was cleared while a token request ran; ask again");
  }

  /** Installs {@code record}, the refresh of {@code base}; returns the sequence number of its save. */
  private long settleSuccess(@Nullable TokenRecord base, TokenRecord record) {
    // caller holds lock
    inFlight = null;
    schedule.succeeded();
    install(record, true);
    unsaved = true;
    reauthorization = null;
    setState(State.VALID, Cause.REFRESHED, null);
    return nextWrite(Cause.REFRESHED, base);
  }

  /**
   * Keeps the new refresh token of an answer that could not be used otherwise, with the current
   * access token: the server may have voided the old refresh token already (protocol 3.2, and
   * docs/platform-assumptions.md#refresh-token-rotation). Returns
   * the sequence number of its save.
   */
  private long keepRotated(@Nullable TokenRecord base, TokenRecord rotated, IOException failure) {
    // caller holds lock
    // The access token and its expiry stay as they were; the next refresh uses the new refresh
    // token. Saved as a refreshed record is: a failed save is retried first by the next call.
    Log.warn(TAG, "the refresh answer could not be used (" + failure.getMessage() + "), but it"
        + " holds a new refresh token: kept, with the current access token", null);
    current = rotated;
    unsaved = true;
    return nextWrite(Cause.REFRESHED, base);
  }

  /**
   * The current token stays valid (state {@link State#VALID}) after a refresh that failed: callers
   * that only want a token get it, a forced refresh gets the failure.
   */
  private StillValid stillValid(Exception failure, Cause cause) {
    // caller holds lock
    setState(State.VALID, cause, failure);
    return new StillValid(current, failure);
  }

  private TokenRecord settleTransient(@Nullable TokenRecord base, IOException failure)
      throws IOException, StillValid {
    // caller holds lock
    inFlight = null;
    long now = clock.monotonicNanos();
    long delay = schedule.failed(now, failure);
    if (stillServes(base, now)) {
      Log.info(TAG, "token refresh failed (" + failure.getMessage() + "); serving the current"
          + " token, next attempt in " + delay + " ms or later");
      throw stillValid(failure, Cause.REFRESH_FAILED);
    }
    Log.warn(TAG, "token refresh failed and the token has expired: " + failure.getMessage(), null);
    setState(current == null ? State.NO_TOKEN : State.EXPIRED, Cause.REFRESH_FAILED, failure);
    throw failure;
  }

  private TokenRecord settleRefusal(@Nullable TokenRecord base, AuthorizationException refusal,
      boolean adopted) throws AuthorizationException, IOException, StillValid {
    // caller holds lock
    inFlight = null;
    if (adopted) {
      // The refusal was of the refresh token that another manager had just rotated.
      setState(stateAfterFailure(), Cause.REFRESHED, null);
      if (schedule.canServe(clock.monotonicNanos())) return current;
      throw new IOException("the token was refreshed by another manager of the same store while"
          + " this one refreshed it too; its record is used now: ask again");
    }
    if (refusal instanceof ReauthorizationRequiredException && base != null
        && base.refreshToken() == null && !exchange.canObtainWithoutRecord()
        && stillServes(base, clock.monotonicNanos())) {
      // Nothing to renew it with, and nothing was asked of the server: a forced refresh fails, and
      // the token is served until it expires or a server rejects it.
      throw stillValid(refusal, Cause.REFRESH_REFUSED);
    }
    if (refusal instanceof ReauthorizationRequiredException) {
      reauthorization = (ReauthorizationRequiredException) refusal;
      Log.warn(TAG, "refresh token refused (" + refusal.getMessage() + "): the device must be"
          + " authorized again; the stored record is kept", null);
      setState(State.REAUTHORIZATION_REQUIRED, Cause.REFRESH_REFUSED, refusal);
    } else {
      long now = clock.monotonicNanos();
      if (stillServes(base, now)) {
        // Not a verdict on the token it has (a client secret rotated, a scope withdrawn): it is
        // served while it lasts, and the refresh waits out a backoff instead of following every
        // request; once it expires the refusal reaches the callers.
        long delay = schedule.failed(now, refusal);
        Log.warn(TAG, "token refresh refused (" + refusal.getMessage() + "); serving the current"
            + " token until it expires, next attempt in " + delay + " ms or later", null);
        throw stillValid(refusal, Cause.REFRESH_REFUSED);
      }
      Log.warn(TAG, "token request refused: " + refusal.getMessage(), null);
      setState(stateAfterFailure(), Cause.REFRESH_REFUSED, refusal);
    }
    throw refusal;
  }

  /**
   * When another manager or process on the same store has refreshed {@code base} since this one
   * loaded it, the store's record is the live one (its refresh token voided ours, protocol 3.2), and
   * becomes current; returns whether it did. A store that cannot be read adopts nothing. Reads the
   * store: never called holding {@link #lock}. {@code refreshing}: called by the refresh in flight.
   */
  private boolean adoptRefreshedElsewhere(@Nullable TokenRecord base, boolean refreshing) {
    if (base == null) return false;
    TokenRecord stored;
    try {
      synchronized (storeLock) {
        stored = store.load();
      }
    } catch (IOException e) {
      Log.warn(TAG, "cannot read the token store: " + e.getMessage(), null);
      return false;
    }
    synchronized (lock) {
      if (current != base || unsaved || (inFlight != null && !refreshing)) return false;
      if (stored == null || stored.equals(current) || stored.grant() != current.grant()
          || !stored.clientId().equals(current.clientId()) || !newer(stored, current)) {
        return false;
      }
      Log.info(TAG, "the token store holds a newer record, refreshed by another manager or process;"
          + " it is used: " + stored);
      install(stored, false);
      return true;
    }
  }

  /**
   * Whether {@code stored} was received after {@code held}, or with it but with another refresh token:
   * a rotation kept from an answer whose access token was unusable, saved with the access token it
   * still had and so with that token's receipt time.
   */
  private static boolean newer(TokenRecord stored, TokenRecord held) {
    long storedAt = stored.receivedAtEpochMillis();
    long heldAt = held.receivedAtEpochMillis();
    String rotated = stored.refreshToken();
    return storedAt > heldAt || storedAt == heldAt && rotated != null
        && !rotated.equals(held.refreshToken());
  }

  /**
   * Reads the store again after it said the record is lost, as each token request in that state does:
   * a store that kept the record (its key missing, which an Android Keystore out of reach also says)
   * may read it now. Whether it did; the record is then current, and the state says so.
   */
  private boolean readLostRecordAgain() {
    long started;
    synchronized (lock) {
      if (current != null || reauthorization == null
          || !ReauthorizationRequiredException.RECORD_LOST.equals(reauthorization.code())) {
        return false;
      }
      started = generation;
    }
    TokenRecord stored;
    try {
      synchronized (storeLock) {
        stored = store.load();
      }
      if (stored != null) kind.checkStored(stored);
    } catch (Exception e) { // lost still, or a failure that may pass (a store's own bug too): it stands
      return false;
    }
    synchronized (lock) {
      if (stored == null || current != null || generation != started) return false;
      Log.info(TAG, "the token store reads its record again: " + stored);
      storeReadFailures = 0;
      install(stored, false);
      reauthorization = null;
      // As a first read reports a record: VALID, its token refreshed at first use if it expired.
      setState(State.VALID, Cause.STORE_READ, null);
      return true;
    }
  }

  private State stateAfterFailure() {
    // caller holds lock
    return current == null ? State.NO_TOKEN
        : schedule.isExpired(clock.monotonicNanos()) ? State.EXPIRED : State.VALID;
  }

  // ---------------------------------------------------------------------------------------------
  // The store.

  /** Starts reading the store on a worker, unless it was read or is being read. Caller holds lock. */
  private void loadInBackground() {
    if (loaded || loading) return;
    loading = true;
    try {
      client.config.workers().execute(() -> {
        try {
          ensureLoaded();
        } catch (IOException e) {
          Log.warn(TAG, "cannot read the token store: " + e.getMessage(), null);
        } finally {
          notices.flush();
        }
      });
    } catch (RejectedExecutionException closed) {
      loading = false; // the client is closed: the next token request reads it, and says so
    }
  }

  /**
   * Reads the store unless it was read, or a sign-in, a sign-out or the app's record came first.
   * Blocking: on the threads that ask for tokens and on workers, never on the app's. The read and
   * its outcome happen under one hold of {@link #storeLock}, so that a caller that waited for a
   * read in progress finds it done and never reads the store a second time.
   */
  private void ensureLoaded() throws IOException {
    long started;
    synchronized (lock) {
      if (loaded) return;
      started = generation;
    }
    try {
      synchronized (storeLock) {
        synchronized (lock) {
          if (loaded) return;
        }
        TokenRecord record = null;
        RecordLostException lost = null;
        IOException failure = null;
        try {
          record = store.load();
          if (record != null) kind.checkStored(record);
        } catch (RecordLostException e) {
          lost = e;
        } catch (IOException e) {
          failure = e;
        } catch (Exception e) { // a RuntimeException, or a Kotlin store's undeclared checked one
          failure = fromStore(e);
        }
        synchronized (lock) {
          loading = false;
          if (loaded || generation != started) return;
          if (failure != null) {
            // Not read: the next token request reads it again, and throws the reason.
            setState(State.NO_TOKEN, Cause.STORE_FAILED, failure);
            readStoreAgainLater();
            throw failure;
          }
          loaded = true;
          if (lost != null) {
            reauthorization = new ReauthorizationRequiredException(
                ReauthorizationRequiredException.RECORD_LOST, lost.getMessage());
            setState(State.REAUTHORIZATION_REQUIRED, Cause.RECORD_LOST, lost);
            readStoreAgainLater();
            return;
          }
          storeReadFailures = 0;
          if (record == null) {
            setState(State.NO_TOKEN, Cause.STORE_READ, null);
          } else {
            install(record, false);
            setState(State.VALID, Cause.STORE_READ, null);
          }
        }
      }
    } finally {
      notices.flush();
    }
  }

  /**
   * The store failed its read (a file system not mounted yet, an Android Keystore out of reach until
   * the first unlock, which says the record is lost but keeps it): reads it again after a backoff, a
   * bounded number of times, so that a record that is there is found without the app asking again.
   * After the last, the next token request or {@link #state()} reads it. Caller holds lock.
   */
  private void readStoreAgainLater() {
    if (storeReadAgain != null) return;
    long delayMillis = schedule.storeReadRetryMillis(++storeReadFailures);
    if (delayMillis < 0) return;
    try {
      storeReadAgain = client.config.scheduler().schedule(this::readStoreAgain, delayMillis,
          TimeUnit.MILLISECONDS);
    } catch (RuntimeException closed) {
      // the client (or the app's scheduler) is closed: nothing more is read by itself
    }
  }

  /** Reads the store again, if it is still unread or its record still lost. On a worker. */
  private void readStoreAgain() {
    try {
      synchronized (lock) {
        storeReadAgain = null;
        if (!loaded) {
          loadInBackground(); // a failure schedules the next read
          return;
        }
      }
      if (!readLostRecordAgain()) {
        synchronized (lock) {
          if (current == null && reauthorization != null
              && ReauthorizationRequiredException.RECORD_LOST.equals(reauthorization.code())) {
            readStoreAgainLater();
          }
        }
      }
    } finally {
      notices.flush();
    }
  }

  /**
   * Does the store write numbered {@code sequence}: saves {@code record}, or clears the store for
   * null; a write already done, or overtaken by a later one, is skipped. Never called holding
   * {@link #lock}.
   */
  private void write(long sequence, @Nullable TokenRecord record) throws IOException {
    List<TokenKeeper> told = Collections.emptyList();
    synchronized (storeLock) {
      boolean overtaken;
      synchronized (lock) {
        // by another manager's write that this one took since it was asked
        overtaken = sequence < storeHeldFrom;
      }
      if (sequence > written && !overtaken) {
        try {
          if (record == null) {
            store.clear();
          } else {
            store.save(record);
          }
        } catch (IOException e) {
          throw e;
        } catch (Exception e) { // a RuntimeException, or a Kotlin store's undeclared checked one
          throw fromStore(e);
        }
        written = sequence;
        told = tellOtherManagers(sequence, record);
      }
      synchronized (lock) {
        if (sequence == writes) unsaved = false;
      }
    }
    for (TokenKeeper other : told) other.afterHeard();
  }

  /**
   * Asks for a store write for {@code cause}; {@code before} is the record a refresh renewed or a
   * sign-out forgot. Returns its sequence number.
   */
  private long nextWrite(Cause cause, @Nullable TokenRecord before) {
    // caller holds lock
    writeCause = cause;
    writeBefore = before;
    return ++writes;
  }

  /**
   * Tells the store's other managers in this process of write {@code sequence}, unless a later one
   * was asked for (they hear that one). Under {@link #storeLock}, so they hear the writes in their
   * order; each takes only its own {@link #lock}. Returns those told, whose news the caller flushes
   * after the store lock.
   */
  private List<TokenKeeper> tellOtherManagers(long sequence, @Nullable TokenRecord record) {
    Cause cause;
    TokenRecord before;
    long signInsUpTo;
    long recordSignIn;
    synchronized (lock) {
      if (sequence != writes) return Collections.emptyList();
      cause = writeCause;
      before = writeBefore;
      signInsUpTo = writeSignInsUpTo;
      recordSignIn = currentSignIn;
    }
    List<TokenKeeper> others = SameStoreManagers.besides(store, this);
    for (TokenKeeper other : others) other.heard(record, cause, before, signInsUpTo, recordSignIn);
    return others;
  }

  /**
   * Another manager of this store wrote {@code record} to it (null: cleared it) for {@code cause};
   * {@code before} is the record it renewed (a refresh) or signed out (a sign-out). A sign-out, a
   * sign-in or an app's record there is one here too, told to the listeners with the same cause: a
   * refresh under way or not saved yet here answers for a credential that is gone and is dropped,
   * and after a sign-out tokens held here that it did not revoke are. A refresh there of the record
   * held here replaces it, as its new refresh token voided this one's (protocol 3.2). This manager's
   * own sign-in or record, not saved yet, stands against another's: the store ends with it, and the
   * others take it then; a sign-out ends it unless the sign-in began after the sign-out was asked
   * for ({@code signInsUpTo}). A sign-in or record taken here keeps its number there ({@code
   * recordSignIn}), so a sign-out through this one ends it if it began before that was asked for.
   * A record this manager could not keep (another grant, client or
   * server) is the other's alone. What is taken is in the store already: this one's writes asked for
   * before are not done. Takes only {@link #lock}; the caller flushes the news.
   */
  private void heard(@Nullable TokenRecord record, Cause cause, @Nullable TokenRecord before,
      long signInsUpTo, long recordSignIn) {
    TokenRecord revoke = null;
    synchronized (lock) {
      if (record == null) {
        // Also when this one's own later sign-in stands against the sign-out, below: the sign-ins
        // begun before the sign-out end, their approvals are not kept.
        signInsEndedUpTo = Math.max(signInsEndedUpTo, signInsUpTo);
        signInsToEnd = Math.max(signInsToEnd, signInsUpTo); // and they poll no more
      }
      boolean ownRefreshUnsaved = unsaved && writeCause == Cause.REFRESHED;
      if (unsaved && !ownRefreshUnsaved && (record != null || currentSignIn > signInsUpTo)) return;
      if (record == null) {
        if (current != null && !TokenRecord.sameCredential(current, before)) revoke = current;
        generation++; // a refresh or a store read under way answers for what is gone: dropped
        signedOutAt = generation; // a refresh under way has its new tokens revoked when it answers
        current = null;
        currentSignIn = 0;
        replaced = null;
        setState(State.NO_TOKEN, Cause.SIGNED_OUT, null);
      } else if (record.equals(current) || !kind.fits(record)) {
        return;
      } else if (cause == Cause.REFRESHED) {
        if (ownRefreshUnsaved || inFlight != null || !TokenRecord.sameCredential(current, before)) {
          return; // not a renewal of what this one holds; its own refresh looks in the store itself
        }
        install(record, false);
        setState(stateAfterFailure(), Cause.REFRESHED, null);
      } else {
        generation++; // a refresh or a store read under way answers for what is gone: dropped
        TokenRecord held = current;
        install(record, false);
        // The teller's number: a sign-out asked for after that sign-in began ends it here too.
        currentSignIn = recordSignIn;
        replaced = null;
        setState(State.VALID, cause, null, !TokenRecord.sameCredential(held, record));
      }
      loaded = true;
      reauthorization = null;
      unsaved = false;
      storeHeldFrom = ++writes;
    }
    if (revoke != null) revoker.revokeLater(revoke);
  }

  /**
   * After another manager's write reached this one ({@link #heard}), out of the store lock: ends the
   * sign-ins its sign-out ended, as this manager's own sign-out would, and tells the news.
   */
  private void afterHeard() {
    long end;
    synchronized (lock) {
      end = signInsToEnd;
      signInsToEnd = 0;
    }
    if (end > 0) signIns.endUpTo(end);
    notices.flush();
  }

  /** The write numbered {@code sequence} failed: told to the listeners if it was the last asked for. */
  private void storeFailed(long sequence, Exception failure) {
    synchronized (lock) {
      if (sequence != writes) return;
      Log.warn(TAG, "cannot save the token record; the next token request tries again: "
          + failure.getMessage(), null);
      setState(state, Cause.STORE_FAILED, failure);
    }
  }

  /** Makes {@code record} current; {@code fresh} means it was received just now. */
  private void install(TokenRecord record, boolean fresh) {
    // caller holds lock
    boolean renewable = record.refreshToken() != null || exchange.canObtainWithoutRecord();
    schedule.start(record, fresh, renewable, clock.monotonicNanos(),
        client.config.correctedClock().wallMillis());
    if (current != null && !current.accessToken().equals(record.accessToken())) replaced = current;
    current = record;
  }

  private void setState(State next, Cause cause, @Nullable Exception failure) {
    setState(next, cause, failure, false);
  }

  /**
   * {@code news}: told though it repeats the last state and cause, as a sign-in or a record of
   * another credential over the last one is: a connection made with the token before must end.
   */
  private void setState(State next, Cause cause, @Nullable Exception failure, boolean news) {
    // caller holds lock
    if (!news && next == state && cause == last.cause() && failure == null) return;
    state = next;
    last = change(next, cause, failure);
    notices.changed(last);
  }

  private StateChange change(State next, Cause cause, @Nullable Exception failure) {
    return new StateChange(next, cause, client.config.correctedClock().wallMillis(), failure);
  }

  /** What a store threw that is not an {@link IOException}, as the failure of that store. */
  private static IOException fromStore(Exception thrown) {
    return new IOException("the token store failed: " + thrown, thrown);
  }

  private static IOException fromAppCode(Exception thrown) {
    return new IOException("the token request ended on an exception from app code: " + thrown, thrown);
  }

  @Override public String toString() {
    synchronized (lock) {
      return "state=" + state + ", " + kind + ", record=" + current;
    }
  }
}
