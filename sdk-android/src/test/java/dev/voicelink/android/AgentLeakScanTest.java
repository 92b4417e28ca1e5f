package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.ToStringSweep;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okio.ByteString;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadows.ShadowLog;

/**
 * The Agent's whole flow (device flow login, connect, sync, query, set params, writes, a reconnect,
 * destroy) with every log level and HTTP logging at BODY: no secret the reference server knows or
 * handed out appears in the SDK's log, logcat, the events (info and data), or the toString() of the
 * public types of the Android module.
 */
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
public final class AgentLeakScanTest {
  private final VirtualTime time = new VirtualTime();
  private final AgentEvents events = new AgentEvents();

  @Test public void noSecretInLogsLogcatEventsOrToString() throws Exception {
    ShadowLog.clear();
    List<Object> objects = new ArrayList<>();
    LeakScan scan;
    String logText;
    try (LogCapture log = LogCapture.install();
        ReferenceServer server = ReferenceServer.builder().console(Console.defaults())
            .recognizer((audio, rate) -> audio.length > 0 ? "call 老张" : "")
            .clock(ServerClock.manual(time.wallMillis())).build().start()) {
      // Every line to the capture and to Logcat as a device writes it (debug and verbose too, as
      // `adb shell setprop log.tag.VoiceLink VERBOSE` turns them on): the capture alone would leave
      // Logcat with none of the SDK's lines to scan.
      ShadowLog.setLoggable(LogcatSink.TAG, android.util.Log.VERBOSE);
      LogcatSink logcatSink = new LogcatSink();
      VoiceLinkLog.setSink((level, tag, message, error) -> {
        log.log(level, tag, message, error);
        if (logcatSink.isLoggable(level, tag)) logcatSink.log(level, tag, message, error);
      });
      // Login through the device flow, logged too.
      VoiceLinkClient auth = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time)
          .scheduler(time).httpLogging(HttpLogLevel.BODY).build();
      final DeviceAuthorizer authorizer = DeviceAuthorizer.builder(auth)
          .clientId(DefaultConsole.CLIENT_ID).build();
      final DeviceCode code = TestClients.execute(authorizer.requestCode(DefaultConsole.DEVICE_ID));
      new SimulatedTester(server).approve(code.userCode());
      final AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
      Thread poller = new Thread(() -> outcome.set(TestClients.execute(authorizer.poll(code))));
      poller.start();
      for (int i = 0; i < 50 && outcome.get() == null; i++) {
        time.advance(1, TimeUnit.SECONDS);
        poller.join(100);
      }
      assertThat(outcome.get().kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);

      java.io.File recordFile = new java.io.File(RuntimeEnvironment.getApplication()
          .getNoBackupFilesDir(), "leak-scan");
      recordFile.delete();
      EncryptedTokenStore store = new EncryptedTokenStore(recordFile,
          new EncryptedTokenStoreTest.SoftwareAesKeys(), "agent", new java.security.SecureRandom());
      store.save(outcome.get().token());
      String config = "{\"login\":{\"appid\":\"" + DefaultConsole.APPID + "\"},"
          + "\"server\":{\"base_url\":\"" + server.baseUrl() + "\",\"auth_url\":\""
          + server.authUrl() + "\"},\"auth\":{\"client_id\":\"" + DefaultConsole.CLIENT_ID + "\"},"
          + "\"entity\":{\"namespace\":\"OS123\",\"account_key\":\"" + DefaultConsole.ACCOUNT_KEY
          + "\"}}";
      Agent agent = Agent.builder(RuntimeEnvironment.getApplication(), config, events)
          .eventExecutor(events)
          .tokenStore(store)
          .resourceDefinition(ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
              .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build())
          .client(TestClients.forConfig(config, time, HttpLogLevel.BODY))
          .build();
      List<AgentMessage> messages = new ArrayList<>();
      time.awaitScheduled(1);
      awaitEvent(EVENT_CONNECTED_TO_SERVER, 0);

      String records = "{\"name\":\"张三\",\"alias\":\"小张|老张\"}";
      messages.add(new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"t1\"}",
          ("{\"param\":{\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":\"OS123.contacts\"},"
              + "\"data\":\"" + ByteString.encodeUtf8(records).base64() + "\"}")
              .getBytes(StandardCharsets.UTF_8)));
      agent.sendMessage(messages.get(0));
      String sid = awaitEvent(EVENT_CMD_RETURN, 0).data().getString(KEY_SID);

      int before = events.size();
      int scheduled = time.scheduledCount();
      messages.add(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
          "{\"sid\":\"" + sid + "\"}", null));
      agent.sendMessage(messages.get(1));
      time.awaitScheduled(scheduled + 1);
      server.clock().advance(10, TimeUnit.SECONDS);
      time.advance(10, TimeUnit.SECONDS);
      awaitEvent(EVENT_CMD_RETURN, before);

      server.clock().advance(5, TimeUnit.MINUTES);
      time.advance(5, TimeUnit.MINUTES);
      messages.add(new AgentMessage(CMD_SET_PARAMS, 0, 0,
          "{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}", null));
      messages.add(new AgentMessage(CMD_WRITE, 0, 0, "data_type=audio,sample_rate=16000",
          new byte[3200]));
      messages.add(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text,pers_param={\"uid\":\"\"}",
          "call 老张".getBytes(StandardCharsets.UTF_8)));
      before = events.size();
      agent.sendMessage(messages.get(2));
      agent.sendMessage(messages.get(3));
      awaitEvent(EVENT_RESULT, before);
      before = events.size();
      agent.sendMessage(messages.get(4));
      assertThat(awaitEvent(EVENT_RESULT, before).info()).contains("张三");

      before = events.size();
      messages.add(new AgentMessage(99, 0, 0, "", null)); // an unsupported command: an error event
      agent.sendMessage(messages.get(5));
      awaitEvent(EVENT_ERROR, before);

      before = events.size();
      server.dropInteractionSessions();
      awaitEvent(EVENT_SERVER_DISCONNECTED, before);
      // One step of the first reconnect's backoff ceiling, 1 s, runs the reconnect; it stays short of
      // the greeting deadline (10 s) of the socket the reconnect opens.
      time.advance(1, TimeUnit.SECONDS);
      server.clock().advance(1, TimeUnit.SECONDS);
      events.await(EVENT_CONNECTED_TO_SERVER, before, 300, time::runDueTasks);
      Collections.addAll(objects, agent, agent.config(), store, outcome.get().token(), code);
      objects.addAll(messages);
      agent.destroy();
      AgentEvents.mainLooper().idle();

      scan = LeakScan.of(server);
      logText = log.text();
    }

    scan.scan("VoiceLinkLog", logText);
    StringBuilder logcat = new StringBuilder();
    for (ShadowLog.LogItem item : ShadowLog.getLogs()) {
      logcat.append(item.type).append(' ').append(item.tag).append(' ').append(item.msg).append('\n');
      if (item.throwable != null) ToStringSweep.scanThrowable(scan, "logcat", item.throwable);
    }
    assertThat(logcat.toString()).as("the SDK's lines reached Logcat")
        .contains("VoiceLink [auth]").contains("VoiceLink [http]");
    scan.scan("logcat", logcat.toString());
    for (AgentEvent event : events.all()) {
      scan.scan("event info", event.info());
      scan.scan("event data", event.data().toString());
      for (String key : event.data().keySet()) scan.scan("event data", event.data().get(key) + "");
      objects.add(event);
      // The typed readers of every event, as an app reads them.
      for (Object typed : new Object[] {SyncReturn.from(event), SyncStatus.from(event),
          WriteResult.from(event), AgentError.from(event), ConnectionEvent.from(event)}) {
        if (typed != null) objects.add(typed);
      }
    }
    Map<String, String> noInstance = new LinkedHashMap<>();
    TreeSet<String> missing = ToStringSweep.scan(scan,
        ToStringSweep.classesOverridingToString(new File("target/classes")), objects, noInstance);
    scan.assertNoLeak();

    assertThat(missing).as("public types with their own toString() and no object in this run")
        .isEmpty();
    assertThat(scan.counts()).containsKeys("client_secret", "account_key", "device_code",
        "access_token", "refresh_token", "sms_code", "x_checksum");
    for (String expected : new String[] {"\"access_token\":\"‹secret ", "X-CheckSum: ‹secret ",
        "(WebSocket upgrade)\nAuthorization: ‹secret ", "VERBOSE interact frame --> ",
        "data=‹"}) {
      assertThat(logText.contains(expected)).as("logged: " + expected).isTrue();
    }
    System.out.println("agent leak scan: " + scan.secretCount() + " secrets " + scan.counts() + ", "
        + scan.totalScannedChars() + " characters scanned in " + scan.scannedChars().size()
        + " places; " + events.size() + " events");
  }

  private AgentEvent awaitEvent(int type, int from) throws InterruptedException {
    return events.await(type, from, 500, time::runDueTasks);
  }
}
