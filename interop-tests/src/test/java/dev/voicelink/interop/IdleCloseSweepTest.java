package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_SCOPE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.core.VoiceLinkClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The standard dialect against a server whose idle close is swept around the polling interval, in
 * real time: Tomcat under Spring Authorization Server closes a kept-alive connection idle for its
 * keep-alive timeout, up to a second later (its poller looks once a second), as Node's HTTP server
 * does. The device polls every 2 s; the timeout runs from half a second before that to half a second
 * after. No poll may fail and none may be lost: the token is in hand one interval after the approval,
 * never two.
 */
class IdleCloseSweepTest {
  private static final long INTERVAL_MILLIS = 2_000;
  /** Time the test machine may add to a poll's interval and to the approval's round trips. */
  private static final long SLACK_MILLIS = 1_000;
  private static final int POLLS_BEFORE_APPROVAL = 4;

  private final VoiceLinkClient client = VoiceLinkClient.builder().build();
  private final ExecutorService flows = Executors.newSingleThreadExecutor();

  @AfterEach void tearDown() {
    flows.shutdownNow();
    client.close();
  }

  @ParameterizedTest(name = "keep-alive timeout {0} ms")
  @ValueSource(longs = {1_500, 1_900, 2_000, 2_100, 2_500})
  void noPollIsLostAndTheTokenComesWithinAnIntervalOfTheApproval(long keepAliveMillis) throws Exception {
    try (StandardAuthServer server = StandardAuthServer.builder()
        .interval(Duration.ofMillis(INTERVAL_MILLIS)).keepAliveTimeout(Duration.ofMillis(keepAliveMillis))
        .start()) {
      OAuthServer oauth = OAuthServer.discover(client, server.issuer()).execute();
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client, oauth).clientId(DEVICE_PUBLIC.id())
          .scope(DEVICE_SCOPE).build();
      BlockingQueue<DeviceCode> codes = new ArrayBlockingQueue<>(1);
      CountDownLatch pending = new CountDownLatch(POLLS_BEFORE_APPROVAL);
      List<String> results = Collections.synchronizedList(new ArrayList<>());
      DeviceFlowListener listener = new DeviceFlowListener() {
        @Override public void onCodeIssued(DeviceCode code) {
          codes.add(code);
        }

        @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
          results.add(result);
          pending.countDown();
        }
      };
      Future<DeviceFlowOutcome> flow = flows.submit(() -> authorizer.authorize(listener).execute());
      DeviceCode code = codes.poll(10, TimeUnit.SECONDS);
      assertThat(code).isNotNull();
      assertThat(pending.await(30, TimeUnit.SECONDS)).as("%d polls", POLLS_BEFORE_APPROVAL).isTrue();

      assertThat(Approver.approveAt(code.link(), ALICE).connected()).isTrue();
      long approved = System.nanoTime();
      DeviceFlowOutcome outcome = flow.get(30, TimeUnit.SECONDS);
      long tokenAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - approved);

      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      assertThat(results).as("what each poll before the token came to").containsOnly("authorization_pending");
      assertThat(tokenAfterMillis).as("the token after the approval, in ms")
          .isLessThanOrEqualTo(INTERVAL_MILLIS + SLACK_MILLIS);
      List<Exchange> polls = server.journal().at(server.tokenEndpointPath());
      assertThat(polls).hasSize(results.size() + 1);
      for (int i = 1; i < polls.size(); i++) {
        long gap = TimeUnit.NANOSECONDS.toMillis(polls.get(i).receivedNanos() - polls.get(i - 1).receivedNanos());
        assertThat(gap).as("gap before poll %d", i + 1).isBetween(INTERVAL_MILLIS, INTERVAL_MILLIS + SLACK_MILLIS);
      }
    }
  }
}
