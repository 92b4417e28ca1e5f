package dev.voicelink.auth;

import dev.voicelink.core.Clock;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.SerialDelivery;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Authenticator;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Keeps one credential's token alive: hands out a valid access token, refreshes it ahead of expiry,
 * rotates and persists the refresh token, and reports its state to listeners (spec 3.2, 4.4–4.6).
 *
 * <pre>{@code
 * TokenManager tokens = TokenManager.builder(client)
 *     .deviceGrant("vl-speaker-01")
 *     .store(new FileTokenStore(new File("/data/voicelink/token.json")))
 *     .build();
 * tokens.setRecord(record);                   // once, after the device flow authorized
 * String accessToken = tokens.accessToken();  // on a background thread; refreshes when due
 * tokens.accessTokenCall().enqueue(result -> ...); // the same, asynchronous and cancellable
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
 * saved: the server voids the old refresh token when it answers, so aborting the exchange could lose
 * the sign-in. A refresh not yet begun is not begun.
 *
 * <p><b>OkHttp.</b> {@link #interceptor()} adds {@code Authorization: <token>} (the raw token, as
 * the platform expects) to requests that carry none; {@link #authenticator()} answers a 401 by
 * refreshing, only when the failed request carried the current token, and at most once per request.
 *
 * <p><b>Dialects.</b> {@link #builder(VoiceLinkClient)} keeps platform credentials; {@link
 * #builder(VoiceLinkClient, OAuthServer)} keeps those of a standard OAuth 2.0 server (the third-party
 * account variant, spec 5.1.3), refreshed there as RFC 6749 section 6 says: form-encoded, with {@code
 * client_id} for a public client or the client's authentication, {@code invalid_grant} meaning
 * re-authorization required, and an answer without a new refresh token keeping the old one. Every
 * record names its dialect and token endpoint, so a manager that only reads its store ({@code
 * builder(client)} without a grant) refreshes a stored standard record of a public client with no
 * other configuration. The interceptor then sends {@code Authorization: Bearer <token>}.
 *
 * <p>Thread-safe. {@link #accessToken()} blocks while a refresh runs (bounded by the HTTP client's
 * timeouts). Listeners are called on the executor given to {@link Builder#listenerExecutor}
 * (default: the client's callback executor, Android's main thread), one at a time and in order. It
 * holds no threads or connections: make one per credential and keep it as long as its {@link
 * VoiceLinkClient}.
 */
public final class TokenManager implements TokenSource {
  /** What the manager can do for its caller now. */
  public enum State {
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

  /**
   * Told about every state change, on the listener executor. Late listeners get the current state at
   * once. One abstract method, so a lambda will do.
   */
  public interface Listener {
    void onStateChanged(State state);
  }

  static final long MIN_MARGIN_MILLIS = TimeUnit.MINUTES.toMillis(5);
  static final long MAX_MARGIN_MILLIS = TimeUnit.DAYS.toMillis(1);
  private static final String TAG = "auth";

  private final ClientCore core;
  private final AuthClient client;
  private final TokenExchange exchange;
  private final Clock clock;
  private final TokenStore store;
  private final TokenRecord.@Nullable Grant grant;
  private final @Nullable String clientId;
  /** The standard server this manager keeps credentials of; null for the platform or any stored one. */
  private final @Nullable OAuthServer server;
  private final long fixedMarginMillis;
  private final Backoff backoff;
  /** State changes, decided under {@link #lock} and told to the listeners in order outside it. */
  private final SerialDelivery notices;
  private final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();

  private final Object lock = new Object();
  private boolean loaded;
  private @Nullable TokenRecord current;
  private boolean unsaved;
  private long expiresAtNanos;
  private long refreshAtNanos;
  private long retryNotBeforeNanos;
  private int transientFailures;
  private State state = State.NO_TOKEN;
  private @Nullable ReauthorizationRequiredException reauthorization;
  private @Nullable RefreshFlight inFlight;

  private TokenManager(Builder builder) {
    this.core = builder.core;
    this.server = builder.server;
    this.client = new AuthClient(builder.core, builder.server == null
        ? new Dialect.Platform(builder.core)
        : Dialect.Standard.of(builder.server, builder.clientSecret, builder.scope), null);
    this.exchange = new TokenExchange(client, builder.clientId, builder.clientSecret,
        builder.grant == TokenRecord.Grant.CLOUD && builder.clientSecret != null);
    this.clock = builder.core.deviceClock();
    this.store = builder.store;
    this.grant = builder.grant;
    this.clientId = builder.clientId;
    this.fixedMarginMillis = builder.marginMillis;
    this.backoff = new Backoff(1, 300, TimeUnit.SECONDS, 10, builder.random);
    this.notices = new SerialDelivery(builder.listenerExecutor != null
        ? builder.listenerExecutor : builder.core.callbackExecutor(), TAG);
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
    return obtain(false).accessToken();
  }

  /**
   * {@link #accessToken()} as a call: asynchronous or blocking, and cancellable (see the class
   * comment on what a cancel does to a refresh in flight). Fails as {@code accessToken()} throws.
   */
  public VoiceLinkCall<String> accessTokenCall() {
    return new BlockingCall<String>(core) {
      @Override protected String run() throws IOException, AuthorizationException {
        return obtain(false).accessToken();
      }
    };
  }

  /**
   * A call that refreshes now, whatever the expiry, and ends with the new record after saving it:
   * the refresh token grant (spec 4.4, 4.6), or the client credentials grant (4.5) for a cloud
   * credential that holds no refresh token. Joins a refresh already in flight. Fails with {@link
   * NotSignedInException}, {@link ReauthorizationRequiredException}, another {@link
   * AuthorizationException}, or an {@link IOException}, as {@link #accessToken()} does.
   */
  public VoiceLinkCall<TokenRecord> refresh() {
    return new BlockingCall<TokenRecord>(core) {
      @Override protected TokenRecord run() throws IOException, AuthorizationException {
        return obtain(true);
      }
    };
  }

  /**
   * Tells the manager that a server rejected {@code rejectedToken} (an HTTP 401). If it is the current
   * access token, the next {@link #accessToken()} refreshes; an older token is ignored.
   */
  @Override public void invalidate(String rejectedToken) {
    synchronized (lock) {
      invalidateLocked(rejectedToken);
    }
  }

  /** As {@link #invalidate}, for the value of the {@code Authorization} header that was rejected. */
  void invalidateAuthorization(String rejected) {
    synchronized (lock) {
      if (current != null && TokenExchange.authorization(current).equals(rejected)) {
        invalidateLocked(current.accessToken());
      }
    }
  }

  private void invalidateLocked(String rejectedToken) {
    if (current != null && current.accessToken().equals(rejectedToken)) {
      long now = clock.monotonicNanos();
      expiresAtNanos = now;
      refreshAtNanos = now;
      retryNotBeforeNanos = now;
      Log.info(TAG, "access token " + current + " was rejected; it will be refreshed");
    }
  }

  /**
   * Replaces the credential's record, for example with the token of a device flow that just
   * authorized, saving it to the store first. Clears {@link State#REAUTHORIZATION_REQUIRED}.
   *
   * @throws IllegalArgumentException if the record is of another grant or client_id than this
   *     manager's
   */
  public void setRecord(TokenRecord record) throws IOException {
    if (record == null) throw new IllegalArgumentException("record must not be null");
    if (grant != null && record.grant() != grant) {
      throw new IllegalArgumentException("record is a " + record.grant().wireName()
          + " token; this manager keeps a " + grant.wireName() + " token");
    }
    if (clientId != null && !record.clientId().equals(clientId)) {
      throw new IllegalArgumentException("record is for client_id " + record.clientId()
          + "; this manager keeps the token of client_id " + clientId);
    }
    String mismatch = serverMismatch(record);
    if (mismatch != null) throw new IllegalArgumentException("record is " + mismatch);
    try {
      synchronized (lock) {
        store.save(record);
        loaded = true;
        reauthorization = null;
        install(record, false);
        setState(State.VALID);
      }
    } finally {
      notices.flush();
    }
  }

  /** Forgets the credential: clears the store and moves to {@link State#NO_TOKEN}. */
  public void clear() throws IOException {
    try {
      synchronized (lock) {
        store.clear();
        loaded = true;
        current = null;
        unsaved = false;
        reauthorization = null;
        setState(State.NO_TOKEN);
      }
    } finally {
      notices.flush();
    }
  }

  /** The current record (held in memory or loaded from the store), or null if there is none. */
  public @Nullable TokenRecord record() throws IOException {
    synchronized (lock) {
      ensureLoaded();
      return current;
    }
  }

  /**
   * The current state. Reads the store on first use; if it cannot be read, the state is {@link
   * State#NO_TOKEN} and {@link #accessToken()} throws the reason.
   */
  public State state() {
    try {
      synchronized (lock) {
        try {
          ensureLoaded();
        } catch (IOException e) {
          Log.warn(TAG, "cannot read the token store: " + e.getMessage(), null);
        }
        return state;
      }
    } finally {
      notices.flush();
    }
  }

  /** Adds a listener and tells it the current state at once (on the listener executor). */
  public void addListener(Listener listener) {
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    try {
      synchronized (lock) {
        try {
          ensureLoaded();
        } catch (IOException e) {
          Log.warn(TAG, "cannot read the token store: " + e.getMessage(), null);
        }
        listeners.add(listener);
        final State now = state;
        notices.enqueue(() -> tell(listener, now));
      }
    } finally {
      notices.flush();
    }
  }

  public void removeListener(Listener listener) {
    listeners.remove(listener);
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
   * refreshes and retries once with the new one; if another thread already refreshed, it retries with
   * the newer token without refreshing; after one retry it gives up (returns null), so a server that
   * keeps answering 401 cannot cause a loop.
   */
  public Authenticator authenticator() {
    return TokenHttp.authenticator(this);
  }

  /** A valid record, as {@link #accessToken()} obtains it. */
  TokenRecord validRecord() throws IOException, AuthorizationException {
    core.checkOpen();
    return obtain(false);
  }

  private TokenRecord obtain(boolean force) throws IOException, AuthorizationException {
    RefreshFlight flight;
    boolean mine = false;
    try {
      synchronized (lock) {
        ensureLoaded();
        if (state == State.REAUTHORIZATION_REQUIRED && reauthorization != null) {
          throw reauthorization;
        }
        if (inFlight != null) {
          flight = inFlight;
        } else {
          if (current == null && !exchange.canObtainWithoutRecord()) throw new NotSignedInException();
          if (current != null && unsaved) {
            store.save(current);
            unsaved = false;
          }
          long now = clock.monotonicNanos();
          if (!force && current != null) {
            if (now - refreshAtNanos < 0) return current;
            if (now - retryNotBeforeNanos < 0 && now - expiresAtNanos < 0) return current;
          }
          flight = inFlight = new RefreshFlight();
          mine = true;
          setState(State.REFRESHING);
        }
      }
    } finally {
      notices.flush();
    }
    if (mine) {
      try {
        flight.complete(refreshNow(), null);
      } catch (IOException | AuthorizationException | RuntimeException e) {
        flight.complete(null, e);
      } finally {
        notices.flush();
      }
    }
    return flight.await();
  }

  /** Runs one refresh on the calling thread; only the thread that owns the flight calls it. */
  private TokenRecord refreshNow() throws IOException, AuthorizationException {
    TokenRecord base;
    synchronized (lock) {
      base = current;
    }
    TokenExchange.Result result;
    try {
      result = exchange.run(base);
    } catch (RuntimeException e) {
      synchronized (lock) {
        inFlight = null;
        setState(stateAfterFailure());
      }
      throw e;
    }
    if (result.record != null) return settleSuccess(result.record);
    if (result.refusal != null) return settleRefusal(result.refusal);
    return settleTransient(base, result.failure);
  }

  private TokenRecord settleSuccess(TokenRecord record) throws IOException {
    synchronized (lock) {
      inFlight = null;
      transientFailures = 0;
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

  private TokenRecord settleTransient(@Nullable TokenRecord base, IOException failure)
      throws IOException {
    synchronized (lock) {
      inFlight = null;
      transientFailures++;
      long now = clock.monotonicNanos();
      long delay = backoff.honouringRetryAfter(failure,
          backoff.delayMillis(Math.min(transientFailures, backoff.maxRetries())));
      retryNotBeforeNanos = now + TimeUnit.MILLISECONDS.toNanos(delay);
      if (base != null && base == current && now - expiresAtNanos < 0) {
        Log.info(TAG, "token refresh failed (" + failure.getMessage() + "); serving the current"
            + " token, next attempt in " + delay + " ms or later");
        setState(State.VALID);
        return base;
      }
      Log.warn(TAG, "token refresh failed and the token has expired: " + failure.getMessage(), null);
      setState(current == null ? State.NO_TOKEN : State.EXPIRED);
      throw failure;
    }
  }

  private TokenRecord settleRefusal(AuthorizationException refusal) throws AuthorizationException {
    synchronized (lock) {
      inFlight = null;
      if (refusal instanceof ReauthorizationRequiredException) {
        reauthorization = (ReauthorizationRequiredException) refusal;
        Log.warn(TAG, "refresh token refused (" + refusal.getMessage() + "): the device must be"
            + " authorized again; the stored record is kept", null);
        setState(State.REAUTHORIZATION_REQUIRED);
      } else {
        Log.warn(TAG, "token request refused: " + refusal.getMessage(), null);
        setState(stateAfterFailure());
      }
      throw refusal;
    }
  }

  private State stateAfterFailure() {
    return current == null ? State.NO_TOKEN
        : clock.monotonicNanos() - expiresAtNanos < 0 ? State.VALID : State.EXPIRED;
  }

  /**
   * Why this manager cannot keep {@code record} (of another dialect or server), as the end of a
   * sentence that starts "record is" or "the store holds"; null if it can.
   */
  private @Nullable String serverMismatch(TokenRecord record) {
    boolean standard = record.dialect() == TokenRecord.Dialect.STANDARD;
    String what = standard ? "a record of the standard server " + record.tokenEndpoint()
        : "a platform record";
    if (server != null && (!standard || !server.tokenEndpoint().equals(record.tokenEndpoint()))) {
      return what + "; this manager keeps tokens of " + server.tokenEndpoint();
    }
    if (server == null && grant != null && standard) {
      return what + "; this manager keeps platform tokens (use TokenManager.builder(client, server))";
    }
    return null;
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
    if (grant != null && record.grant() != grant) {
      throw new IOException("the store holds a " + record.grant().wireName() + " token; this manager"
          + " keeps a " + grant.wireName() + " token");
    }
    String mismatch = serverMismatch(record);
    if (mismatch != null) throw new IOException("the store holds " + mismatch);
    install(record, false);
    state = State.VALID;
  }

  /** Makes {@code record} current; {@code fresh} means it was received just now. */
  private void install(TokenRecord record, boolean fresh) {
    long now = clock.monotonicNanos();
    long lifetimeMillis = TimeUnit.SECONDS.toMillis(record.expiresInSeconds());
    long remainingMillis = fresh ? lifetimeMillis
        : record.expiresAtEpochMillis() - client.config.correctedClock().wallMillis();
    remainingMillis = Math.max(0, Math.min(remainingMillis, lifetimeMillis));
    current = record;
    expiresAtNanos = now + TimeUnit.MILLISECONDS.toNanos(remainingMillis);
    refreshAtNanos = expiresAtNanos - TimeUnit.MILLISECONDS.toNanos(marginMillis(lifetimeMillis));
    retryNotBeforeNanos = now;
  }

  long marginMillis(long lifetimeMillis) {
    long margin = fixedMarginMillis >= 0 ? fixedMarginMillis
        : Math.min(MAX_MARGIN_MILLIS, Math.max(lifetimeMillis / 10, MIN_MARGIN_MILLIS));
    return Math.min(margin, lifetimeMillis / 2);
  }

  private void setState(State next) {
    // caller holds lock
    if (next == state) return;
    state = next;
    Log.debug(TAG, "token state: " + next);
    notices.enqueue(() -> {
      for (Listener listener : listeners) tell(listener, next);
    });
  }

  private static void tell(Listener listener, State state) {
    try {
      listener.onStateChanged(state);
    } catch (RuntimeException e) {
      Log.warn(TAG, "a token state listener threw; ignored", e);
    }
  }

  @Override public String toString() {
    synchronized (lock) {
      return "TokenManager{state=" + state + ", grant=" + (grant == null ? "stored" : grant.wireName())
          + ", client_id=" + clientId + ", record=" + current + "}";
    }
  }

  /** Builds a {@link TokenManager}. Not thread-safe. */
  public static final class Builder {
    private final ClientCore core;
    private final @Nullable OAuthServer server;
    private @Nullable String scope;
    private TokenRecord.@Nullable Grant grant;
    private @Nullable String clientId;
    private @Nullable String clientSecret;
    private @Nullable TokenStore store;
    private long marginMillis = -1;
    private Random random = new Random();
    private @Nullable Executor listenerExecutor;

    Builder(ClientCore core, @Nullable OAuthServer server) {
      this.core = core;
      this.server = server;
    }

    /**
     * A device-flow credential of {@code clientId}: refreshed at {@code oauth/ivs/token}, or at a
     * standard server's token endpoint as a public client.
     */
    public Builder deviceGrant(String clientId) {
      this.grant = TokenRecord.Grant.DEVICE;
      this.clientId = Validate.identifier(clientId, "client_id");
      this.clientSecret = null;
      return this;
    }

    /**
     * Standard dialect only: a device-flow credential of a confidential client, which authenticates
     * its refreshes with {@code clientSecret} as the server supports ({@code client_secret_basic}
     * preferred, else {@code client_secret_post}). The secret is kept in memory only.
     *
     * @throws IllegalStateException if this builder keeps platform credentials
     */
    public Builder deviceGrant(String clientId, String clientSecret) {
      requireStandard("deviceGrant(clientId, clientSecret)");
      deviceGrant(clientId);
      this.clientSecret = Validate.secret(clientSecret, "client_secret");
      return this;
    }
    /**
     * A cloud credential (client credentials, spec 4.5): obtained and refreshed at {@code
     * oauth/token}, or at a standard server's token endpoint (RFC 6749 section 4.4: for a vendor's
     * backend). The secret is kept in memory only; it is never stored, logged or printed.
     */
    public Builder cloudGrant(String clientId, String clientSecret) {
      this.grant = TokenRecord.Grant.CLOUD;
      this.clientId = Validate.identifier(clientId, "client_id");
      this.clientSecret = Validate.secret(clientSecret, "client_secret");
      return this;
    }

    /**
     * Standard dialect only: the {@code scope} a cloud credential asks for (space-separated).
     * Without it the request carries none and the server decides.
     *
     * @throws IllegalStateException if this builder keeps platform credentials
     */
    public Builder scope(String scope) {
      requireStandard("scope");
      this.scope = Validate.scope(scope);
      return this;
    }

    private void requireStandard(String setting) {
      Validate.standardOnly(server != null, setting, "TokenManager");
    }

    /** Where the record lives. Required. */
    public Builder store(TokenStore store) {
      if (store == null) throw new IllegalArgumentException("store must not be null");
      this.store = store;
      return this;
    }

    /**
     * Refresh when less than {@code margin} of the token's life remains (never more than half of it),
     * instead of the default (the larger of 10% of the lifetime and 5 minutes, at most one day).
     */
    public Builder refreshMargin(long margin, TimeUnit unit) {
      if (margin < 0) throw new IllegalArgumentException("refreshMargin must be 0 or more; was: "
          + margin);
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
      if (server == null && grant != null) core.authUrl(); // fails, naming the setting
      return new TokenManager(this);
    }
  }
}
