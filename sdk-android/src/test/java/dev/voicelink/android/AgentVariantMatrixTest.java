package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.*;
import static org.assertj.core.api.Assertions.assertThat;

import android.os.Looper;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okio.ByteString;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.ParameterizedRobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLooper;

/**
 * The Agent against every {@link PlatformVariant} of the reference server, each alone and all at
 * once: it refreshes the device token as it connects (the token is a day from expiry, or long
 * expired where the answer gave no expires_in and the SDK took an hour), then CMD_SYNC with and
 * without a registered definition, CMD_QUERY_SYNC_STATUS after the platform's 10 seconds, and a
 * CMD_WRITE that finds the synced entity 5 minutes later. Time is virtual on both sides.
 */
@RunWith(ParameterizedRobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
@Config(sdk = 35) // one level: the variants concern the wire, not the framework
public final class AgentVariantMatrixTest {
  private static final String CONTACTS = "{\"name\":\"张三\",\"alias\":\"小张|老张\"}";
  private static final String SONGS = "{\"name\":\"Blue Lotus\",\"alias\":\"\"}";
  private static final long NEAR_EXPIRY_SECONDS = 8_640_000L - TimeUnit.DAYS.toSeconds(1) + 1;

  @ParameterizedRobolectricTestRunner.Parameters(name = "{0}")
  public static Collection<Object[]> variants() {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"reference", EnumSet.noneOf(PlatformVariant.class)});
    for (PlatformVariant variant : PlatformVariant.values()) {
      rows.add(new Object[] {variant.flag(), EnumSet.of(variant)});
    }
    // All at once, but for the variants that leave a field out or zero it (each covered alone): they
    // would hide the forms of that field. Twice: where one variant wins over another, the first row has
    // the winner (milliseconds, no token_type, a numeric success code, statuses by kind) and the second
    // the other (seconds with fractions, "Bearer", "0", HTTP 400); each has its own status of
    // authorization errors.
    EnumSet<PlatformVariant> all = EnumSet.allOf(PlatformVariant.class);
    all.removeAll(EnumSet.of(PlatformVariant.AUTH_ERRORS_HTTP_200, PlatformVariant.AUTH_ERRORS_HTTP_503,
        PlatformVariant.NO_INTERVAL, PlatformVariant.ZERO_INTERVAL, PlatformVariant.NO_EXPIRES_IN));
    rows.add(new Object[] {"all at once", all});
    EnumSet<PlatformVariant> others = EnumSet.copyOf(all);
    others.removeAll(EnumSet.of(PlatformVariant.INTERVAL_MILLIS, PlatformVariant.HUGE_EXPIRES_IN,
        PlatformVariant.CREATED_AT_MILLIS, PlatformVariant.NO_TOKEN_TYPE, PlatformVariant.SUCCESS_CODE_NUMERIC,
        PlatformVariant.WEB_API_REFUSALS_BY_KIND, PlatformVariant.AUTH_ERRORS_HTTP_401));
    others.add(PlatformVariant.AUTH_ERRORS_HTTP_503);
    rows.add(new Object[] {"all at once, the other reading of each pair", others});
    return rows;
  }

  private final Set<PlatformVariant> variants;
  private final VirtualTime time = new VirtualTime();
  private final BlockingQueue<AgentEvent> events = new LinkedBlockingQueue<>();
  private final List<AgentEvent> errors = new ArrayList<>();
  private ReferenceServer server;
  private Agent agent;
  private VoiceLinkClient client;

  public AgentVariantMatrixTest(String name, Set<PlatformVariant> variants) {
    this.variants = variants;
  }

  @Before public void start() throws Exception {
    Console console = Console.defaults();
    for (PlatformVariant variant : variants) console.setVariant(variant, true);
    server = ReferenceServer.builder().console(console).recognizer((audio, rate) -> "")
        .clock(ServerClock.manual(time.wallMillis())).build().start();
  }

  @After public void stop() throws Exception {
    if (agent != null) agent.destroy();
    if (client != null) client.close();
    server.close();
  }

  @Test public void syncQueryAndWriteSucceed() throws Exception {
    File file = new File(RuntimeEnvironment.getApplication().getNoBackupFilesDir(), "variants");
    file.delete();
    EncryptedTokenStore store = new EncryptedTokenStore(file,
        new EncryptedTokenStoreTest.SoftwareAesKeys(), "agent", new SecureRandom());
    store.save(authorize());
    tick(NEAR_EXPIRY_SECONDS * 1000);

    agent = Agent.builder(RuntimeEnvironment.getApplication(), config(), events::add)
        .eventExecutor(Runnable::run)
        .tokenStore(store)
        .resourceDefinition(ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
            .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build())
        .client(client = TestClients.forConfig(config(), time))
        .build();
    time.awaitScheduled(1);
    AgentEvent connected = await(EVENT_CONNECTED_TO_SERVER);
    assertThat(connected.data().getString(KEY_UID)).matches("[a-z0-9]{32}");
    assertThat(server.journal().calls("/oauth/ivs/token")).as("two polls, then the refresh")
        .hasSize(3);

    agent.sendMessage(sync("c1", "uid", DefaultConsole.CONTACTS, CONTACTS));
    AgentEvent synced = await(EVENT_CMD_RETURN);
    assertThat(synced.arg2()).as(synced.info()).isZero();
    String sid = synced.data().getString(KEY_SID);
    assertThat(sid).startsWith("psn");

    agent.sendMessage(sync("s1", "appid", DefaultConsole.SONGS, SONGS)); // no definition registered
    AgentEvent songs = await(EVENT_CMD_RETURN);
    assertThat(songs.arg2()).as(songs.info()).isZero();
    assertThat(songs.data().getString(KEY_TAG)).isEqualTo("s1");

    int scheduled = time.scheduledCount();
    agent.sendMessage(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"" + sid + "\"}", null));
    time.awaitScheduled(scheduled + 1); // it waits out the platform's 10 s
    tick(10_000);
    AgentEvent queried = await(EVENT_CMD_RETURN);
    assertThat(queried.arg1()).isEqualTo(CMD_QUERY_SYNC_STATUS);
    assertThat(queried.arg2()).as(queried.info()).isZero();
    assertThat(queried.data().getString(KEY_RESULT)).contains("\"sid\":\"" + sid + "\"");

    tick(TimeUnit.MINUTES.toMillis(5));
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text,pers_param={\"uid\":\"\"}",
        "call 老张".getBytes(StandardCharsets.UTF_8)));
    AgentEvent result = await(EVENT_RESULT);
    assertThat(result.info()).contains("OS123.contacts").contains("张三");
    assertThat(errors).isEmpty();
  }

  private String config() {
    return "{\"login\":{\"appid\":\"" + DefaultConsole.APPID + "\"},"
        + "\"server\":{\"base_url\":\"" + server.baseUrl() + "\",\"auth_url\":\"" + server.authUrl()
        + "\"},\"auth\":{\"client_id\":\"" + DefaultConsole.CLIENT_ID + "\"},"
        + "\"entity\":{\"namespace\":\"" + DefaultConsole.NAMESPACE + "\",\"account_key\":\""
        + DefaultConsole.ACCOUNT_KEY + "\"}}";
  }

  private static AgentMessage sync(String tag, String idName, String resName, String records) {
    String data = "{\"param\":{\"id_name\":\"" + idName + "\",\"id_value\":\"\",\"res_name\":\""
        + resName + "\"},\"data\":\"" + ByteString.encodeUtf8(records).base64() + "\"}";
    return new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"" + tag + "\"}",
        data.getBytes(StandardCharsets.UTF_8));
  }

  /** The device flow on virtual time: one pending poll, then the tester approves. */
  private TokenRecord authorize() throws Exception {
    BlockingQueue<DeviceCode> codes = new LinkedBlockingQueue<>();
    BlockingQueue<CallResult<DeviceFlowOutcome>> ended = new LinkedBlockingQueue<>();
    try (VoiceLinkClient auth = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time)
        .scheduler(time).callbackExecutor(Runnable::run).build()) {
      int scheduled = time.scheduledCount();
      DeviceAuthorizer.builder(auth).clientId(DefaultConsole.CLIENT_ID).build()
          .authorize(DefaultConsole.DEVICE_ID, codes::add).enqueue(ended::add);
      time.awaitScheduled(scheduled + 1);
      DeviceCode code = codes.poll(10, TimeUnit.SECONDS);
      tick(code.intervalMillis());
      time.awaitScheduled(scheduled + 3); // the first wait, the poll's deadline, the next wait
      new SimulatedTester(server).approve(code.userCode());
      tick(code.intervalMillis());
      DeviceFlowOutcome outcome = ended.poll(10, TimeUnit.SECONDS).get();
      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      return outcome.token();
    }
  }

  private void tick(long millis) {
    server.clock().advance(millis, TimeUnit.MILLISECONDS);
    time.advance(millis, TimeUnit.MILLISECONDS);
  }

  /**
   * The next event of {@code type} (real time, bounded), running due tasks and the main looper
   * (network callbacks arrive there) but moving no clock; error events are kept for the test.
   */
  private AgentEvent await(int type) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      time.runDueTasks();
      ((ShadowLooper) Shadow.extract(Looper.getMainLooper())).idle();
      AgentEvent event = events.poll(5, TimeUnit.MILLISECONDS);
      if (event == null) continue;
      if (event.eventType() == EVENT_ERROR) errors.add(event);
      if (event.eventType() == type) return event;
    }
    throw new AssertionError("no event " + type + " within 10 s; errors: " + errors);
  }
}
