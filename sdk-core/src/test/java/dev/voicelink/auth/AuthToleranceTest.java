package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.deviceCode;
import static dev.voicelink.auth.AuthServerScript.json;
import static dev.voicelink.auth.AuthServerScript.pending;
import static dev.voicelink.auth.AuthServerScript.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceFlowOutcome.Kind;
import dev.voicelink.core.HttpDates;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import java.io.IOException;
import java.util.Date;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the authorization service may answer where the spec leaves the detail open (units of {@code
 * interval}, {@code created_at} and {@code expires_in}, a refresh without a new refresh token), and
 * how a malformed success answer ends a flow at once. See docs/platform-assumptions.md.
 */
class AuthToleranceTest {

  private final VirtualTime time = new VirtualTime();
  private final AuthServerScript script = new AuthServerScript(time);
  private final MockWebServer server = new MockWebServer();
  private final DeviceAuthorizerTest.Events events = new DeviceAuthorizerTest.Events();
  private VoiceLinkClient config;
  private DeviceAuthorizer authorizer;
  private LogCapture log;

  @BeforeEach void setUp() throws IOException {
    server.setDispatcher(script);
    server.start();
    config = VoiceLinkClient.builder().authUrl(server.url("/").toString()).clock(time)
        .scheduler(time).build();
    authorizer = DeviceAuthorizer.builder(config).clientId("vl-speaker-01").random(new Random(7))
        .build();
    log = LogCapture.install();
  }

  @AfterEach void tearDown() throws IOException {
    log.close();
    config.close();
    server.shutdown();
  }

  private VoiceLinkCall<DeviceFlowOutcome> startFlow(DeviceFlowListener listener)
      throws InterruptedException {
    int before = time.scheduledCount();
    VoiceLinkCall<DeviceFlowOutcome> flow = authorizer.authorize("SN-0001-DEMO", listener);
    flow.enqueue(events);
    time.awaitScheduled(before + 1);
    return flow;
  }

  /**
   * Moves the clock to the next poll and waits until its answer was taken: the poll arms the code's
   * deadline while it is out (one task), and its answer schedules the wait before the next (another).
   */
  private void stepPoll(long millis) throws InterruptedException {
    time.step(millis, 2);
  }

  /** A device flow whose first poll gets {@code answer}; returns its outcome. */
  private DeviceFlowOutcome authorizeWith(MockResponse answer) throws Exception {
    script.enqueue(deviceCode(2, 120), answer);
    startFlow(events);
    time.advance(2000, TimeUnit.MILLISECONDS);
    return events.await();
  }

  /** A device code answer with {@code interval} and {@code expires_in} as written (JSON). */
  private static MockResponse codeAnswer(String interval, String expiresIn) {
    return json(200, "{\"verification_uri\":\"https://auth.example.com/verify\","
        + "\"user_code\":\"WDJB-MJHT\",\"interval\":" + interval + ",\"expires_in\":" + expiresIn
        + ",\"device_code\":\"dc-secret-9f8e7d\"}");
  }

  private static MockResponse tokenAnswer(String fields) {
    return json(200, "{\"token_type\":\"bearer\",\"access_token\":\"at-1\","
        + "\"refresh_token\":\"rt-1\"" + fields + "}");
  }

  // interval (protocol 2.1, 8: unit not stated)

  @Test void anIntervalNotBelowExpiresInIsMilliseconds() throws Exception {
    script.enqueue(deviceCode(1000, 30), pending(), token("at-1", "rt-1", 3600, 1_763_712_000L));
    startFlow(events);
    assertThat(time.pendingDelaysMillis()).containsExactly(1000L);
    stepPoll(1000);
    time.advance(1000, TimeUnit.MILLISECONDS);

    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 1000L, 2000L);
    assertThat(events.calls).contains("poll 1 authorization_pending 1000");
    assertThat(log.warnings()).containsExactly("WARN auth device_code interval 1000 is not below"
        + " expires_in 30, so it cannot be seconds: read as milliseconds (polls every 1000 ms)"
        + " (docs/platform-assumptions.md)");
  }

  @Test void todaysReadingStaysSecondsAndWarnsOfNothing() throws Exception {
    script.enqueue(deviceCode(2, 120), pending());
    startFlow(events);
    assertThat(time.pendingDelaysMillis()).containsExactly(2000L);
    stepPoll(2000);
    assertThat(events.calls).contains("poll 1 authorization_pending 2000");
    assertThat(log.warnings()).isEmpty();
  }

  @Test void aReadingInMillisecondsIsNeverShorterThanASecond() throws Exception {
    script.enqueue(deviceCode(30, 30), pending());
    startFlow(events);
    assertThat(time.pendingDelaysMillis()).containsExactly(1000L);
  }

  @Test void anIntervalAsTextOrAFractionIsReadAndSaidOnce() throws Exception {
    script.enqueue(codeAnswer("\"1.5\"", "120"));
    DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();

    assertThat(code.intervalMillis()).isEqualTo(1500);
    assertThat(log.warnings()).containsExactly(
        "WARN auth device_code interval is a number sent as text: read as 1.5"
            + " (docs/platform-assumptions.md)",
        "WARN auth device_code interval 1.5 is not a whole number: polls every 1500 ms"
            + " (docs/platform-assumptions.md)");
  }

  @Test void anIntervalInSecondsThatLeavesTimeForFewPollsIsSaidOnce() throws Exception {
    script.enqueue(deviceCode(2000, 3600), deviceCode(2, 120));
    assertThat(authorizer.requestCode("SN-0001-DEMO").execute().intervalMillis()).isEqualTo(2_000_000);
    authorizer.requestCode("SN-0001-DEMO").execute();

    assertThat(log.warnings()).containsExactly("WARN auth device_code interval 2000 read as seconds"
        + " leaves time for 1 poll(s) before the code expires in 3600 s; if the server means"
        + " milliseconds, set intervalUnit(TimeUnit.MILLISECONDS) on the DeviceAuthorizer or"
        + " TokenManager builder (docs/platform-assumptions.md)");
  }

  /** One-step sign-in takes the app's unit too: 2000 below expires_in polls at 2 s, not 33 min. */
  @Test void aTokenManagersSignInPollsInTheAppsUnit() throws Exception {
    TokenManager tokens = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore()).intervalUnit(TimeUnit.MILLISECONDS).build();
    script.enqueue(deviceCode(2000, 3600));
    BlockingQueue<DeviceCode> codes = new LinkedBlockingQueue<>();
    int before = time.scheduledCount();
    tokens.signIn("SN-0001-DEMO", codes::add).enqueue(result -> { });
    time.awaitScheduled(before + 1);

    assertThat(codes.poll(10, TimeUnit.SECONDS).intervalMillis()).isEqualTo(2000);
    assertThat(time.pendingDelaysMillis()).as("the first poll waits one interval").contains(2000L);
    assertThat(log.warnings()).as("the app's choice is no deviation").isEmpty();
    assertThatThrownBy(() -> TokenManager.builder(config).intervalUnit(TimeUnit.MINUTES))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("intervalUnit must be SECONDS or MILLISECONDS; was: MINUTES");
  }

  @Test void theWarningComesOncePerClient() throws Exception {
    script.enqueue(deviceCode(1000, 30), deviceCode(1000, 30));
    authorizer.requestCode("SN-0001-DEMO").execute();
    authorizer.requestCode("SN-0001-DEMO").execute();
    assertThat(log.warnings()).hasSize(1);
  }

  @Test void theAppChoosesTheUnit() throws Exception {
    DeviceAuthorizer seconds = DeviceAuthorizer.builder(config).clientId("vl-speaker-01")
        .intervalUnit(TimeUnit.SECONDS).build();
    script.enqueue(deviceCode(1000, 30));
    assertThatThrownBy(() -> seconds.requestCode("SN-0001-DEMO").execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed device authorization response (HTTP 200): interval 1000 s must be"
            + " shorter than expires_in 30 s");

    DeviceAuthorizer millis = DeviceAuthorizer.builder(config).clientId("vl-speaker-01")
        .intervalUnit(TimeUnit.MILLISECONDS).build();
    script.enqueue(deviceCode(1500, 120));
    DeviceCode code = millis.requestCode("SN-0001-DEMO").execute();
    assertThat(code.intervalMillis()).isEqualTo(1500);
    assertThat(code.intervalSeconds()).isEqualTo(2);
    assertThat(log.warnings()).as("the app's choice is no deviation").isEmpty();

    assertThatThrownBy(() -> DeviceAuthorizer.builder(config).intervalUnit(TimeUnit.MINUTES))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("intervalUnit must be SECONDS or MILLISECONDS; was: MINUTES");
  }

  // A malformed success answer cannot get better by asking again.

  @Test void aMalformedCodeAnswerEndsTheFlowAtOnce() throws Exception {
    // credentials in the address are not echoed
    script.enqueue(json(200, "{\"verification_uri\":\"ftp://user:s3cret@auth.example.com/verify\","
        + "\"user_code\":\"U\",\"interval\":2,\"expires_in\":120,\"device_code\":\"d\"}"));
    authorizer.authorize("SN-0001-DEMO", events).enqueue(events);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).isInstanceOf(IOException.class)
        .hasMessage("malformed device authorization response (HTTP 200): verification_uri must be"
            + " an http or https address; was: ftp://‹redacted›@auth.example.com/verify");
    assertThat(script.arrivalsMillis()).hasSize(1);
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  @Test void anIntervalOutOfRangeEndsTheFlowAtOnce() throws Exception {
    script.enqueue(deviceCode(-1, 120));
    authorizer.authorize("SN-0001-DEMO", events).enqueue(events);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).hasMessage("malformed device authorization response (HTTP 200):"
        + " interval must be a number, 0 or more");
    assertThat(script.arrivalsMillis()).hasSize(1);
  }

  @Test void aMalformedTokenAnswerIsNeverPolledAgain() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":\"soon\""));

    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).isInstanceOf(IOException.class)
        .hasMessage("malformed token record: expires_in must be a number of seconds");
    assertThat(script.arrivalsMillis()).hasSize(2);
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  // token_type of a token (protocol 2.2: always bearer)

  @Test void aMissingTokenTypeIsBearerAndSaidOnce() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(json(200, "{\"access_token\":\"at-1\","
        + "\"refresh_token\":\"rt-1\",\"expires_in\":7200}"));

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(outcome.token().tokenType()).isEqualTo("bearer");
    assertThat(log.warnings()).containsExactly("WARN auth the token answer has no token_type: read as"
        + " bearer (docs/platform-assumptions.md)");
  }

  @Test void aTokenTypeInAnotherCaseIsBearerWithoutAWord() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(json(200, "{\"token_type\":\"Bearer\","
        + "\"access_token\":\"at-1\",\"refresh_token\":\"rt-1\",\"expires_in\":7200}"));

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(outcome.token().expiresInSeconds()).isEqualTo(7200);
    assertThat(log.warnings()).isEmpty();
  }

  @Test void aTokenTypeOtherThanBearerIsMalformed() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(json(200, "{\"token_type\":\"mac\","
        + "\"access_token\":\"at-1\",\"refresh_token\":\"rt-1\",\"expires_in\":7200}"));

    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).isInstanceOf(IOException.class)
        .hasMessage("malformed token record: token_type \"mac\" is not supported; expected bearer");
    assertThat(script.arrivalsMillis()).hasSize(2);
  }

  // expires_in of a token (protocol 2.2, 8: "documented as seconds")

  @Test void aMissingExpiresInGetsTheDefaultLifetime() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"created_at\":1763712000"));

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(outcome.token().expiresInSeconds()).isEqualTo(3600);
    assertThat(log.warnings()).containsExactly("WARN auth the token answer has no expires_in: the"
        + " token is taken to live 3600 s, and is refreshed sooner if a server rejects it"
        + " (docs/platform-assumptions.md)");
  }

  @Test void aTokenWithoutExpiresInIsRefreshedWithinTheDefaultLifetime() throws Exception {
    TokenManager manager = manager(record("at-1", "rt-1"));
    script.enqueue(json(200, "{\"access_token\":\"at-2\",\"refresh_token\":\"rt-2\"}"),
        token("at-3", "rt-3", 3600, time.wallMillis() / 1000));
    manager.refresh().execute();
    time.advance(3600 - 6 * 60 - 1, TimeUnit.SECONDS); // the margin of an hour is 6 minutes
    assertThat(manager.accessToken()).isEqualTo("at-2");
    time.advance(1, TimeUnit.SECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-3");
  }

  @Test void aDeviceCodeExpiresInAsTextWithAFractionIsReadRoundedDown() throws Exception {
    script.enqueue(codeAnswer("2", "\"120.5\""));

    DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();

    assertThat(code.expiresInSeconds()).isEqualTo(120);
    assertThat(log.warnings()).containsExactly(
        "WARN auth device_code expires_in is a number sent as text: read as 120.5"
            + " (docs/platform-assumptions.md)",
        "WARN auth device_code expires_in 120.5 is not a whole number: read as 120 s"
            + " (docs/platform-assumptions.md)");
  }

  @Test void anExpiresInSentAsTextIsReadAndSaidOnce() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":\"7200\""));

    assertThat(outcome.token().expiresInSeconds()).isEqualTo(7200);
    assertThat(log.warnings()).containsExactly("WARN auth token expires_in is a number sent as text:"
        + " read as 7200 (docs/platform-assumptions.md)");
  }

  @Test void aFractionalExpiresInIsRoundedDown() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":7200.5"));

    assertThat(outcome.token().expiresInSeconds()).isEqualTo(7200);
    assertThat(log.warnings()).containsExactly("WARN auth token expires_in 7200.5 is not a whole"
        + " number: read as 7200 s (docs/platform-assumptions.md)");
  }

  @Test void anExpiresInInExponentNotationIsTheNumberItSpells() throws Exception {
    // What a server that keeps lifetimes as doubles may write (Java's Double.toString: 1.99999995E7).
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":8.64E6"));

    assertThat(outcome.token().expiresInSeconds()).isEqualTo(8_640_000);
    assertThat(log.warnings()).isEmpty();
  }

  @Test void anExpiresInThatCannotBeSecondsIsMilliseconds() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":8640000000"));

    assertThat(outcome.token().expiresInSeconds()).isEqualTo(8_640_000);
    assertThat(log.warnings()).containsExactly("WARN auth token expires_in 8640000000 is more than"
        + " 10 years in seconds: read as milliseconds, 8640000 s (docs/platform-assumptions.md)");
  }

  // created_at (protocol 2.2: "epoch-based number")

  @Test void createdAtInMillisecondsIsReadAsMilliseconds() throws Exception {
    long serverMillis = time.wallMillis() + TimeUnit.HOURS.toMillis(2); // the device is behind
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":3600,\"created_at\":"
        + serverMillis));

    assertThat(outcome.token().createdAtEpochSeconds()).isEqualTo(serverMillis / 1000);
    assertThat(ClientCore.of(config).correctedClock().offsetMillis()).isBetween(7_197_000L, 7_200_000L);
    assertThat(log.warnings()).containsExactly("WARN auth token created_at " + serverMillis
        + " cannot be epoch seconds: read as epoch milliseconds (docs/platform-assumptions.md)");
  }

  @Test void aFractionalCreatedAtIsReadToTheSecondWithoutAWord() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":3600,\"created_at\":"
        + "1763712000.75"));

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(outcome.token().createdAtEpochSeconds()).isEqualTo(1_763_712_000L);
    assertThat(log.warnings()).isEmpty();
  }

  @Test void anImplausibleCreatedAtIsIgnored() throws Exception {
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":3600,\"created_at\":5"));

    assertThat(outcome.token().createdAtEpochSeconds()).isZero();
    assertThat(ClientCore.of(config).correctedClock().offsetMillis()).isZero();
    assertThat(log.warnings()).containsExactly("WARN auth token created_at 5 is not a time between"
        + " 2001 and 2100: ignored (docs/platform-assumptions.md)");
  }

  @Test void createdAtNeverOverridesTheDateHeader() throws Exception {
    // A new grant whose Date says the device is 1 h behind and whose created_at says 3 h: the
    // header, the server's own clock at the answer, is the one the SDK learns (docs/platform-assumptions.md#token-created-at).
    long hour = TimeUnit.HOURS.toMillis(1);
    long answeredAt = time.wallMillis() + 2000; // the first poll, one interval after the code
    DeviceFlowOutcome outcome = authorizeWith(tokenAnswer(",\"expires_in\":3600,\"created_at\":"
        + (answeredAt + 3 * hour) / 1000)
        .setHeader("Date", HttpDates.format(answeredAt + hour)));

    assertThat(outcome.token().createdAtEpochSeconds()).isEqualTo((answeredAt + 3 * hour) / 1000);
    assertThat(ClientCore.of(config).correctedClock().offsetMillis())
        .isBetween(hour - 1_000L, hour);
  }

  @Test void createdAtOfARefreshIsNoClockSource() throws Exception {
    // A refresh answer's created_at may be the time of the original grant.
    TokenManager manager = manager(record("at-1", "rt-1"));
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000 + 7200));

    manager.refresh().execute();

    assertThat(ClientCore.of(config).correctedClock().offsetMillis()).isZero();
    assertThat(manager.record().createdAtEpochSeconds()).isEqualTo(time.wallMillis() / 1000 + 7200);
  }

  // refresh_token (protocol 2.2, 3.2; RFC 6749 section 6)

  @Test void aRefreshWithoutRefreshTokenKeepsTheStoredOne() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(record("at-1", "rt-1"));
    TokenManager manager = manager(store);
    script.enqueue(json(200, "{\"token_type\":\"bearer\",\"access_token\":\"at-2\","
        + "\"expires_in\":3600}"), token("at-3", "rt-3", 3600, time.wallMillis() / 1000));

    TokenRecord refreshed = manager.refresh().execute();
    assertThat(refreshed.accessToken()).isEqualTo("at-2");
    assertThat(refreshed.refreshToken()).isEqualTo("rt-1");
    assertThat(store.load().refreshToken()).isEqualTo("rt-1");

    assertThat(manager.refresh().execute().accessToken()).isEqualTo("at-3");
    server.takeRequest();
    RecordedRequest second = server.takeRequest();
    assertThat(second.getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-1\"}");
    assertThat(log.warnings()).containsExactly("WARN auth the refresh answer has no refresh_token: the"
        + " stored one is kept for the next refresh (docs/platform-assumptions.md)");
    assertThat(log.text()).doesNotContain("rt-1").doesNotContain("at-2");
  }

  private TokenRecord record(String access, String refresh) {
    return TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("vl-speaker-01")
        .accessToken(access).refreshToken(refresh).expiresInSeconds(3600)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build();
  }

  private TokenManager manager(TokenRecord record) {
    return manager(new InMemoryTokenStore(record));
  }

  private TokenManager manager(TokenStore store) {
    return TokenManager.builder(config).deviceGrant("vl-speaker-01").store(store)
        .random(new Random(3)).build();
  }
}
