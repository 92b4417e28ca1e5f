package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.auth.DeviceFlowOutcome.Kind;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SDK's authorization against the reference server, time driven by hand on both sides. */
class ReferenceServerAuthTest {
  private static final long START = 1_763_712_000_000L;

  @TempDir File dir;
  private final VirtualTime time = new VirtualTime(START);
  private final ServerClock serverClock = ServerClock.manual(START);
  private ReferenceServer server;
  private VoiceLinkClient config;
  private DeviceAuthorizer authorizer;
  private final DeviceAuthorizerTest.Events events = new DeviceAuthorizerTest.Events();

  @BeforeEach void setUp() throws Exception {
    server = ReferenceServer.builder().clock(serverClock).build().start();
    config = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time).scheduler(time).build();
    authorizer = DeviceAuthorizer.builder(config).clientId(DefaultConsole.CLIENT_ID)
        .random(new Random(11)).build();
  }

  @AfterEach void tearDown() throws Exception {
    server.close();
  }

  /**
   * Moves both clocks to the next poll, which runs it; waits until its answer schedules the next wait
   * (the poll arms the code's deadline while it is out: the wait is the second task scheduled).
   */
  private void tick(long millis, boolean expectNextWait) throws InterruptedException {
    int before = time.scheduledCount();
    serverClock.advance(millis, TimeUnit.MILLISECONDS);
    time.advance(millis, TimeUnit.MILLISECONDS);
    if (expectNextWait) time.awaitScheduled(before + 2);
  }

  private DeviceCode startFlow() throws InterruptedException {
    List<DeviceCode> issued = new ArrayList<>();
    int before = time.scheduledCount();
    authorizer.authorize(DefaultConsole.DEVICE_ID, new DeviceFlowListener() {
      @Override public void onCodeIssued(DeviceCode code) {
        issued.add(code);
        events.onCodeIssued(code);
      }

      @Override public void onPoll(int pollNumber, String result, long next) {
        events.onPoll(pollNumber, result, next);
      }
    }).enqueue(events);
    time.awaitScheduled(before + 1);
    return issued.get(0);
  }

  private TokenRecord authorize() throws Exception {
    DeviceCode code = startFlow();
    tick(2000, true);
    new SimulatedTester(server).approve(code.userCode());
    tick(2000, false);
    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    return outcome.token();
  }

  @Test void testerAuthorizesAndPollsKeepTheServersInterval() throws Exception {
    server.console().setSlowDown(true); // the server answers slow_down to any poll that comes too early
    DeviceCode code = startFlow();
    assertThat(code.link()).isEqualTo(server.verificationUri() + "?user_code=" + code.userCode());
    tick(2000, true);
    tick(2000, true);
    new SimulatedTester(server).approve(code.userCode());
    tick(2000, false);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(outcome.token().expiresInSeconds()).isEqualTo(8_640_000L);
    List<RecordedCall> polls = server.journal().calls("/oauth/ivs/token");
    assertThat(polls).hasSize(3);
    long previous = server.journal().calls("/oauth/ivs/device_code").get(0).receivedAtMillis();
    for (RecordedCall poll : polls) {
      assertThat(poll.receivedAtMillis() - previous).isGreaterThanOrEqualTo(2000L);
      assertThat(poll.responseBody()).doesNotContain("slow_down");
      previous = poll.receivedAtMillis();
    }
  }

  @Test void testerRefuses() throws Exception {
    DeviceCode code = startFlow();
    new SimulatedTester(server).refuse(code.userCode());
    tick(2000, false);
    assertThat(events.await().kind()).isEqualTo(Kind.DENIED);
  }

  @Test void codeExpiresWhenNobodyActs() throws Exception {
    startFlow();
    for (int i = 0; i < 59; i++) tick(2000, true);
    tick(2000, false);
    assertThat(events.await().kind()).isEqualTo(Kind.EXPIRED);
    assertThat(server.journal().count("/oauth/ivs/token")).isEqualTo(59);
  }

  @Test void serverFaultsDoNotEndTheFlow() throws Exception {
    DeviceCode code = startFlow();
    Fault[] faults = {Fault.status(503).times(1), Fault.htmlErrorPage().times(1),
        Fault.malformedJson().times(1), Fault.emptyBody().times(1),
        Fault.disconnectAtStart().times(1), Fault.disconnectMidBody().times(1)};
    for (Fault fault : faults) {
      server.faults().on(Endpoint.TOKEN, fault);
      tick(time.pendingDelaysMillis().get(0), true);
    }
    new SimulatedTester(server).approve(code.userCode());
    tick(time.pendingDelaysMillis().get(0), false);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(events.calls.stream().filter(c -> c.contains("transient_failure")).count()).as(events.calls.toString())
        .isEqualTo(faults.length);
  }

  @Test void signInKeepsTheSignInAndSignOutIsLocalOnThePlatform() throws Exception {
    FileTokenStore store = new FileTokenStore(new File(dir, "token.json"));
    TokenManager manager = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(store).build();
    List<DeviceCode> issued = new ArrayList<>();
    int before = time.scheduledCount();
    manager.signIn(DefaultConsole.DEVICE_ID, issued::add).enqueue(events);
    time.awaitScheduled(before + 1);
    tick(2000, true);
    new SimulatedTester(server).approve(issued.get(0).userCode());
    tick(2000, false);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(new FileTokenStore(store.file()).load()).isEqualTo(outcome.token());
    assertThat(manager.accessToken()).isEqualTo(outcome.token().accessToken());
    assertThat(server.journal().calls("/oauth/ivs/device_code").get(0).body())
        .isEqualTo("client_id=" + DefaultConsole.CLIENT_ID + "&scope=user_ivs_all&scope_data="
            + "%7B%22user_ivs_all%22%3A%7B%22device_id%22%3A%22" + DefaultConsole.DEVICE_ID + "%22%7D%7D");
    int calls = server.journal().size();

    assertThat(manager.signOut().execute()).isEqualTo(TokenManager.SignOut.NOT_OFFERED);
    assertThat(server.journal().size()).as("the platform shows no revocation: nothing sent")
        .isEqualTo(calls);
    assertThat(store.file()).doesNotExist();
    assertThatThrownBy(manager::accessToken).isInstanceOf(NotSignedInException.class);
  }

  @Test void rotationSavesTheNewRecordAndTheOldRefreshTokenStopsWorking() throws Exception {
    TokenRecord first = authorize();
    FileTokenStore store = new FileTokenStore(new File(dir, "token.json"));
    TokenManager manager = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(store).build();
    manager.setRecord(first);

    TokenRecord second = manager.refresh().execute();
    assertThat(second.refreshToken()).isNotEqualTo(first.refreshToken());
    assertThat(new FileTokenStore(store.file()).load()).isEqualTo(second);

    TokenManager stale = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new InMemoryTokenStore(first)).build();
    assertThatThrownBy(() -> stale.refresh().execute()).isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_refresh_token: refresh_token is unknown or was already used");
    assertThat(stale.state()).isEqualTo(TokenManager.State.REAUTHORIZATION_REQUIRED);
    assertThat(manager.accessToken()).isEqualTo(second.accessToken());
  }

  @Test void fiftyConcurrentCallersOnAnExpiredTokenMakeOneRefreshRequest() throws Exception {
    server.console().setAccessTokenLifetimeSeconds(3600);
    TokenManager manager = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new InMemoryTokenStore()).build();
    manager.setRecord(authorize());
    serverClock.advance(2, TimeUnit.HOURS);
    time.advance(2, TimeUnit.HOURS);
    CountDownLatch answer = new CountDownLatch(1);
    server.faults().on(Endpoint.TOKEN, Fault.holdUntil(answer).times(1));

    try (ParkedThreads callers = new ParkedThreads()) {
      List<Future<String>> results = callers.callTogether(50, manager::accessToken);
      // The refresh is held until every other caller waits inside the manager for it.
      callers.awaitParkedInTheSdk(49);
      answer.countDown();
      String token = results.get(0).get(10, TimeUnit.SECONDS);
      for (Future<String> result : results) {
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(token);
      }
    } finally {
      answer.countDown();
    }
    long refreshes = server.journal().calls("/oauth/ivs/token").stream()
        .filter(c -> c.body().contains("\"grant_type\":\"refresh_token\"")).count();
    assertThat(refreshes).isEqualTo(1);
  }

  @Test void cloudTokenIsObtainedAndRotated() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore();
    TokenManager manager = TokenManager.builder(config)
        .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET).store(store).build();
    String first = manager.accessToken();
    String firstRefresh = store.load().refreshToken();
    TokenRecord second = manager.refresh().execute();
    assertThat(second.accessToken()).isNotEqualTo(first);
    assertThat(second.refreshToken()).isNotEqualTo(firstRefresh);
    assertThat(server.journal().count("/oauth/token")).isEqualTo(2);
    assertThat(server.journal().calls("/oauth/token").get(1).responseStatus()).isEqualTo(200);
  }

  @Test void aServerClockRunningAheadMakesARestartedDeviceRefreshAtFirstUse() throws Exception {
    // As under the standalone server's --clock-scale 10, ten minutes after it started: server time is
    // 90 minutes ahead of the device's.
    serverClock.advance(90, TimeUnit.MINUTES);
    FileTokenStore store = new FileTokenStore(new File(dir, "token.json"));
    TokenManager before = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(store).build();
    before.setRecord(authorize());
    String first = before.accessToken(); // saved before it is served
    long received = store.load().receivedAtEpochMillis();
    assertThat(received - time.wallMillis()).as("received at, on the skew-corrected clock: server time")
        .isBetween(TimeUnit.MINUTES.toMillis(90) - 1000, TimeUnit.MINUTES.toMillis(90) + 1000);
    assertThat(server.journal().calls("/oauth/ivs/token").stream()
        .filter(c -> c.body().contains("\"grant_type\":\"refresh_token\"")).count()).isZero();

    // The device restarts: a new client, whose clock has learnt nothing of the server's yet.
    VirtualTime restarted = new VirtualTime(time.wallMillis());
    try (VoiceLinkClient again = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(restarted)
        .scheduler(restarted).build();
        LogCapture log = LogCapture.install()) {
      TokenManager after = TokenManager.builder(again).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(store).build();
      assertThat(after.accessToken()).isNotEqualTo(first);
      assertThat(log.lines()).contains("WARN auth the stored token was received after the device"
          + " clock's now: the clock is behind, so the token is refreshed at its first use");
    }
    assertThat(server.journal().calls("/oauth/ivs/token").stream()
        .filter(c -> c.body().contains("\"grant_type\":\"refresh_token\"")).count()).isEqualTo(1);
  }

  @Test void deviceClockTwoHoursBehindIsCorrectedFromTheServer() throws Exception {
    serverClock.advance(2, TimeUnit.HOURS);
    authorize();
    assertThat(ClientCore.of(config).correctedClock().offsetMillis())
        .isBetween(TimeUnit.HOURS.toMillis(2) - 1000, TimeUnit.HOURS.toMillis(2) + 1000);
  }
}
