package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import android.os.Bundle;
import android.os.Looper;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okio.ByteString;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLooper;

/** The Agent on Android (SDK 21, 28, 35) against the reference server, time under test control. */
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
public final class AgentRobolectricTest {
  private static final String CONTACTS_TEXT =
      "{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}";

  private final VirtualTime time = new VirtualTime();
  private ReferenceServer server;
  private String accessToken;
  private Agent agent;
  private final List<AgentEvent> events = Collections.synchronizedList(new ArrayList<AgentEvent>());
  private final List<Boolean> onMainThread = Collections.synchronizedList(new ArrayList<Boolean>());

  @Before public void startServerAndAuthorize() throws Exception {
    server = ReferenceServer.builder().console(Console.defaults())
        .clock(ServerClock.manual(time.wallMillis())).build().start();
    VoiceLinkConfig auth = VoiceLinkConfig.builder().authUrl(server.authUrl()).clock(time)
        .scheduler(time).build();
    final DeviceAuthorizer authorizer = DeviceAuthorizer.builder(auth)
        .clientId(DefaultConsole.CLIENT_ID).build();
    final DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID);
    new SimulatedTester(server).approve(code.userCode());
    final AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
    Thread poller = new Thread(new Runnable() {
      @Override public void run() {
        outcome.set(authorizer.poll(code));
      }
    });
    poller.start();
    for (int i = 0; i < 50 && outcome.get() == null; i++) {
      time.advance(1, TimeUnit.SECONDS);
      poller.join(100);
    }
    assertThat(outcome.get()).isNotNull();
    accessToken = outcome.get().token().accessToken();
  }

  @After public void stop() throws Exception {
    if (agent != null) agent.destroy();
    try {
      server.close();
    } catch (java.io.IOException e) {
      // The server gives up waiting for the socket's close handshake, which destroy() started
      // asynchronously; nothing the test checks depends on it.
    }
  }

  private Agent createAgent() {
    String config = "\uFEFF{\n"
        + "  // the platform's cfg style: comments and a BOM are fine\n"
        + "  \"login\": {\"appid\": \"" + DefaultConsole.APPID + "\"},\n"
        + "  \"server\": {\"base_url\": \"" + server.baseUrl() + "\"}, /* a URL's // stays */\n"
        + "  \"entity\": {\"namespace\": \"OS123\", \"account_key\": \"" + DefaultConsole.ACCOUNT_KEY
        + "\"},\n"
        + "  \"global\": {\"scene\": \"main\"}\n"
        + "}";
    agent = Agent.builder(RuntimeEnvironment.getApplication(), config, new AgentListener() {
      @Override public void onEvent(AgentEvent event) {
        onMainThread.add(Looper.myLooper() == Looper.getMainLooper());
        events.add(event);
      }
    })
        .tokenSource(() -> accessToken)
        .resourceDefinition(ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
            .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build())
        .clock(time)
        .scheduler(time)
        .build();
    return agent;
  }

  private static ShadowLooper mainLooper() {
    return Shadow.extract(Looper.getMainLooper());
  }

  /** Drives the main looper until an event of {@code type} arrives after index {@code from}. */
  private AgentEvent awaitEvent(int type, int from) throws InterruptedException {
    for (int i = 0; i < 500; i++) {
      time.runDueTasks();
      mainLooper().idle();
      synchronized (events) {
        for (int j = from; j < events.size(); j++) {
          if (events.get(j).eventType() == type) return events.get(j);
        }
      }
      Thread.sleep(10); // other threads (worker, OkHttp) are real: give them a moment
    }
    throw new AssertionError("no event " + type + " after #" + from + "; saw " + events);
  }

  private AgentEvent connect() throws InterruptedException {
    createAgent();
    time.awaitScheduled(1);
    return awaitEvent(EVENT_CONNECTED_TO_SERVER, 0);
  }

  private static AgentMessage contactsSync(String tag) {
    String data = "{\"param\":{\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":\"OS123.contacts\"},"
        + "\"data\":\"" + ByteString.encodeUtf8(CONTACTS_TEXT).base64() + "\"}";
    return new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"" + tag + "\"}",
        data.getBytes(StandardCharsets.UTF_8));
  }

  @Test public void syncThenQueryAfterTenControlledSeconds() throws Exception {
    AgentEvent connected = connect();
    String uid = connected.data().getString(KEY_UID);
    assertThat(uid).matches("[a-z0-9]{32}");

    agent.sendMessage(contactsSync("contacts-1"));
    AgentEvent synced = awaitEvent(EVENT_CMD_RETURN, 0);
    assertThat(synced.arg1()).isEqualTo(CMD_SYNC);
    assertThat(synced.arg2()).as(synced.info()).isEqualTo(0);
    Bundle data = synced.data();
    assertThat(data.getInt(KEY_SYNC_DTYPE)).isEqualTo(SYNC_DATA_SCHEMA);
    assertThat(data.getString(KEY_TAG)).isEqualTo("contacts-1");
    String sid = data.getString(KEY_SID);
    assertThat(sid).startsWith("psn");

    int before = events.size();
    int scheduled = time.scheduledCount();
    agent.sendMessage(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"" + sid + "\"}", null));
    time.awaitScheduled(scheduled + 1);
    server.clock().advance(10, TimeUnit.SECONDS);
    time.advance(10, TimeUnit.SECONDS);
    AgentEvent queried = awaitEvent(EVENT_CMD_RETURN, before);
    assertThat(queried.arg1()).isEqualTo(CMD_QUERY_SYNC_STATUS);
    assertThat(queried.arg2()).as(queried.info()).isEqualTo(0);
    assertThat(queried.data().getInt(KEY_SYNC_DTYPE)).isEqualTo(SYNC_DATA_QUERY);
    assertThat(queried.data().getString(KEY_RESULT)).contains("\"sid\":\"" + sid + "\"");
    assertThat(onMainThread).containsOnly(true);
  }

  @Test public void textWriteRecognizesTheEntityOnlyWithPersParam() throws Exception {
    connect();
    agent.sendMessage(contactsSync("c"));
    assertThat(awaitEvent(EVENT_CMD_RETURN, 0).arg2()).isEqualTo(0);
    server.clock().advance(5, TimeUnit.MINUTES);
    time.advance(5, TimeUnit.MINUTES);

    int before = events.size();
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text,pers_param={\"uid\":\"\"}",
        "call 老张".getBytes(StandardCharsets.UTF_8)));
    AgentEvent with = awaitEvent(EVENT_RESULT, before);
    assertThat(with.info()).contains("OS123.contacts").contains("张三");

    before = events.size();
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text",
        "call 老张".getBytes(StandardCharsets.UTF_8)));
    AgentEvent without = awaitEvent(EVENT_RESULT, before);
    assertThat(without.info()).doesNotContain("OS123.contacts");
  }

  @Test public void syncBeforeConnectedIsRefused() throws Exception {
    createAgent(); // its connection attempt waits for the virtual clock, which the test holds still

    agent.sendMessage(contactsSync("early"));

    AgentEvent refused = awaitEventWithoutTime(EVENT_CMD_RETURN);
    assertThat(refused.arg2()).isEqualTo(ERROR_NOT_CONNECTED);
    assertThat(refused.data().getString(KEY_TAG)).isEqualTo("early");
    assertThat(server.journal().toString()).doesNotContain("upload-resource");
  }

  @Test public void destroyRefusesLaterMessages() throws Exception {
    connect();

    agent.destroy();

    assertThatThrownBy(() -> agent.sendMessage(contactsSync("late")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Agent was destroyed; create a new Agent to send CMD_SYNC");
  }

  @Test public void missingAppidIsAClearErrorAtCreation() {
    assertThatThrownBy(() -> Agent.builder(RuntimeEnvironment.getApplication(),
        "{\"server\":{\"base_url\":\"" + server.baseUrl() + "\"}}", event -> { })
        .tokenSource(() -> accessToken).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("login.appid is missing from the config: it is required because dynamic entities"
            + " cannot take effect without the application id; add \"login\": {\"appid\": \"<your "
            + "appid>\"}");
  }

  private AgentEvent awaitEventWithoutTime(int type) throws InterruptedException {
    for (int i = 0; i < 500; i++) {
      mainLooper().idle();
      synchronized (events) {
        for (AgentEvent event : events) {
          if (event.eventType() == type) return event;
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no event " + type + "; saw " + events);
  }
}
