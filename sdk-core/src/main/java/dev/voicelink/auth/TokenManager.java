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
  private final Clock clock;
  private final TokenStore store;
  private final TokenRecord.@Nullable Grant grant;
  private final @Nullable String clientId;
  private final @Nullable String clientSecret;
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
  private @Nullable Flight inFlight;

  private TokenManager(Builder builder) {
    this.core = builder.core;
    this.client = new AuthClient(builder.core);
    this.clock = builder.core.deviceClock();
    this.store = builder.store;
    this.grant = builder.grant;
    this.clientId = builder.clientId;
    this.clientSecret = builder.clientSecret;
    this.fixedMarginMillis = builder.marginMillis;
    this.backoff = new Backoff(1, 300, TimeUnit.SECONDS, 10, builder.random);
    this.notices = new SerialDelivery(builder.listenerExecutor != null
        ? builder.listenerExecutor : builder.core.callbackExecutor(), TAG);
  }

  /**
   * A builder of managers that use {@code client}.
   *
   * @throws IllegalStateException if the client has no {@code auth_url} or is closed
   */
  public static Builder builder(VoiceLinkClient client) {
    return new Builder(ClientCore.open(client));
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
      if (current != null && current.accessToken().equals(rejectedToken)) {
        long now = clock.monotonicNanos();
        expiresAtNanos = now;
        refreshAtNanos = now;
        retryNotBeforeNanos = now;
        Log.info(TAG, "access token " + current + " was rejected; it will be refreshed");
      }
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

  /** An interceptor that adds {@code Authorization: <access token>} to requests that carry none. */
  public Interceptor interceptor() {
    return chain -> {
      if (chain.request().header("Authorization") != null) return chain.proceed(chain.request());
      String token;
      try {
        token = accessToken();
      } catch (AuthorizationException e) {
        throw new IOException("no access token: " + e.getMessage(), e);
      }
      return chain.proceed(chain.request().newBuilder().header("Authorization", token).build());
    };
  }

  /**
   * An authenticator for HTTP 401 answers: if the failed request carried the current access token, it
   * refreshes and retries once with the new one; if another thread already refreshed, it retries with
   * the newer token without refreshing; after one retry it gives up (returns null), so a server that
   * keeps answering 401 cannot cause a loop.
   */
  public Authenticator authenticator() {
    return (route, response) -> {
      if (response.priorResponse() != null) return null; // already retried once
      String sent = response.request().header("Authorization");
      if (sent == null) return null;
      invalidate(sent);
      String fresh;
      try {
        fresh = accessToken();
      } catch (AuthorizationException e) {
        Log.warn(TAG, "cannot answer HTTP 401: " + e.getMessage(), null);
        return null;
      }
      if (fresh.equals(sent)) return null;
      return response.request().newBuilder().header("Authorization", fresh).build();
    };
  }

  private TokenRecord obtain(boolean force) throws IOException, AuthorizationException {
    Flight flight;
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
          if (current == null && !canObtainWithoutRecord()) throw new NotSignedInException();
          if (current != null && unsaved) {
            store.save(current);
            unsaved = false;
          }
          long now = clock.monotonicNanos();
          if (!force && current != null) {
            if (now - refreshAtNanos < 0) return current;
            if (now - retryNotBeforeNanos < 0 && now - expiresAtNanos < 0) return current;
          }
          flight = inFlight = new Flight();
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

  private boolean canObtainWithoutRecord() {
    return grant == TokenRecord.Grant.CLOUD && clientSecret != null;
  }

  /** Runs one refresh on the calling thread; only the thread that owns the flight calls it. */
  private TokenRecord refreshNow() throws IOException, AuthorizationException {
    TokenRecord base;
    synchronized (lock) {
      base = current;
    }
    TokenRecord.Grant kind = base != null ? base.grant() : TokenRecord.Grant.CLOUD;
    String owner = base != null ? base.clientId() : clientId;
    boolean clientCredentials = base == null || base.refreshToken() == null;
    if (clientCredentials && !canObtainWithoutRecord()) {
      return settleRefusal(new ReauthorizationRequiredException("invalid_refresh_token",
          "the stored record has no refresh token"));
    }
    AuthClient.Answer answer;
    try {
      answer = execute(clientCredentials
          ? client.clientCredentialsCall(clientId, clientSecret)
          : client.refreshCall(kind, base.refreshToken()));
      if (!clientCredentials && "invalid_refresh_token".equals(answer.error) && !answer.isTransient()
          && canObtainWithoutRecord()) {
        Log.info(TAG, "cloud refresh token refused; asking for a new token with the client secret");
        clientCredentials = true;
        answer = execute(client.clientCredentialsCall(clientId, clientSecret));
      }
    } catch (IOException e) {
      return settleTransient(base, e);
    }
    if (answer.hasToken()) {
      TokenRecord record;
      try {
        record = client.tokenRecord(answer, kind, owner, clientCredentials);
      } catch (IOException e) {
        return settleTransient(base, e);
      }
      if (!clientCredentials && record.refreshToken() == null) {
        // RFC 6749 section 6: without a new refresh token, the client keeps the one it has.
        client.tolerance.warnOnce("refresh_token-kept", "the refresh answer has no refresh_token:"
            + " the stored one is kept for the next refresh");
        record = record.newBuilder().refreshToken(base.refreshToken()).build();
      }
      return settleSuccess(record);
    }
    if (answer.isTransient()) return settleTransient(base, answer.transientFailure("token refresh"));
    if ("invalid_refresh_token".equals(answer.error)) {
      return settleRefusal(new ReauthorizationRequiredException(answer.error, answer.message));
    }
    return settleRefusal(new AuthorizationException(answer.error, answer.message));
  }

  private AuthClient.Answer execute(Call call) throws IOException {
    Response response = call.execute();
    return client.read(response);
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
        setState(current == null ? State.NO_TOKEN
            : clock.monotonicNanos() - expiresAtNanos < 0 ? State.VALID : State.EXPIRED);
      }
      throw refusal;
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
    if (grant != null && record.grant() != grant) {
      throw new IOException("the store holds a " + record.grant().wireName() + " token; this manager"
          + " keeps a " + grant.wireName() + " token");
    }
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

  /** One refresh that any number of callers wait for. */
  private static final class Flight {
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile @Nullable TokenRecord record;
    private volatile @Nullable Exception failure;

    void complete(@Nullable TokenRecord result, @Nullable Exception error) {
      record = result;
      failure = error;
      done.countDown();
    }

    TokenRecord await() throws IOException, AuthorizationException {
      try {
        done.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for a token refresh");
      }
      Exception error = failure;
      if (error instanceof AuthorizationException) throw (AuthorizationException) error;
      if (error instanceof IOException) throw (IOException) error;
      if (error instanceof RuntimeException) throw (RuntimeException) error;
      return record;
    }
  }

  /** Builds a {@link TokenManager}. Not thread-safe. */
  public static final class Builder {
    private final ClientCore core;
    private TokenRecord.@Nullable Grant grant;
    private @Nullable String clientId;
    private @Nullable String clientSecret;
    private @Nullable TokenStore store;
    private long marginMillis = -1;
    private Random random = new Random();
    private @Nullable Executor listenerExecutor;

    Builder(ClientCore core) {
      core.authUrl(); // fails now, naming the setting, if auth_url is missing
      this.core = core;
    }

    /** A device-flow credential of {@code clientId}: refreshed at {@code oauth/ivs/token}. */
    public Builder deviceGrant(String clientId) {
      this.grant = TokenRecord.Grant.DEVICE;
      this.clientId = Validate.identifier(clientId, "client_id");
      this.clientSecret = null;
      return this;
    }

    /**
     * A cloud credential (client credentials, spec 4.5): obtained and refreshed at {@code
     * oauth/token}. The secret is kept in memory only; it is never stored, logged or printed.
     */
    public Builder cloudGrant(String clientId, String clientSecret) {
      this.grant = TokenRecord.Grant.CLOUD;
      this.clientId = Validate.identifier(clientId, "client_id");
      this.clientSecret = Validate.secret(clientSecret, "client_secret");
      return this;
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
     * record the store holds and refreshes it by that record's grant (a cloud record is then only
     * refreshed, never obtained anew).
     */
    public TokenManager build() {
      if (store == null) throw new IllegalStateException("store is required");
      return new TokenManager(this);
    }
  }
}
