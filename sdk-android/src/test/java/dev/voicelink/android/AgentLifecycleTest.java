package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.EVENT_CONNECTED_TO_SERVER;
import static dev.voicelink.android.AgentConstants.EVENT_ERROR;
import static org.assertj.core.api.Assertions.assertThat;

import android.util.Log;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.ResourceCensus;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.reliability.DocSection;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.SimulatedTester;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.MethodSorters;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadows.ShadowLog;

/**
 * An Agent may live as long as a screen: 1,000 Agents created, connected to the interaction channel
 * and destroyed leave the threads, file descriptors and retained heap of the process where they
 * were, whether each Agent made its own client or shared the app's. Agents whose client nobody
 * closes, which is what the old Agent did with the configuration it made, are shown to fail the same
 * check. The figures are published in docs/reliability.md.
 */
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
@Config(sdk = 35) // one level: the cycles measure the SDK's resources, not the framework's
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public final class AgentLifecycleTest {
  static final int CYCLES = 1000;
  static final int WARM_UP = 20;
  static final int UNCLOSED = 20;
  static final long HEAP_SLACK_BYTES = 2L * 1024 * 1024;
  /** The client's timer thread (one per client). */
  static final String SCHEDULER = "voicelink-scheduler";
  /** The client's worker pool's threads. */
  static final String WORKER = "voicelink-io";
  /** The threads of the client's OkHttp dispatcher. */
  static final String DISPATCHER = "OkHttp Dispatcher";
  /** How long the worker pool and OkHttp's dispatcher keep an idle thread. */
  static final long POOL_KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(60);
  private static final StringBuilder figures = new StringBuilder();
  private static ReferenceServer server;
  private static String config;
  private static String token;

  @BeforeClass public static void start() throws Exception {
    server = ReferenceServer.builder().console(Console.defaults()).build().start();
    server.console().setPollIntervalSeconds(1);
    config = "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"" + server.baseUrl()
        + "\"}}";
    // Before the test's Android environment exists there is no main looper to find: say where.
    try (VoiceLinkClient auth = VoiceLinkClient.builder().authUrl(server.authUrl())
        .callbackExecutor(Runnable::run).build()) {
      DeviceFlowOutcome outcome = DeviceAuthorizer.builder(auth).clientId(DefaultConsole.CLIENT_ID)
          .build().authorize(DefaultConsole.DEVICE_ID, code -> {
            try {
              new SimulatedTester(server).approve(code.userCode());
            } catch (java.io.IOException e) {
              throw new AssertionError(e);
            }
          }).execute();
      token = outcome.token().accessToken();
    }
  }

  @AfterClass public static void stop() throws Exception {
    server.close();
  }

  /** A census of the process, the test's own records emptied first ({@link #clearRecords}). */
  private static ResourceCensus census() throws InterruptedException {
    clearRecords();
    return ResourceCensus.take();
  }

  /** A census once the threads started since {@code before} ended. */
  private static ResourceCensus census(ResourceCensus before) throws InterruptedException {
    clearRecords();
    return ResourceCensus.take(before);
  }

  /**
   * Empties what the test environment keeps of the cycles, which the census would otherwise count as
   * the SDK's heap: the reference server's journal of calls, and Robolectric's copy of every Logcat
   * line (one INFO line per connect; on a device Logcat lives outside the app's process). The
   * cycles are healthy ones, so the SDK must have logged no warning or error since the last census.
   */
  private static void clearRecords() {
    List<String> warnings = new ArrayList<>();
    for (ShadowLog.LogItem line : ShadowLog.getLogsForTag(LogcatSink.TAG)) {
      if (line.type >= Log.WARN) {
        warnings.add(line.msg + (line.throwable == null ? "" : " (" + line.throwable + ")"));
      }
    }
    assertThat(warnings).as("the SDK's warnings and errors in Logcat").isEmpty();
    ShadowLog.clear();
    server.journal().clear();
  }

  /** Creates an Agent, waits for EVENT_CONNECTED_TO_SERVER, and returns it still running. */
  private static Agent connectedAgent(VoiceLinkClient client) throws InterruptedException {
    BlockingQueue<AgentEvent> events = new LinkedBlockingQueue<>();
    Agent.Builder builder = Agent.builder(RuntimeEnvironment.getApplication(), config, events::add)
        .tokenSource(() -> token)
        .eventExecutor(Runnable::run); // events straight from the agent's worker: no looper to drive
    if (client != null) builder.client(client);
    Agent agent = builder.build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      AgentEvent event = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      assertThat(event).as("EVENT_CONNECTED_TO_SERVER within 10 s").isNotNull();
      assertThat(event.eventType()).as("%s", event).isNotEqualTo(EVENT_ERROR);
      if (event.eventType() == EVENT_CONNECTED_TO_SERVER) return agent;
    }
  }

  /**
   * Destroys {@code agent} and waits for its worker to finish the shutdown, which closes its channel
   * (and so takes the channel off the client's list).
   */
  private static void destroyedToTheEnd(Agent agent) throws InterruptedException {
    agent.destroy();
    assertThat(agent.awaitEngineIdle(10, TimeUnit.SECONDS)).as("the Agent's shutdown ran").isTrue();
  }

  @Test public void a_agentsWithTheirOwnClientLeaveNothingBehind() throws Exception {
    for (int i = 0; i < WARM_UP; i++) connectedAgent(null).destroy();
    ResourceCensus before = census();
    long started = System.nanoTime();
    for (int i = 0; i < CYCLES; i++) connectedAgent(null).destroy();
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    ResourceCensus after = census(before);
    check(before, after);
    figures.append("| ").append(CYCLES).append(" Agents, each with its own client | ")
        .append(ResourceCensus.row(before, after)).append(" | ").append(seconds(millis)).append(" |\n");
  }

  @Test public void b_agentsSharingTheAppsClientLeaveNothingBehind() throws Exception {
    ResourceCensus before = census();
    long started = System.nanoTime();
    VoiceLinkClient shared = VoiceLinkClient.builder().baseUrl(server.baseUrl()).build();
    for (int i = 0; i < CYCLES; i++) destroyedToTheEnd(connectedAgent(shared));
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertThat(shared.isClosed()).as("an Agent never closes a shared client").isFalse();
    assertThat(ClientCore.of(shared).trackedResources()).as("the client let go of each destroyed"
        + " Agent and its channel").isZero();
    connectedAgent(shared).destroy(); // and the client still serves the next Agent
    // The shared client's own threads (its scheduler, its dispatcher's idle pool) are the app's to
    // release: the census is taken once the app closed it, against the census before it existed.
    shared.close();
    ResourceCensus after = census(before);
    check(before, after);
    figures.append("| ").append(CYCLES).append(" Agents sharing one client, then the client closed | ")
        .append(ResourceCensus.row(before, after)).append(" | ").append(seconds(millis)).append(" |\n");
  }

  @Test public void c_agentsWhoseClientNobodyClosesFailTheCheck() throws Exception {
    ResourceCensus before = census();
    List<VoiceLinkClient> leaked = new ArrayList<>();
    try {
      long started = System.nanoTime();
      for (int i = 0; i < UNCLOSED; i++) {
        VoiceLinkClient perAgent = VoiceLinkClient.builder().baseUrl(server.baseUrl()).build();
        leaked.add(perAgent);
        destroyedToTheEnd(connectedAgent(perAgent));
      }
      ResourceCensus after = census();
      // Counted among the threads started since `before`, not as a difference of totals: the SDK
      // threads alive at `before` (the earlier tests' idle pools) end when their keep-alive runs
      // out, during these cycles too, and each would hide one left here.
      Map<String, Integer> left = kinds(after.newSdkThreads(before));
      // Read once they were counted: no thread idle since the cycles started can have timed out.
      boolean withinKeepAlive = System.nanoTime() - started < POOL_KEEP_ALIVE_NANOS;
      String seen = "SDK threads started by the cycles and still alive, by kind: " + left;
      // Each client left open keeps its scheduler thread until it is closed: the core thread of its
      // timer, started by the channel's first connect attempt, with no keep-alive. One per Agent
      // made the old way, for as long as the app runs.
      assertThat(left.getOrDefault(SCHEDULER, 0)).as(seen).isEqualTo(UNCLOSED);
      // And its two cached pools, never shut down, each keep the thread of their last task for 60 s
      // (so these are counted only while none can have timed out): a voicelink-io worker (the
      // connect attempt, the channel's listener calls) and an OkHttp dispatcher thread (the
      // channel's WebSocket call).
      if (withinKeepAlive) {
        assertThat(left.getOrDefault(WORKER, 0)).as(seen).isGreaterThanOrEqualTo(UNCLOSED);
        assertThat(left.getOrDefault(DISPATCHER, 0)).as(seen).isGreaterThanOrEqualTo(UNCLOSED);
      }
      figures.append("| ").append(UNCLOSED).append(" Agents whose client nobody closes | ")
          .append(ResourceCensus.row(before, after)).append(" | fails |\n");
    } finally {
      for (VoiceLinkClient client : leaked) client.close();
    }
    assertThat(census(before).newSdkThreads(before)).as("closing them late releases all")
        .isEmpty();
    DocSection.check("reliability.md", "agent-cycles",
        "| Cycles | Threads (SDK's) before → after | File descriptors before → after | Retained heap"
            + " before → after | Result |\n|---|---|---|---|---|\n" + figures);
  }

  /**
   * {@code threads} counted by kind: {@link #SCHEDULER}, {@link #WORKER}, {@link #DISPATCHER} (named
   * after the call it runs while it runs one), or the name without its pool number.
   */
  private static Map<String, Integer> kinds(List<Thread> threads) {
    Map<String, Integer> kinds = new TreeMap<>();
    for (Thread thread : threads) {
      String name = thread.getName();
      String kind = name.startsWith(SCHEDULER) ? SCHEDULER
          : name.startsWith(WORKER) ? WORKER
          : name.startsWith(DISPATCHER) || name.startsWith("OkHttp http") ? DISPATCHER
          : name.replaceFirst("-\\d+$", "");
      kinds.merge(kind, 1, Integer::sum);
    }
    return kinds;
  }

  private static void check(ResourceCensus before, ResourceCensus after) {
    String both = "before: " + before + "; after: " + after;
    assertThat(after.newSdkThreads(before)).as("SDK threads left by the cycles").isEmpty();
    assertThat(after.sdkThreads).as("SDK threads; " + both).isLessThanOrEqualTo(before.sdkThreads);
    assertThat(after.threads).as("live threads; " + both).isLessThanOrEqualTo(before.threads);
    assertThat(after.fileDescriptors).as("file descriptors; " + both)
        .isLessThanOrEqualTo(before.fileDescriptors);
    assertThat(after.heapBytes - before.heapBytes).as("retained heap growth; " + both)
        .isLessThan(HEAP_SLACK_BYTES);
  }

  private static String seconds(long millis) {
    return DocSection.measured(String.format(Locale.ROOT, "%.1f s", millis / 1000.0));
  }
}
