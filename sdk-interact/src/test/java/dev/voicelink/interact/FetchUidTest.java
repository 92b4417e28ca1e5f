package dev.voicelink.interact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.NotSignedInException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link InteractionChannel#fetchUid}: the user named by the reference server's greeting, and the
 * socket closed on every path, as the server sees it.
 */
class FetchUidTest {
  private static final long START = 1_763_712_000_000L;
  /** The reference server's user for the default tester's phone: md5("user:" + phone). */
  private static final String TESTER_UID =
      ByteString.encodeUtf8("user:" + DefaultConsole.TESTER_PHONE).md5().hex();

  private final VirtualTime time = new VirtualTime(START);
  private ReferenceServer server;
  private VoiceLinkClient config;

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(ServerClock.manual(START)).build().start();
    config = client(server.baseUrl());
  }

  @AfterEach void stop() throws IOException {
    config.close();
    server.close();
  }

  private VoiceLinkClient client(String baseUrl) {
    return VoiceLinkClient.builder().authUrl(server.authUrl()).baseUrl(baseUrl).clock(time)
        .scheduler(time).build();
  }

  private TokenManager signedIn() throws Exception {
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config).clientId(DefaultConsole.CLIENT_ID)
        .build();
    DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
    new SimulatedTester(server).approve(code.userCode());
    BlockingQueue<CallResult<DeviceFlowOutcome>> outcomes = new LinkedBlockingQueue<>();
    int before = time.scheduledCount();
    authorizer.poll(code).enqueue(outcomes::add);
    time.awaitScheduled(before + 1);
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    CallResult<DeviceFlowOutcome> outcome = outcomes.poll(10, TimeUnit.SECONDS);
    assertThat(outcome).as("the device flow's outcome").isNotNull();
    TokenManager tokens = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new InMemoryTokenStore()).build();
    tokens.setRecord(outcome.value().token());
    return tokens;
  }

  /**
   * Enqueues {@code call} and runs the tasks it schedules (its attempt, one retry after a 401) until it
   * ends; the greeting deadline is never reached, as no time passes.
   */
  private CallResult<String> run(VoiceLinkCall<String> call) throws InterruptedException {
    BlockingQueue<CallResult<String>> results = new LinkedBlockingQueue<>();
    int scheduled = time.scheduledCount();
    call.enqueue(result -> {
      results.add(result);
      time.signal();
    });
    for (int step = 0; step < 10 && results.isEmpty(); step++) {
      assertThat(time.awaitScheduledOr(scheduled + 1, () -> !results.isEmpty(), 10, TimeUnit.SECONDS))
          .as("a task scheduled or the call ended").isTrue();
      scheduled = time.scheduledCount();
      time.runDueTasks();
    }
    CallResult<String> result = results.poll(10, TimeUnit.SECONDS);
    assertThat(result).as("the call's result").isNotNull();
    return result;
  }

  private List<RecordedCall> upgrades() {
    return server.journal().calls("/v2/voicelink/interact").stream()
        .filter(call -> call.method().equals("GET")).collect(Collectors.toList());
  }

  private static Throwable failure(CallResult<String> result) {
    assertThat(result.isSuccess()).as("failed: " + result).isFalse();
    assertThat(result.isCancelled()).isFalse();
    return result.failure();
  }

  @Test void namesTheSignedInUserAndClosesTheSocket() throws Exception {
    TokenManager tokens = signedIn();

    CallResult<String> result = run(InteractionChannel.fetchUid(config, tokens));

    assertThat(result.value()).isEqualTo(TESTER_UID);
    assertThat(server.awaitInteractionSessionsClosed(5, TimeUnit.SECONDS))
        .as("the server saw the socket closed").isTrue();
    List<RecordedCall> upgrades = upgrades();
    assertThat(upgrades).hasSize(1);
    assertThat(upgrades.get(0).responseStatus()).isEqualTo(101);
    assertThat(upgrades.get(0).header("Authorization")).isEqualTo(tokens.accessToken());
    assertThat(server.journal().count("/v2/voicelink/interact")).as("nothing written").isEqualTo(1);
    assertThat(ClientCore.of(config).trackedResources()).as("no channel left to the client").isZero();
    assertThat(time.pendingDelaysMillis()).as("no greeting deadline left").isEmpty();
  }

  @Test void cancellingWhileTheUpgradeIsUnansweredLeavesNoSessionOpen() throws Exception {
    TokenManager tokens = signedIn();
    CountDownLatch release = new CountDownLatch(1);
    server.faults().on(Endpoint.INTERACT, Fault.holdUntil(release).times(1));
    VoiceLinkCall<String> call = InteractionChannel.fetchUid(config, tokens);
    BlockingQueue<CallResult<String>> results = new LinkedBlockingQueue<>();
    int scheduled = time.scheduledCount();
    int journaled = server.journal().size();
    call.enqueue(results::add);
    time.awaitScheduled(scheduled + 1);
    time.runDueTasks();
    assertThat(server.journal().awaitSize(journaled + 1, 10, TimeUnit.SECONDS)).as("the upgrade").isTrue();

    call.cancel();

    assertThat(ClientCore.of(config).trackedResources()).as("the channel closed at once").isZero();
    CallResult<String> result = results.poll(10, TimeUnit.SECONDS);
    assertThat(result).isNotNull();
    assertThat(result.isCancelled()).isTrue();
    release.countDown();
    assertThat(server.awaitInteractionSessionsClosed(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test void closingTheClientEndsTheCallAndItsSocket() throws Exception {
    TokenManager tokens = signedIn();
    CountDownLatch release = new CountDownLatch(1);
    server.faults().on(Endpoint.INTERACT, Fault.holdUntil(release).times(1));
    BlockingQueue<CallResult<String>> results = new LinkedBlockingQueue<>();
    int scheduled = time.scheduledCount();
    int journaled = server.journal().size();
    InteractionChannel.fetchUid(config, tokens).enqueue(results::add);
    time.awaitScheduled(scheduled + 1);
    time.runDueTasks();
    assertThat(server.journal().awaitSize(journaled + 1, 10, TimeUnit.SECONDS)).isTrue();

    config.close();

    CallResult<String> result = results.poll(10, TimeUnit.SECONDS);
    assertThat(result).isNotNull();
    assertThat(result.isCancelled()).isTrue();
    release.countDown();
    assertThat(server.awaitInteractionSessionsClosed(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test void aTokenRejectedAgainAfterARefreshIsInvalidToken() throws Exception {
    List<String> invalidated = new ArrayList<>();
    TokenSource unknown = new TokenSource() {
      @Override public String accessToken() {
        return "at-unknown-" + invalidated.size();
      }

      @Override public void invalidate(String rejectedToken) {
        invalidated.add(rejectedToken);
      }
    };

    Throwable failure = failure(run(InteractionChannel.fetchUid(config, unknown)));

    assertThat(failure).isInstanceOf(AuthorizationException.class)
        .hasMessage("invalid_token: the interaction channel rejected the access token (HTTP 401), also"
            + " after a refresh");
    assertThat(((AuthorizationException) failure).code()).isEqualTo("invalid_token");
    assertThat(invalidated).containsExactly("at-unknown-0", "at-unknown-1");
    assertThat(upgrades()).extracting(RecordedCall::responseStatus).containsExactly(401, 401);
  }

  @Test void withoutASignInTheTokenSourcesOwnExceptionAndNothingSent() throws Exception {
    TokenManager none = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new InMemoryTokenStore()).build();

    Throwable failure = failure(run(InteractionChannel.fetchUid(config, none)));

    assertThat(failure).isInstanceOf(NotSignedInException.class);
    assertThat(upgrades()).isEmpty();
  }

  @Test void aCloudTokenIsRefusedAtTheUpgrade() throws Exception {
    TokenManager cloud = TokenManager.builder(config)
        .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
        .store(new InMemoryTokenStore()).build();

    Throwable failure = failure(run(InteractionChannel.fetchUid(config, cloud)));

    assertThat(failure).isExactlyInstanceOf(IOException.class)
        .hasMessage("the interaction channel did not name the user: HTTP 403 on upgrade");
    assertThat(server.awaitInteractionSessionsClosed(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test void aServerThatNeverGreetsIsGivenUpOnAtTheGreetingTimeoutAndItsSocketClosed()
      throws Exception {
    givenUpOnASilentServerAfter(10_000, "10 s",
        client -> InteractionChannel.fetchUid(client, () -> "at-1"));
  }

  @Test void theGreetingTimeoutOfOneCallIsTheOneItWasGiven() throws Exception {
    givenUpOnASilentServerAfter(2_500, "2500 ms",
        client -> InteractionChannel.fetchUid(client, () -> "at-1", 2_500, TimeUnit.MILLISECONDS));
  }

  private interface UidCalls {
    VoiceLinkCall<String> fetchUid(VoiceLinkClient client);
  }

  private void givenUpOnASilentServerAfter(long deadlineMillis, String deadlineText, UidCalls calls)
      throws Exception {
    BlockingQueue<String> serverSide = new LinkedBlockingQueue<>();
    try (MockWebServer silent = new MockWebServer();
        VoiceLinkClient toSilent = client(silent.url("/api").toString())) {
      silent.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
        @Override public void onOpen(WebSocket webSocket, Response response) {
          serverSide.add("open");
        }

        @Override public void onClosing(WebSocket webSocket, int code, String reason) {
          serverSide.add("closing " + code);
        }

        @Override public void onFailure(WebSocket webSocket, Throwable t, Response response) {
          serverSide.add("failed");
        }
      }));
      VoiceLinkCall<String> call = calls.fetchUid(toSilent);
      BlockingQueue<CallResult<String>> results = new LinkedBlockingQueue<>();
      int scheduled = time.scheduledCount();
      call.enqueue(results::add);
      time.awaitScheduled(scheduled + 1);
      time.runDueTasks();
      assertThat(serverSide.poll(10, TimeUnit.SECONDS)).isEqualTo("open");
      time.awaitScheduled(scheduled + 2); // the greeting deadline

      time.advance(deadlineMillis - 1, TimeUnit.MILLISECONDS);
      assertThat(results.poll(100, TimeUnit.MILLISECONDS)).as("nothing before the deadline").isNull();
      time.advance(1, TimeUnit.MILLISECONDS);

      CallResult<String> result = results.poll(10, TimeUnit.SECONDS);
      assertThat(result).isNotNull();
      assertThat(failure(result)).isExactlyInstanceOf(IOException.class)
          .hasMessage("the interaction channel did not name the user: no \"connected\" message within "
              + deadlineText + " of the upgrade");
      assertThat(serverSide.poll(10, TimeUnit.SECONDS)).as("the server saw the socket end")
          .isIn("failed", "closing 1000");
      assertThat(time.pendingDelaysMillis()).as("no reconnect").isEmpty();
      assertThat(silent.getRequestCount()).isEqualTo(1);
    }
  }

  @Test void aUidThatIsNotAnAuthIdIsAMalformedGreetingAndTheSocketIsClosed() throws Exception {
    BlockingQueue<String> serverSide = new LinkedBlockingQueue<>();
    try (MockWebServer wrong = new MockWebServer();
        VoiceLinkClient toWrong = client(wrong.url("/api").toString())) {
      wrong.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
        @Override public void onOpen(WebSocket webSocket, Response response) {
          webSocket.send("{\"type\":\"connected\",\"uid\":\"User-42\"}");
        }

        @Override public void onClosing(WebSocket webSocket, int code, String reason) {
          serverSide.add("closing " + code);
          webSocket.close(1000, null);
        }

        @Override public void onFailure(WebSocket webSocket, Throwable t, Response response) {
          serverSide.add("failed");
        }
      }));

      Throwable failure = failure(run(InteractionChannel.fetchUid(toWrong, () -> "at-1")));

      assertThat(failure).isExactlyInstanceOf(IOException.class)
          .hasMessage("the interaction channel did not name the user: unreadable first message from"
              + " the server: connected message whose uid is not an auth_id (auth_id must be 32"
              + " lowercase letters or digits; was 7 characters)");
      assertThat(serverSide.poll(10, TimeUnit.SECONDS)).isIn("closing 1000", "failed");
    }
  }

  @Test void badInputIsRefusedAtOnceNamingWhatIsMissing() throws Exception {
    TokenSource tokens = () -> "at-1";
    assertThatThrownBy(() -> InteractionChannel.fetchUid(null, tokens))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("client must not be null");
    assertThatThrownBy(() -> InteractionChannel.fetchUid(config, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("tokens must not be null");
    try (VoiceLinkClient noBase = VoiceLinkClient.builder().authUrl(server.authUrl()).build()) {
      assertThatThrownBy(() -> InteractionChannel.fetchUid(noBase, tokens))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("base_url is not configured; set it with VoiceLinkClient.Builder.baseUrl(...)");
    }
    VoiceLinkClient closed = client(server.baseUrl());
    closed.close();
    assertThatThrownBy(() -> InteractionChannel.fetchUid(closed, tokens))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("the VoiceLinkClient is closed");
  }
}
