package dev.voicelink.auth;

import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Log;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.WeakHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Authenticator;
import okhttp3.Interceptor;

/**
 * Signs a device in and keeps it signed in: runs the device flow and keeps its record ({@link
 * #signIn}), hands out a valid access token, refreshes it ahead of expiry, rotates and persists the
 * refresh token, signs out ({@link #signOut()}), and tells its listeners each state and why
 * (protocol 3.2, 4.4–4.6).
 *
 * <pre>{@code
 * TokenManager tokens = TokenManager.builder(client)
 *     .deviceGrant("vl-speaker-01")
 *     .store(new FileTokenStore(new File("/data/voicelink/token.json")))
 *     .build();
 * tokens.signIn("SN-0001-DEMO", code -> screen.show(code.userCode(), code.link()))
 *     .enqueue(result -> ...);                // saved before the outcome is reported
 * String accessToken = tokens.accessToken();  // on a background thread; refreshes when due
 * tokens.accessTokenCall().enqueue(result -> ...); // the same, asynchronous and cancellable
 * tokens.signOut().enqueue(result -> ...);    // forgets it here, revokes it where the server can
 * }</pre>
 *
 * <p><b>Refresh.</b> A token is refreshed when less than its refresh margin remains: by default the
 * larger of 10% of its lifetime and 5 minutes, but never more than half its lifetime nor more than one
 * day. Expiry is measured from the local receipt time on the monotonic clock (after a restart, from
 * the stored receipt time on the skew-corrected wall clock). At most one refresh is in flight: any
 * number of concurrent callers share its one request and its result.
 *
 * <p><b>Rotation.</b> Every refresh returns a new refresh token and invalidates the old one. The new
 * record is saved to the {@link TokenStore} before its access token is handed to anyone; if saving
 * fails the caller gets the {@link IOException} and the next call saves again first.
 *
 * <p><b>Failures.</b> {@code invalid_refresh_token} moves the manager to {@link
 * State#REAUTHORIZATION_REQUIRED} and throws {@link ReauthorizationRequiredException}; the stored
 * record is kept. (A cloud credential with its client secret obtains a new token with the client
 * credentials grant instead.) A transient failure (I/O, 5xx, unreadable answer) while the current
 * token is still valid is not an error: the valid token is served and the refresh is retried with a
 * jittered backoff (at least the server's {@code Retry-After}, up to 5 minutes) on a later call; once
 * the token has expired the failure is thrown. Asking a manager that holds no token throws {@link NotSignedInException}.
 *
 * <p><b>Cancelling.</b> {@link #accessTokenCall()} and {@link #refresh()} return calls whose cancel
 * releases their caller at once. A refresh request already sent is left to finish and its record is
 * saved: the server may void the old refresh token when it answers, so aborting the exchange could lose
 * the sign-in. A refresh not yet begun is not begun. Closing the client does not abort a refresh
 * already sent either. Every refresh runs on one of the client's workers, so interrupting a thread
 * waiting in {@link #accessToken()} releases it at once ({@link java.io.InterruptedIOException})
 * while the refresh goes on and is saved. A sign-in, a sign-out or a {@link #setRecord} of another
 * credential while a refresh runs wins: that refresh's answer is dropped.
 *
 * <p><b>OkHttp.</b> {@link #interceptor()} adds {@code Authorization: <token>} (the raw token, as
 * the platform expects) to requests that carry none; {@link #authenticator()} answers a 401 by
 * refreshing, only when the failed request carried the current token, and at most once per request.
 *
 * <p><b>Dialects.</b> {@link #builder(VoiceLinkClient)} keeps platform credentials; {@link
 * #builder(VoiceLinkClient, OAuthServer)} keeps those of a standard OAuth 2.0 server (the third-party
 * account variant, protocol 5.1.3), refreshed there as RFC 6749 section 6 says: form-encoded, with {@code
 * client_id} for a public client or the client's authentication, {@code invalid_grant} meaning
 * re-authorization required, and an answer without a new refresh token keeping the old one. Every
 * record names its dialect and token endpoint, so a manager that only reads its store ({@code
 * builder(client)} without a grant) refreshes a stored standard record of a public client with no
 * other configuration. The interceptor then sends {@code Authorization: Bearer <token>}.
 *
 * <p><b>Threads.</b> Thread-safe, and every method but the blocking {@link #accessToken()} may be
 * called on Android's main thread: none reads or writes the store, or the network, on the calling
 * thread. The store (a {@link FileTokenStore}, an Android {@code EncryptedTokenStore}: file and
 * Keystore I/O) is read the first time the manager is asked anything ({@link State#LOADING} until
 * then): on an SDK thread for {@link #state()}, {@link #record()} or {@link #addListener}, on the
 * calling thread for {@link #accessToken()} (which also saves there a record a failed save left held,
 * and reads the store again there while re-authorization is required). It is written on the SDK
 * threads that sign in, refresh or sign out.
 * {@link #accessToken()} blocks while the store is read or a refresh runs (bounded by the HTTP
 * client's timeouts; an interrupt ends the wait). Listeners are called on the executor
 * given to {@link Builder#listenerExecutor} (default: the client's callback executor, Android's main
 * thread), one at a time and in order. A refresh runs on a client worker, and its states are told
 * after the callers waiting for it were released, so a listener may hear of a refresh after {@link
 * #accessToken()} returned its token; a listener may call the manager, even on a same-thread
 * executor. It holds no threads or connections: make one per credential and keep it as long as its
 * {@link VoiceLinkClient}.
 */
public final class TokenManager implements TokenSource {
  /** What the manager can do for its caller now. */
  public enum State {
    /**
     * The manager is reading its store, which it starts the first time it is asked for anything; the
     * state it finds follows at once.
     */
    LOADING,
    /** No token is stored: authorize the device (or, for a cloud credential, ask for a token). */
    NO_TOKEN,
    /** A token is held; {@link #accessToken()} returns it or refreshes it first. */
    VALID,
    /** A refresh is in flight. */
    REFRESHING,
    /** The token expired and the last refresh failed transiently; the next call tries again. */
    EXPIRED,
    /** The refresh token was refused: the user must authorize the device again. */
    REAUTHORIZATION_REQUIRED
  }

  /** Why the state changed. */
  public enum Cause {
    /** The manager started reading its store ({@link State#LOADING}). */
    READING_STORE,
    /** The store was read: {@link State#VALID} with its record, or {@link State#NO_TOKEN}. */
    STORE_READ,
    /**
     * The store could not be read or written ({@link StateChange#failure()} says why): read, the state
     * is {@link State#NO_TOKEN} until the store is read again, by the manager itself after a backoff
     * (1 s doubling to 60 s, each jittered down to half, up to 8 times: 1.5 to 3 minutes in all) or
     * by a token request; written, the record is held and the next token request saves it first.
     */
    STORE_FAILED,
    /**
     * The store cannot read its record ({@link RecordLostException}): one that can never be decrypted,
     * which the store deleted, or on Android one whose Keystore key is missing, which it kept (a
     * Keystore out of reach says so too, and the store is read again, by the manager itself as after
     * a {@link #STORE_FAILED} read, and by a later token request): {@link
     * State#REAUTHORIZATION_REQUIRED}.
     */
    RECORD_LOST,
    /** {@link #signIn} signed in and saved the record: {@link State#VALID}. */
    SIGNED_IN,
    /** The app gave a record to {@link #setRecord}: {@link State#VALID}. */
    RECORD_SET,
    /** A refresh started: {@link State#REFRESHING}. */
    REFRESH_STARTED,
    /** A refresh (here, or by another manager of the same store) gave a new token: {@link State#VALID}. */
    REFRESHED,
    /**
     * A refresh failed for a reason worth trying again: {@link State#VALID} while the token it would
     * replace still serves, else {@link State#EXPIRED} (or {@link State#NO_TOKEN} for a cloud
     * credential that never had one).
     */
    REFRESH_FAILED,
    /**
     * The server refused the refresh ({@link StateChange#failure()} is its refusal): {@link
     * State#REAUTHORIZATION_REQUIRED} when it refused the refresh token, else the token is served
     * until it expires.
     */
    REFRESH_REFUSED,
    /** {@link #signOut} forgot the credential: {@link State#NO_TOKEN}. */
    SIGNED_OUT
  }

  /**
   * A change of a manager's state: the new {@link #state()}, why ({@link #cause()}), when ({@link
   * #atEpochMillis()}), and the failure behind it, if one is. Immutable.
   */
  public static final class StateChange {
    private final State state;
    private final Cause cause;
    private final long atEpochMillis;
    private final @Nullable Exception failure;

    StateChange(State state, Cause cause, long atEpochMillis, @Nullable Exception failure) {
      this.state = state;
      this.cause = cause;
      this.atEpochMillis = atEpochMillis;
      this.failure = failure;
    }

    public State state() {
      return state;
    }

    public Cause cause() {
      return cause;
    }

    /** When it changed, on the device's clock corrected by what the servers' {@code Date} headers say. */
    public long atEpochMillis() {
      return atEpochMillis;
    }

    /** The failure or refusal behind the change, or null. Its message holds no secret. */
    public @Nullable Exception failure() {
      return failure;
    }

    @Override public String toString() {
      return state + " (" + cause + (failure != null ? ": " + failure.getMessage() : "") + ")";
    }
  }

  /**
   * Told about every state change, on the listener executor, one at a time and in order. A listener
   * added later is told the last change at once. One abstract method, so a lambda will do.
   */
  public interface Listener {
    void onStateChanged(StateChange change);
  }

  /** What a {@link #signOut()} did with the server. It always forgets the credential here. */
  public enum SignOut {
    /** The server revoked the tokens (RFC 7009). */
    REVOKED,
    /**
     * The server offers no revocation: the platform's authorization service, or a standard server
     * that advertises no {@code revocation_endpoint}.
     */
    NOT_OFFERED,
    /**
     * The revocation did not get through in time (logged at WARNING): the tokens stay valid on the
     * server until they expire, though this device no longer holds them. Also when the store could not
     * be read, on a manager whose server revokes: the record to revoke is unknown.
     */
    REVOCATION_FAILED
  }

  private final ClientCore core;
  private final CredentialKind kind;
  private final TokenKeeper keeper;
  private final Revoker revoker;
  /** The device flow of {@link #signIn}; null for a manager that cannot sign in. */
  private final @Nullable DeviceAuthorizer signIn;
  /** The keeper's, guarded by its lock; only its final settings are read here. */
  private final RefreshSchedule schedule;
  /**
   * The sign-in calls made, numbered in that order by the keeper, so that a sign-out can end those
   * made before it. Weak: a call that ended, or was never run, is not kept alive. Guarded by itself.
   */
  private final Map<VoiceLinkCall<DeviceFlowOutcome>, Long> signIns = new WeakHashMap<>();

  private TokenManager(Builder builder) {
    this.core = builder.core;
    AuthClient client = builder.settings.authClient(builder.core, builder.clientSecret);
    this.kind = new CredentialKind(builder.grant, builder.clientId, builder.settings.server);
    this.schedule = new RefreshSchedule(builder.marginMillis, builder.random);
    TokenExchange exchange = new TokenExchange(client, builder.clientId, builder.clientSecret,
        builder.grant == TokenRecord.Grant.CLOUD && builder.clientSecret != null);
    this.revoker = new Revoker(client, exchange);
    this.keeper = new TokenKeeper(client, exchange, builder.store, kind, revoker, schedule,
        new StateNotices(builder.listenerExecutor != null
            ? builder.listenerExecutor : builder.core.callbackExecutor()), this::endSignIns);
    this.signIn = builder.grant == TokenRecord.Grant.DEVICE && builder.clientId != null
        ? new DeviceAuthorizer(builder.core, client, builder.clientId, builder.random) : null;
  }

  /**
   * A builder of managers that use {@code client}: for platform credentials, or for whatever record
   * the store holds (see {@link Builder#build()}).
   *
   * @throws IllegalStateException if the client is closed
   */
  public static Builder builder(VoiceLinkClient client) {
    return new Builder(ClientCore.open(client), null);
  }

  /**
   * A builder of managers that keep a credential of the standard OAuth 2.0 {@code server}. The client
   * needs no {@code auth_url}.
   *
   * @throws IllegalStateException if the client is closed
   */
  public static Builder builder(VoiceLinkClient client, OAuthServer server) {
    if (server == null) throw new IllegalArgumentException("server must not be null");
    return new Builder(ClientCore.open(client), server);
  }

  /**
   * A valid access token: the current one, or a refreshed one when less than the refresh margin
   * remains. Blocks while a refresh is in flight: call it on a background thread (it is the {@link
   * TokenSource} the SDK's services call on theirs), or use {@link #accessTokenCall()}.
   *
   * @throws NotSignedInException if a device credential has no token yet
   * @throws ReauthorizationRequiredException if the refresh token was refused
   * @throws AuthorizationException if the service refused otherwise (for example a wrong client
   *     secret)
   * @throws IOException if the token could not be refreshed and the current one has expired, or the
   *     rotated record could not be saved, or the store could not be read
   * @throws IllegalStateException if the client was closed
   */
  @Override public String accessToken() throws IOException, AuthorizationException {
    core.checkOpen();
    return keeper.obtain(false).accessToken();
  }

  /**
   * {@link #accessToken()} as a call: asynchronous or blocking, and cancellable (see the class
   * comment on what a cancel does to a refresh in flight). Fails as {@code accessToken()} throws.
   */
  public VoiceLinkCall<String> accessTokenCall() {
    return new BlockingCall<String>(core) {
      @Override protected String run() throws IOException, AuthorizationException {
        return keeper.obtain(false).accessToken();
      }
    };
  }

  /**
   * A call that refreshes now, whatever the expiry, and ends with the new record after saving it:
   * the refresh token grant (protocol 4.4, 4.6), or the client credentials grant (4.5) for a cloud
   * credential that holds no refresh token. Joins a refresh already in flight. Fails with {@link
   * NotSignedInException}, {@link ReauthorizationRequiredException}, another {@link
   * AuthorizationException}, or an {@link IOException} when the refresh failed, even while {@link
   * #accessToken()} goes on serving a current token that is still valid.
   */
  public VoiceLinkCall<TokenRecord> refresh() {
    return new BlockingCall<TokenRecord>(core) {
      @Override protected TokenRecord run() throws IOException, AuthorizationException {
        return keeper.obtain(true);
      }
    };
  }

  /**
   * Tells the manager that a server rejected {@code rejectedToken} (an HTTP 401). If it is the current
   * access token, the next {@link #accessToken()} refreshes; an older token is ignored.
   */
  @Override public void invalidate(String rejectedToken) {
    keeper.invalidate(rejectedToken);
  }

  /**
   * As {@link #invalidate}, for the value of the {@code Authorization} header that was rejected;
   * whether it carried this credential's current token or the one before it.
   */
  boolean invalidateAuthorization(String rejected) {
    return keeper.invalidateAuthorization(rejected);
  }

  /**
   * Signs the device in with the platform's device flow and keeps the sign-in: requests a code for
   * {@code deviceId}, hands it to {@code listener} (show it to the user), polls until the user decides,
   * and when the user authorized, saves the record in this manager and its store <em>before</em> the
   * call reports {@link DeviceFlowOutcome.Kind#AUTHORIZED}. Listeners hear {@link Cause#SIGNED_IN},
   * an Agent using this manager connects with it, and {@link #accessToken()} serves it from then on.
   * The flow is {@link DeviceAuthorizer#authorize(String, DeviceFlowListener)}'s: its rules, outcomes
   * and cancelling are the same, and a token answer that reached the SDK before the cancel is still
   * saved (the server will not issue it again); a cancel aborts a poll in flight, and an approval it
   * would have brought is lost.
   *
   * <pre>{@code
   * tokens.signIn("SN-0001-DEMO", code -> screen.showQr(code.link()))
   *     .enqueue(result -> { ... });   // on the main thread on Android
   * }</pre>
   *
   * <p>Nothing runs on the calling thread: the store is written on an SDK thread. The call fails with
   * an {@link IOException} when the record could not be saved; the sign-in is held all the same, and
   * the next token request saves it first.
   *
   * @throws IllegalArgumentException if {@code deviceId} is invalid; nothing is sent then
   * @throws IllegalStateException if this manager keeps no device credential ({@link
   *     Builder#deviceGrant}), or speaks standard OAuth 2.0 (which takes no device_id: {@link
   *     #signIn(DeviceFlowListener)})
   */
  public VoiceLinkCall<DeviceFlowOutcome> signIn(String deviceId, DeviceFlowListener listener) {
    return signIn(signInFlow(), deviceId, listener);
  }

  /**
   * As {@link #signIn(String, DeviceFlowListener)}, at the standard OAuth 2.0 server this manager keeps
   * the credential of (RFC 8628).
   *
   * @throws IllegalStateException if this manager keeps no device credential, or speaks the
   *     platform's dialect, which needs a device_id
   */
  public VoiceLinkCall<DeviceFlowOutcome> signIn(DeviceFlowListener listener) {
    return signIn(signInFlow(), null, listener);
  }

  private VoiceLinkCall<DeviceFlowOutcome> signIn(DeviceAuthorizer flow, @Nullable String deviceId,
      DeviceFlowListener listener) {
    synchronized (signIns) {
      long number = keeper.numberSignIn();
      VoiceLinkCall<DeviceFlowOutcome> call =
          flow.signIn(deviceId, listener, record -> keeper.signedIn(record, number));
      signIns.put(call, number);
      return call;
    }
  }

  /**
   * Cancels the sign-in calls numbered up to {@code upTo}; one whose callback already ran stays as it
   * is.
   */
  private void endSignIns(long upTo) {
    List<VoiceLinkCall<DeviceFlowOutcome>> ending = new ArrayList<>();
    synchronized (signIns) {
      for (Map.Entry<VoiceLinkCall<DeviceFlowOutcome>, Long> signIn : signIns.entrySet()) {
        if (signIn.getValue() <= upTo) ending.add(signIn.getKey());
      }
    }
    for (VoiceLinkCall<DeviceFlowOutcome> call : ending) call.cancel();
  }

  private DeviceAuthorizer signInFlow() {
    DeviceAuthorizer flow = signIn;
    if (flow == null) {
      throw new IllegalStateException("signIn needs a device credential: build the manager with"
          + " deviceGrant(clientId)");
    }
    return flow;
  }

  /**
   * Signs out, in one step: where the credential's standard OAuth 2.0 server advertises a {@code
   * revocation_endpoint}, first asks it to revoke the refresh token (RFC 7009): one request, within
   * 10 seconds, best effort; then forgets the credential, in memory and in the store, and tells the
   * listeners ({@link Cause#SIGNED_OUT}). The call ends with what the server did; a server that
   * cannot be reached, or refuses, leaves the device signed out all the same. The platform's
   * authorization service shows no revocation: there a sign-out is local ({@link
   * SignOut#NOT_OFFERED}). A refresh that rotates the tokens meanwhile, or is still running when the
   * credential is forgotten, has its new tokens revoked too (the latter dropped when it answers).
   *
   * <p>It also ends this manager's sign-ins made before {@code signOut()} was called that still run:
   * they end cancelled, poll no more, and an approval that comes later is not kept. A sign-in made
   * after it (an account switch) is not ended, and when it is approved before the sign-out runs, the
   * sign-out leaves its credential alone.
   *
   * <p>Nothing runs on the calling thread. Cancelling the call stops the revocation, not the
   * sign-out: the credential is forgotten all the same. The call fails with an {@link IOException}
   * when the store could not be cleared: the manager holds nothing, but a restart would read the
   * record again. The other managers of the same store in this process (an Agent's per screen) sign
   * out with it when the store is cleared: their sign-ins begun before this call end too, and one
   * begun after it is left alone, as one of this manager's own would be.
   */
  public VoiceLinkCall<SignOut> signOut() {
    long signInsBefore;
    synchronized (signIns) {
      signInsBefore = keeper.signInsNumbered();
    }
    return new BlockingCall<SignOut>(core) {
      @Override protected SignOut run() throws IOException {
        endSignIns(signInsBefore);
        TokenRecord held = null;
        boolean unread = false;
        try {
          held = keeper.recordToSignOut(signInsBefore);
        } catch (IOException e) {
          Log.warn("auth", "cannot read the token store before signing out: " + e.getMessage(), null);
          unread = true;
        }
        SignOut outcome;
        CallCancelledException cancelled = null;
        try {
          outcome = unread ? revoker.unreadStore() : revoker.revoke(held, this::send);
        } catch (CallCancelledException e) {
          cancelled = e;
          outcome = SignOut.REVOCATION_FAILED;
        } catch (IOException | IllegalStateException e) {
          Log.warn("auth", "signing out, but the server could not be asked to revoke the tokens: "
              + e.getMessage(), null);
          outcome = SignOut.REVOCATION_FAILED;
        }
        TokenKeeper.SignedOut signedOut = keeper.signOut(signInsBefore);
        if (signedOut.record != null && !TokenRecord.sameCredential(signedOut.record, held)) {
          revoker.revokeLater(signedOut.record); // a refresh rotated them while this one revoked
        }
        try {
          keeper.clearStore(signedOut);
        } catch (IOException e) {
          throw new IOException("signed out, but the stored record could not be removed: "
              + e.getMessage(), e);
        }
        if (cancelled != null) throw cancelled;
        return outcome;
      }

      /** A sign-out cancelled before a worker took it up still forgets the credential. */
      @Override protected boolean runsWhenCancelled() {
        return true;
      }
    };
  }

  /**
   * Replaces the credential's record with one the app obtained itself (a sign-in of its own, a
   * migration): it is held at once (listeners hear {@link Cause#RECORD_SET}) and saved on an SDK
   * thread before any token of it is handed out; a save that fails is told to the listeners as {@link
   * Cause#STORE_FAILED}, and the next token request saves it first. Clears {@link
   * State#REAUTHORIZATION_REQUIRED}. A refresh of the previous record still running is dropped when
   * it answers; its callers get this record. A device flow's record is kept by {@link #signIn} itself.
   *
   * @throws IllegalArgumentException if the record is of another grant, client_id, dialect or server
   *     than this manager's
   */
  public void setRecord(TokenRecord record) {
    if (record == null) throw new IllegalArgumentException("record must not be null");
    kind.checkGiven(record);
    keeper.setRecord(record);
  }

  /**
   * The record held now, or null: none is stored, or the store has not been read yet (the state is
   * then {@link State#LOADING}, and this starts reading it). No I/O on the calling thread, so no wait
   * for a save: a refresh's record is held as soon as its answer is read (the server has voided the
   * old refresh token then), and may still be being saved, or be held unsaved after a failed save
   * that the next {@link #accessToken()} does again. {@link #accessToken()} hands out a token only
   * once its record is saved.
   */
  public @Nullable TokenRecord record() {
    return keeper.record();
  }

  /**
   * The current state, without waiting: {@link State#LOADING} until the store has been read, which
   * the first call starts on an SDK thread. A listener hears the state that follows.
   */
  public State state() {
    return keeper.state();
  }

  /**
   * Adds a listener: told the last change first (on the listener executor; {@link State#LOADING}
   * while the store is read, which this starts), then each change. No I/O on the calling thread.
   */
  public void addListener(Listener listener) {
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    keeper.addListener(listener);
  }

  /** Removes a listener: it is told nothing more, not even news queued for it before. */
  public void removeListener(Listener listener) {
    keeper.removeListener(listener);
  }

  /**
   * An interceptor that adds {@code Authorization: <access token>} (for a standard record {@code
   * Authorization: Bearer <access token>}) to requests that carry none.
   */
  public Interceptor interceptor() {
    return TokenHttp.interceptor(this);
  }

  /**
   * An authenticator for HTTP 401 answers: if the failed request carried the current access token, it
   * refreshes and retries once with the new one; if it carried the token the current one replaced
   * (another thread refreshed meanwhile), it retries with the current one without refreshing; after one
   * retry it gives up (returns null), so a server that keeps answering 401 cannot cause a loop. A 401
   * on a request that carried any other credential is returned as it is: this manager's token is not
   * sent in its place. Thread-safe.
   */
  public Authenticator authenticator() {
    return TokenHttp.authenticator(this);
  }

  /** A valid record, as {@link #accessToken()} obtains it. */
  TokenRecord validRecord() throws IOException, AuthorizationException {
    core.checkOpen();
    return keeper.obtain(false);
  }

  /** The refresh margin of a token that lives {@code lifetimeMillis}. */
  long marginMillis(long lifetimeMillis) {
    return schedule.marginMillis(lifetimeMillis);
  }

  @Override public String toString() {
    return "TokenManager{" + keeper + "}";
  }

  /** Builds a {@link TokenManager}. Not thread-safe. */
  public static final class Builder {
    private final ClientCore core;
    private final DialectSettings settings;
    private TokenRecord.@Nullable Grant grant;
    private @Nullable String clientId;
    private @Nullable String clientSecret;
    private @Nullable TokenStore store;
    private long marginMillis = -1;
    private Random random = new Random();
    private @Nullable Executor listenerExecutor;

    Builder(ClientCore core, @Nullable OAuthServer server) {
      this.core = core;
      this.settings = new DialectSettings(server, "TokenManager");
    }

    /**
     * A device-flow credential of {@code clientId}: refreshed at {@code oauth/ivs/token}, or at a
     * standard server's token endpoint as a public client.
     */
    public Builder deviceGrant(String clientId) {
      this.grant = TokenRecord.Grant.DEVICE;
      this.clientId = Validate.clientId(clientId);
      this.clientSecret = null;
      return this;
    }

    /**
     * Standard dialect only: a device-flow credential of a confidential client, which authenticates
     * its refreshes with {@code clientSecret} as {@link OAuthServer.Builder#clientAuthentication} says,
     * else as the server supports ({@code client_secret_basic} preferred, else {@code client_secret_post}).
     * The secret is kept in memory only.
     *
     * @throws IllegalStateException if this builder keeps platform credentials
     */
    public Builder deviceGrant(String clientId, String clientSecret) {
      settings.requireStandard("deviceGrant(clientId, clientSecret)");
      deviceGrant(clientId);
      this.clientSecret = Validate.clientSecret(clientSecret);
      return this;
    }

    /**
     * A cloud credential (client credentials, protocol 4.5): obtained and refreshed at {@code
     * oauth/token}, or at a standard server's token endpoint (RFC 6749 section 4.4: for a vendor's
     * backend). The secret is kept in memory only; it is never stored, logged or printed.
     */
    public Builder cloudGrant(String clientId, String clientSecret) {
      this.grant = TokenRecord.Grant.CLOUD;
      this.clientId = Validate.clientId(clientId);
      this.clientSecret = Validate.clientSecret(clientSecret);
      return this;
    }

    /**
     * Standard dialect only: the {@code scope} a cloud credential asks for (space-separated).
     * Without it the request carries none and the server decides.
     *
     * @throws IllegalStateException if this builder keeps platform credentials
     */
    public Builder scope(String scope) {
      settings.scope(scope);
      return this;
    }

    /** Where the record lives. Required. */
    public Builder store(TokenStore store) {
      if (store == null) throw new IllegalArgumentException("store must not be null");
      this.store = store;
      return this;
    }

    /**
     * The unit of the {@code interval} in the device code answers of {@link
     * TokenManager#signIn(DeviceFlowListener) signIn}, which the spec does not state: as {@link
     * DeviceAuthorizer.Builder#intervalUnit}, for a server that writes it in milliseconds below {@code
     * expires_in} (2000 for 2 s), which would read as seconds.
     *
     * @throws IllegalArgumentException unless {@code unit} is seconds or milliseconds
     */
    public Builder intervalUnit(TimeUnit unit) {
      settings.intervalUnit(unit);
      return this;
    }

    /**
     * Refresh when less than {@code margin} of the token's life remains (never more than half of it),
     * instead of the default (the larger of 10% of the lifetime and 5 minutes, at most one day).
     */
    public Builder refreshMargin(long margin, TimeUnit unit) {
      if (margin < 0) throw new IllegalArgumentException("refreshMargin must be 0 or more; was: "
          + margin);
      if (unit == null) throw new IllegalArgumentException("unit must not be null");
      this.marginMillis = unit.toMillis(margin);
      return this;
    }

    /**
     * Where listeners are called, one at a time and in order. Default: the client's callback
     * executor. The SDK never shuts it down.
     */
    public Builder listenerExecutor(Executor executor) {
      if (executor == null) throw new IllegalArgumentException("executor must not be null");
      this.listenerExecutor = executor;
      return this;
    }

    /** Source of the retry jitter; tests pass a seeded one. */
    Builder random(Random random) {
      this.random = random;
      return this;
    }

    /**
     * Builds the manager. Without {@link #deviceGrant} or {@link #cloudGrant} it keeps whatever
     * record the store holds and refreshes it by that record's grant and dialect (a cloud record is
     * then only refreshed, never obtained anew).
     *
     * @throws IllegalStateException if the store is missing; for platform credentials, if the
     *     client has no {@code auth_url}; for a standard server's secret, if it supports neither
     *     secret method
     */
    public TokenManager build() {
      if (store == null) throw new IllegalStateException("store is required");
      if (settings.server == null && grant != null) core.authUrl(); // fails, naming the setting
      return new TokenManager(this);
    }
  }
}
