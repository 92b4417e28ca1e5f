package dev.voicelink.android;

import android.content.Context;
import dev.voicelink.android.internal.MainThreadExecutor;
import dev.voicelink.android.internal.OrderedExecutor;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.auth.TokenStore;
import dev.voicelink.core.Clock;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.ResourceDefinition;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import okhttp3.OkHttpClient;

/**
 * The command-and-event API of VoiceLink on Android, in the shape of the platform's established
 * device SDK: send {@link AgentMessage}s, receive {@link AgentEvent}s.
 *
 * <pre>{@code
 * Agent agent = Agent.builder(context, configText, event -> {
 *       if (event.eventType() == AgentConstants.EVENT_CONNECTED_TO_SERVER) { ... }
 *     })
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
 * handled in order. Events are delivered in the order they happen, one at a time, on the main thread,
 * or on the executor given to {@link Builder#eventExecutor}.
 *
 * <p><b>Lifecycle.</b> The agent connects to the interaction channel at creation and keeps the
 * connection, reconnecting with bounded backoff and following the device's network. {@link #destroy()}
 * releases everything: every command still pending gets its one reply with {@link
 * AgentConstants#ERROR_DESTROYED}, then no more events come; later {@code sendMessage} calls throw.
 */
public final class Agent {
  private final AgentConfig config;
  private final AgentEngine engine;
  private final NetworkWatcher network;
  private final @Nullable TokenManager tokenManager;
  private final TokenManager.Listener tokenListener;
  private final @Nullable EncryptedTokenStore encryptedStore;
  private final EncryptedTokenStore.@Nullable Listener storeListener;

  private Agent(Builder builder) {
    this.config = AgentConfig.parse(builder.configText);
    if (builder.tokenSource == null) {
      if (config.clientId() == null) {
        throw new IllegalArgumentException("auth.client_id is missing from the config: it is required"
            + " for the device's token manager unless a TokenSource is passed to"
            + " Agent.Builder.tokenSource(...); add \"auth\": {\"client_id\": \"<your client id>\"}");
      }
      if (config.authUrl() == null) {
        throw new IllegalArgumentException("server.auth_url is missing from the config: it is required"
            + " to refresh the device token unless a TokenSource is passed to"
            + " Agent.Builder.tokenSource(...); add \"auth_url\" to \"server\"");
      }
    }
    VoiceLinkConfig.Builder core = VoiceLinkConfig.builder().baseUrl(config.baseUrl());
    if (config.authUrl() != null) core.authUrl(config.authUrl());
    if (config.platformUrl() != null) core.platformUrl(config.platformUrl());
    if (builder.httpClient != null) core.httpClient(builder.httpClient);
    if (builder.clock != null) core.clock(builder.clock);
    if (builder.scheduler != null) core.scheduler(builder.scheduler);
    core.httpLogging(builder.httpLogging);
    VoiceLinkConfig voiceLink = core.build();

    EntityWebApi api = builder.entityWebApi;
    String missing = "";
    if (api == null && config.namespace() != null && config.accountKey() != null) {
      api = EntityWebApi.builder(voiceLink).namespace(config.namespace())
          .accountKey(config.accountKey()).build();
    }
    if (api == null) {
      missing = "entity upload is not configured: set entity.namespace and entity.account_key in the"
          + " config, or pass an EntityWebApi to Agent.Builder.entityWebApi(...)";
    }
    EntityBackend backend = api == null ? null
        : new WebApiEntityBackend(api, Collections.unmodifiableMap(
            new LinkedHashMap<>(builder.definitions)));

    final Executor events = new OrderedExecutor(builder.eventExecutor != null
        ? builder.eventExecutor : new MainThreadExecutor());
    final AgentListener listener = builder.listener;
    EventSink sink = new EventSink() {
      @Override public void emit(int eventType, int arg1, int arg2, String info,
          Map<String, Object> data) {
        final AgentEvent event = new AgentEvent(eventType, arg1, arg2, info, data);
        events.execute(new Runnable() {
          @Override public void run() {
            listener.onEvent(event);
          }
        });
      }
    };
    TokenSource tokens = builder.tokenSource;
    EncryptedTokenStore encryptedStore = null;
    if (tokens == null) {
      TokenStore store = builder.tokenStore;
      if (store == null) store = EncryptedTokenStore.create(builder.context);
      if (store instanceof EncryptedTokenStore) encryptedStore = (EncryptedTokenStore) store;
      tokens = TokenManager.builder(voiceLink).deviceGrant(config.clientId()).store(store).build();
    }
    this.engine = new AgentEngine(config,
        new ChannelFactory(voiceLink, tokens, builder.maxReconnectAttempts, builder.random),
        backend, missing, voiceLink.deviceClock(), voiceLink.scheduler(), sink);
    if (encryptedStore != null) {
      this.storeListener = new EncryptedTokenStore.Listener() {
        @Override public void onReauthorizationRequired(String reason) {
          engine.notAuthorized(reason);
        }
      };
      encryptedStore.addListener(storeListener);
    } else {
      this.storeListener = null;
    }
    this.encryptedStore = encryptedStore;
    this.tokenManager = tokens instanceof TokenManager ? (TokenManager) tokens : null;
    // An app's own manager may hold a cloud credential, for which having no token yet is normal.
    final boolean ownManager = builder.tokenSource == null;
    this.tokenListener = new TokenManager.Listener() {
      @Override public void onStateChanged(TokenManager.State state) {
        if (state == TokenManager.State.NO_TOKEN && ownManager) {
          engine.notAuthorized(AgentEngine.NO_TOKEN);
        } else if (state == TokenManager.State.REAUTHORIZATION_REQUIRED) {
          engine.notAuthorized("The device must be authorized again: its refresh token was refused."
              + " Run the device flow (DeviceAuthorizer) and TokenManager.setRecord, then create a"
              + " new Agent.");
        }
      }
    };
    final TokenManager manager = tokenManager;
    if (manager != null) {
      // On the worker: the first look at the token store is disk and Keystore I/O.
      engine.execute(new Runnable() {
        @Override public void run() {
          manager.addListener(tokenListener);
        }
      });
    }
    this.network = new NetworkWatcher(builder.context, engine);
    engine.start(network.start());
  }

  /**
   * Creates an agent with the defaults: events on the main thread, a fresh HTTP client, and the
   * device's tokens from a {@link TokenManager} for the config's {@code auth.client_id} and {@code
   * server.auth_url}, kept in an {@link EncryptedTokenStore} (store {@code default}). The device must
   * have been authorized once (the device flow, then {@code TokenManager.setRecord} on a manager with
   * the same store); if not, the agent reports {@code EVENT_ERROR} {@link
   * AgentConstants#ERROR_NOT_AUTHORIZED}.
   *
   * @throws IllegalArgumentException if the config is invalid, naming the setting (for example a
   *     missing {@code login.appid} or {@code auth.client_id})
   */
  public static Agent create(Context context, String config, AgentListener listener) {
    return builder(context, config, listener).build();
  }

  /**
   * Creates an agent with the defaults and the app's own token source.
   *
   * @throws IllegalArgumentException if the config is invalid, naming the setting (for example a
   *     missing {@code login.appid})
   */
  public static Agent create(Context context, String config, AgentListener listener,
      TokenSource tokenSource) {
    return builder(context, config, listener).tokenSource(tokenSource).build();
  }

  public static Builder builder(Context context, String config, AgentListener listener) {
    return new Builder(context, config, listener);
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

  /** Releases threads, the socket and the network callback. Idempotent; never blocks. */
  public void destroy() {
    network.stop();
    if (tokenManager != null) tokenManager.removeListener(tokenListener);
    if (encryptedStore != null && storeListener != null) encryptedStore.removeListener(storeListener);
    engine.destroy();
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
    @Nullable OkHttpClient httpClient;
    @Nullable TokenSource tokenSource;
    @Nullable TokenStore tokenStore;
    @Nullable EntityWebApi entityWebApi;
    final Map<String, ResourceDefinition> definitions = new LinkedHashMap<>();
    @Nullable Clock clock;
    @Nullable Scheduler scheduler;
    HttpLogLevel httpLogging = HttpLogLevel.NONE;
    int maxReconnectAttempts = 10;
    Random random = new SecureRandom();

    Builder(Context context, String configText, AgentListener listener) {
      if (context == null) throw new IllegalArgumentException("context must not be null");
      if (configText == null) throw new IllegalArgumentException("config must not be null");
      if (listener == null) throw new IllegalArgumentException("listener must not be null");
      this.context = context.getApplicationContext() != null ? context.getApplicationContext() : context;
      this.configText = configText;
      this.listener = listener;
    }

    /** Where events are delivered, one at a time and in order. Default: the main thread. */
    public Builder eventExecutor(Executor executor) {
      if (executor == null) throw new IllegalArgumentException("eventExecutor must not be null");
      this.eventExecutor = executor;
      return this;
    }

    /** The app's OkHttp client, so the agent shares its connection pool. */
    public Builder httpClient(OkHttpClient client) {
      if (client == null) throw new IllegalArgumentException("httpClient must not be null");
      this.httpClient = client;
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

    /**
     * Logs the agent's HTTP traffic and, at {@link HttpLogLevel#BODY}, its interaction frames
     * through {@code VoiceLinkLog}, secrets redacted. Default {@link HttpLogLevel#NONE}; for
     * development builds only.
     */
    public Builder httpLogging(HttpLogLevel level) {
      if (level == null) throw new IllegalArgumentException("httpLogging must not be null");
      this.httpLogging = level;
      return this;
    }

    /** The clock (tests pass a controllable one). */
    public Builder clock(Clock clock) {
      if (clock == null) throw new IllegalArgumentException("clock must not be null");
      this.clock = clock;
      return this;
    }

    /** Where waits run (tests pass a controllable one). */
    public Builder scheduler(Scheduler scheduler) {
      if (scheduler == null) throw new IllegalArgumentException("scheduler must not be null");
      this.scheduler = scheduler;
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

    Builder random(Random random) {
      this.random = random;
      return this;
    }

    /**
     * @throws IllegalArgumentException if the config is invalid, naming the setting (without a
     *     token source, {@code auth.client_id} and {@code server.auth_url} are required)
     */
    public Agent build() {
      return new Agent(this);
    }
  }
}
