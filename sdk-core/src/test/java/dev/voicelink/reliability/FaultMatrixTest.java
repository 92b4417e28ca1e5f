package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.SeededAuthorizers;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntitySeams;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import okio.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every endpoint the SDK calls, against every network fault: the outcome must be a bounded retry or
 * a typed error, within a bounded time, with no unchecked exception on any thread, no stored token
 * lost, and a normal answer once the fault clears. The run is the table in docs/reliability.md.
 */
class FaultMatrixTest {
  /**
   * Timeouts of the app's client in the cells of {@link Fault#DELAY_BEYOND_TIMEOUT}: short, so that
   * "slower than the timeout" costs little real time.
   */
  static final long TIMEOUT_MILLIS = 300;
  /**
   * Timeouts of the app's client in the other cells, whose every exchange must succeed at once or meet
   * its fault: a loaded machine may take more than 300 ms to answer on loopback.
   */
  static final long RELAXED_TIMEOUT_MILLIS = 10_000;
  static final long SERVER_DELAY_MILLIS = 1_000;
  /** Real time one cell may take, whatever the fault: more is a hang. */
  static final long CELL_BOUND_MILLIS = 30_000;
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";
  static final long NOW_SECONDS = 1_763_712_000L;
  /** The device code's expires_in: the polls of a faulty token endpoint go on for that long. */
  static final long CODE_LIFETIME_SECONDS = 300;
  /** How long the server of the idle-close cells keeps an idle connection: Node's default. */
  static final long IDLE_CLOSE_MILLIS = 5_000;

  enum Target {
    DEVICE_CODE("device_code", "`POST /oauth/ivs/device_code` (DeviceAuthorizer.start)"),
    TOKEN_POLL("token poll", "`POST /oauth/ivs/token` device_code grant (DeviceAuthorizer.start)"),
    REFRESH("refresh", "`POST /oauth/ivs/token` refresh_token grant (TokenManager.accessToken)"),
    CLOUD_TOKEN("cloud token", "`POST /oauth/token` client_credentials (TokenManager.accessToken)"),
    UPLOAD_RESOURCE("upload-resource", "`POST /v2/voicelink/entity/upload-resource` (EntityWebApi.uploadResource)"),
    CHECK_RESOURCE("check-resource", "`POST /v2/voicelink/entity/check-resource` (EntityWebApi.awaitProcessed)"),
    UPLOAD_ENTITIES("upload_entities", "`POST /tools/upload_entities` (PlatformToolsClient.uploadEntities)"),
    INTERACT("interaction WebSocket", "`GET /v2/voicelink/interact` upgrade (InteractionChannel.connect)");

    final String label;
    final String call;

    Target(String label, String call) {
      this.label = label;
      this.call = call;
    }
  }

  enum Fault {
    CONNECTION_REFUSED("connection refused"),
    DISCONNECT_AT_START("disconnect at start"),
    DISCONNECT_MID_BODY("disconnect mid-body"),
    DELAY_BEYOND_TIMEOUT("answer later than the read timeout"),
    HTTP_500("HTTP 500"),
    HTTP_503_RETRY_AFTER("HTTP 503 + Retry-After: 2"),
    HTTP_503_RETRY_NOW("HTTP 503 + Retry-After: 0"),
    EMPTY_BODY("HTTP 200, empty body"),
    TRUNCATED_JSON("HTTP 200, truncated JSON"),
    HTML_ERROR_PAGE("HTTP 502 HTML error page"),
    WRONG_CONTENT_TYPE("HTTP 200 text/html (captive portal)"),
    IDLE_CLOSE("kept-alive connection closed as the request arrives, after 5 s idle");

    final String label;

    Fault(String label) {
      this.label = label;
    }
  }

  static final class Row {
    final Target target;
    final Fault fault;
    String outcome = "";
    int attempts;
    int reached;
    /** Requests the server dropped unread, their connection closed as they arrived. */
    int dropped;
    boolean tokenKept = true;
    boolean recovered;
    long realMillis;

    Row(Target target, Fault fault) {
      this.target = target;
      this.fault = fault;
    }
  }

  static final Map<Target, List<Row>> rows = new EnumMap<>(Target.class);

  /** What a cell does with its endpoint: the operation under the fault, then again without it. */
  interface CellBody {
    void run(Cell cell, Row row) throws Exception;
  }

  /** The endpoints of sdk-core; the interaction channel's row is sdk-interact's own matrix. */
  static final List<Target> CORE_TARGETS = Collections.unmodifiableList(Arrays.asList(
      Target.DEVICE_CODE, Target.TOKEN_POLL, Target.REFRESH, Target.CLOUD_TOKEN,
      Target.UPLOAD_RESOURCE, Target.CHECK_RESOURCE, Target.UPLOAD_ENTITIES));

  @TestFactory List<DynamicTest> matrix() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Target target : CORE_TARGETS) {
      for (Fault fault : Fault.values()) {
        tests.add(DynamicTest.dynamicTest(target.label + " x " + fault.label,
            () -> runCell(target, fault, rows, Cell::run)));
      }
    }
    return tests;
  }

  @AfterAll static void publish() throws IOException {
    publish(rows, CORE_TARGETS.size(), "fault-matrix");
  }

  /** Checks that every cell of {@code targets} endpoints ran, and publishes them as {@code section}. */
  static void publish(Map<Target, List<Row>> rows, int targets, String section)
      throws IOException {
    assertThat(rows.values().stream().mapToInt(List::size).sum())
        .as("every cell ran").isEqualTo(targets * Fault.values().length);
    StringBuilder md = new StringBuilder();
    md.append("| Endpoint | Fault | Outcome for the app | Requests | Retries | Stored token kept |"
        + " Works after the fault clears |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (List<Row> list : rows.values()) {
      for (Row row : list) {
        md.append("| ").append(row.target.label).append(" | ").append(row.fault.label)
            .append(" | ").append(row.outcome)
            .append(" | ").append(row.attempts)
            .append(" | ").append(Math.max(0, row.attempts - 1))
            .append(" | ").append(row.target == Target.REFRESH ? (row.tokenKept ? "yes" : "NO") : "n/a")
            .append(" | ").append(row.recovered ? "yes" : "NO")
            .append(" |\n");
      }
    }
    DocSection.check("reliability.md", section, md.toString());
  }

  // ---------------------------------------------------------------------------------------------

  /** Runs {@code body} as one cell, checks what every cell must hold, and records its row. */
  static void runCell(Target target, Fault fault, Map<Target, List<Row>> rows, CellBody body)
      throws Exception {
    Row row = new Row(target, fault);
    List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
    long started = System.nanoTime();
    try (Cell cell = new Cell(target, fault)) {
      body.run(cell, row);
      row.realMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      row.reached = cell.reached.get();
      row.dropped = cell.dropped.get();
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(previous);
    }
    synchronized (rows) {
      rows.computeIfAbsent(target, t -> new ArrayList<>()).add(row);
    }
    assertThat(uncaught).as("no exception escaped on any thread").isEmpty();
    assertThat(row.outcome).as("outcome").doesNotStartWith("UNCHECKED").doesNotStartWith("HANG");
    assertThat(row.realMillis).as("real time of the cell").isLessThan(CELL_BOUND_MILLIS);
    assertThat(row.attempts).as("requests made").isBetween(1, maxAttempts(target));
    // OkHttp may repeat a WebSocket upgrade once (at once after a 503 with "Retry-After: 0", or after
    // a pooled connection dropped it): a GET that changes nothing on the server.
    assertThat(row.reached).as("requests the server saw: none sent again behind the SDK's back")
        .isLessThanOrEqualTo(target == Target.INTERACT ? 2 * row.attempts : row.attempts);
    if (fault == Fault.IDLE_CLOSE) {
      // A connection the server closed while it sat idle is no fault of the request's: it succeeds,
      // at the first attempt, and nothing is sent on a connection the server is closing but an
      // upgrade, a GET that OkHttp sends again on a new one.
      assertThat(row.outcome).as("outcome").doesNotStartWith("throws").doesNotContain("FAILED")
          .doesNotStartWith("failure").doesNotStartWith("gave up");
      assertThat(row.attempts).as("requests made").isEqualTo(1);
      assertThat(row.dropped).as("requests sent on a connection the server was closing")
          .isLessThanOrEqualTo(target == Target.INTERACT ? 1 : 0);
    } else if (target == Target.TOKEN_POLL) {
      // However the polls fail, they go on until the code expires (docs/device-authorization.md).
      assertThat(row.outcome).as("outcome").startsWith("outcome EXPIRED (");
      assertThat(row.attempts).as("polls: past the device code request's bound")
          .isGreaterThan(1 + DeviceAuthorizer.MAX_TRANSIENT_RETRIES);
    } else if (target == Target.DEVICE_CODE && fault != Fault.WRONG_CONTENT_TYPE
        || target == Target.INTERACT) {
      assertThat(row.attempts).as("transient faults are retried up to the bound")
          .isEqualTo(maxAttempts(target));
    }
    assertThat(row.tokenKept).as("stored token kept").isTrue();
    assertThat(row.recovered).as("works again once the fault clears").isTrue();
  }

  static int maxAttempts(Target target) {
    switch (target) {
      case DEVICE_CODE:
        return 1 + DeviceAuthorizer.MAX_TRANSIENT_RETRIES;
      case TOKEN_POLL:
        return (int) (CODE_LIFETIME_SECONDS / 5); // at most one poll per interval
      case CHECK_RESOURCE:
        return 20;
      case INTERACT:
        return 1 + Cell.RECONNECTS;
      default:
        return 1;
    }
  }

  /** One endpoint under one fault: a fresh server, fresh virtual time, fresh SDK objects. */
  static final class Cell implements AutoCloseable {
    static final int RECONNECTS = 4;

    final Target target;
    final Fault fault;
    final MockWebServer server = new MockWebServer();
    final VirtualTime time = new VirtualTime(NOW_SECONDS * 1000);
    final Map<Target, AtomicInteger> sent = new ConcurrentHashMap<>();
    /** Requests of the endpoint under test that reached the server while it was faulty. */
    final AtomicInteger reached = new AtomicInteger();
    /** Of those, the ones dropped unread by {@link Fault#IDLE_CLOSE}. */
    final AtomicInteger dropped = new AtomicInteger();
    /** When the server last answered, on the cell's clock: connections idle since then. */
    volatile long answeredAtMillis;
    volatile boolean faulty = true;
    final AtomicInteger tokens = new AtomicInteger();
    final OkHttpClient app;
    final VoiceLinkClient live;
    final VoiceLinkClient target_;
    @Nullable ServerSocket unused;

    Cell(Target target, Fault fault) throws IOException {
      this.target = target;
      this.fault = fault;
      server.setDispatcher(new Dispatcher() {
        @Override public MockResponse dispatch(RecordedRequest request) {
          Target endpoint = endpointOf(request.getPath(), request.getBody().clone().readUtf8());
          if (!faulty || endpoint != target) return answered(normal(endpoint));
          reached.incrementAndGet();
          if (fault != Fault.IDLE_CLOSE) return faultResponse(endpoint);
          if (request.getSequenceNumber() > 0
              && time.wallMillis() - answeredAtMillis >= IDLE_CLOSE_MILLIS) {
            // The server closed the connection as the request arrived, without reading it.
            dropped.incrementAndGet();
            return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST);
          }
          return answered(normal(endpoint));
        }
      });
      server.start();
      long timeout = fault == Fault.DELAY_BEYOND_TIMEOUT ? TIMEOUT_MILLIS : RELAXED_TIMEOUT_MILLIS;
      app = new OkHttpClient.Builder()
          .connectTimeout(timeout, TimeUnit.MILLISECONDS)
          .readTimeout(timeout, TimeUnit.MILLISECONDS)
          .writeTimeout(timeout, TimeUnit.MILLISECONDS)
          .addInterceptor(counting())
          .build();
      live = config(server.url("/").toString());
      if (fault == Fault.CONNECTION_REFUSED) {
        // A port that was free a moment ago and has nobody listening: the OS refuses at once.
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
          port = socket.getLocalPort();
        }
        target_ = config("http://127.0.0.1:" + port + "/");
      } else {
        target_ = live;
      }
    }

    private MockResponse answered(MockResponse response) {
      answeredAtMillis = time.wallMillis();
      return response;
    }

    /**
     * For {@link Fault#IDLE_CLOSE}: leaves a kept-alive connection to the server idle for as long as
     * the server keeps one, in the pool the endpoint under test takes its connections from: the SDK's
     * own for its once-only requests (primed with another of them), the app's for the upgrade.
     */
    void leaveAnIdleConnection() throws Exception {
      if (fault != Fault.IDLE_CLOSE) return;
      if (target == Target.INTERACT) {
        app.newCall(new Request.Builder().url(server.url("/")).build()).execute().close();
      } else if (target == Target.DEVICE_CODE) {
        TokenManager.builder(live).cloudGrant("vl-backend", "cs-matrix-secret")
            .store(new InMemoryTokenStore()).build().accessToken();
      } else {
        authorizer(live).requestCode("SN-0001-DEMO").execute();
      }
      time.advance(IDLE_CLOSE_MILLIS, TimeUnit.MILLISECONDS);
    }

    private VoiceLinkClient config(String url) {
      return VoiceLinkClient.builder().authUrl(url).platformUrl(url).baseUrl(url)
          .httpClient(app).clock(time).scheduler(time).build();
    }

    /** Counts what the SDK asked for, including requests that never reached a server. */
    private Interceptor counting() {
      return chain -> {
        Request request = chain.request();
        String body = "";
        if (request.body() != null && request.url().encodedPath().equals("/oauth/ivs/token")) {
          Buffer buffer = new Buffer();
          request.body().writeTo(buffer);
          body = buffer.readUtf8();
        }
        Target endpoint = endpointOf(request.url().encodedPath(), body);
        if (endpoint != null) sent.computeIfAbsent(endpoint, e -> new AtomicInteger()).incrementAndGet();
        return chain.proceed(request);
      };
    }

    int sent(Target endpoint) {
      AtomicInteger count = sent.get(endpoint);
      return count == null ? 0 : count.get();
    }

    static @Nullable Target endpointOf(String path, String body) {
      if (path == null) return null;
      if (path.startsWith("/oauth/ivs/device_code")) return Target.DEVICE_CODE;
      if (path.startsWith("/oauth/ivs/token")) {
        return body.contains("refresh_token") ? Target.REFRESH : Target.TOKEN_POLL;
      }
      if (path.startsWith("/oauth/token")) return Target.CLOUD_TOKEN;
      if (path.endsWith("/entity/upload-resource")) return Target.UPLOAD_RESOURCE;
      if (path.endsWith("/entity/check-resource")) return Target.CHECK_RESOURCE;
      if (path.startsWith("/tools/upload_entities")) return Target.UPLOAD_ENTITIES;
      if (path.endsWith("/interact")) return Target.INTERACT;
      return null;
    }

    String normalBody(Target endpoint) {
      switch (endpoint) {
        case DEVICE_CODE:
          return "{\"verification_uri\":\"https://auth.example.com/verify\",\"user_code\":\"WDJB-MJHT\","
              + "\"interval\":5,\"expires_in\":" + CODE_LIFETIME_SECONDS
              + ",\"device_code\":\"dc-matrix-secret\"}";
        case TOKEN_POLL:
        case REFRESH:
        case CLOUD_TOKEN:
          int n = tokens.incrementAndGet();
          return "{\"token_type\":\"bearer\",\"access_token\":\"at-" + n + "\",\"refresh_token\":\"rt-"
              + n + "\",\"expires_in\":8640000,\"created_at\":" + NOW_SECONDS + "}";
        case UPLOAD_RESOURCE:
          return "{\"code\":\"00000\",\"data\":{\"sid\":\"psn0001\",\"csid\":\"c1\"},"
              + "\"desc\":\"success\",\"sid\":\"wapi0001\"}";
        case CHECK_RESOURCE:
          return "{\"code\":\"00000\",\"data\":{\"sid\":\"psn0001\",\"csid\":\"c2\","
              + "\"reply\":\"processed\",\"error\":0},\"desc\":\"success\",\"sid\":\"wapi0002\"}";
        case UPLOAD_ENTITIES:
          return "{\"sid\":\"pt0001\"}";
        default:
          return "{\"type\":\"connected\",\"uid\":\"" + AUTH_ID + "\"}";
      }
    }

    MockResponse normal(@Nullable Target endpoint) {
      if (endpoint == null) return new MockResponse().setResponseCode(404);
      if (endpoint == Target.INTERACT) {
        return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
          @Override public void onOpen(WebSocket webSocket, okhttp3.Response response) {
            webSocket.send(normalBody(Target.INTERACT));
          }

          @Override public void onClosing(WebSocket webSocket, int code, String reason) {
            webSocket.close(1000, null);
          }
        });
      }
      return json(200, normalBody(endpoint));
    }

    static MockResponse json(int code, String body) {
      return new MockResponse().setResponseCode(code)
          .setHeader("Content-Type", "application/json; charset=utf-8").setBody(body);
    }

    MockResponse faultResponse(Target endpoint) {
      switch (fault) {
        case DISCONNECT_AT_START:
          // Reads the request, then closes the connection without a byte of answer. (MockWebServer's
          // DISCONNECT_AT_START only works from Dispatcher.peek(); from dispatch() it answers 200.)
          return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST);
        case DISCONNECT_MID_BODY:
          return json(200, normalBody(endpoint))
              .setSocketPolicy(SocketPolicy.DISCONNECT_DURING_RESPONSE_BODY);
        case DELAY_BEYOND_TIMEOUT:
          return normal(endpoint).setHeadersDelay(SERVER_DELAY_MILLIS, TimeUnit.MILLISECONDS);
        case HTTP_500:
          return new MockResponse().setResponseCode(500)
              .setHeader("Content-Type", "text/plain").setBody("Internal Server Error");
        case HTTP_503_RETRY_AFTER:
          return new MockResponse().setResponseCode(503).setHeader("Retry-After", "2")
              .setHeader("Content-Type", "text/plain").setBody("Service Unavailable");
        case HTTP_503_RETRY_NOW:
          return new MockResponse().setResponseCode(503).setHeader("Retry-After", "0")
              .setHeader("Content-Type", "text/plain").setBody("Service Unavailable");
        case EMPTY_BODY:
          return json(200, "");
        case TRUNCATED_JSON:
          String body = normalBody(endpoint);
          String cut = body.substring(0, body.length() / 2);
          if (endpoint == Target.INTERACT) {
            return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
              @Override public void onOpen(WebSocket webSocket, okhttp3.Response response) {
                webSocket.send(cut);
              }

              @Override public void onClosing(WebSocket webSocket, int code, String reason) {
                webSocket.close(1000, null);
              }
            });
          }
          return json(200, cut);
        case HTML_ERROR_PAGE:
          return new MockResponse().setResponseCode(502).setHeader("Content-Type", "text/html")
              .setBody("<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway"
                  + "</h1></body></html>");
        case WRONG_CONTENT_TYPE:
          return new MockResponse().setResponseCode(200).setHeader("Content-Type", "text/html")
              .setBody("<html><body><form>Sign in to use this Wi-Fi</form></body></html>");
        default:
          throw new AssertionError(fault);
      }
    }

    // -------------------------------------------------------------------------------------------

    void run(Row row) throws Exception {
      leaveAnIdleConnection();
      switch (target) {
        case DEVICE_CODE: deviceCode(row); break;
        case TOKEN_POLL: tokenPoll(row); break;
        case REFRESH: refresh(row); break;
        case CLOUD_TOKEN: cloudToken(row); break;
        case UPLOAD_RESOURCE: uploadResource(row); break;
        case CHECK_RESOURCE: checkResource(row); break;
        case UPLOAD_ENTITIES: uploadEntities(row); break;
        default: throw new AssertionError("not an sdk-core endpoint: " + target);
      }
    }

    private DeviceAuthorizer authorizer(VoiceLinkClient config) {
      // Seeded: the number of polls a code's lifetime holds depends on the backoff's draws.
      return SeededAuthorizers.authorizer(config, "vl-speaker-01", 7);
    }

    private void deviceCode(Row row) throws Exception {
      FlowListener listener = new FlowListener(time);
      authorizer(target_).authorize("SN-0001-DEMO", code -> { }).enqueue(listener);
      drive(listener::ended);
      row.outcome = describe(listener.outcome.get());
      row.attempts = sent(Target.DEVICE_CODE);
      faulty = false;
      FlowListener again = new FlowListener(time);
      authorizer(live).authorize("SN-0001-DEMO", code -> { }).enqueue(again);
      drive(again::ended);
      row.recovered = again.outcome.get() != null
          && again.outcome.get().kind() == DeviceFlowOutcome.Kind.AUTHORIZED;
    }

    private void tokenPoll(Row row) throws Exception {
      DeviceCode code = authorizer(live).requestCode("SN-0001-DEMO").execute();
      FlowListener listener = new FlowListener(time);
      authorizer(target_).poll(code).enqueue(listener);
      drivePolls(listener::ended);
      row.outcome = describe(listener.outcome.get());
      row.attempts = sent(Target.TOKEN_POLL);
      faulty = false;
      FlowListener again = new FlowListener(time);
      authorizer(live).poll(authorizer(live).requestCode("SN-0001-DEMO").execute()).enqueue(again);
      drivePolls(again::ended);
      row.recovered = again.outcome.get() != null
          && again.outcome.get().kind() == DeviceFlowOutcome.Kind.AUTHORIZED;
    }

    private void refresh(Row row) throws Exception {
      // Expired an hour ago: the manager must refresh before it can hand out anything.
      TokenRecord stored = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
          .clientId("vl-speaker-01").accessToken("at-old").refreshToken("rt-old")
          .expiresInSeconds(3600).createdAtEpochSeconds(NOW_SECONDS - 7200)
          .receivedAtEpochMillis((NOW_SECONDS - 7200) * 1000).build();
      InMemoryTokenStore store = new InMemoryTokenStore();
      store.save(stored);
      TokenManager manager = TokenManager.builder(target_).deviceGrant("vl-speaker-01")
          .store(store).build();
      row.outcome = outcomeOf(() -> manager.accessToken()) + "; state " + manager.state();
      row.attempts = sent(Target.REFRESH);
      // Kept: the record from before, or, after a refresh that went through, the rotated one.
      TokenRecord kept = store.load();
      row.tokenKept = stored.equals(kept) || row.outcome.startsWith("returned at-") && kept != null
          && kept.refreshToken() != null && kept.refreshToken().matches("rt-\\d+");
      faulty = false;
      TokenManager after = TokenManager.builder(live).deviceGrant("vl-speaker-01").store(store)
          .build();
      row.recovered = after.accessToken().startsWith("at-")
          && !"rt-old".equals(store.load().refreshToken());
    }

    private void cloudToken(Row row) throws Exception {
      TokenManager manager = TokenManager.builder(target_).cloudGrant("vl-backend", "cs-matrix-secret")
          .store(new InMemoryTokenStore()).build();
      row.outcome = outcomeOf(() -> manager.accessToken()) + "; state " + manager.state();
      row.attempts = sent(Target.CLOUD_TOKEN);
      faulty = false;
      TokenManager after = TokenManager.builder(live).cloudGrant("vl-backend", "cs-matrix-secret")
          .store(new InMemoryTokenStore()).build();
      row.recovered = after.accessToken().startsWith("at-");
    }

    static final ResourceDefinition CONTACTS = ResourceDefinition.builder()
        .name("OS123.contacts").mainField("name").secondaryFields("alias")
        .dimension(Dimension.USER).build();

    private EntityWebApi webApi(VoiceLinkClient config) {
      return EntitySeams.seeded(EntityWebApi.builder(config).namespace("OS123")
          .accountKey("0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a"), new Random(7)).build();
    }

    private UploadRequest upload() {
      return UploadRequest.builder().appid("5f1a2b3c").definition(CONTACTS)
          .persParam(PersParam.user(AUTH_ID))
          .records(RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}")).build();
    }

    private void uploadResource(Row row) throws Exception {
      row.outcome = outcomeOf(() -> webApi(target_).uploadResource(upload()).execute().sid());
      row.attempts = sent(Target.UPLOAD_RESOURCE);
      faulty = false;
      row.recovered = "psn0001".equals(webApi(live).uploadResource(upload()).execute().sid());
    }

    private void checkResource(Row row) throws Exception {
      UploadReceipt receipt = webApi(live).uploadResource(upload()).execute();
      AtomicReference<Object> result = new AtomicReference<>();
      webApi(target_).awaitProcessed(receipt, 10, TimeUnit.MINUTES).enqueue(callback(result, time));
      drive(() -> result.get() != null);
      row.outcome = result.get() instanceof CheckResult
          ? "result " + result.get()
          : "failure(" + describe((Throwable) result.get()) + ")";
      row.attempts = sent(Target.CHECK_RESOURCE);
      faulty = false;
      AtomicReference<Object> again = new AtomicReference<>();
      webApi(live).awaitProcessed(receipt, 10, TimeUnit.MINUTES).enqueue(callback(again, time));
      drive(() -> again.get() != null);
      row.recovered = again.get() instanceof CheckResult && ((CheckResult) again.get()).processed();
    }

    private static VoiceLinkCall.Callback<CheckResult> callback(AtomicReference<Object> into,
        VirtualTime time) {
      return result -> {
        into.set(result.isSuccess() ? result.value() : result.failure());
        time.signal();
      };
    }

    private PlatformToolsClient tools(VoiceLinkClient config) {
      return PlatformToolsClient.builder(config).userTokens(() -> "at-user").build();
    }

    private void uploadEntities(Row row) throws Exception {
      RecordSource records = RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}");
      row.outcome = outcomeOf(() -> tools(target_).uploadEntities(CONTACTS, records, null).execute());
      row.attempts = sent(Target.UPLOAD_ENTITIES);
      faulty = false;
      row.recovered = "pt0001".equals(tools(live).uploadEntities(CONTACTS,
          RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}"), null).execute());
    }

    /**
     * Moves virtual time on until {@code done}, each step waiting at a barrier (bounded in real time)
     * for the SDK to schedule its next wait or for the outcome, whose listener signals {@link #time}.
     */
    void drive(BooleanSupplier done) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CELL_BOUND_MILLIS);
      while (!done.getAsBoolean()) {
        int before = time.scheduledCount();
        time.advance(2, TimeUnit.MINUTES);
        if (!time.awaitScheduledOr(before + 1, done, deadline - System.nanoTime(),
            TimeUnit.NANOSECONDS)) {
          throw new AssertionError("HANG: no outcome in time");
        }
      }
    }

    /**
     * Moves virtual time to each wait of a device flow's polls in turn until {@code done}: every
     * poll sent arms the code's deadline and its answer schedules the next wait, so each step waits
     * at a barrier for both (or the outcome). Larger steps would skip the time between polls.
     */
    void drivePolls(BooleanSupplier done) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CELL_BOUND_MILLIS);
      while (!done.getAsBoolean()) {
        int before = time.scheduledCount();
        time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
        if (!time.awaitScheduledOr(before + 2, done, deadline - System.nanoTime(),
            TimeUnit.NANOSECONDS)) {
          throw new AssertionError("HANG: no outcome in time");
        }
      }
    }

    @Override public void close() throws IOException {
      server.shutdown();
      app.dispatcher().executorService().shutdown();
      app.connectionPool().evictAll();
    }
  }

  static final class FlowListener implements VoiceLinkCall.Callback<DeviceFlowOutcome> {
    final AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
    final VirtualTime time;

    FlowListener(VirtualTime time) {
      this.time = time;
    }

    @Override public void onResult(CallResult<DeviceFlowOutcome> result) {
      outcome.set(result.value());
      time.signal();
    }

    boolean ended() {
      return outcome.get() != null;
    }
  }

  interface Operation {
    Object run() throws Exception;
  }

  static String outcomeOf(Operation operation) {
    try {
      Object value = operation.run();
      return "returned " + value;
    } catch (RuntimeException e) {
      return "UNCHECKED " + e;
    } catch (Exception e) {
      return "throws " + describe(e);
    }
  }

  static String describe(@Nullable DeviceFlowOutcome outcome) {
    if (outcome == null) return "HANG";
    return "outcome " + outcome.kind()
        + (outcome.failure() != null ? " (" + describe(outcome.failure()) + ")" : "");
  }

  static String describe(Throwable e) {
    if (e instanceof RuntimeException) return "UNCHECKED " + e;
    return e.getClass().getSimpleName();
  }
}
