package dev.voicelink.testing;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockWebServer;
import org.jspecify.annotations.Nullable;

/**
 * A strict, complete in-process stand-in for the platform: the authorization service with its
 * verification page, the platform tools upload, the dynamic-entity web API and the interaction channel,
 * all on one loopback port.
 *
 * <pre>{@code
 * // a manual clock at 2025-11-21T08:00:00Z (clients take a server time before 2020 for a broken clock)
 * try (ReferenceServer server = ReferenceServer.builder().clock(ServerClock.manual(1_763_712_000_000L))
 *     .build()) {
 *   server.start();
 *   String auth = server.authUrl();      // http://127.0.0.1:PORT/auth
 *   ...
 *   new SimulatedTester(server).approve(userCode);
 * }
 * }</pre>
 *
 * <p>Thread-safe. Lifecycle: build, {@link #start()} once, {@link #close()} once; the addresses are
 * available after start. State lives in memory and dies with the server.
 */
public final class ReferenceServer implements AutoCloseable {
  private final Console console;
  private final ServerClock clock;
  private final InetAddress bindAddress;
  private final int port;
  /**
   * The largest request body the server takes, in bytes: more than the form of a resource at the SDK's
   * default limit (32 MiB before Base64). A longer one is answered HTTP 413 {@code request_too_large};
   * the server reads no more than this of it and neither passes it on nor keeps it.
   */
  public static final long MAX_BODY_BYTES = 64L * 1024 * 1024;

  private final Journal journal;
  private final Faults faults = new Faults();
  private final AuthState authState = new AuthState();
  private final ResourceStore resources;
  private final VerificationPage verificationPage;
  private final MockWebServer server = newMockWebServer();
  private final SpeechRecognizer recognizer;
  private final ServerConnections connections;
  private final long keepAliveMillis;
  private final IdleClose idleClose;
  /** Stops the sweeps of idle connections; null when there are none. */
  private volatile @Nullable Runnable stopIdleSweeps;
  private volatile boolean started;
  private volatile @Nullable InteractionService interaction;
  private volatile @Nullable Router router;
  /** How often a server whose clock runs by itself looks for connections idle for the timeout. */
  private static final long IDLE_SWEEP_MILLIS = 50;
  /** How long {@link #close()} lets interaction clients answer the server's close frame. */
  private static final long CLOSE_HANDSHAKE_MILLIS = 2_000;

  private ReferenceServer(Builder b) {
    console = b.console != null ? b.console : Console.defaults();
    clock = b.clock != null ? b.clock : ServerClock.system();
    bindAddress = b.bindAddress != null ? b.bindAddress : InetAddress.getLoopbackAddress();
    port = b.port;
    recognizer = b.recognizer != null ? b.recognizer : (audio, rate) -> "";
    journal = new Journal(b.journalLimit);
    resources = new ResourceStore();
    verificationPage = new VerificationPage(console, authState, Router.VERIFY);
    keepAliveMillis = b.keepAliveMillis;
    idleClose = b.idleClose;
    connections = new ServerConnections(clock, keepAliveMillis, idleClose);
  }

  /**
   * MockWebServer of another version than the OkHttp on the class path fails inside OkHttp's internal
   * classes (an app on OkHttp 5 with this library's MockWebServer 4): say what to align instead.
   */
  private static MockWebServer newMockWebServer() {
    try {
      return new MockWebServer();
    } catch (LinkageError e) {
      throw new IllegalStateException("the reference server runs on MockWebServer"
          + " (com.squareup.okhttp3:mockwebserver), which must be the version of OkHttp on the class"
          + " path, OkHttp " + okHttpVersion() + ": add mockwebserver of that version, or import"
          + " com.squareup.okhttp3:okhttp-bom (docs/getting-started.md, \"Apps on OkHttp 5\"); " + e,
          e);
    }
  }

  /** Read at run time: {@code OkHttp.VERSION} is a constant, which the compiler would copy in. */
  private static String okHttpVersion() {
    try {
      return String.valueOf(Class.forName("okhttp3.OkHttp").getField("VERSION").get(null));
    } catch (ReflectiveOperationException | LinkageError e) {
      return "(version unknown)";
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Sweeps idle connections on a thread of the server's own; the returned action stops the thread
   * and waits for it to end, so that a server closed, or one that failed to start, leaves none.
   */
  private Runnable startIdleSweeps() {
    final Thread[] thread = new Thread[1];
    final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
      thread[0] = new Thread(runnable, "reference-server-idle-sweep");
      thread[0].setDaemon(true);
      return thread[0];
    });
    sweeper.scheduleWithFixedDelay(connections::sweep, IDLE_SWEEP_MILLIS, IDLE_SWEEP_MILLIS,
        TimeUnit.MILLISECONDS); // starts the thread, on this one
    return () -> {
      sweeper.shutdownNow();
      try {
        if (thread[0] != null) thread[0].join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /** Starts serving. Returns this for chaining. */
  public synchronized ReferenceServer start() throws IOException {
    if (started) throw new IllegalStateException("already started");
    server.setServerSocketFactory(connections);
    if (keepAliveMillis > 0 && idleClose == IdleClose.WHEN_IDLE) {
      stopIdleSweeps = clock.onAdvance(connections::sweep);
      if (stopIdleSweeps == null) stopIdleSweeps = startIdleSweeps();
    }
    server.setBodyLimit(MAX_BODY_BYTES); // beyond it MockWebServer reads and drops: see HttpCall.bodyCutOff
    try {
      server.start(bindAddress, port);
    } catch (IOException | RuntimeException e) {
      // close() is not called on a server that did not start: nothing may be left sweeping
      if (stopIdleSweeps != null) stopIdleSweeps.run();
      stopIdleSweeps = null;
      throw e;
    }
    String base = origin();
    AuthService auth = new AuthService(console, authState, base + Router.VERIFY);
    WebApiService webApi = new WebApiService(console, resources, bindAddress.getHostAddress());
    PlatformToolsService platform = new PlatformToolsService(console, authState, resources);
    InteractionService interact =
        new InteractionService(console, authState, resources, clock, recognizer, journal);
    interaction = interact;
    final Router routing = new Router(console, clock, journal, faults, auth, verificationPage,
        webApi::upload, webApi::check, platform::upload, interact::upgrade);
    router = routing;
    server.setDispatcher(new okhttp3.mockwebserver.Dispatcher() {
      @Override public okhttp3.mockwebserver.MockResponse dispatch(
          okhttp3.mockwebserver.RecordedRequest request) throws InterruptedException {
        // MockWebServer keeps every request for takeRequest(), which this server never calls: its
        // journal is the record. Left there, a long-running server would grow by each request.
        while (server.takeRequest(0, TimeUnit.NANOSECONDS) != null) {
          // dropped
        }
        return routing.dispatch(request);
      }
    });
    started = true;
    return this;
  }

  /** The request router, for tests that feed it requests without a socket (fuzzing). */
  okhttp3.mockwebserver.Dispatcher dispatcher() {
    return server.getDispatcher();
  }

  /**
   * Closes every open interaction-channel session with 1001 (going away), as a server restart would,
   * while the server keeps running: clients see their socket dropped and may reconnect.
   */
  public void dropInteractionSessions() {
    if (interaction != null) interaction.closeAll();
  }

  /**
   * Waits, at most {@code timeout} of real time, until no interaction-channel session is open: every
   * socket the server upgraded has ended its close handshake or failed. Returns false if one is still
   * open then, for tests of a client that must close what it opened.
   */
  public boolean awaitInteractionSessionsClosed(long timeout, TimeUnit unit) throws InterruptedException {
    if (unit == null) throw new IllegalArgumentException("unit must not be null");
    InteractionService sessions = interaction;
    return sessions == null || sessions.awaitAllClosed(unit.toMillis(timeout));
  }

  @Override public void close() throws IOException {
    Runnable stopSweeps = stopIdleSweeps;
    if (stopSweeps != null) stopSweeps.run();
    Router routing = router;
    if (routing != null) routing.releaseHeld();
    if (interaction != null) {
      try {
        interaction.closeAll();
        interaction.awaitAllClosed(CLOSE_HANDSHAKE_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    server.shutdown();
  }

  private String origin() {
    String host = bindAddress.getHostAddress();
    if (bindAddress instanceof Inet6Address) host = "[" + host + "]";
    return "http://" + host + ":" + server.getPort();
  }

  private void checkStarted() {
    if (!started) throw new IllegalStateException("call start() first");
  }

  /** {@code {auth_url}}, without a trailing slash, e.g. {@code http://127.0.0.1:PORT/auth}. */
  public String authUrl() {
    checkStarted();
    return origin() + Router.AUTH;
  }

  /** {@code {platform_url}}, without a trailing slash. */
  public String platformUrl() {
    checkStarted();
    return origin() + Router.PLATFORM;
  }

  /** {@code {base_url}} of the web API and the interaction channel, without a trailing slash. */
  public String baseUrl() {
    checkStarted();
    return origin() + Router.API;
  }

  /** The verification page, {@code verification_uri} of device_code answers. */
  public String verificationUri() {
    return authUrl() + "/verify";
  }

  public int port() {
    checkStarted();
    return server.getPort();
  }

  /** The console; changes apply to the next request. */
  public Console console() {
    return console;
  }

  public ServerClock clock() {
    return clock;
  }

  public Journal journal() {
    return journal;
  }

  public Faults faults() {
    return faults;
  }

  /** The keep-alive timeout in milliseconds, 0 when idle connections stay open; and when they close. */
  long keepAliveMillis() {
    return keepAliveMillis;
  }

  IdleClose idleClose() {
    return idleClose;
  }

  /**
   * Kept-alive connections the server closed because they were idle for its {@linkplain
   * Builder#keepAliveTimeout keep-alive timeout}, either way {@link IdleClose} says.
   */
  public int idleConnectionsClosed() {
    return connections.closedIdle();
  }

  /**
   * Requests that arrived on a connection idle for the keep-alive timeout and were dropped with it,
   * unread ({@link IdleClose#AS_REQUEST_ARRIVES}): requests a client sent and the server never
   * processed. They are not in the {@link #journal()}.
   */
  public int requestsDroppedIdle() {
    return connections.droppedRequests();
  }

  /** The last one-time code "texted" to this phone by the verification page; null if none was sent. */
  public @Nullable String lastSmsCode(String phone) {
    return verificationPage.lastSmsCode(phone);
  }

  void smsListener(VerificationPage.SmsListener listener) {
    verificationPage.smsListener(listener);
  }

  /** Everything a request could change, summarized; equal before and after a refused request. */
  String stateSummary() {
    return authState.summary() + " uploads=" + resources.size() + " " + verificationPage.summary();
  }

  @Override public String toString() {
    return "ReferenceServer{" + (started ? origin() : "not started") + "}";
  }

  /** Configures a {@link ReferenceServer}. Every setting is optional. Not thread-safe. */
  public static final class Builder {
    private @Nullable Console console;
    private @Nullable ServerClock clock;
    private @Nullable InetAddress bindAddress;
    private int port;
    private @Nullable SpeechRecognizer recognizer;
    private int journalLimit = Integer.MAX_VALUE;
    private long keepAliveMillis;
    private IdleClose idleClose = IdleClose.WHEN_IDLE;

    Builder() {
    }

    /**
     * Closes a kept-alive connection once it has been idle for {@code timeout} on the server's clock,
     * as servers, proxies and NATs do (Node's HTTP server after 5 s, nginx after 75 s, load balancers
     * after about a minute), at the moment {@code how} says. Default: connections stay open until the
     * client closes them.
     *
     * @throws IllegalArgumentException if {@code timeout} is below 1 ms, or {@code unit} or {@code how}
     *     is null
     */
    public Builder keepAliveTimeout(long timeout, TimeUnit unit, IdleClose how) {
      if (unit == null) throw new IllegalArgumentException("unit must not be null");
      if (how == null) throw new IllegalArgumentException("how must not be null");
      long millis = unit.toMillis(timeout);
      if (millis < 1) {
        throw new IllegalArgumentException("keepAliveTimeout must be at least 1 ms; was: " + timeout + " "
            + unit);
      }
      this.keepAliveMillis = millis;
      this.idleClose = how;
      return this;
    }

    /**
     * Keeps only about the last {@code maxCalls} calls in the {@link ReferenceServer#journal()}, each
     * body cut to its first 4,096 characters, for a server left running (the standalone server keeps
     * 10,000; {@link Journal#awaitSize} cannot wait for more). Default: every call whole, as a test
     * reads them.
     */
    public Builder journalLimit(int maxCalls) {
      if (maxCalls < 10) throw new IllegalArgumentException("journalLimit must be at least 10; was: " + maxCalls);
      this.journalLimit = maxCalls;
      return this;
    }

    /** Default: {@link Console#defaults()}. */
    public Builder console(Console console) {
      if (console == null) throw new IllegalArgumentException("console must not be null");
      this.console = console;
      return this;
    }

    /** Default: {@link ServerClock#system()}. */
    public Builder clock(ServerClock clock) {
      if (clock == null) throw new IllegalArgumentException("clock must not be null");
      this.clock = clock;
      return this;
    }

    /** Default: the loopback address. */
    public Builder bindAddress(InetAddress address) {
      if (address == null) throw new IllegalArgumentException("bindAddress must not be null");
      this.bindAddress = address;
      return this;
    }

    /** Default: 0, any free port. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be 0..65535; was: " + port);
      this.port = port;
      return this;
    }

    /** Default: a recognizer that hears nothing (empty text). */
    public Builder recognizer(SpeechRecognizer recognizer) {
      if (recognizer == null) throw new IllegalArgumentException("recognizer must not be null");
      this.recognizer = recognizer;
      return this;
    }

    public ReferenceServer build() {
      return new ReferenceServer(this);
    }
  }

}
