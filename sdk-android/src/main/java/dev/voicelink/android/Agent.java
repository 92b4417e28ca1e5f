package dev.voicelink.android;

import android.content.Context;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.auth.TokenStore;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.SerialDelivery;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.ResourceDefinition;
import java.io.Closeable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;

/**
 * The command-and-event API of VoiceLink on Android, in the shape of the platform's established
 * device SDK: send {@link AgentMessage}s, receive {@link AgentEvent}s.
 *
 * <pre>{@code
 * Agent agent = Agent.builder(context, configText, event -> {
 *       if (event.eventType() == AgentConstants.EVENT_CONNECTED_TO_SERVER) { ... }
 *     })
 *     .client(voiceLinkClient)             // optional: the app's one client, shared
 *     .resourceDefinition(contacts)
 *     .build();
 * agent.sendMessage(new AgentMessage(AgentConstants.CMD_SYNC, AgentConstants.SYNC_DATA_SCHEMA, 0,
 *     "{\"tag\":\"contacts-1\"}", syncData));
 * ...
 * agent.destroy();
 * }</pre>
 *
 * <p><b>Threading.</b> {@link #sendMessage} and {@link #destroy} may be called from any thread and
 * never block: messages are queued to the agent's own worker thread ({@code voicelink-agent}) and
 * handled in order. Events are delivered in the order they happen, one at a time, on the executor
 * given to {@link Builder#eventExecutor}; without one, on the callback executor of the {@link
 * VoiceLinkClient} (a client given to {@link Builder#client} may have its own; the SDK's default, and
 * the agent's own client's, is the main thread).
 *
 * <p><b>Lifecycle.</b> The agent connects to the interaction channel at creation and keeps the
 * connection, reconnecting with bounded backoff and following the device's network. It may live as
 * long as a screen: create it in {@code onCreate} (or {@code onStart}) and destroy it in the matching
 * {@code onDestroy} ({@code onStop}). {@link #destroy()} releases exactly what this agent created:
 * its thread ({@code voicelink-agent}), its socket, its network callback, its web API calls in
 * flight, and the {@link VoiceLinkClient} it made when none was given. A client given to {@link
 * Builder#client} is shared and never closed by the agent; closing that client destroys the agents
 * on it, as it closes its other services. Every command still
 * pending gets its one reply with {@link AgentConstants#ERROR_DESTROYED}, then no more events come;
 * later {@code sendMessage} calls throw.
 */
public final class Agent {
  private final AgentConfig config;
  private final AgentEngine engine;
  private final NetworkWatcher network;
  /** The client this agent made, which its destroy() closes; null when it shares the app's. */
  private final @Nullable VoiceLinkClient ownClient;
  /** The client given to the builder, which destroys this agent when it closes; null: our own. */
  private final @Nullable ClientCore sharedClient;
  /** The token manager the agent signs in with and follows; null for another token source. */
  private final @Nullable TokenManager tokenManager;
  /** Whether {@link #tokenManager} is the agent's own device-grant manager (not the app's). */
  private final boolean ownTokenManager;
  /** Where the agent's tokens are, as its errors and log name it. */
  private final String tokensPlace;
  private final TokenManager.Listener tokenListener = this::tokenStateChanged;
  private final AtomicBoolean heardTokenStateAtStart = new AtomicBoolean();
  /** The token manager's state in its last news, which it tells one at a time. */
  private volatile TokenManager.@Nullable State lastTokenState;
  private final CopyOnWriteArrayList<AgentListener> listeners;
  /** What {@link #sharedClient} closes: this agent. */
  private final Closeable destroyOnClientClose = this::destroy;

  /**
   * Assigns what {@link Builder#build()} made; starts nothing, registers nothing: {@link #start()}
   * does, once.
   */
  private Agent(AgentConfig config, AgentEngine engine, NetworkWatcher network,
      @Nullable VoiceLinkClient ownClient, @Nullable ClientCore sharedClient,
      @Nullable TokenManager tokenManager, boolean ownTokenManager, String tokensPlace,
      CopyOnWriteArrayList<AgentListener> listeners) {
    this.config = config;
    this.engine = engine;
    this.network = network;
    this.ownClient = ownClient;
    this.sharedClient = sharedClient;
    this.tokenManager = tokenManager;
    this.ownTokenManager = ownTokenManager;
    this.tokensPlace = tokensPlace;
    this.listeners = listeners;
  }

  /**
   * The one step with effects outside the agent, called once by {@link Builder#build()}: follows
   * the token manager (which reads its store on an SDK thread), starts connecting as the device's
   * network allows and follows it, and registers with a shared client, which then destroys this
   * agent when it closes. If that client closed meanwhile, the agent is destroyed and the client's
   * exception thrown.
   */
  private void start() {
    if (tokenManager != null) tokenManager.addListener(tokenListener);
    network.start();
    if (sharedClient != null) {
      try {
        sharedClient.track(destroyOnClientClose);
      } catch (IllegalStateException closedMeanwhile) {
        destroy();
        throw closedMeanwhile;
      }
    }
  }

  /**
   * What each token state means for the connection: see {@link #signIn} and {@link #signOut}. The
   * first news is the manager's state when this agent started (a manager the app shares is VALID
   * since its sign-in, or NO_TOKEN since its sign-out): a sign-in or sign-out then ends the
   * connections made before it, and this agent had none, so it starts no reconnection.
   */
  private void tokenStateChanged(TokenManager.StateChange change) {
    boolean sinceStart = heardTokenStateAtStart.getAndSet(true);
    TokenManager.State before = lastTokenState;
    lastTokenState = change.state();
    switch (change.state()) {
      case VALID:
        if (!sinceStart) break;
        if (change.cause() == TokenManager.Cause.SIGNED_IN
            || change.cause() == TokenManager.Cause.RECORD_SET) {
          engine.signedIn();
        } else if (before == TokenManager.State.REAUTHORIZATION_REQUIRED
            || before == TokenManager.State.NO_TOKEN) {
          // A token again without a sign-in: another manager of the store renewed the credential, or
          // the store read a lost record again. Not after a server refused a token the manager holds.
          engine.tokenBack();
        }
        break;
      case NO_TOKEN:
        if (change.cause() == TokenManager.Cause.SIGNED_OUT) {
          if (sinceStart) engine.signedOut();
        } else if (change.cause() == TokenManager.Cause.STORE_READ && ownTokenManager) {
          // An app's own manager may hold a cloud credential, for which no token yet is normal.
          engine.notAuthorized(engine.notSignedIn());
        }
        break;
      case REAUTHORIZATION_REQUIRED:
        Exception failure = change.failure();
        engine.notAuthorized(change.cause() == TokenManager.Cause.RECORD_LOST
            ? "The device's sign-in in " + tokensPlace + " is lost ("
                + (failure == null ? "unreadable" : failure.getMessage()) + "): sign in again"
                + " (Agent.signIn)"
            : "The device must sign in again: its refresh token was refused"
                + (failure == null ? "" : " (" + failure.getMessage() + ")") + ". Call Agent.signIn.");
        break;
      default:
        break;
    }
  }

  /**
   * Creates an agent with the defaults: events on the main thread, its own {@link VoiceLinkClient}
   * for the config's {@code server} addresses (closed by {@link #destroy()}), and the
   * device's tokens from a {@link TokenManager} for the config's {@code auth.client_id} and {@code
   * server.auth_url}, kept in an {@link EncryptedTokenStore} (store {@code default}). A device not
   * signed in yet makes the agent report {@code EVENT_ERROR} {@link
   * AgentConstants#ERROR_NOT_AUTHORIZED}: sign it in with {@link #signIn}, after which the agent
   * connects.
   *
   * @throws IllegalArgumentException if the config is invalid, naming the setting (for example a
   *     missing {@code login.appid} or {@code auth.client_id})
   */
  public static Agent create(Context context, String config, AgentListener listener) {
    return builder(context, config, listener).build();
  }

  /**
   * A builder of an agent for {@code config}, for what {@link #create} leaves at its defaults: the
   * app's own token source or {@link VoiceLinkClient}, an event executor, resource definitions, an
   * {@code EntityWebApi} without a key in the config. The config is checked by {@link
   * Builder#build()}.
   */
  public static Builder builder(Context context, String config, AgentListener listener) {
    return new Builder(context, config, listener);
  }

  /**
   * Signs the device in with the platform's device flow and keeps the sign-in in the agent's token
   * manager ({@link TokenManager#signIn(String, DeviceFlowListener)} with the config's {@code
   * auth.device_id}; without one, {@link TokenManager#signIn(DeviceFlowListener)}, the standard
   * OAuth 2.0 flow of an app's manager). Show the code {@code listener} is given to the user; the
   * call ends once the user decided, the record saved. The agent then connects with it, whether it
   * had given up for want of a token or not: no need to create it again. A connection made with the
   * token before (another account's) ends first, with {@link AgentConstants#EVENT_SERVER_DISCONNECTED}.
   *
   * <pre>{@code
   * agent.signIn(code -> showQr(code.link(), code.userCode()))
   *     .enqueue(result -> { ... });   // on the main thread
   * }</pre>
   *
   * <p>May be called on the main thread: nothing runs on the calling thread. Cancellable. The call
   * is the app's: on a shared client it outlives {@link #destroy()}, so that a user who approves
   * while the screen rotates or stops is still signed in (the record is saved in the store, and the
   * next agent connects with it); cancel it where its listener and callback stop being wanted. With
   * the agent's own client, {@code destroy()} closes that client and so ends it.
   *
   * @throws IllegalStateException if the agent was destroyed; if the agent's tokens come from an
   *     app's {@link TokenSource} that is not a {@link TokenManager}, or keeps no device credential; or
   *     if the config has no {@code auth.device_id} and the manager speaks the platform's dialect
   */
  public VoiceLinkCall<DeviceFlowOutcome> signIn(DeviceFlowListener listener) {
    TokenManager manager = tokenManager();
    if (engine.isDestroyed()) {
      throw new IllegalStateException("Agent was destroyed; create a new Agent to sign in");
    }
    String deviceId = config.deviceId();
    if (deviceId == null && ownTokenManager) {
      // The agent's own manager speaks the platform's dialect, whose flow needs the device's id.
      throw new IllegalStateException("the config has no auth.device_id, which the platform's sign-in"
          + " needs: add \"auth\": {\"device_id\": \"<the device's id, as imported in the console>\"}");
    }
    return deviceId != null ? manager.signIn(deviceId, listener) : manager.signIn(listener);
  }

  /**
   * Signs the device out ({@link TokenManager#signOut()}): forgets its sign-in in the agent's token
   * manager and store, and closes the connection (an {@link
   * AgentConstants#EVENT_SERVER_DISCONNECTED} if it was connected), and ends a sign-in still waiting
   * for its user (it ends cancelled); {@link #signIn} signs in again. May be called on the main
   * thread. The call ends with what the server did: on the
   * platform, {@link TokenManager.SignOut#NOT_OFFERED}.
   *
   * @throws IllegalStateException if the agent's tokens come from an app's {@link TokenSource} that
   *     is not a {@link TokenManager}
   */
  public VoiceLinkCall<TokenManager.SignOut> signOut() {
    return tokenManager().signOut();
  }

  /**
   * The token manager the agent connects with: its own (the config's {@code auth.client_id}, kept
   * in the {@link EncryptedTokenStore} {@code default}) or the one given to {@link
   * Builder#tokenSource}. Listen to it for the sign-in's state and its cause.
   *
   * @throws IllegalStateException if the app gave a {@link TokenSource} that is not a {@link
   *     TokenManager}
   */
  public TokenManager tokenManager() {
    TokenManager manager = tokenManager;
    if (manager == null) {
      throw new IllegalStateException("the Agent's tokens come from the app's TokenSource, which is"
          + " not a TokenManager: sign in and out there");
    }
    return manager;
  }

  /**
   * Adds a listener of this agent's events, besides the one given when it was built: told every
   * event delivered after this call, on the event executor, in order. Thread-safe.
   */
  public void addListener(AgentListener listener) {
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    listeners.add(listener);
  }

  /** Removes a listener: it is told no event delivered after this call. */
  public void removeListener(AgentListener listener) {
    listeners.remove(listener);
  }

  /**
   * Queues {@code message}; returns at once. Its reply, if it has one, comes as an event.
   *
   * @throws IllegalStateException if the agent was destroyed
   */
  public void sendMessage(AgentMessage message) {
    if (message == null) throw new IllegalArgumentException("message must not be null");
    engine.send(message);
  }

  /**
   * Releases what this agent created: its thread, its socket, its network callback, its calls in
   * flight, and its own {@link VoiceLinkClient} if it made one (a shared client stays open, and with
   * it a {@link #signIn} or {@link #signOut} call, which is the app's). Idempotent; never blocks.
   */
  public void destroy() {
    network.stop();
    if (tokenManager != null) tokenManager.removeListener(tokenListener);
    engine.destroy();
    if (ownClient != null) ownClient.close();
    if (sharedClient != null) sharedClient.untrack(destroyOnClientClose);
  }

  /**
   * For tests: waits until the agent's worker has nothing left to do and none of its web API calls is
   * in flight. Every event so far has then been handed to the event executor, which delivers it in
   * turn (a test on the main looper idles it next). Returns false if {@code timeout} passed first.
   */
  boolean awaitEngineIdle(long timeout, TimeUnit unit) throws InterruptedException {
    return engine.awaitIdle(timeout, unit);
  }

  /** With a shared client, the config's addresses must be the client's: one truth per address. */
  private static void checkSameAddresses(AgentConfig config, ClientCore client) {
    check("server.base_url", config.baseUrl(), client.baseUrlOrNull(), "baseUrl");
    check("server.auth_url", config.authUrl(), client.authUrlOrNull(), "authUrl");
    check("server.platform_url", config.platformUrl(), client.platformUrlOrNull(), "platformUrl");
  }

  private static void check(String setting, @Nullable String configured,
      @Nullable HttpUrl clients, String method) {
    if (configured == null) return;
    HttpUrl wanted = ClientCore.parseBaseAddress(configured, setting);
    if (!wanted.equals(clients)) {
      throw new IllegalArgumentException(setting + " of the config is " + wanted + " but the shared"
          + " VoiceLinkClient's is " + (clients == null ? "not set" : clients.toString())
          + ": give the client the same address (VoiceLinkClient.Builder." + method + ") or leave"
          + " it out of the config");
    }
  }

  /** The parsed config. */
  public AgentConfig config() {
    return config;
  }

  @Override public String toString() {
    return "Agent{appid=" + config.appid() + (engine.isDestroyed() ? ", destroyed" : "") + "}";
  }

  /** Builds an {@link Agent}. Setters check their argument at once. Not thread-safe. */
  public static final class Builder {
    final Context context;
    final String configText;
    final AgentListener listener;
    @Nullable Executor eventExecutor;
    @Nullable VoiceLinkClient client;
    @Nullable TokenSource tokenSource;
    @Nullable TokenStore tokenStore;
    @Nullable EntityWebApi entityWebApi;
    final Map<String, ResourceDefinition> definitions = new LinkedHashMap<>();
    int maxReconnectAttempts = 10;

    Builder(Context context, String configText, AgentListener listener) {
      if (context == null) throw new IllegalArgumentException("context must not be null");
      if (configText == null) throw new IllegalArgumentException("config must not be null");
      if (listener == null) throw new IllegalArgumentException("listener must not be null");
      this.context = context.getApplicationContext() != null ? context.getApplicationContext() : context;
      this.configText = configText;
      this.listener = listener;
    }

    /**
     * Where events are delivered, one at a time and in order. Default: the client's callback
     * executor (the main thread unless the app gave its client another). The agent never shuts it
     * down.
     */
    public Builder eventExecutor(Executor executor) {
      if (executor == null) throw new IllegalArgumentException("eventExecutor must not be null");
      this.eventExecutor = executor;
      return this;
    }

    /**
     * The app's {@link VoiceLinkClient}, shared: the agent builds its services from it (its HTTP
     * client, logging and callback executor included) and never closes it. Without one, the agent
     * makes its own from the config's {@code server} addresses and closes it in {@link
     * Agent#destroy()}. Addresses that the config also names must be the client's.
     */
    public Builder client(VoiceLinkClient client) {
      if (client == null) throw new IllegalArgumentException("client must not be null");
      this.client = client;
      return this;
    }

    /**
     * The device's access tokens, instead of the default: a {@link TokenManager} on the config's
     * {@code auth.client_id} and an {@link EncryptedTokenStore}. A {@code TokenManager} given here
     * is watched too: {@code REAUTHORIZATION_REQUIRED} becomes {@code ERROR_NOT_AUTHORIZED}.
     */
    public Builder tokenSource(TokenSource tokens) {
      if (tokens == null) throw new IllegalArgumentException("tokenSource must not be null");
      this.tokenSource = tokens;
      return this;
    }

    /**
     * The entity web API client to sync with, built by the app with its namespace and account key,
     * instead of {@code entity.account_key} in the config.
     */
    public Builder entityWebApi(EntityWebApi api) {
      if (api == null) throw new IllegalArgumentException("entityWebApi must not be null");
      this.entityWebApi = api;
      return this;
    }

    /**
     * Registers the definition of a resource that CMD_SYNC uploads, so that every record is checked
     * for its fields before sending. Optional: without one, CMD_SYNC checks only that the records are
     * UTF-8 JSON objects, one per line, and the platform checks their fields.
     */
    public Builder resourceDefinition(ResourceDefinition definition) {
      if (definition == null) throw new IllegalArgumentException("definition must not be null");
      definitions.put(definition.name().value(), definition);
      return this;
    }

    /** Where the default token manager keeps its record (tests pass one with a software key). */
    Builder tokenStore(TokenStore store) {
      this.tokenStore = store;
      return this;
    }

    Builder maxReconnectAttempts(int attempts) {
      this.maxReconnectAttempts = attempts;
      return this;
    }

    /**
     * Checks the config, makes what was left at its default (the agent's own client, token manager,
     * entity web API and event delivery), then starts the agent: it connects, follows the network,
     * and registers with a shared client. Nothing is started or registered before every check has
     * passed, and a client the agent made is closed again if building fails.
     *
     * @throws IllegalArgumentException if the config is invalid, naming the setting (without a
     *     token source, {@code auth.client_id} and {@code server.auth_url} are required)
     * @throws IllegalStateException if the shared client is closed
     */
    public Agent build() {
      AgentConfig config = AgentConfig.parse(configText);
      if (tokenSource == null) checkTokenSettings(config);
      if (client != null) checkSameAddresses(config, ClientCore.open(client));
      VoiceLinkClient voiceLink = client != null ? client : ownClient(config);
      Agent agent;
      try {
        agent = assemble(config, voiceLink);
      } catch (RuntimeException | Error e) {
        if (client == null) voiceLink.close(); // the agent's own: nobody else could
        throw e;
      }
      agent.start();
      return agent;
    }

    private void checkTokenSettings(AgentConfig config) {
      if (config.clientId() == null) {
        throw new IllegalArgumentException("auth.client_id is missing from the config: it is required"
            + " for the device's token manager unless a TokenSource is passed to"
            + " Agent.Builder.tokenSource(...); add \"auth\": {\"client_id\": \"<your client id>\"}");
      }
      if (config.authUrl() == null
          && (client == null || ClientCore.open(client).authUrlOrNull() == null)) {
        throw new IllegalArgumentException("server.auth_url is missing from the config: it is required"
            + " to refresh the device token unless a TokenSource is passed to"
            + " Agent.Builder.tokenSource(...); add \"auth_url\" to \"server\"");
      }
    }

    /** A client for the config's {@code server} addresses; it starts no thread until used. */
    private static VoiceLinkClient ownClient(AgentConfig config) {
      VoiceLinkClient.Builder own = VoiceLinkClient.builder().baseUrl(config.baseUrl());
      if (config.authUrl() != null) own.authUrl(config.authUrl());
      if (config.platformUrl() != null) own.platformUrl(config.platformUrl());
      return own.build();
    }

    /** Makes the agent's parts on {@code voiceLink}, each default resolved; starts none of them. */
    private Agent assemble(AgentConfig config, VoiceLinkClient voiceLink) {
      ClientCore core = ClientCore.of(voiceLink);
      EntityWebApi api = entityWebApi;
      if (api == null && config.namespace() != null && config.accountKey() != null) {
        api = EntityWebApi.builder(voiceLink).namespace(config.namespace())
            .accountKey(config.accountKey()).build();
      }
      String missing = api != null ? "" : "entity upload is not configured: set entity.namespace"
          + " and entity.account_key in the config, or pass an EntityWebApi to"
          + " Agent.Builder.entityWebApi(...)";
      EntityBackend backend = api == null ? null : new WebApiEntityBackend(api,
          Collections.unmodifiableMap(new LinkedHashMap<>(definitions)));

      TokenSource tokens = tokenSource;
      String tokensPlace;
      if (tokens == null) {
        TokenStore store = tokenStore != null ? tokenStore : EncryptedTokenStore.create(context);
        TokenManager.Builder manager =
            TokenManager.builder(voiceLink).deviceGrant(config.clientId()).store(store);
        TimeUnit intervalUnit = config.intervalUnit();
        if (intervalUnit != null) manager.intervalUnit(intervalUnit);
        tokens = manager.build();
        tokensPlace = "the Agent's token store " + store;
      } else {
        tokensPlace = "the app's " + (tokens instanceof TokenManager ? "TokenManager" : "TokenSource");
      }

      CopyOnWriteArrayList<AgentListener> listeners = new CopyOnWriteArrayList<>();
      listeners.add(listener);
      AgentEngine engine = new AgentEngine(config, core,
          new ChannelFactory(voiceLink, tokens, maxReconnectAttempts), backend, missing,
          "device not signed in: no token in " + tokensPlace + "; call Agent.signIn",
          events(core, listeners));
      return new Agent(config, engine, new NetworkWatcher(context, engine),
          client == null ? voiceLink : null, client == null ? null : core,
          tokens instanceof TokenManager ? (TokenManager) tokens : null, tokenSource == null,
          tokensPlace, listeners);
    }

    /**
     * Where the engine's events go: one at a time and in order, to the listeners of the moment each
     * is delivered, so that a listener added while an event waits for the main thread hears it, and
     * one removed while it is being told to the others does not.
     */
    private EventSink events(ClientCore core, CopyOnWriteArrayList<AgentListener> listeners) {
      final SerialDelivery delivery = new SerialDelivery(eventExecutor != null ? eventExecutor
          : core.callbackExecutor(), "agent");
      return (eventType, arg1, arg2, info, data) -> {
        AgentEvent event = new AgentEvent(eventType, arg1, arg2, info, data);
        delivery.execute(() -> {
          for (AgentListener target : listeners) {
            // removed by a listener told before it (a screen torn down by this very event)
            if (!listeners.contains(target)) continue;
            try {
              target.onEvent(event);
            } catch (Exception e) { // a checked one too: Kotlin code may throw one
              Log.warn("agent", "a listener threw; ignored", e); // the others are still told
            }
          }
        });
      };
    }
  }
}
