package dev.voicelink.auth;

import dev.voicelink.auth.TokenManager.Listener;
import dev.voicelink.auth.TokenManager.State;
import dev.voicelink.core.Clock;
import dev.voicelink.core.internal.Log;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link TokenManager} holds and decides: its record and whether it is saved, its state, the
 * refresh in flight, and what each refresh's outcome does to them, all under one lock. State changes
 * are told to the listeners outside it. Thread-safe. The manager checks the client is open and the
 * arguments before it calls in.
 */
final class TokenKeeper {
  private static final String TAG = "auth";

  private final AuthClient client;
  private final TokenExchange exchange;
  private final Clock clock;
  private final TokenStore store;
  private final CredentialKind kind;
  /** State changes, decided under {@link #lock} and told to the listeners in order outside it. */
  private final StateNotices notices;

  private final Object lock = new Object();
  private final RefreshSchedule schedule; // guarded by lock
  private boolean loaded;
  private @Nullable TokenRecord current;
  /** The record {@link #current} replaced: requests sent before a refresh still carry its token. */
  private @Nullable TokenRecord replaced;
  private boolean unsaved;
  private State state = State.NO_TOKEN;
  private @Nullable ReauthorizationRequiredException reauthorization;
  private @Nullable RefreshFlight inFlight;
  /**
   * Counts the app's {@link #setRecord} and {@link #clear} calls: a refresh that started before one
   * of them answers for a credential the app replaced or forgot, and must not bring it back.
   */
  private long generation;

  TokenKeeper(AuthClient client, TokenExchange exchange, TokenStore store, CredentialKind kind,
      RefreshSchedule schedule, StateNotices notices) {
    this.client = client;
    this.exchange = exchange;
    this.clock = client.config.deviceClock();
    this.store = store;
    this.kind = kind;
    this.schedule = schedule;
    this.notices = notices;
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

  /** Saves {@code record}, checked by the manager, and makes it current. */
  void setRecord(TokenRecord record) throws IOException {
    try {
      synchronized (lock) {
        store.save(record);
        generation++;
        loaded = true;
        reauthorization = null;
        install(record, false);
        replaced = null; // a new sign-in: a 401 on the old one's token is not this one's to answer
        setState(State.VALID);
      }
    } finally {
      notices.flush();
    }
  }

  /** Forgets the credential: clears the store and moves to {@link State#NO_TOKEN}. */
  void clear() throws IOException {
    try {
      synchronized (lock) {
        store.clear();
        generation++;
        loaded = true;
        current = null;
        replaced = null;
        unsaved = false;
        reauthorization = null;
        setState(State.NO_TOKEN);
      }
    } finally {
      notices.flush();
    }
  }

  /** The current record (held in memory or loaded from the store), or null if there is none. */
  @Nullable TokenRecord record() throws IOException {
    synchronized (lock) {
      ensureLoaded();
      return current;
    }
  }

  /** The current state; see {@link TokenManager#state()}. */
  State state() {
    try {
      synchronized (lock) {
        loadQuietly();
        return state;
      }
    } finally {
      notices.flush();
    }
  }

  /** Adds a listener and tells it the current state at once (on the listener executor). */
  void addListener(Listener listener) {
    try {
      synchronized (lock) {
        loadQuietly();
        notices.add(listener, state);
      }
    } finally {
      notices.flush();
    }
  }

  void removeListener(Listener listener) {
    notices.remove(listener);
  }

  /**
   * A valid record: the current one, or a new one when it is due or {@code force}; joins a refresh
   * in flight.
   */
  TokenRecord obtain(boolean force) throws IOException, AuthorizationException {
    RefreshFlight flight;
    try {
      boolean mine = false;
      synchronized (lock) {
        ensureLoaded();
        if (state == State.REAUTHORIZATION_REQUIRED && reauthorization != null) {
          // Another manager of the store may have won the refresh this one lost and saved its
          // record only after this one's refusal came back: that record is the live credential.
          if (!adoptRefreshedElsewhere()) throw reauthorization;
          reauthorization = null;
          setState(stateAfterFailure());
        }
        if (inFlight != null) {
          flight = inFlight;
        } else {
          if (current == null && !exchange.canObtainWithoutRecord()) throw new NotSignedInException();
          if (current != null && unsaved) {
            store.save(current);
            unsaved = false;
          }
          if (!force && current != null && schedule.canServe(clock.monotonicNanos())) {
            return current;
          }
          if (adoptRefreshedElsewhere() && !force && schedule.canServe(clock.monotonicNanos())) {
            return current;
          }
          flight = inFlight = new RefreshFlight();
          mine = true;
          setState(State.REFRESHING);
        }
      }
      // Handed over before the listeners hear of it: a listener on a same-thread executor that asks
      // for a token joins a refresh that is already under way, and a listener that throws cannot
      // leave the refresh unstarted with its waiters waiting for ever.
      if (mine) start(flight);
    } finally {
      notices.flush();
    }
    return flight.await(force);
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
          setState(stateAfterFailure());
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
      flight.complete(refreshNow(), null);
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

  /** Runs one refresh, on the worker of {@link #refresh(RefreshFlight)}. */
  private TokenRecord refreshNow() throws IOException, AuthorizationException, StillValid {
    TokenRecord base;
    long started;
    synchronized (lock) {
      base = current;
      started = generation;
    }
    TokenExchange.Result result;
    try {
      result = exchange.run(base);
    } catch (RuntimeException | Error e) {
      abandon(started);
      throw e;
    } catch (Exception e) { // checked, yet undeclared: a Kotlin interceptor on the app's client
      abandon(started);
      throw fromAppCode(e);
    }
    synchronized (lock) {
      // setRecord of the same credential (a restore, a migration) replaces nothing: the answer counts
      if (generation != started && !TokenRecord.sameCredential(base, current)) return settleReplaced();
      if (result.record != null) return settleSuccess(result.record);
      if (result.refusal != null) return settleRefusal(base, result.refusal);
      return settleTransient(base, result.failure, result.rotated);
    }
  }

  /** The refresh started at {@code started} ended without an answer to settle. */
  private void abandon(long started) {
    synchronized (lock) {
      inFlight = null;
      if (generation == started) setState(stateAfterFailure());
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
    inFlight = null;
    Log.info(TAG, "a token refresh answered after the record was " + (current == null ? "cleared"
        : "replaced") + "; its answer is dropped");
    if (current != null) return current;
    if (!exchange.canObtainWithoutRecord()) throw new NotSignedInException();
    throw new IOException("the token record was cleared while a token request ran; ask again");
  }

  private TokenRecord settleSuccess(TokenRecord record) throws IOException {
    synchronized (lock) {
      inFlight = null;
      schedule.succeeded();
      install(record, true);
      setState(State.VALID);
      // Persist before handing out: the old refresh token is already void on the server. If saving
      // fails, the record stays in memory marked unsaved and the next call saves it first.
      unsaved = true;
      store.save(record);
      unsaved = false;
      Log.info(TAG, "token refreshed and saved: " + record);
      return record;
    }
  }

  /**
   * The current token stays valid (state {@link State#VALID}) after a refresh that failed: callers
   * that only want a token get it, a forced refresh gets the failure.
   */
  private StillValid stillValid(Exception failure) {
    // caller holds lock
    setState(State.VALID);
    return new StillValid(current, failure);
  }

  private TokenRecord settleTransient(@Nullable TokenRecord base, IOException failure,
      @Nullable TokenRecord rotated) throws IOException, StillValid {
    synchronized (lock) {
      inFlight = null;
      long now = clock.monotonicNanos();
      long delay = schedule.failed(now, failure);
      if (rotated != null && TokenRecord.sameCredential(base, current)) {
        // The access token and its expiry stay as they were; the next refresh uses the new refresh
        // token. Saved as a refreshed record is: a failed save is retried first by the next call.
        Log.warn(TAG, "the refresh answer could not be used (" + failure.getMessage() + "), but it"
            + " holds a new refresh token: kept, with the current access token", null);
        current = rotated;
        base = rotated;
        unsaved = true;
        try {
          store.save(rotated);
          unsaved = false;
        } catch (IOException e) {
          Log.warn(TAG, "cannot save the token record; the next call tries again: "
              + e.getMessage(), null);
        }
      }
      if (stillServes(base, now)) {
        Log.info(TAG, "token refresh failed (" + failure.getMessage() + "); serving the current"
            + " token, next attempt in " + delay + " ms or later");
        throw stillValid(failure);
      }
      Log.warn(TAG, "token refresh failed and the token has expired: " + failure.getMessage(), null);
      setState(current == null ? State.NO_TOKEN : State.EXPIRED);
      throw failure;
    }
  }

  private TokenRecord settleRefusal(@Nullable TokenRecord base, AuthorizationException refusal)
      throws AuthorizationException, IOException, StillValid {
    synchronized (lock) {
      inFlight = null;
      if (refusal instanceof ReauthorizationRequiredException && adoptRefreshedElsewhere()) {
        // The refusal was of the refresh token that another manager had just rotated.
        setState(stateAfterFailure());
        if (schedule.canServe(clock.monotonicNanos())) return current;
        throw new IOException("the token was refreshed by another manager of the same store while"
            + " this one refreshed it too; its record is used now: ask again");
      }
      if (refusal instanceof ReauthorizationRequiredException && base != null
          && base.refreshToken() == null && !exchange.canObtainWithoutRecord()
          && stillServes(base, clock.monotonicNanos())) {
        // Nothing to renew it with, and nothing was asked of the server: a forced refresh fails, and
        // the token is served until it expires or a server rejects it.
        throw stillValid(refusal);
      }
      if (refusal instanceof ReauthorizationRequiredException) {
        reauthorization = (ReauthorizationRequiredException) refusal;
        Log.warn(TAG, "refresh token refused (" + refusal.getMessage() + "): the device must be"
            + " authorized again; the stored record is kept", null);
        setState(State.REAUTHORIZATION_REQUIRED);
      } else {
        long now = clock.monotonicNanos();
        if (stillServes(base, now)) {
          // Not a verdict on the token it has (a client secret rotated, a scope withdrawn): it is
          // served while it lasts, and the refresh waits out a backoff instead of following every
          // request; once it expires the refusal reaches the callers.
          long delay = schedule.failed(now, refusal);
          Log.warn(TAG, "token refresh refused (" + refusal.getMessage() + "); serving the current"
              + " token until it expires, next attempt in " + delay + " ms or later", null);
          throw stillValid(refusal);
        }
        Log.warn(TAG, "token request refused: " + refusal.getMessage(), null);
        setState(stateAfterFailure());
      }
      throw refusal;
    }
  }

  /**
   * Before a refresh: when another manager or process on the same store has refreshed the credential
   * since this one loaded it, the store's record is the live one (its refresh token voided ours, spec
   * 3.2), so it becomes current. Returns whether it did; a store that cannot be read adopts nothing.
   */
  private boolean adoptRefreshedElsewhere() {
    // caller holds lock
    if (current == null || unsaved) return false;
    TokenRecord stored;
    try {
      stored = store.load();
    } catch (IOException e) {
      Log.warn(TAG, "cannot read the token store: " + e.getMessage(), null);
      return false;
    }
    if (stored == null || stored.equals(current) || stored.grant() != current.grant()
        || !stored.clientId().equals(current.clientId())
        || stored.receivedAtEpochMillis() <= current.receivedAtEpochMillis()) {
      return false;
    }
    Log.info(TAG, "the token store holds a newer record, refreshed by another manager or process;"
        + " it is used: " + stored);
    install(stored, false);
    return true;
  }

  private State stateAfterFailure() {
    return current == null ? State.NO_TOKEN
        : schedule.isExpired(clock.monotonicNanos()) ? State.EXPIRED : State.VALID;
  }

  /** As {@link #ensureLoaded}, for callers that report no failure: the next token request throws it. */
  private void loadQuietly() {
    try {
      ensureLoaded();
    } catch (IOException e) {
      Log.warn(TAG, "cannot read the token store: " + e.getMessage(), null);
    }
  }

  private void ensureLoaded() throws IOException {
    if (loaded) return;
    TokenRecord record = store.load();
    loaded = true;
    // No notice: every way to add a listener loads first, so nobody saw the state before loading.
    if (record == null) {
      state = State.NO_TOKEN;
      return;
    }
    kind.checkStored(record);
    install(record, false);
    state = State.VALID;
  }

  /** Makes {@code record} current; {@code fresh} means it was received just now. */
  private void install(TokenRecord record, boolean fresh) {
    boolean renewable = record.refreshToken() != null || exchange.canObtainWithoutRecord();
    schedule.start(record, fresh, renewable, clock.monotonicNanos(),
        client.config.correctedClock().wallMillis());
    if (current != null && !current.accessToken().equals(record.accessToken())) replaced = current;
    current = record;
  }

  private void setState(State next) {
    // caller holds lock
    if (next == state) return;
    state = next;
    notices.changed(next);
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
