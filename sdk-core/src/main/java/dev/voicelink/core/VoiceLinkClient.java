package dev.voicelink.core;

import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.HttpLogger;
import dev.voicelink.core.internal.NamedThreads;
import dev.voicelink.core.internal.SkewCorrectedClock;
import java.io.Closeable;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * The SDK's entry point: where the platform is, and the resources every service shares. Create one
 * per app (Android: in {@code Application} scope), create the services from it, and close it when the
 * app no longer needs VoiceLink.
 *
 * <pre>{@code
 * VoiceLinkClient client = VoiceLinkClient.builder()
 *     .authUrl("https://auth.example.com")
 *     .baseUrl("https://api.example.com")
 *     .httpClient(appOkHttpClient)     // optional: share the app's connection pool and dispatcher
 *     .build();
 * DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build();
 * EntityWebApi api = EntityWebApi.builder(client).namespace("OS123").accountKey(key).build();
 * ...
 * client.close();                      // when the app is done with VoiceLink
 * }</pre>
 *
 * <p>The three base addresses of the platform are configuration, never constants: {@code auth_url}
 * (authorization service), {@code platform_url} (platform tools) and {@code base_url} (dynamic entity
 * web API and interaction channel). Each service needs only its own address; building a service whose
 * address was not set fails with an {@link IllegalStateException} naming the setting.
 *
 * <p><b>What it owns.</b> One OkHttp client, derived from the app's with {@link
 * OkHttpClient#newBuilder()} when one is given (so the app's connection pool and dispatcher are
 * shared), a connection pool of its own for the requests that must not be sent twice (on which no
 * connection idle for a second or more is used: servers close idle connections), one scheduler thread ({@code voicelink-scheduler}) that keeps the time of the SDK's waits,
 * and a pool of worker threads ({@code voicelink-io}) for its blocking work, including what a wait
 * does when it ends (so a slow check never delays a poll); threads start when first needed and
 * are daemons. {@link #close()} cancels every call still running, closes the interaction channels
 * made from this client, stops those threads, closes the connections of its own pool, and, when the
 * SDK made its own OkHttp client, shuts its dispatcher down and evicts its connections. What the app passed in (its OkHttp client, its
 * executors, its scheduler) is never shut down: the app's connection pool keeps its connections.
 *
 * <p><b>Threading.</b> Immutable once built and safe to share between threads. Asynchronous results
 * are delivered on the {@linkplain Builder#callbackExecutor callback executor}: on Android the main
 * thread, elsewhere the SDK thread that finished the work, unless the app chose another.
 *
 * <p>After {@link #close()}, building a service from the client, starting a call, or connecting a
 * channel throws {@link IllegalStateException}.
 */
public final class VoiceLinkClient implements Closeable {
  static {
    ClientCore.Access.SEAM.install(new ClientCore.Access() {
      @Override public ClientCore core(VoiceLinkClient client) {
        return client.core;
      }
    });
  }

  private final ClientCore core;

  /**
   * The OkHttp client the SDK makes when the app gives none: OkHttp's defaults, but with daemon
   * dispatcher threads, as every thread of the SDK's is (OkHttp's own are not, and a JVM program that
   * forgot {@link #close()} would then live on while a poll or a channel's socket holds one).
   */
  private static OkHttpClient ownHttpClient() {
    // OkHttp's own pool: a thread per call, none kept idle past 60 s
    ExecutorService threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
        new SynchronousQueue<Runnable>(), new NamedThreads("OkHttp Dispatcher"));
    return new OkHttpClient.Builder().dispatcher(new Dispatcher(threads)).build();
  }

  private VoiceLinkClient(Builder builder) {
    SkewCorrectedClock corrected = new SkewCorrectedClock(builder.clock);
    OkHttpClient base = builder.httpClient != null ? builder.httpClient : ownHttpClient();
    OkHttpClient.Builder derived = base.newBuilder()
        .addNetworkInterceptor(new ServerDateInterceptor(corrected));
    HttpLogger logger = builder.httpLogging == HttpLogLevel.NONE ? null
        : new HttpLogger(builder.httpLogging, builder.clock);
    if (logger != null) {
      // Last network interceptor: it logs what goes over the wire, after every header is set.
      derived.addNetworkInterceptor(logger);
    }
    this.core = new ClientCore(builder.authUrl, builder.platformUrl, builder.baseUrl,
        derived.build(), builder.httpClient == null, builder.clock, corrected,
        builder.scheduler,
        builder.callbackExecutor != null ? builder.callbackExecutor : Platform.callbackExecutor(),
        logger);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Releases what the client owns: cancels every call still running (their callbacks report the
   * cancellation), closes the interaction channels made from it, stops the SDK's threads, and, when
   * the SDK made its own OkHttp client, shuts down its dispatcher and evicts its connections (on the
   * dispatcher's last thread: closing a TLS connection is network I/O, refused on Android's main
   * thread). Never shuts down what the app passed in. Idempotent; does not block.
   */
  @Override public void close() {
    core.close();
  }

  /**
   * Waits until the work the client was doing when it closed has ended, or {@code timeout} has
   * passed: a token refresh already sent is read to its end and its record saved, since the server
   * voided the old refresh token when it answered. The SDK's worker threads are daemons: a JVM
   * program that closes the client and then exits
   * (a service's shutdown hook, a command-line tool) calls this first, so that a rotated record is
   * not lost with them. It does not wait for the app's own executors. It blocks: not for Android's
   * main thread.
   *
   * @return true if that work has ended, false if {@code timeout} passed first
   * @throws IllegalStateException if the client is not closed yet
   * @throws IllegalArgumentException if {@code timeout} is negative or {@code unit} is null
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    if (timeout < 0) throw new IllegalArgumentException("timeout must not be negative");
    if (unit == null) throw new IllegalArgumentException("unit must not be null");
    return core.awaitTermination(unit.toNanos(timeout));
  }

  /** True once {@link #close()} was called. */
  public boolean isClosed() {
    return core.isClosed();
  }

  @Override public String toString() {
    return "VoiceLinkClient{auth_url=" + core.authUrlOrNull() + ", platform_url="
        + core.platformUrlOrNull() + ", base_url=" + core.baseUrlOrNull()
        + (core.isClosed() ? ", closed" : "") + "}";
  }

  /**
   * Builds a {@link VoiceLinkClient}. Each setter checks its argument at once and throws {@link
   * IllegalArgumentException} naming the setting. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable HttpUrl authUrl;
    private @Nullable HttpUrl platformUrl;
    private @Nullable HttpUrl baseUrl;
    private @Nullable OkHttpClient httpClient;
    private @Nullable Executor callbackExecutor;
    private Clock clock = Clock.system();
    private @Nullable Scheduler scheduler;
    private HttpLogLevel httpLogging = HttpLogLevel.NONE;

    Builder() {
    }

    /** The authorization service address, e.g. {@code https://auth.example.com}. */
    public Builder authUrl(String authUrl) {
      this.authUrl = ClientCore.parseBaseAddress(authUrl, "auth_url");
      return this;
    }

    /** The platform tools address, e.g. {@code https://platform.example.com}. */
    public Builder platformUrl(String platformUrl) {
      this.platformUrl = ClientCore.parseBaseAddress(platformUrl, "platform_url");
      return this;
    }

    /** The dynamic entity web API and interaction channel address, e.g. {@code https://api.example.com}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = ClientCore.parseBaseAddress(baseUrl, "base_url");
      return this;
    }

    /**
     * The app's own OkHttp client: the SDK derives its client from it with {@link
     * OkHttpClient#newBuilder()}, sharing its connection pool, dispatcher, proxy and certificate
     * settings. The SDK never shuts it down nor evicts its connections.
     */
    public Builder httpClient(OkHttpClient httpClient) {
      if (httpClient == null) throw new IllegalArgumentException("httpClient must not be null");
      this.httpClient = httpClient;
      return this;
    }

    /**
     * Where the callbacks of enqueued calls and the device flow's listener run. Default: Android's
     * main thread on Android; elsewhere the SDK thread that finished the work (the callback must then
     * not block). The SDK never shuts it down.
     */
    public Builder callbackExecutor(Executor executor) {
      if (executor == null) throw new IllegalArgumentException("callbackExecutor must not be null");
      this.callbackExecutor = executor;
      return this;
    }

    /**
     * The device's clock, for a device whose time comes from elsewhere or a simulation (the
     * speaker CLI's demo runs its clocks 30 times faster). Defaults to {@link Clock#system()}. Waits
     * follow the {@linkplain #scheduler scheduler}: give one that agrees with this clock.
     */
    public Builder clock(Clock clock) {
      if (clock == null) throw new IllegalArgumentException("clock must not be null");
      this.clock = clock;
      return this;
    }

    /**
     * Where the SDK's waits run, for simulated time (see {@link #clock}). Default: the client's own,
     * whose {@code voicelink-scheduler} thread keeps time and hands each wait that ends to a {@code
     * voicelink-io} worker; {@link VoiceLinkClient#close()} stops it. A scheduler given here belongs
     * to the app and is never shut down.
     */
    public Builder scheduler(Scheduler scheduler) {
      if (scheduler == null) throw new IllegalArgumentException("scheduler must not be null");
      this.scheduler = scheduler;
      return this;
    }

    /**
     * Logs the SDK's HTTP traffic through {@link VoiceLinkLog} (tag {@code http}, level {@code
     * DEBUG}), secrets redacted; see {@link HttpLogLevel}. Default {@link HttpLogLevel#NONE}. Meant
     * for development: {@link HttpLogLevel#BODY} writes personal data such as user codes, entity
     * names and recognized text.
     */
    public Builder httpLogging(HttpLogLevel level) {
      if (level == null) throw new IllegalArgumentException("httpLogging must not be null");
      this.httpLogging = level;
      return this;
    }

    /** Builds the client. Its threads start only when first needed. */
    public VoiceLinkClient build() {
      return new VoiceLinkClient(this);
    }
  }
}
