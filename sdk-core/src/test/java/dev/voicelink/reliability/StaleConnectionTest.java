package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntitySeams;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.IdleClose;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every request the SDK sends, after the connection it would reuse sat idle for as long as the server
 * keeps one: the server closes it as the request arrives, without reading it (the race a client loses
 * when it sends as the server closes; Node's HTTP server closes an idle connection after 5 s, and 5 s
 * is also RFC 8628's default polling interval). Both clocks are virtual and move together.
 *
 * <p>Each row records what the app saw, and what the server saw: requests dropped unread, requests
 * processed, polls lost, requests processed twice. The table is the "Connections that servers close"
 * section of docs/reliability.md. The platform's endpoints are the reference server's, with its
 * keep-alive timeout; the standard OAuth 2.0 ones a server scripted here that drops a request the same
 * way when it arrives on a connection idle for the timeout.
 */
class StaleConnectionTest {
  static final long START = 1_763_712_000_000L;
  /** Node's default keep-alive timeout, and the polling interval of both servers. */
  static final long IDLE_MILLIS = 5_000;
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";

  enum Kind {
    POLL_PLATFORM("device flow polls, platform (`POST /oauth/ivs/token`)"),
    POLL_STANDARD("device flow polls, standard OAuth (`POST` token endpoint)"),
    REFRESH_PLATFORM("refresh, platform (`POST /oauth/ivs/token`)"),
    REFRESH_STANDARD("refresh, standard OAuth (`POST` token endpoint)"),
    CLIENT_CREDENTIALS_PLATFORM("client credentials, platform (`POST /oauth/token`)"),
    CLIENT_CREDENTIALS_STANDARD("client credentials, standard OAuth (`POST` token endpoint)"),
    USERINFO("userinfo (`GET`, `OAuthServer.subject`)"),
    DISCOVERY("discovery (`GET /.well-known/openid-configuration`)"),
    UPLOAD_RESOURCE("`POST /v2/voicelink/entity/upload-resource`"),
    CHECK_RESOURCE("`POST /v2/voicelink/entity/check-resource`"),
    UPLOAD_ENTITIES("`POST /tools/upload_entities`");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  /** What one request kind came to. */
  static final class Row {
    final Kind kind;
    /** What the app got: "returned ..." or "throws ...". */
    String outcome = "";
    int dropped;
    int processed;
    int lostPolls;
    int processedTwice;

    Row(Kind kind) {
      this.kind = kind;
    }

    String verdict() {
      if (processedTwice > 0) return "REPLAYED";
      if (outcome.startsWith("throws")) return "failed call returned to the app";
      if (lostPolls > 0) return lostPolls + " poll(s) lost, an interval each";
      if (dropped > 0) return "sent again on a new connection (a `GET`: safe to repeat)";
      return "sent on a new connection; nothing lost";
    }
  }

  static final Map<Kind, Row> rows = new EnumMap<>(Kind.class);

  @AfterAll static void publish() throws IOException {
    assertThat(rows.keySet()).as("every request kind ran").containsExactly(Kind.values());
    StringBuilder md = new StringBuilder("| Request | Outcome for the app | Requests dropped unread"
        + " | Processed | Processed twice | Polls lost |\n|---|---|---|---|---|---|\n");
    for (Row row : rows.values()) {
      md.append("| ").append(row.kind.label).append(" | ").append(row.verdict())
          .append(" | ").append(row.dropped).append(" | ").append(row.processed)
          .append(" | ").append(row.processedTwice).append(" | ")
          .append(row.kind == Kind.POLL_PLATFORM || row.kind == Kind.POLL_STANDARD ? row.lostPolls : "n/a")
          .append(" |\n");
    }
    DocSection.check("reliability.md", "stale-connections", md.toString());
  }

  private static Row record(Row row) {
    synchronized (rows) {
      rows.put(row.kind, row);
    }
    return row;
  }

  /** What every row must hold: the app gets its answer, and nothing is lost or done twice. */
  private static void assertHealthy(Row row, boolean safeToRepeat) {
    assertThat(row.outcome).as(row.kind + ": outcome").startsWith("returned");
    assertThat(row.processedTwice).as(row.kind + ": processed twice").isZero();
    assertThat(row.lostPolls).as(row.kind + ": polls lost").isZero();
    if (!safeToRepeat) {
      assertThat(row.dropped).as(row.kind + ": sent on a connection the server was closing").isZero();
    }
  }

  static String outcome(Callable operation) {
    try {
      return "returned " + operation.call();
    } catch (Exception e) {
      return "throws " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  interface Callable {
    Object call() throws Exception;
  }

  // ---------------------------------------------------------------------------------------------
  // The platform, on the reference server

  /** The reference server closing idle connections as requests arrive, and a client on its clock. */
  static final class Platform implements AutoCloseable {
    final VirtualTime time = new VirtualTime(START);
    final ServerClock serverClock = ServerClock.manual(START);
    final ReferenceServer server;
    final VoiceLinkClient client;

    Platform() throws IOException {
      this(IDLE_MILLIS, IdleClose.AS_REQUEST_ARRIVES);
    }

    Platform(long keepAliveMillis, IdleClose how) throws IOException {
      Console console = Console.defaults();
      console.setPollIntervalSeconds(IDLE_MILLIS / 1000);
      server = ReferenceServer.builder().console(console).clock(serverClock)
          .keepAliveTimeout(keepAliveMillis, TimeUnit.MILLISECONDS, how)
          .build().start();
      client = VoiceLinkClient.builder().authUrl(server.authUrl()).baseUrl(server.baseUrl())
          .platformUrl(server.platformUrl()).clock(time).scheduler(time)
          .callbackExecutor(Runnable::run).build();
    }

    /** Both clocks on by {@code millis}, running what becomes due. */
    void advance(long millis) {
      serverClock.advance(millis, TimeUnit.MILLISECONDS);
      time.advance(millis, TimeUnit.MILLISECONDS);
    }

    int processed(String pathSuffix) {
      return server.journal().count(pathSuffix);
    }

    @Override public void close() throws IOException {
      client.close();
      server.close();
    }
  }

  /** A device flow's polls and outcome, as they come: the barrier each step of the test waits on. */
  static final class Flow implements DeviceFlowListener, VoiceLinkCall.Callback<DeviceFlowOutcome> {
    final BlockingQueue<Object> news = new LinkedBlockingQueue<>();
    final List<DeviceCode> codes = new ArrayList<>();
    int transientFailures;

    @Override public void onCodeIssued(DeviceCode code) {
      codes.add(code);
      news.add(code);
    }

    @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
      if (result.equals("transient_failure")) transientFailures++;
      news.add(nextPollDelayMillis);
    }

    @Override public void onResult(CallResult<DeviceFlowOutcome> result) {
      news.add(result);
    }

    Object next() throws InterruptedException {
      Object next = news.poll(10, TimeUnit.SECONDS);
      assertThat(next).as("the flow moved on").isNotNull();
      return next;
    }
  }

  /**
   * Runs the device flow that {@code start} starts, poll by poll, on {@code time} (and the server's
   * clock, which {@code clocks} moves with it): the user approves once {@code approveAfterMillis} of
   * flow time passed. Returns the outcome, and notes on {@code row} the polls lost; a flow that lost
   * none must have the token within one interval of the approval.
   */
  static DeviceFlowOutcome runFlow(Row row, VirtualTime time, Runnable start, Flow flow,
      Runnable approve, Clocks clocks, long approveAfterMillis) throws Exception {
    // Each step waits until the flow scheduled its next wait: the code's answer schedules one, each
    // poll two (the deadline while it is out, then the wait before the next).
    int scheduled = time.scheduledCount() + 1;
    start.run();
    DeviceCode code = (DeviceCode) flow.next();
    long elapsed = 0;
    long approvedAt = -1;
    Object news = code.intervalMillis();
    while (true) {
      if (news instanceof CallResult) {
        @SuppressWarnings("unchecked")
        DeviceFlowOutcome outcome = ((CallResult<DeviceFlowOutcome>) news).value();
        assertThat(approvedAt).as("approved before the outcome").isGreaterThanOrEqualTo(0);
        if (row.lostPolls == 0) {
          assertThat(elapsed - approvedAt).as(row.kind + ": the token within an interval of the approval")
              .isLessThanOrEqualTo(IDLE_MILLIS);
        }
        return outcome;
      }
      if (approvedAt < 0 && elapsed >= approveAfterMillis) {
        approve.run();
        approvedAt = elapsed;
      }
      time.awaitScheduled(scheduled);
      long delay = (Long) news;
      clocks.advance(delay);
      elapsed += delay;
      assertThat(elapsed).as("the flow ends within a minute of the approval")
          .isLessThan(approveAfterMillis + 60_000);
      news = flow.next();
      row.lostPolls = flow.transientFailures;
      scheduled += 2;
    }
  }

  interface Clocks {
    void advance(long millis);
  }

  @Test void pollsOnThePlatform() throws Exception {
    Row row = record(new Row(Kind.POLL_PLATFORM));
    try (Platform platform = new Platform()) {
      DeviceFlowOutcome outcome = platformFlow(platform, row, 4 * IDLE_MILLIS);
      row.outcome = "returned " + outcome.kind();
      row.dropped = platform.server.requestsDroppedIdle();
      row.processed = platform.processed("/oauth/ivs/token");
    }
    assertHealthy(row, false);
  }

  private static DeviceFlowOutcome platformFlow(Platform platform, Row row, long approveAfterMillis)
      throws Exception {
    Flow flow = new Flow();
    return runFlow(row, platform.time, () -> DeviceAuthorizer.builder(platform.client)
        .clientId(DefaultConsole.CLIENT_ID).build().authorize(DefaultConsole.DEVICE_ID, flow)
        .enqueue(flow), flow, () -> {
          try {
            new SimulatedTester(platform.server).approve(flow.codes.get(0).userCode());
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        }, platform::advance, approveAfterMillis);
  }

  /**
   * The server's idle close swept around the polling interval, from a second before it to a second
   * after, either way it closes: over a dozen polls the device never loses an interval, and has the
   * token one interval after the approval.
   */
  @ParameterizedTest(name = "keep-alive {0} ms, {1}")
  @CsvSource({"4000, WHEN_IDLE", "4900, WHEN_IDLE", "5000, WHEN_IDLE", "5100, WHEN_IDLE",
      "6000, WHEN_IDLE", "4000, AS_REQUEST_ARRIVES", "4900, AS_REQUEST_ARRIVES",
      "5000, AS_REQUEST_ARRIVES", "5100, AS_REQUEST_ARRIVES", "6000, AS_REQUEST_ARRIVES"})
  void theDeviceFlowLosesNoIntervalWhateverTheServersIdleClose(long keepAliveMillis, IdleClose how)
      throws Exception {
    Row row = new Row(Kind.POLL_PLATFORM);
    try (Platform platform = new Platform(keepAliveMillis, how)) {
      DeviceFlowOutcome outcome = platformFlow(platform, row, 11 * IDLE_MILLIS);
      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      assertThat(row.lostPolls).as("polls lost").isZero();
      assertThat(platform.server.requestsDroppedIdle()).as("requests dropped").isZero();
      List<Long> polledAt = new ArrayList<>();
      for (RecordedCall call : platform.server.journal()) {
        if (call.path().endsWith("/oauth/ivs/token")) polledAt.add(call.receivedAtMillis());
      }
      assertThat(polledAt).hasSize(12);
      for (int i = 1; i < polledAt.size(); i++) {
        assertThat(polledAt.get(i) - polledAt.get(i - 1)).as("gap before poll " + (i + 1))
            .isEqualTo(IDLE_MILLIS);
      }
    }
  }

  /** A platform record, the user approving at once. */
  private static TokenRecord signIn(Platform platform) throws Exception {
    DeviceFlowOutcome outcome = platformFlow(platform, new Row(Kind.POLL_PLATFORM), 0);
    assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    return outcome.token();
  }

  @Test void refreshOnThePlatform() throws Exception {
    Row row = record(new Row(Kind.REFRESH_PLATFORM));
    try (Platform platform = new Platform()) {
      TokenRecord record = signIn(platform);
      InMemoryTokenStore store = new InMemoryTokenStore();
      store.save(record);
      TokenManager tokens = TokenManager.builder(platform.client).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(store).build();
      int droppedBefore = platform.server.requestsDroppedIdle();
      platform.advance(IDLE_MILLIS);
      row.outcome = outcome(() -> tokens.refresh().execute().accessToken().equals(record.accessToken())
          ? "the same token" : "a new token");
      row.dropped = platform.server.requestsDroppedIdle() - droppedBefore;
      row.processed = refreshes(platform.server.journal()).size();
      row.processedTwice = row.processed - new HashSet<>(refreshes(platform.server.journal())).size();
    }
    assertHealthy(row, false);
  }

  /** The refresh tokens the server was given, one per refresh it processed. */
  private static List<String> refreshes(List<RecordedCall> journal) {
    List<String> presented = new ArrayList<>();
    for (RecordedCall call : journal) {
      if (call.path().endsWith("/oauth/ivs/token") && call.body().contains("\"refresh_token\"")) {
        presented.add(call.body());
      }
    }
    return presented;
  }

  @Test void clientCredentialsOnThePlatform() throws Exception {
    Row row = record(new Row(Kind.CLIENT_CREDENTIALS_PLATFORM));
    try (Platform platform = new Platform()) {
      cloud(platform).accessToken(); // the connection the next one would reuse
      platform.advance(IDLE_MILLIS);
      row.outcome = outcome(() -> cloud(platform).accessToken().isEmpty() ? "no token" : "a token");
      row.dropped = platform.server.requestsDroppedIdle();
      row.processed = platform.processed("/oauth/token") - 1;
    }
    assertHealthy(row, false);
  }

  private static TokenManager cloud(Platform platform) {
    return TokenManager.builder(platform.client)
        .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
        .store(new InMemoryTokenStore()).build();
  }

  static final ResourceDefinition CONTACTS = ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
      .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();

  private static EntityWebApi webApi(Platform platform) {
    return EntitySeams.seeded(EntityWebApi.builder(platform.client).namespace(DefaultConsole.NAMESPACE)
        .accountKey(DefaultConsole.ACCOUNT_KEY), new Random(7)).build();
  }

  private static UploadRequest contacts() {
    return UploadRequest.builder().appid(DefaultConsole.APPID).definition(CONTACTS)
        .persParam(PersParam.user(AUTH_ID))
        .records(RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}")).build();
  }

  @Test void uploadResource() throws Exception {
    Row row = record(new Row(Kind.UPLOAD_RESOURCE));
    try (Platform platform = new Platform()) {
      EntityWebApi api = webApi(platform);
      api.uploadResource(contacts()).execute();
      platform.advance(IDLE_MILLIS);
      row.outcome = outcome(() -> api.uploadResource(contacts()).execute().sid().startsWith("psn")
          ? "a sid" : "no sid");
      row.dropped = platform.server.requestsDroppedIdle();
      row.processed = platform.processed("/entity/upload-resource") - 1;
    }
    assertHealthy(row, false);
  }

  @Test void checkResource() throws Exception {
    Row row = record(new Row(Kind.CHECK_RESOURCE));
    try (Platform platform = new Platform()) {
      EntityWebApi api = webApi(platform);
      UploadReceipt receipt = api.uploadResource(contacts()).execute();
      platform.advance(2 * IDLE_MILLIS);
      row.outcome = outcome(() -> "reply " + api.checkResource(receipt.sid()).execute().reply());
      row.dropped = platform.server.requestsDroppedIdle();
      row.processed = platform.processed("/entity/check-resource");
    }
    assertHealthy(row, false);
  }

  @Test void uploadEntities() throws Exception {
    Row row = record(new Row(Kind.UPLOAD_ENTITIES));
    try (Platform platform = new Platform()) {
      String userToken = signIn(platform).accessToken();
      PlatformToolsClient tools = PlatformToolsClient.builder(platform.client)
          .userTokens(() -> userToken).build();
      tools.uploadEntities(CONTACTS, RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}"), null)
          .execute();
      int droppedBefore = platform.server.requestsDroppedIdle();
      platform.advance(IDLE_MILLIS);
      row.outcome = outcome(() -> tools.uploadEntities(CONTACTS,
          RecordSource.fromText("{\"name\":\"Han Meimei\",\"alias\":\"\"}"), null).execute()
          .isEmpty() ? "no sid" : "a sid");
      row.dropped = platform.server.requestsDroppedIdle() - droppedBefore;
      row.processed = platform.processed("/tools/upload_entities") - 1;
    }
    assertHealthy(row, false);
  }

  /**
   * A 401 held while the token source refreshes for as long as the server keeps a connection: the
   * connection rested from the 401's arrival, not from its close, so the upload sent again with the
   * fresh token goes on a new connection and is taken once.
   */
  @Test void uploadEntitiesSentAgainAfterASlowRefreshGoesOnANewConnection() throws Exception {
    try (Platform platform = new Platform()) {
      platform.server.console().setVariant(PlatformVariant.UPLOAD_ENTITIES_TOKEN_401, true);
      String userToken = signIn(platform).accessToken();
      List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
      TokenSource slowRefresh = new TokenSource() {
        @Override public String accessToken() {
          if (sent.isEmpty()) {
            sent.add("expired");
            return "0123456789abcdef0123456789abcdef";
          }
          platform.advance(IDLE_MILLIS); // the refresh takes as long as the server keeps a connection
          sent.add("fresh");
          return userToken;
        }
      };
      PlatformToolsClient tools = PlatformToolsClient.builder(platform.client).userTokens(slowRefresh).build();
      int droppedBefore = platform.server.requestsDroppedIdle();

      String sid = tools.uploadEntities(CONTACTS,
          RecordSource.fromText("{\"name\":\"Han Meimei\",\"alias\":\"\"}"), null).execute();

      assertThat(sid).isNotEmpty();
      assertThat(sent).containsExactly("expired", "fresh");
      assertThat(platform.server.requestsDroppedIdle() - droppedBefore).as("sent on the stale connection")
          .isZero();
      assertThat(platform.server.journal().calls("/tools/upload_entities"))
          .extracting(call -> call.header("Authorization"))
          .containsExactly("0123456789abcdef0123456789abcdef", userToken);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Standard OAuth 2.0, on a scripted server

  /**
   * A standard OAuth 2.0 server: discovery, the device grant, refresh, client credentials and
   * userinfo. A request that arrives on a connection the server kept idle for the timeout is dropped
   * unread, as the reference server does it.
   */
  static final class Standard implements AutoCloseable {
    final VirtualTime time = new VirtualTime(START);
    final MockWebServer server = new MockWebServer();
    final VoiceLinkClient client;
    final AtomicInteger dropped = new AtomicInteger();
    final Map<String, AtomicInteger> processed = new java.util.concurrent.ConcurrentHashMap<>();
    final List<String> refreshTokens = new java.util.concurrent.CopyOnWriteArrayList<>();
    final AtomicInteger issued = new AtomicInteger();
    volatile boolean approved;
    private volatile long answeredAt;

    Standard() throws IOException {
      this(new OkHttpClient());
    }

    /** With {@code app} as the app's client. */
    Standard(OkHttpClient app) throws IOException {
      server.setDispatcher(new Dispatcher() {
        @Override public MockResponse dispatch(RecordedRequest request) {
          long now = time.wallMillis();
          if (request.getSequenceNumber() > 0 && now - answeredAt >= IDLE_MILLIS) {
            dropped.incrementAndGet();
            return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST);
          }
          MockResponse answer = answer(request);
          answeredAt = now;
          return answer;
        }
      });
      server.start();
      client = VoiceLinkClient.builder().clock(time).scheduler(time).callbackExecutor(Runnable::run)
          .httpClient(app).build();
    }

    void advance(long millis) {
      time.advance(millis, TimeUnit.MILLISECONDS);
    }

    String issuer() {
      return server.url("/").toString().replaceAll("/$", "");
    }

    int processed(String what) {
      AtomicInteger count = processed.get(what);
      return count == null ? 0 : count.get();
    }

    private MockResponse answer(RecordedRequest request) {
      String path = request.getPath();
      String form = request.getBody().readUtf8();
      String what = path.startsWith("/token") ? form.replaceAll(".*grant_type=([^&]*).*", "$1") : path;
      processed.computeIfAbsent(what, w -> new AtomicInteger()).incrementAndGet();
      if (path.equals("/.well-known/openid-configuration")) {
        return json("{\"issuer\":\"" + issuer() + "\",\"device_authorization_endpoint\":\""
            + issuer() + "/device\",\"token_endpoint\":\"" + issuer() + "/token\","
            + "\"userinfo_endpoint\":\"" + issuer() + "/userinfo\","
            + "\"token_endpoint_auth_methods_supported\":[\"none\",\"client_secret_basic\"]}");
      }
      if (path.equals("/device")) {
        return json("{\"device_code\":\"dc-1\",\"user_code\":\"WDJB-MJHT\",\"verification_uri\":\""
            + issuer() + "/activate\",\"expires_in\":600,\"interval\":" + IDLE_MILLIS / 1000 + "}");
      }
      if (path.equals("/userinfo")) return json("{\"sub\":\"alice\"}");
      if (what.equals("urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code") && !approved) {
        return json(400, "{\"error\":\"authorization_pending\"}");
      }
      if (what.equals("refresh_token")) {
        refreshTokens.add(form.replaceAll(".*refresh_token=([^&]*).*", "$1"));
      }
      int n = issued.incrementAndGet();
      return json("{\"access_token\":\"at-" + n + "\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
          + "\"refresh_token\":\"rt-" + n + "\"}");
    }

    private static MockResponse json(String body) {
      return json(200, body);
    }

    private static MockResponse json(int status, String body) {
      return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json")
          .setBody(body);
    }

    OAuthServer discovered() throws Exception {
      return OAuthServer.discover(client, issuer()).execute();
    }

    @Override public void close() throws IOException {
      client.close();
      server.shutdown();
    }
  }

  private static DeviceFlowOutcome standardSignIn(Standard standard, @Nullable Row row)
      throws Exception {
    OAuthServer server = standard.discovered();
    Flow flow = new Flow();
    return runFlow(row != null ? row : new Row(Kind.POLL_STANDARD), standard.time,
        () -> DeviceAuthorizer.builder(standard.client, server).clientId("device").build()
            .authorize(flow).enqueue(flow),
        flow, () -> standard.approved = true, standard::advance, row != null ? 4 * IDLE_MILLIS : 0);
  }

  @Test void pollsOnAStandardServer() throws Exception {
    Row row = record(new Row(Kind.POLL_STANDARD));
    try (Standard standard = new Standard()) {
      DeviceFlowOutcome outcome = standardSignIn(standard, row);
      row.outcome = "returned " + outcome.kind();
      row.dropped = standard.dropped.get();
      row.processed = standard.processed("urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code");
    }
    assertHealthy(row, false);
  }

  @Test void refreshOnAStandardServer() throws Exception {
    Row row = record(new Row(Kind.REFRESH_STANDARD));
    try (Standard standard = new Standard()) {
      OAuthServer server = standard.discovered();
      TokenRecord record = standardSignIn(standard, null).token();
      InMemoryTokenStore store = new InMemoryTokenStore();
      store.save(record);
      TokenManager tokens = TokenManager.builder(standard.client, server).deviceGrant("device")
          .store(store).build();
      int droppedBefore = standard.dropped.get();
      standard.advance(IDLE_MILLIS);
      row.outcome = outcome(() -> tokens.refresh().execute().accessToken().equals(record.accessToken())
          ? "the same token" : "a new token");
      row.dropped = standard.dropped.get() - droppedBefore;
      row.processed = standard.processed("refresh_token");
      row.processedTwice = standard.refreshTokens.size() - new HashSet<>(standard.refreshTokens).size();
    }
    assertHealthy(row, false);
  }

  @Test void clientCredentialsOnAStandardServer() throws Exception {
    Row row = record(new Row(Kind.CLIENT_CREDENTIALS_STANDARD));
    try (Standard standard = new Standard()) {
      OAuthServer server = standard.discovered();
      standard.advance(IDLE_MILLIS);
      TokenManager tokens = TokenManager.builder(standard.client, server).cloudGrant("backend", "s3cret")
          .store(new InMemoryTokenStore()).build();
      row.outcome = outcome(() -> tokens.accessToken().isEmpty() ? "no token" : "a token");
      row.dropped = standard.dropped.get();
      row.processed = standard.processed("client_credentials");
    }
    assertHealthy(row, false);
  }

  @Test void userinfo() throws Exception {
    Row row = record(new Row(Kind.USERINFO));
    try (Standard standard = new Standard()) {
      OAuthServer server = standard.discovered();
      standard.advance(IDLE_MILLIS);
      row.outcome = outcome(() -> "subject " + server.subject(standard.client, () -> "at-0").execute());
      row.dropped = standard.dropped.get();
      row.processed = standard.processed("/userinfo");
    }
    assertHealthy(row, true);
  }

  @Test void discovery() throws Exception {
    Row row = record(new Row(Kind.DISCOVERY));
    try (Standard standard = new Standard()) {
      standard.discovered();
      standard.advance(IDLE_MILLIS);
      row.outcome = outcome(() -> "issuer " + (standard.discovered().issuer() != null));
      row.dropped = standard.dropped.get();
      row.processed = standard.processed("/.well-known/openid-configuration") - 1;
    }
    assertHealthy(row, true);
  }

  /**
   * A GET changes nothing on the server, so it is sent again after a stale connection even when the
   * app's client turned OkHttp's retries off (its own once-only requests, say).
   */
  @Test void getsAreSentAgainThoughTheAppsClientRefusesRetries() throws Exception {
    OkHttpClient noRetries = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
    try (Standard standard = new Standard(noRetries)) {
      OAuthServer server = standard.discovered();
      standard.advance(IDLE_MILLIS);
      assertThat(server.subject(standard.client, () -> "at-0").execute()).isEqualTo("alice");
      standard.advance(IDLE_MILLIS);
      assertThat(standard.discovered().issuer()).isEqualTo(standard.issuer());

      assertThat(standard.dropped).hasValue(2);
      assertThat(standard.processed("/userinfo")).isEqualTo(1);
      assertThat(standard.processed("/.well-known/openid-configuration")).isEqualTo(2);
    } finally {
      noRetries.dispatcher().executorService().shutdown();
      noRetries.connectionPool().evictAll();
    }
  }
}
