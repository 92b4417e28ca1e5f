package dev.voicelink.core.internal;

import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.VoiceLinkClient;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * What a {@link VoiceLinkClient} holds, as the services see it: the addresses, the HTTP client, the
 * clocks, the scheduler, the worker threads and the callback executor, and the calls and channels
 * that {@code close()} must end. The services reach it with {@link #of(VoiceLinkClient)}.
 */
public final class ClientCore {
  /** The fixed path segment that stands for the product in web API paths ({@code /v2/voicelink/...}). */
  public static final String PRODUCT = "voicelink";

  private final @Nullable HttpUrl authUrl;
  private final @Nullable HttpUrl platformUrl;
  private final @Nullable HttpUrl baseUrl;
  private final OkHttpClient http;
  private final boolean ownsHttp;
  private final Clock deviceClock;
  private final SkewCorrectedClock correctedClock;
  private final Scheduler scheduler;
  private final @Nullable SystemScheduler ownScheduler;
  private final Executor callbackExecutor;
  private final @Nullable HttpLogger httpLogger;
  private final ThreadPoolExecutor io;
  private final ConnectionIdleness onceOnly;

  private final Object lock = new Object();
  private final Set<AbstractVoiceLinkCall<?>> calls =
      Collections.newSetFromMap(new IdentityHashMap<AbstractVoiceLinkCall<?>, Boolean>());
  private final Set<Closeable> resources = Collections.newSetFromMap(new IdentityHashMap<Closeable, Boolean>());
  private boolean closed;

  public ClientCore(@Nullable HttpUrl authUrl, @Nullable HttpUrl platformUrl,
      @Nullable HttpUrl baseUrl, OkHttpClient http, boolean ownsHttp, Clock deviceClock,
      SkewCorrectedClock correctedClock, @Nullable Scheduler appScheduler,
      Executor callbackExecutor, @Nullable HttpLogger httpLogger) {
    this.authUrl = authUrl;
    this.platformUrl = platformUrl;
    this.baseUrl = baseUrl;
    this.http = http;
    this.ownsHttp = ownsHttp;
    this.deviceClock = deviceClock;
    this.correctedClock = correctedClock;
    this.callbackExecutor = callbackExecutor;
    this.httpLogger = httpLogger;
    this.onceOnly = new ConnectionIdleness(deviceClock);
    // Unbounded like OkHttp's dispatcher: each thread serves one call at a time, and idle threads
    // end after a minute, so a client that is not used holds none.
    this.io = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
        new SynchronousQueue<Runnable>(), new NamedThreads("voicelink-io"));
    if (appScheduler != null) {
      this.scheduler = appScheduler;
      this.ownScheduler = null;
    } else {
      SystemScheduler own = new SystemScheduler("voicelink-scheduler", io);
      this.scheduler = own;
      this.ownScheduler = own;
    }
  }

  /** The core of {@code client}. */
  public static ClientCore of(VoiceLinkClient client) {
    if (client == null) throw new IllegalArgumentException("client must not be null");
    return Access.SEAM.get().core(client);
  }

  /** The core of {@code client}, after checking it is still open. */
  public static ClientCore open(VoiceLinkClient client) {
    ClientCore core = of(client);
    core.checkOpen();
    return core;
  }

  public HttpUrl authUrl() {
    return require(authUrl, "auth_url", "authUrl");
  }

  public HttpUrl platformUrl() {
    return require(platformUrl, "platform_url", "platformUrl");
  }

  public HttpUrl baseUrl() {
    return require(baseUrl, "base_url", "baseUrl");
  }

  public @Nullable HttpUrl authUrlOrNull() {
    return authUrl;
  }

  public @Nullable HttpUrl platformUrlOrNull() {
    return platformUrl;
  }

  public @Nullable HttpUrl baseUrlOrNull() {
    return baseUrl;
  }

  /** {@code {base_url}/v2/voicelink/<path>}, for example {@code webApiUrl("entity/upload-resource")}. */
  public HttpUrl webApiUrl(String path) {
    return baseUrl().newBuilder().addPathSegment("v2").addPathSegment(PRODUCT)
        .addPathSegments(path).build();
  }

  /** {@code {auth_url}/<path>}, for example {@code authEndpoint("oauth/ivs/token")}. */
  public HttpUrl authEndpoint(String path) {
    return authUrl().newBuilder().addPathSegments(path).build();
  }

  /** {@code {platform_url}/<path>}, for example {@code platformEndpoint("tools/upload_entities")}. */
  public HttpUrl platformEndpoint(String path) {
    return platformUrl().newBuilder().addPathSegments(path).build();
  }

  /**
   * The connections of the requests that must not be sent twice ({@link SendOnce}): a pool of the
   * client's own, whose connections it times.
   */
  ConnectionIdleness onceOnlyConnections() {
    return onceOnly;
  }

  /** The client's OkHttp client; services derive theirs from it with {@code newBuilder()}. */
  public OkHttpClient http() {
    return http;
  }

  public Clock deviceClock() {
    return deviceClock;
  }

  /** The device clock corrected by the offset learnt from the servers: for wall time that is sent. */
  public SkewCorrectedClock correctedClock() {
    return correctedClock;
  }

  public Scheduler scheduler() {
    return scheduler;
  }

  public Executor callbackExecutor() {
    return callbackExecutor;
  }

  /**
   * The logger of the client's HTTP traffic; null when it logs none ({@code HttpLogLevel.NONE}), so that
   * an app that never turns logging on carries none of it: R8 sees the null.
   */
  public @Nullable HttpLogger httpLogger() {
    return httpLogger;
  }

  /**
   * The client's worker threads (named {@code voicelink-io}), for SDK work that must leave the thread
   * that noticed it, such as delivering a listener's calls through a {@link SerialDelivery}. Refuses
   * work once the client is closed.
   */
  public Executor workers() {
    return io;
  }

  /** Runs blocking work for a call on the client's worker threads. */
  void runBlocking(Runnable work) {
    try {
      io.execute(work);
    } catch (RejectedExecutionException e) {
      throw closedException();
    }
  }

  /** Fails with a clear message once the client is closed. */
  public void checkOpen() {
    synchronized (lock) {
      if (closed) throw closedException();
    }
  }

  public boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  static IllegalStateException closedException() {
    return new IllegalStateException("the VoiceLinkClient is closed: its services cannot be used any"
        + " more; build a new client");
  }

  void register(AbstractVoiceLinkCall<?> call) {
    synchronized (lock) {
      if (closed) throw closedException();
      calls.add(call);
    }
  }

  void unregister(AbstractVoiceLinkCall<?> call) {
    synchronized (lock) {
      calls.remove(call);
    }
  }

  /** Closes {@code resource} (an interaction channel, an Agent) when the client closes. */
  public void track(Closeable resource) {
    synchronized (lock) {
      if (closed) throw closedException();
      resources.add(resource);
    }
  }

  public void untrack(Closeable resource) {
    synchronized (lock) {
      resources.remove(resource);
    }
  }

  /** Number of resources the client will close; for tests. */
  public int trackedResources() {
    synchronized (lock) {
      return resources.size();
    }
  }

  /** Number of calls running now: a call stops once its result is with the callback executor. For tests. */
  public int runningCalls() {
    synchronized (lock) {
      return calls.size();
    }
  }

  public void close() {
    List<AbstractVoiceLinkCall<?>> running;
    List<Closeable> open;
    synchronized (lock) {
      if (closed) return;
      closed = true;
      running = new ArrayList<AbstractVoiceLinkCall<?>>(calls);
      open = new ArrayList<Closeable>(resources);
      calls.clear();
      resources.clear();
    }
    // What was made from the client first: an Agent told it is destroyed before its calls are
    // cancelled answers each pending command ERROR_DESTROYED, not the cancelled call's network error.
    // Each step runs whatever the one before threw (a callback on a same-thread executor may
    // throw an Error, or a Kotlin checked exception): a close cut short could not be done again,
    // and would leave calls waiting and threads running. The first Error goes on once all is shut.
    Error thrown = null;
    for (Closeable resource : open) {
      try {
        resource.close();
      } catch (Exception e) {
        Log.warn("core", "closing " + resource + " failed", e);
      } catch (Error e) {
        thrown = first(thrown, e);
      }
    }
    for (AbstractVoiceLinkCall<?> call : running) {
      try {
        call.cancel();
      } catch (Exception e) {
        Log.warn("core", "cancelling a call on close failed", e);
      } catch (Error e) {
        thrown = first(thrown, e);
      }
    }
    shutDown();
    if (thrown != null) throw thrown;
  }

  /**
   * Waits up to {@code timeoutNanos} for the client's worker threads to finish what they were doing
   * when it closed; whether they did.
   */
  public boolean awaitTermination(long timeoutNanos) throws InterruptedException {
    synchronized (lock) {
      if (!closed) {
        throw new IllegalStateException("awaitTermination waits for a closed client: call close()"
            + " first");
      }
    }
    return io.awaitTermination(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  private static Error first(@Nullable Error first, Error next) {
    if (first == null) return next;
    first.addSuppressed(next);
    return first;
  }

  /** Stops the threads and the HTTP client that the client made; runs nothing of the app's. */
  private void shutDown() {
    // On a worker, not the closing thread: closing a TLS connection writes its close_notify.
    io.execute(onceOnly::evictAll);
    io.shutdown();
    if (ownScheduler != null) ownScheduler.shutdown();
    if (ownsHttp) {
      http.dispatcher().cancelAll();
      ExecutorService dispatcher = http.dispatcher().executorService();
      // The dispatcher's last task, not this thread: closing a TLS connection writes its
      // close_notify, network I/O that Android forbids on the main thread (an Agent's destroy()
      // in onDestroy), and close() must not block.
      dispatcher.execute(() -> http.connectionPool().evictAll());
      dispatcher.shutdown();
    }
    Log.debug("core", "VoiceLinkClient closed");
  }

  private static HttpUrl require(@Nullable HttpUrl url, String setting, String method) {
    if (url == null) {
      throw new IllegalStateException(setting + " is not configured; set it with VoiceLinkClient"
          + ".Builder." + method + "(...)");
    }
    return url;
  }

  /** Checks and normalises a base address; the message names {@code setting}. */
  public static HttpUrl parseBaseAddress(@Nullable String value, String setting) {
    String expected = setting + " must be an http or https address such as https://host[:port][/path]";
    if (value == null || value.trim().isEmpty()) {
      throw new IllegalArgumentException(expected + "; was empty");
    }
    HttpUrl url = HttpUrl.parse(value.trim());
    if (url == null) {
      throw new IllegalArgumentException(expected + "; was: " + Scrub.address(value));
    }
    if (url.username().length() > 0 || url.password().length() > 0) {
      // Credentials in an address end up in logs and crash reports.
      throw new IllegalArgumentException(setting + " must not contain user credentials");
    }
    if (url.query() != null || url.fragment() != null) {
      throw new IllegalArgumentException(setting + " must not have a query or fragment; was: "
          + Scrub.address(value));
    }
    // Drop a trailing slash so that endpoint paths append to the last real segment.
    HttpUrl.Builder normalized = url.newBuilder();
    int last = url.pathSize() - 1;
    if (last >= 0 && url.pathSegments().get(last).isEmpty()) {
      if (last == 0) {
        normalized.encodedPath("/");
      } else {
        normalized.removePathSegment(last);
      }
    }
    return normalized.build();
  }

  /**
   * How the services reach a client's core without a public member on {@link VoiceLinkClient}: the
   * client installs the one instance when its class is initialized, before any client exists.
   */
  public interface Access {
    Seam<Access> SEAM = new Seam<>(VoiceLinkClient.class);

    ClientCore core(VoiceLinkClient client);
  }
}
