package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.ResourceCensus;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What the SDK creates it closes: 1,000 clients made and closed, each having used everything it owns
 * (a worker thread for a blocking call, the scheduler thread for a device flow's wait, a pooled
 * connection), leave threads, file descriptors and retained heap where they were. The same cycles
 * without {@code close()} (the old configuration object had none) are shown to fail the same check.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClientLifecycleTest {
  static final int CYCLES = 1000;
  /** Heap that survives collection may move a little for reasons of its own (class data, JIT). */
  static final long HEAP_SLACK_BYTES = 2L * 1024 * 1024;
  private static final MockWebServer server = new MockWebServer();
  private static final StringBuilder figures = new StringBuilder();

  @BeforeAll static void start() throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse().setHeader("Content-Type", "application/json").setBody(
            "{\"verification_uri\":\"https://auth.example.com/verify\",\"user_code\":\"WDJB-MJHT\","
                + "\"device_code\":\"dc-1\",\"interval\":5,\"expires_in\":120}");
      }
    });
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.shutdown();
  }

  /** One client's life: a blocking call, a device flow waiting on the scheduler, then close. */
  private static VoiceLinkClient cycle(boolean close) throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.url("/").toString()).build();
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build();
    DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();
    server.takeRequest(); // MockWebServer keeps every request it saw until it is taken
    BlockingQueue<CallResult<DeviceFlowOutcome>> ended = new LinkedBlockingQueue<>();
    VoiceLinkCall<DeviceFlowOutcome> flow = authorizer.poll(code);
    flow.enqueue(ended::add); // waits 5 s on the client's scheduler before its first poll
    if (!close) return client;
    client.close();
    CallResult<DeviceFlowOutcome> result = ended.poll(5, TimeUnit.SECONDS);
    assertThat(result).as("the flow's callback after close").isNotNull();
    assertThat(result.isCancelled()).isTrue();
    return client;
  }

  @Test @Order(1) void aThousandClientsCreatedAndClosedLeaveNothingBehind() throws Exception {
    for (int i = 0; i < 20; i++) cycle(true); // class loading and pools reach their steady state
    ResourceCensus before = ResourceCensus.take();
    long started = System.nanoTime();
    for (int i = 0; i < CYCLES; i++) cycle(true);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    ResourceCensus after = ResourceCensus.take(before);
    assertThat(after.newSdkThreads(before)).as("SDK threads left by the cycles").isEmpty();

    assertThat(after.sdkThreads).as("SDK threads after " + CYCLES + " cycles; before: " + before)
        .isLessThanOrEqualTo(before.sdkThreads);
    assertThat(after.threads).as("live threads; before: " + before + "; after: " + after)
        .isLessThanOrEqualTo(before.threads);
    assertThat(after.fileDescriptors).as("open file descriptors; before: " + before)
        .isLessThanOrEqualTo(before.fileDescriptors);
    assertThat(after.heapBytes - before.heapBytes).as("retained heap growth; before: " + before)
        .isLessThan(HEAP_SLACK_BYTES);
    figures.append("| ").append(CYCLES).append(" clients created, used, closed | ")
        .append(ResourceCensus.row(before, after)).append(" | ")
        .append(DocSection.measured(String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0)))
        .append(" |\n");
  }

  @Test @Order(2) void theSameCyclesWithoutCloseFailTheCheck() throws Exception {
    int unclosed = 50;
    ResourceCensus before = ResourceCensus.take();
    List<VoiceLinkClient> leaked = new ArrayList<>();
    try {
      for (int i = 0; i < unclosed; i++) leaked.add(cycle(false));
      ResourceCensus after = ResourceCensus.take(); // no wait: these threads are not ending
      // What the check above would have said of the old configuration object, which had no close():
      // one scheduler and one worker thread per client, and its pooled connection open at both ends.
      // Counted as threads new since the baseline: idle pools of earlier tests may end meanwhile.
      assertThat(after.newSdkThreads(before)).hasSizeGreaterThanOrEqualTo(2 * unclosed);
      assertThat(after.fileDescriptors - before.fileDescriptors).isGreaterThanOrEqualTo(unclosed);
      figures.append("| ").append(unclosed).append(" clients created and used, never closed | ")
          .append(ResourceCensus.row(before, after)).append(" | fails |\n");
    } finally {
      for (VoiceLinkClient client : leaked) client.close();
    }
    ResourceCensus closed = ResourceCensus.take(before);
    assertThat(closed.newSdkThreads(before)).as("closing them late releases all").isEmpty();
    DocSection.check("reliability.md", "client-cycles",
        "| Cycles | Threads (SDK's) before → after | File descriptors before → after | Retained heap"
            + " before → after | Result |\n|---|---|---|---|---|\n" + figures);
  }
}
