package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_QUERY_SYNC_STATUS;
import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.EVENT_CMD_RETURN;
import static dev.voicelink.android.AgentConstants.EVENT_CONNECTED_TO_SERVER;
import static dev.voicelink.android.AgentConstants.EVENT_ERROR;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import android.os.Looper;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.ResourceCensus;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceName;
import dev.voicelink.reliability.DocSection;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okio.ByteString;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLooper;

/**
 * The threads an Agent and its client need for a burst of 20 commands (10 CMD_SYNC, 10
 * CMD_QUERY_SYNC_STATUS) against the reference server: every SDK thread started since the Agent's
 * client was made and still alive when the last reply came. The pools keep an idle thread 30 s (the
 * old {@code voicelink-agent-io}) or 60 s ({@code voicelink-io}, OkHttp's dispatcher), so these are
 * all the threads the burst started. The count must be below that of the Agent whose calls each
 * parked a thread of its own pool on a latch. The figures are published in docs/reliability.md.
 */
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
@Config(sdk = 35) // one level: the burst counts the SDK's threads, not the framework's
public final class AgentBurstThreadsTest {
  static final int SYNCS = 10;
  static final int QUERIES = 10;
  static final String AGENT = "voicelink-agent";
  static final String AGENT_IO = "voicelink-agent-io";
  static final String WORKER = "voicelink-io";
  static final String DISPATCHER = "OkHttp Dispatcher";
  /**
   * The same burst with the Agent whose calls ran on its pool {@code voicelink-agent-io}, each
   * waiting in {@code execute()} while a {@code voicelink-io} thread did the work: its threads by
   * kind, the same in each of five runs of this test before the change.
   */
  static final Map<String, Integer> BEFORE = before();
  private static final String CONTACTS_TEXT =
      "{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}";

  private final VirtualTime time = new VirtualTime();
  private final BlockingQueue<AgentEvent> events = new LinkedBlockingQueue<>();
  private ReferenceServer server;
  private VoiceLinkClient client;
  private Agent agent;

  @Before public void start() throws Exception {
    server = ReferenceServer.builder().console(Console.defaults())
        .clock(ServerClock.manual(time.wallMillis())).build().start();
  }

  @After public void stop() throws Exception {
    if (agent != null) agent.destroy();
    if (client != null) client.close();
    server.close();
  }

  private String authorize() throws Exception {
    VoiceLinkClient auth = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time)
        .scheduler(time).build();
    try {
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(auth)
          .clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = TestClients.execute(authorizer.requestCode(DefaultConsole.DEVICE_ID));
      new SimulatedTester(server).approve(code.userCode());
      AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
      Thread poller = new Thread(() -> outcome.set(TestClients.execute(authorizer.poll(code))));
      int scheduled = time.scheduledCount();
      poller.start();
      // The poll waits its interval on the virtual clock: one step to it, then real HTTP.
      time.awaitScheduled(scheduled + 1);
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      poller.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(outcome.get()).as("the device flow's outcome").isNotNull();
      return outcome.get().token().accessToken();
    } finally {
      auth.close();
      assertThat(auth.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * Uploads made in an earlier session, on a client of their own that is closed before the count:
   * their sids are unknown to the Agent, which checks them at once.
   */
  private List<String> earlierUploads(int count) throws Exception {
    VoiceLinkClient earlier = VoiceLinkClient.builder().baseUrl(server.baseUrl()).clock(time)
        .scheduler(time).build();
    try {
      EntityWebApi api = EntityWebApi.builder(earlier).namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      List<String> sids = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        sids.add(api.uploadResource(DefaultConsole.APPID, ResourceName.parse(DefaultConsole.CONTACTS),
            PersParam.user(EngineHarness.UID), RecordSource.fromText(CONTACTS_TEXT))
            .execute().sid());
      }
      return sids;
    } finally {
      earlier.close();
      assertThat(earlier.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** The next event, waiting for it (bounded) while running what is due on the virtual clock. */
  private AgentEvent next() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      AgentEvent event = events.poll(5, TimeUnit.MILLISECONDS);
      if (event != null) return event;
      assertThat(deadline - System.nanoTime()).as("an event within 10 s").isPositive();
      time.runDueTasks();
      ((ShadowLooper) Shadow.extract(Looper.getMainLooper())).idle();
    }
  }

  private static AgentMessage sync(int n) {
    String data = "{\"param\":{\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":\""
        + DefaultConsole.CONTACTS + "\"},\"data\":\""
        + ByteString.encodeUtf8(CONTACTS_TEXT).base64() + "\"}";
    return new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"s" + n + "\"}",
        data.getBytes(StandardCharsets.UTF_8));
  }

  private static AgentMessage query(int n, String sid) {
    return new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"" + sid + "\",\"tag\":\"q" + n + "\"}", null);
  }

  @Test public void aBurstOfTwentyCommandsNeedsFewerThreadsThanWithAPoolOfItsOwn() throws Exception {
    String token = authorize();
    List<String> sids = earlierUploads(QUERIES);
    // The platform answers checks from 10 s after an upload (protocol 4.9).
    server.clock().advance(10, TimeUnit.SECONDS);
    time.advance(10, TimeUnit.SECONDS);
    Set<Thread> before = new HashSet<>(ResourceCensus.sdkThreads());

    String config = "{\"login\":{\"appid\":\"" + DefaultConsole.APPID + "\"},"
        + "\"server\":{\"base_url\":\"" + server.baseUrl() + "\"},"
        + "\"entity\":{\"namespace\":\"" + DefaultConsole.NAMESPACE + "\",\"account_key\":\""
        + DefaultConsole.ACCOUNT_KEY + "\"}}";
    client = TestClients.forConfig(config, time);
    agent = Agent.builder(RuntimeEnvironment.getApplication(), config, events::add)
        .tokenSource(() -> token)
        .eventExecutor(Runnable::run) // events straight from the agent's worker: no looper to drive
        .client(client)
        .build();
    while (true) {
      AgentEvent event = next();
      assertThat(event.eventType()).as("%s", event).isNotEqualTo(EVENT_ERROR);
      if (event.eventType() == EVENT_CONNECTED_TO_SERVER) break;
    }

    for (int i = 0; i < SYNCS + QUERIES; i++) {
      agent.sendMessage(i % 2 == 0 ? sync(i / 2) : query(i / 2, sids.get(i / 2)));
    }
    int replies = 0;
    while (replies < SYNCS + QUERIES) {
      AgentEvent event = next();
      if (event.eventType() != EVENT_CMD_RETURN) continue;
      assertThat(event.arg2()).as("%s", event).isZero();
      replies++;
    }
    Map<String, Integer> started = kinds(ResourceCensus.sdkThreads(), before);
    String seen = "SDK threads started for the burst, by kind: " + started;
    assertThat(started.keySet()).as(seen).isSubsetOf(AGENT, WORKER, DISPATCHER);
    assertThat(started.get(AGENT)).as(seen).isEqualTo(1);
    assertThat(total(started)).as(seen).isLessThan(total(BEFORE));

    DocSection.check("reliability.md", "agent-burst-threads", "| Agent | " + AGENT + " | "
        + AGENT_IO + " | " + WORKER + " | " + DISPATCHER + " | SDK threads |\n"
        + "|---|---|---|---|---|---|\n"
        + "| calls on a pool of its own, each waiting on a latch (before) | " + BEFORE.get(AGENT)
        + " | " + BEFORE.get(AGENT_IO) + " | " + BEFORE.get(WORKER) + " | " + BEFORE.get(DISPATCHER)
        + " | " + total(BEFORE) + " |\n"
        + "| asynchronous calls, results straight to its worker | " + count(started, AGENT, false)
        + " | " + count(started, AGENT_IO, false) + " | " + count(started, WORKER, true) + " | "
        + count(started, DISPATCHER, true) + " | " + DocSection.measured(
            String.valueOf(total(started))) + " |\n");
  }

  private static Map<String, Integer> before() {
    Map<String, Integer> kinds = new TreeMap<>();
    kinds.put(AGENT, 1);
    kinds.put(AGENT_IO, 3);
    kinds.put(WORKER, 4);
    kinds.put(DISPATCHER, 1);
    return kinds;
  }

  private static int total(Map<String, Integer> kinds) {
    int total = 0;
    for (int count : kinds.values()) total += count;
    return total;
  }

  /** The count of {@code kind}, as a measured figure when it depends on timing. */
  private static String count(Map<String, Integer> kinds, String kind, boolean measured) {
    String count = String.valueOf(kinds.getOrDefault(kind, 0));
    return measured ? DocSection.measured(count) : count;
  }

  /**
   * The SDK threads alive now and not in {@code before}, counted by name without a pool number; an
   * OkHttp dispatcher thread is named after the call it runs while it runs one.
   */
  private static Map<String, Integer> kinds(List<Thread> now, Set<Thread> before) {
    Map<String, Integer> kinds = new TreeMap<>();
    for (Thread thread : now) {
      if (before.contains(thread)) continue;
      String name = thread.getName();
      String kind = name.startsWith("OkHttp") ? DISPATCHER : name.replaceFirst("-\\d+$", "");
      kinds.merge(kind, 1, Integer::sum);
    }
    return kinds;
  }
}
