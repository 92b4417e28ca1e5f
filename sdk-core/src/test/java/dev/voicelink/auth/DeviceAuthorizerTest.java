package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.deviceCode;
import static dev.voicelink.auth.AuthServerScript.disconnect;
import static dev.voicelink.auth.AuthServerScript.error;
import static dev.voicelink.auth.AuthServerScript.hang;
import static dev.voicelink.auth.AuthServerScript.json;
import static dev.voicelink.auth.AuthServerScript.pending;
import static dev.voicelink.auth.AuthServerScript.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceFlowOutcome.Kind;
import dev.voicelink.core.ServerBusyException;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.SkewCorrectedClock;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DeviceAuthorizerTest {
  private static final long CREATED_AT = 1_763_712_000L;

  private final VirtualTime time = new VirtualTime();
  private final AuthServerScript script = new AuthServerScript(time);
  private final MockWebServer server = new MockWebServer();
  private final Events events = new Events();
  private OkHttpClient http = new OkHttpClient();
  private DeviceAuthorizer authorizer;

  @BeforeEach void setUp() throws IOException {
    server.setDispatcher(script);
    server.start();
    authorizer = authorizer(http);
  }

  @AfterEach void tearDown() throws IOException {
    server.shutdown();
  }

  private DeviceAuthorizer authorizer(OkHttpClient client) {
    VoiceLinkClient config = VoiceLinkClient.builder()
        .authUrl(server.url("/").toString())
        .httpClient(client)
        .clock(time)
        .scheduler(time)
        .build();
    return DeviceAuthorizer.builder(config).clientId("vl-speaker-01").random(new Random(7)).build();
  }

  /** Listener and callback that record every call in order, as text. */
  static final class Events implements DeviceFlowListener, VoiceLinkCall.Callback<DeviceFlowOutcome> {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final AtomicReference<CallResult<DeviceFlowOutcome>> outcome = new AtomicReference<>();
    final CountDownLatch done = new CountDownLatch(1);
    /** Runs once the outcome is recorded: a test waiting on the virtual clock signals it here. */
    volatile Runnable afterResult = () -> { };

    @Override public void onCodeIssued(DeviceCode code) {
      calls.add("code " + code.userCode());
    }

    @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
      calls.add("poll " + pollNumber + " " + result + " " + nextPollDelayMillis);
    }

    @Override public void onResult(CallResult<DeviceFlowOutcome> result) {
      calls.add(result.isCancelled() ? "cancelled" : "outcome " + result.value().kind());
      outcome.set(result);
      done.countDown();
      afterResult.run();
    }

    CallResult<DeviceFlowOutcome> awaitResult() throws InterruptedException {
      assertThat(done.await(10, TimeUnit.SECONDS)).as("outcome delivered").isTrue();
      return outcome.get();
    }

    DeviceFlowOutcome await() throws InterruptedException {
      return awaitResult().value();
    }
  }

  /** Starts a flow and waits until it is waiting for its first poll. */
  private VoiceLinkCall<DeviceFlowOutcome> startFlow() throws InterruptedException {
    return startFlow(authorizer);
  }

  private VoiceLinkCall<DeviceFlowOutcome> startFlow(DeviceAuthorizer from)
      throws InterruptedException {
    int before = time.scheduledCount();
    VoiceLinkCall<DeviceFlowOutcome> flow = start(from);
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

  private VoiceLinkCall<DeviceFlowOutcome> start(DeviceAuthorizer from) {
    VoiceLinkCall<DeviceFlowOutcome> flow = from.authorize("SN-0001-DEMO", events);
    flow.enqueue(events);
    return flow;
  }

  @Test void requestsACodeWithTheFormTheSpecShows() throws Exception {
    script.enqueue(deviceCode(2, 120));
    DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getPath()).isEqualTo("/oauth/ivs/device_code");
    assertThat(request.getHeader("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
    assertThat(request.getBody().readUtf8()).isEqualTo("client_id=vl-speaker-01&scope=user_ivs_all"
        + "&scope_data=%7B%22user_ivs_all%22%3A%7B%22device_id%22%3A%22SN-0001-DEMO%22%7D%7D");

    assertThat(code.verificationUri()).isEqualTo("https://auth.example.com/verify");
    assertThat(code.userCode()).isEqualTo("WDJB-MJHT");
    assertThat(code.intervalSeconds()).isEqualTo(2);
    assertThat(code.expiresInSeconds()).isEqualTo(120);
    assertThat(code.deviceCode()).isEqualTo("dc-secret-9f8e7d");
    assertThat(code.link()).isEqualTo("https://auth.example.com/verify?user_code=WDJB-MJHT");
    assertThat(code.toString()).doesNotContain("dc-secret-9f8e7d").contains("user_code=WDJB-MJHT");
  }

  @Test void linkEncodesTheUserCode() throws Exception {
    script.enqueue(json(200, "{\"verification_uri\":\"https://a.example.com/verify?lang=en\","
        + "\"user_code\":\"A B&C\",\"interval\":0,\"expires_in\":60,\"device_code\":\"d\"}"));
    DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();
    assertThat(code.link()).isEqualTo("https://a.example.com/verify?lang=en&user_code=A%20B%26C");
    assertThat(code.intervalSeconds()).isEqualTo(5);
  }

  @Test void invalidInputIsRefusedBeforeSending() {
    assertThatThrownBy(() -> authorizer.requestCode(" ").execute())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("device_id must not be empty");
    assertThatThrownBy(() -> authorizer.requestCode("SN 0001").execute())
        .hasMessage("device_id must not contain spaces or control characters; was: \"SN 0001\"");
    assertThatThrownBy(() -> authorizer.authorize("SN\n1", events))
        .hasMessage("device_id must not contain spaces or control characters; was: \"SN\\u000a1\"");
    assertThatThrownBy(() -> authorizer.requestCode("SN\u00A00001").execute())
        .hasMessage("device_id must not contain spaces or control characters; was: \"SN\\u00a00001\"");
    assertThatThrownBy(() -> authorizer.requestCode("SN\uD83D").execute())
        .hasMessage("device_id has a lone surrogate U+D83D at character 3; UTF-8 can only carry a"
            + " surrogate pair (often an emoji was cut in half)");
    assertThatThrownBy(() -> DeviceAuthorizer.builder(VoiceLinkClient.builder()
        .authUrl("https://auth.example.com/").build()).clientId("vl\u202Fspeaker"))
        .hasMessage("client_id must not contain control characters or whitespace other than a space;"
            + " was: \"vl\\u202fspeaker\"");
    assertThatThrownBy(() -> DeviceAuthorizer.builder(VoiceLinkClient.builder().build())
        .clientId("c").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("auth_url is not configured; set it with VoiceLinkClient.Builder.authUrl(...)");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void refusedCodeRequestCarriesTheServersError() {
    script.enqueue(json(400, "{\"error\":\"invalid_device\",\"message\":\"device_id not imported\"}"));
    assertThatThrownBy(() -> authorizer.requestCode("SN-9999").execute())
        .isInstanceOf(AuthorizationException.class)
        .hasMessage("invalid_device: device_id not imported");
  }

  @Test void malformedCodeAnswerIsATransportProblem() {
    script.enqueue(json(200, "{\"user_code\":\"U\",\"expires_in\":60,\"device_code\":\"d\"}"));
    assertThatThrownBy(() -> authorizer.requestCode("SN-0001-DEMO").execute())
        .isInstanceOf(IOException.class)
        .hasMessage("malformed device authorization response (HTTP 200): verification_uri is missing");
  }

  @Test void pollsAtTheIntervalUntilAuthorized() throws Exception {
    script.enqueue(deviceCode(2, 120), pending(), pending(),
        token("at-1", "rt-1", 8_640_000, CREATED_AT));
    startFlow();
    stepPoll(2000);
    stepPoll(2000);
    time.advance(2000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    TokenRecord record = outcome.token();
    assertThat(record.accessToken()).isEqualTo("at-1");
    assertThat(record.refreshToken()).isEqualTo("rt-1");
    assertThat(record.grant()).isEqualTo(TokenRecord.Grant.DEVICE);
    assertThat(record.clientId()).isEqualTo("vl-speaker-01");
    assertThat(record.expiresInSeconds()).isEqualTo(8_640_000);
    assertThat(record.receivedAtEpochMillis()).isEqualTo(time.wallMillis());
    assertThat(outcome.toString()).startsWith("DeviceFlowOutcome{AUTHORIZED, TokenRecord{")
        .doesNotContain("at-1").doesNotContain("rt-1");
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L, 4000L, 6000L);
    assertThat(events.calls).containsExactly("code WDJB-MJHT",
        "poll 1 authorization_pending 2000", "poll 2 authorization_pending 2000",
        "outcome AUTHORIZED");

    server.takeRequest();
    RecordedRequest poll = server.takeRequest();
    assertThat(poll.getPath()).isEqualTo("/oauth/ivs/token");
    assertThat(poll.getHeader("Content-Type")).isEqualTo("application/json");
    assertThat(poll.getBody().readUtf8()).isEqualTo("{\"client_id\":\"vl-speaker-01\","
        + "\"grant_type\":\"urn:ietf:params:oauth:grant-type:device_code\","
        + "\"device_code\":\"dc-secret-9f8e7d\"}");
  }

  @Test void missingIntervalMeansFiveSeconds() throws Exception {
    script.enqueue(json(200, "{\"verification_uri\":\"https://a.example.com/v\",\"user_code\":\"U\","
        + "\"expires_in\":60,\"device_code\":\"d\"}"), pending(), error("access_denied"));
    startFlow();
    assertThat(time.pendingDelaysMillis()).containsExactly(5000L);
    stepPoll(5000);
    assertThat(time.pendingDelaysMillis()).containsExactly(5000L);
    time.advance(5000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.DENIED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 5000L, 10000L);
  }

  @Test void slowDownAddsFiveSecondsForTheRestOfTheFlow() throws Exception {
    script.enqueue(deviceCode(2, 120), error("slow_down"), pending(), error("slow_down"), pending(),
        token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    stepPoll(2000);      // slow_down: 7 s from now on
    stepPoll(7000);      // pending
    stepPoll(7000);      // slow_down: 12 s
    stepPoll(12000);     // pending
    assertThat(time.pendingDelaysMillis()).containsExactly(12000L);
    time.advance(11999, TimeUnit.MILLISECONDS);
    assertThat(script.arrivalsMillis()).hasSize(5);
    time.advance(1, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L, 9000L, 16000L, 28000L, 40000L);
    assertThat(events.calls).contains("poll 1 slow_down 7000", "poll 3 slow_down 12000");
  }

  @Test void deniedEndsTheFlowWithTheServersWords() throws Exception {
    script.enqueue(deviceCode(2, 120), json(400, "{\"error\":\"access_denied\","
        + "\"message\":\"the user refused\"}"));
    startFlow();
    time.advance(2000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.DENIED);
    assertThatThrownBy(outcome::token).isInstanceOf(IllegalStateException.class)
        .hasMessage("the device flow ended " + outcome.kind() + "; only an AUTHORIZED outcome has a"
            + " token");
    assertThat(outcome.failure()).isInstanceOf(AuthorizationException.class)
        .hasMessage("access_denied: the user refused");
  }

  @Test void serverSaysExpired() throws Exception {
    script.enqueue(deviceCode(2, 120), error("expired_token"));
    startFlow();
    time.advance(2000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(((AuthorizationException) outcome.failure()).code()).isEqualTo("expired_token");
  }

  @Test void codeExpiresOnTheMonotonicClockWithoutAnotherPoll() throws Exception {
    script.enqueue(deviceCode(3, 10), pending(), pending(), pending());
    startFlow();
    stepPoll(3000);
    stepPoll(3000);
    stepPoll(3000);                 // third poll at 9 s; the next would be at 12 s, after expiry
    assertThat(time.pendingDelaysMillis()).containsExactly(1000L);
    time.shiftWallClock(-86_400_000L); // a wall clock jump changes nothing
    time.advance(999, TimeUnit.MILLISECONDS);
    assertThat(events.outcome.get()).isNull();
    time.advance(1, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(outcome.failure()).isNull();
    assertThat(script.arrivalsMillis()).containsExactly(0L, 3000L, 6000L, 9000L);
  }

  @Test void errorBodiesAreReadWhateverTheStatus() throws Exception {
    script.enqueue(deviceCode(2, 120),
        json(200, "{\"error\":\"authorization_pending\"}"),
        json(503, "{\"error\":\"authorization_pending\"}"),
        json(401, "{\"error\":\"access_denied\"}"));
    startFlow();
    stepPoll(2000);
    stepPoll(2000);
    time.advance(2000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.DENIED);
    assertThat(events.calls).containsExactly("code WDJB-MJHT",
        "poll 1 authorization_pending 2000", "poll 2 authorization_pending 2000", "outcome DENIED");
  }

  @Test void aClientErrorPageInPlaceOfADeviceCodeEndsTheFlowAtOnce() throws Exception {
    script.enqueue(new MockResponse().setResponseCode(404).setHeader("Content-Type", "text/html")
        .setBody("<html><body><h1>Not Found</h1></body></html>"));
    start(authorizer);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).isInstanceOf(MalformedResponseException.class).hasMessage(
        "HTTP 404 with a body that is not a JSON object; a 4xx answer without an OAuth error is not"
            + " asked again: check the device authorization endpoint's address");
    assertThat(script.arrivalsMillis()).as("asked once").hasSize(1);
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  @Test void aClientErrorPageInPlaceOfAPollAnswerEndsTheFlowAtOnce() throws Exception {
    script.enqueue(deviceCode(2, 900), new MockResponse().setResponseCode(404)
        .setHeader("Content-Type", "text/html").setBody("<html><body>Not Found</body></html>"));
    startFlow();
    time.advance(2000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).isInstanceOf(MalformedResponseException.class).hasMessage(
        "HTTP 404 with a body that is not a JSON object; a 4xx answer without an OAuth error is not"
            + " asked again: check the token endpoint's address");
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L);
  }

  @Test void aClientErrorThatAsksToComeBackLaterIsAskedAgain() throws Exception {
    script.enqueue(new MockResponse().setResponseCode(403).setHeader("Retry-After", "5")
            .setHeader("Content-Type", "text/html").setBody("<html>slow down</html>"),
        deviceCode(2, 600), token("at-1", "rt-1", 100, CREATED_AT));
    start(authorizer);
    time.awaitScheduled(1);
    time.step(time.pendingDelaysMillis().get(0), 1);
    time.advance(2000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).hasSize(3);
  }

  @Test void aRateLimitOnTheDeviceCodeIsAskedAgainAfterItsRetryAfter() throws Exception {
    script.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "3"),
        deviceCode(2, 600), token("at-1", "rt-1", 100, CREATED_AT));
    start(authorizer);
    time.awaitScheduled(1);
    assertThat(time.pendingDelaysMillis()).as("the server's Retry-After").containsExactly(3000L);
    time.step(3000, 1); // the code, then the wait for its first poll
    time.advance(2000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 3000L, 5000L);
  }

  @Test void unknownErrorEndsTheFlowAsFailed() throws Exception {
    script.enqueue(deviceCode(2, 120), json(400, "{\"error\":\"invalid_client\"}"));
    startFlow();
    time.advance(2000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).isInstanceOf(AuthorizationException.class)
        .hasMessage("invalid_client");
  }

  @Test void transientFailuresAreRetriedNeverFasterThanTheInterval() throws Exception {
    script.enqueue(deviceCode(2, 600),
        new MockResponse().setResponseCode(503),                  // 5xx, empty body
        json(500, "{\"error\":\"internal\"}"),                     // 5xx, unknown error
        json(200, ""),                                              // empty body
        json(200, "<html>gateway</html>"),                         // unparseable
        json(200, "{\"status\":\"ok\"}"),                          // neither token nor error
        disconnect(),                                               // connection reset
        json(502, "{\"error\":\"temporarily_unavailable\"}"),
        pending(),
        token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      long wait = time.pendingDelaysMillis().get(0);
      waits.add(wait);
      stepPoll(wait);
    }
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);

    assertThat(waits.get(0)).isEqualTo(2000L);
    for (int retry = 1; retry <= 7; retry++) {
      long ceiling = Math.min(60_000L, 1000L << (retry - 1));
      assertThat(waits.get(retry)).as("wait before retry " + retry)
          .isBetween(2000L, 2000L + ceiling);
    }
    List<Long> arrivals = script.arrivalsMillis();
    for (int i = 2; i < arrivals.size(); i++) {
      assertThat(arrivals.get(i) - arrivals.get(i - 1)).isGreaterThanOrEqualTo(2000L);
    }
    assertThat(events.calls.get(1)).startsWith("poll 1 transient_failure ");
    assertThat(events.calls).contains("poll 8 authorization_pending 2000");
  }

  @Test void aPollAnswerThatOnlyEchoesTheDeviceCodeIsTransient() throws Exception {
    script.enqueue(deviceCode(2, 120),
        json(200, "{\"device_code\":\"dc-1\",\"status\":\"pending\"}"),
        token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    stepPoll(2000);
    long retry = time.pendingDelaysMillis().get(0);
    assertThat(retry).isBetween(2000L, 3000L);
    time.advance(retry, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "poll 1 transient_failure " + retry,
        "outcome AUTHORIZED");
  }

  @Test void retryAfterOfA503IsHonouredUpToTheBackoffCap() throws Exception {
    script.enqueue(deviceCode(2, 600),
        new MockResponse().setResponseCode(503).setHeader("Retry-After", "45"),
        new MockResponse().setResponseCode(503).setHeader("Retry-After", "3600"),
        pending(),
        token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      long wait = time.pendingDelaysMillis().get(0);
      waits.add(wait);
      stepPoll(wait);
    }
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);

    // 45 s asked and granted; an hour asked is cut to the device flow's 60 s cap.
    assertThat(waits).containsExactly(2000L, 45_000L, 60_000L);
    List<Long> arrivals = script.arrivalsMillis();
    assertThat(arrivals.get(2) - arrivals.get(1)).isEqualTo(45_000L);
    assertThat(arrivals.get(3) - arrivals.get(2)).isEqualTo(60_000L);
    assertThat(events.calls.get(1)).isEqualTo("poll 1 transient_failure 45000");
  }

  @Test void aRateLimitWithAnErrorOfItsOwnIsTransientAndItsRetryAfterHonoured() throws Exception {
    script.enqueue(deviceCode(2, 600),
        json(429, "{\"error\":\"too_many_requests\"}").setHeader("Retry-After", "20"),
        json(429, "{\"error\":\"slow_down\"}"),
        token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    stepPoll(2000);
    stepPoll(20_000);
    time.advance(7000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "poll 1 transient_failure 20000",
        "poll 2 slow_down 7000", "outcome AUTHORIZED");
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L, 22_000L, 29_000L);
  }

  /** A rate limiter's slow_down or pending with a Retry-After longer than the interval: it waits. */
  @Test void aFlowErrorsRetryAfterLongerThanTheIntervalIsWaitedOut() throws Exception {
    script.enqueue(deviceCode(2, 600),
        json(429, "{\"error\":\"slow_down\"}").setHeader("Retry-After", "30"),
        json(503, "{\"error\":\"authorization_pending\"}").setHeader("Retry-After", "3"),
        token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    stepPoll(2000);
    stepPoll(30_000);
    time.advance(7000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "poll 1 slow_down 30000",
        "poll 2 authorization_pending 7000", "outcome AUTHORIZED");
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L, 32_000L, 39_000L);
  }

  @Test void aCodeThatExpiresAmongBusyAnswersEndsWithTheServersRetryAfter() throws Exception {
    script.enqueue(deviceCode(2, 60));
    for (int i = 0; i < 20; i++) {
      script.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "7"));
    }
    long startNanos = time.monotonicNanos();
    startFlow();
    DeviceFlowOutcome outcome = driveToOutcome();

    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(time.monotonicNanos() - startNanos).as("ended by the expiry, not before")
        .isEqualTo(TimeUnit.SECONDS.toNanos(60));
    assertThat(outcome.failure()).isInstanceOf(ServerBusyException.class)
        .hasMessage("HTTP 503 with an empty body; the server asks to retry after 7 s");
    assertThat(((ServerBusyException) outcome.failure()).retryAfterMillis()).isEqualTo(7000L);
    List<Long> polls = script.arrivalsMillis().subList(1, script.arrivalsMillis().size());
    for (int i = 1; i < polls.size(); i++) {
      assertThat(polls.get(i) - polls.get(i - 1)).as("the Retry-After is waited out")
          .isGreaterThanOrEqualTo(7000L);
    }
  }

  @Test void connectionRefusedIsTransient() throws Exception {
    // A server on a port of its choosing, which it may take again once closed: its connections, which
    // the device closes after the server did, leave that port waiting only for a server that reuses it.
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (MockWebServer first = new MockWebServer()) {
      first.setDispatcher(script);
      first.start(port);
      authorizer = DeviceAuthorizer.builder(VoiceLinkClient.builder()
          .authUrl(first.url("/").toString()).httpClient(http).clock(time).scheduler(time).build())
          .clientId("vl-speaker-01").random(new Random(7)).build();
      script.enqueue(deviceCode(2, 600));
      startFlow();
      first.shutdown(); // nothing listens on the port any more
    }
    stepPoll(2000);
    assertThat(events.calls.get(1)).startsWith("poll 1 transient_failure ");
    try (MockWebServer back = new MockWebServer()) {
      back.enqueue(token("at-1", "rt-1", 100, CREATED_AT));
      back.start(port);
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
      assertThat(back.getRequestCount()).isEqualTo(1);
    }
  }

  @Test void readTimeoutIsTransient() throws Exception {
    // Only the hung poll (the second request) has a short timeout: a loaded machine may take 200 ms
    // to answer the others.
    AtomicInteger requests = new AtomicInteger();
    authorizer = authorizer(http.newBuilder().addInterceptor(chain -> requests.incrementAndGet() == 2
        ? chain.withReadTimeout(200, TimeUnit.MILLISECONDS).proceed(chain.request())
        : chain.proceed(chain.request())).build());
    script.enqueue(deviceCode(2, 600), hang(), token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    stepPoll(2000);
    assertThat(events.calls.get(1)).startsWith("poll 1 transient_failure ");
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
  }

  @Test void pollsGoOnAfterAnyNumberOfTransientFailuresInARow() throws Exception {
    int failures = 3 * DeviceAuthorizer.MAX_TRANSIENT_RETRIES;
    script.enqueue(deviceCode(1, 100_000));
    for (int i = 0; i < failures; i++) script.enqueue(new MockResponse().setResponseCode(503));
    script.enqueue(token("at-1", "rt-1", 100, CREATED_AT));
    startFlow();
    stepPoll(1000);
    for (int i = 1; i <= failures; i++) {
      long wait = time.pendingDelaysMillis().get(0);
      assertThat(wait).as("wait after failure %d: the interval plus at most the capped backoff", i)
          .isBetween(1000L, 1000L + 60_000L);
      if (i < failures) stepPoll(wait); else time.advance(wait, TimeUnit.MILLISECONDS);
    }
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).hasSize(1 + failures + 1);
    assertThat(events.calls.stream().filter(c -> c.contains("transient_failure")).count())
        .isEqualTo(failures);
  }

  @Test void aCodeThatExpiresWhileThePollsFailEndsExpiredWithTheLastFailure() throws Exception {
    script.enqueue(deviceCode(1, 600));
    for (int i = 0; i < 100; i++) script.enqueue(new MockResponse().setResponseCode(503));
    long startNanos = time.monotonicNanos();
    startFlow();
    DeviceFlowOutcome outcome = driveToOutcome();

    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(outcome.failure()).isInstanceOf(IOException.class)
        .hasMessage("HTTP 503 with an empty body");
    assertThat(time.monotonicNanos() - startNanos).isEqualTo(TimeUnit.SECONDS.toNanos(600));
    List<Long> arrivals = script.arrivalsMillis();
    assertThat(arrivals.size() - 1).as("polls: more than the device code request's bound")
        .isGreaterThan(1 + DeviceAuthorizer.MAX_TRANSIENT_RETRIES);
    assertThat(arrivals.get(arrivals.size() - 1))
        .as("the last poll came within one longest wait of the expiry")
        .isGreaterThan(600_000L - 1000 - 60_000);
  }

  @Test void anExpiryAfterFailuresThatEndedWithAnAnswerCarriesNoFailure() throws Exception {
    script.enqueue(deviceCode(2, 6), new MockResponse().setResponseCode(503), pending());
    startFlow();
    DeviceFlowOutcome outcome = driveToOutcome();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(outcome.failure()).as("the server answered last: nobody approved").isNull();
    assertThat(script.arrivalsMillis()).hasSize(3);
  }

  @Test void codeExpiryEndsAFlowThatOnlySeesFailuresWithTheLastOfThem() throws Exception {
    script.enqueue(deviceCode(2, 5), new MockResponse().setResponseCode(503),
        json(502, "<html>Bad Gateway</html>"));
    long startNanos = time.monotonicNanos();
    startFlow();
    DeviceFlowOutcome outcome = driveToOutcome();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(outcome.failure()).isInstanceOf(IOException.class)
        .hasMessage("HTTP 502 with a body that is not a JSON object");
    assertThat(time.monotonicNanos() - startNanos).isEqualTo(TimeUnit.SECONDS.toNanos(5));
    assertThat(script.arrivalsMillis()).allMatch(t -> t < 5000L);
  }

  /** Moves time on, wait by wait, until the flow has an outcome: its polls are answered elsewhere. */
  private DeviceFlowOutcome driveToOutcome() throws InterruptedException {
    events.afterResult = time::signal;
    while (events.outcome.get() == null) {
      int before = time.scheduledCount();
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      // The step either ends the flow or sends a poll, which arms the deadline and whose answer
      // schedules the flow's next wait, on another thread: wait for one or the other.
      assertThat(time.awaitScheduledOr(before + 2, () -> events.outcome.get() != null, 10,
          TimeUnit.SECONDS)).as("the flow's next wait or its outcome").isTrue();
    }
    return events.await();
  }

  /** A client that never gives up reading (as apps with streaming calls configure theirs). */
  private OkHttpClient patientClient(CountDownLatch failedCalls) {
    return http.newBuilder().readTimeout(0, TimeUnit.MILLISECONDS).eventListener(new EventListener() {
      @Override public void callFailed(Call call, IOException e) {
        failedCalls.countDown();
      }
    }).build();
  }

  @Test void aPollWithNoAnswerIsWaitedForTenSecondsPastTheDeadlineThenCancelled() throws Exception {
    CountDownLatch failedCalls = new CountDownLatch(1);
    authorizer = authorizer(patientClient(failedCalls));
    script.enqueue(deviceCode(2, 5), hang());
    startFlow();
    time.advance(2000, TimeUnit.MILLISECONDS);     // poll 1 goes out; the server never answers
    script.awaitArrivals(2);
    time.advance(3000, TimeUnit.MILLISECONDS);     // expires_in after the code was received
    assertThat(time.pendingDelaysMillis()).as("the sent poll's answer is waited for")
        .containsExactly(DevicePoller.LATE_ANSWER_MILLIS);
    time.advance(9999, TimeUnit.MILLISECONDS);
    assertThat(events.outcome.get()).isNull();
    assertThat(failedCalls.getCount()).as("the poll is still waiting for its answer").isEqualTo(1);
    time.advance(1, TimeUnit.MILLISECONDS);

    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(outcome.failure()).isNull();
    assertThat(failedCalls.await(10, TimeUnit.SECONDS)).as("the hung poll was cancelled").isTrue();
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "outcome EXPIRED");
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L);
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  /**
   * The server took the last poll before the code expired and issued the token, which used the code
   * up; its answer comes after the device's deadline. The user approved: the device is signed in.
   */
  @Test void aTokenForAPollSentBeforeTheDeadlineIsKeptWhenItComesAfterIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    script.enqueue(deviceCode(2, 5), token("at-1", "rt-1", 7200, CREATED_AT));
    startFlow();
    script.holdAnswersUntil(release);
    time.advance(2000, TimeUnit.MILLISECONDS);     // poll 1 goes out; its answer is slow
    script.awaitArrivals(2);
    time.advance(3000, TimeUnit.MILLISECONDS);     // the code expires with the poll out
    assertThat(time.pendingDelaysMillis()).containsExactly(DevicePoller.LATE_ANSWER_MILLIS);
    assertThat(events.outcome.get()).isNull();
    time.advance(4000, TimeUnit.MILLISECONDS);
    release.countDown();                            // the token comes 4 s after the deadline

    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(outcome.token().accessToken()).isEqualTo("at-1");
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L);
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  @Test void aPollQueuedBehindOtherCallsIsCancelledAtTheDeadline() throws Exception {
    CountDownLatch failedCalls = new CountDownLatch(2);
    OkHttpClient patient = patientClient(failedCalls);
    patient.dispatcher().setMaxRequests(1);         // the app's dispatcher, saturated
    authorizer = authorizer(patient);
    script.enqueue(deviceCode(2, 5), hang());
    startFlow();
    Call stream = patient.newCall(new Request.Builder().url(server.url("/stream")).build());
    stream.enqueue(new Callback() {
      @Override public void onFailure(Call call, IOException e) {
      }

      @Override public void onResponse(Call call, Response response) {
        response.close();
      }
    });
    script.awaitArrivals(2);                        // the app's call holds the only slot
    time.advance(2000, TimeUnit.MILLISECONDS);     // poll 1 waits in the dispatcher's queue
    assertThat(patient.dispatcher().queuedCallsCount()).isEqualTo(1);
    time.advance(3000, TimeUnit.MILLISECONDS);

    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "outcome EXPIRED");
    stream.cancel();                                // the slot frees: the cancelled poll must not go
    assertThat(failedCalls.await(10, TimeUnit.SECONDS)).as("both calls ended").isTrue();
    assertThat(script.arrivalsMillis()).containsExactly(0L, 0L);
    assertThat(script.paths()).containsExactly("/oauth/ivs/device_code", "/stream");
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  @Test void aPendingAnswerThatComesAtTheDeadlineEndsTheFlowUnannounced() throws Exception {
    // The clock passes the deadline while the answer is on its way, before the deadline's timer has
    // run: the scheduler is a virtual clock of its own, which the test holds back.
    VirtualTime timers = new VirtualTime();
    CountDownLatch answer = new CountDownLatch(1);
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        MockResponse scripted = script.dispatch(request);
        if (request.getPath().equals("/oauth/ivs/token")) {
          assertThat(answer.await(10, TimeUnit.SECONDS)).as("the test lets the answer go").isTrue();
        }
        return scripted;
      }
    });
    VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .httpClient(http).clock(time).scheduler(timers).build();
    script.enqueue(deviceCode(2, 5), pending());
    start(DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build());
    timers.awaitScheduled(1);                      // the wait before poll 1
    time.advance(2000, TimeUnit.MILLISECONDS);
    timers.advance(2000, TimeUnit.MILLISECONDS);   // poll 1 goes out and arms the deadline, 3 s on
    script.awaitArrivals(2);
    assertThat(timers.pendingDelaysMillis()).containsExactly(3000L);
    time.advance(3000, TimeUnit.MILLISECONDS);     // the deadline, its timer not yet run
    answer.countDown();

    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(events.calls).as("no poll announced that will not come")
        .containsExactly("code WDJB-MJHT", "outcome EXPIRED");
    assertThat(script.arrivalsMillis()).containsExactly(0L, 2000L);
    assertThat(timers.pendingDelaysMillis()).as("the deadline's timer is cancelled").isEmpty();
  }

  @Test void cancelDuringAWaitStopsAtOnceAndPollsNoMore() throws Exception {
    script.enqueue(deviceCode(2, 120), pending(), pending());
    VoiceLinkCall<DeviceFlowOutcome> flow = startFlow();
    stepPoll(2000);
    flow.cancel();
    assertThat(events.awaitResult().isCancelled()).isTrue();
    assertThat(flow.isCancelled()).isTrue();
    assertThat(time.pendingDelaysMillis()).isEmpty();
    time.advance(1, TimeUnit.HOURS);
    assertThat(script.arrivalsMillis()).hasSize(2);
    flow.cancel();
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "poll 1 authorization_pending 2000",
        "cancelled");
  }

  @Test void cancelDuringAPollInFlightAbortsTheCall() throws Exception {
    script.enqueue(deviceCode(2, 120), hang());
    VoiceLinkCall<DeviceFlowOutcome> flow = startFlow();
    time.advance(2000, TimeUnit.MILLISECONDS);
    while (script.arrivalsMillis().size() < 2) Thread.yield(); // the poll reached the server
    flow.cancel();
    assertThat(events.awaitResult().isCancelled()).isTrue();
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "cancelled");
  }

  @Test void cancelWhileTheCodeIsRequested() throws Exception {
    script.enqueue(hang());
    VoiceLinkCall<DeviceFlowOutcome> flow = start(authorizer);
    while (script.arrivalsMillis().isEmpty()) Thread.yield();
    flow.cancel();
    assertThat(events.awaitResult().isCancelled()).isTrue();
    assertThat(events.calls).containsExactly("cancelled");
  }

  /** A client whose callbacks (and the listener's news) wait in {@code queued} for the test to run. */
  private VoiceLinkClient queuingClient(List<Runnable> queued) {
    return VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .clock(time).scheduler(time).callbackExecutor(queued::add).build();
  }

  @Test void outcomeArrivesOnTheGivenExecutorExactlyOnce() throws Exception {
    List<Runnable> queued = Collections.synchronizedList(new ArrayList<>());
    VoiceLinkCall<DeviceFlowOutcome> flow = deniedWithItsNewsQueued(queued);
    assertThat(events.calls).isEmpty(); // nothing ran outside the executor
    while (!queued.isEmpty()) queued.remove(0).run();
    flow.cancel(); // too late: no second outcome
    assertThat(events.calls).containsExactly("code WDJB-MJHT", "outcome DENIED");
  }

  /**
   * The flow ended, its news and outcome still queued for the main thread, when the app cancelled
   * (onStop): it hears the cancellation alone, as it would had the cancel come a moment sooner.
   */
  @Test void aCancelAfterTheEndButBeforeTheNewsRanIsAllTheAppHears() throws Exception {
    List<Runnable> queued = Collections.synchronizedList(new ArrayList<>());
    VoiceLinkCall<DeviceFlowOutcome> flow = deniedWithItsNewsQueued(queued);

    flow.cancel();
    while (!queued.isEmpty()) queued.remove(0).run();

    assertThat(events.calls).containsExactly("cancelled");
    assertThat(flow.isCancelled()).isTrue();
  }

  /** A flow the user denied at its first poll, ended, with its news and outcome waiting in queued. */
  private VoiceLinkCall<DeviceFlowOutcome> deniedWithItsNewsQueued(List<Runnable> queued)
      throws Exception {
    script.enqueue(deviceCode(2, 120), error("access_denied"));
    VoiceLinkClient queuing = queuingClient(queued);
    VoiceLinkCall<DeviceFlowOutcome> flow = startFlow(DeviceAuthorizer.builder(queuing)
        .clientId("vl-speaker-01").build());
    time.advance(2000, TimeUnit.MILLISECONDS);
    while (ClientCore.of(queuing).runningCalls() > 0) Thread.yield(); // with the executor, not run
    return flow;
  }

  @Test void newsQueuedForTheListenerBeforeCancelIsNotToldAfterIt() throws Exception {
    // An activity that cancels in onStop must hear nothing after it, though the news was queued
    // for the main thread before.
    List<Runnable> queued = Collections.synchronizedList(new ArrayList<>());
    script.enqueue(deviceCode(2, 120), pending());
    VoiceLinkClient queuing = queuingClient(queued);
    VoiceLinkCall<DeviceFlowOutcome> flow = startFlow(DeviceAuthorizer.builder(queuing)
        .clientId("vl-speaker-01").build());
    int waits = time.scheduledCount();
    time.advance(2000, TimeUnit.MILLISECONDS);
    time.awaitScheduled(waits + 2); // the poll's deadline, then the pending answer's next wait:
                                    // its onPoll is queued
    assertThat(queued).isNotEmpty();
    assertThat(events.calls).isEmpty();

    flow.cancel();
    // Run what the main thread would, until the call's own result (which may be handed over by the
    // thread the cancel released) has come too.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!events.calls.contains("cancelled") || ClientCore.of(queuing).runningCalls() > 0
        || !queued.isEmpty()) {
      assertThat(System.nanoTime() - deadline).as("the cancelled result was delivered").isNegative();
      if (queued.isEmpty()) {
        Thread.yield();
      } else {
        queued.remove(0).run();
      }
    }

    assertThat(events.calls).containsExactly("cancelled");
  }

  @Test void blockingPollIsCancelledByInterrupt() throws Exception {
    script.enqueue(deviceCode(2, 120), pending());
    DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();
    AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
    AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
    int before = time.scheduledCount();
    AtomicReference<Exception> thrown = new AtomicReference<>();
    Thread poller = new Thread(() -> {
      try {
        outcome.set(authorizer.poll(code).execute());
      } catch (Exception e) {
        thrown.set(e);
      }
      stillInterrupted.set(Thread.currentThread().isInterrupted());
    });
    poller.start();
    time.awaitScheduled(before + 1);
    poller.interrupt();
    poller.join(5000);
    assertThat(outcome.get()).isNull();
    assertThat(thrown.get()).isInstanceOf(CallCancelledException.class)
        .hasMessage("the call was cancelled");
    assertThat(stillInterrupted.get()).isTrue();
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  @Test void blockingPollReturnsTheToken() throws Exception {
    script.enqueue(deviceCode(2, 120), token("at-1", "rt-1", 100, CREATED_AT));
    DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();
    AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
    int before = time.scheduledCount();
    Thread poller = new Thread(() -> {
      try {
        outcome.set(authorizer.poll(code).execute());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    poller.start();
    time.awaitScheduled(before + 1);
    time.advance(2, TimeUnit.SECONDS);
    poller.join(5000);
    assertThat(outcome.get().kind()).isEqualTo(Kind.AUTHORIZED);
  }

  @Test void createdAtFarFromTheDeviceClockCorrectsIt() throws Exception {
    VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .clock(time).scheduler(time).build();
    DeviceAuthorizer skewed = DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build();
    long serverSeconds = time.wallMillis() / 1000 + 7200; // the device is two hours behind
    script.enqueue(deviceCode(2, 120), token("at-1", "rt-1", 100, serverSeconds));
    DeviceCode code = skewed.requestCode("SN-0001-DEMO").execute();
    skewed.poll(code).enqueue(events);
    time.advance(2, TimeUnit.SECONDS);
    TokenRecord record = events.await().token();
    SkewCorrectedClock corrected = ClientCore.of(config).correctedClock();
    assertThat(corrected.offsetMillis()).isBetween(7_197_000L, 7_200_000L);
    assertThat(record.receivedAtEpochMillis()).isEqualTo(corrected.wallMillis());
  }
}
