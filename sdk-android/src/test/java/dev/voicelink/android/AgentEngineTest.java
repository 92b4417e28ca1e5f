package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.voicelink.android.EngineHarness.Event;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.AbstractVoiceLinkCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.WebSocket;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AgentEngineTest {
  private static final String DATA = "eyJuYW1lIjoi5byg5LiJIiwiYWxpYXMiOiLlsI/lvKB86ICB5bygIn0KeyJuYW1lIjoiTGkgTGVpIiwiYWxpYXMiOiIifQ==";
  private final EngineHarness h;

  AgentEngineTest() throws IOException {
    h = new EngineHarness();
  }

  @AfterEach void close() throws IOException {
    h.close();
  }

  private static AgentMessage sync(String tag, String param) {
    return new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0,
        tag == null ? null : "{\"tag\":\"" + tag + "\"}",
        ("{\"param\":" + param + ",\"data\":\"" + DATA + "\"}").getBytes(StandardCharsets.UTF_8));
  }

  private static AgentMessage userSync(String tag) {
    return sync(tag, "{\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":\"OS123.contacts\"}");
  }

  private static AgentMessage write(String params, String data) {
    return new AgentMessage(CMD_WRITE, 0, 0, params, data.getBytes(StandardCharsets.UTF_8));
  }

  @Test void connectsWithTheDeviceTokenAndReportsTheUid() throws Exception {
    h.acceptNextConnection(EngineHarness.UID);
    h.engine.start(true);
    h.runAttempt(1);

    Event connected = h.expect(EVENT_CONNECTED_TO_SERVER);
    assertThat(connected.data).containsExactly(entry(KEY_UID, EngineHarness.UID));
    Event state = h.expect(EVENT_STATE);
    assertThat(state.arg1).isEqualTo(STATE_READY);
    RecordedRequest upgrade = h.server.takeRequest();
    assertThat(upgrade.getPath()).isEqualTo("/v2/voicelink/interact");
    assertThat(upgrade.getHeader("Authorization")).isEqualTo("device-token-1");
  }

  @Test void syncBeforeConnectedIsRefusedAndNothingIsSent() throws Exception {
    h.engine.start(false); // offline: never connects

    h.engine.send(userSync("t1"));

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg1).isEqualTo(CMD_SYNC);
    assertThat(reply.arg2).isEqualTo(ERROR_NOT_CONNECTED);
    assertThat(reply.info).isEqualTo("CMD_SYNC refused: not connected to the server; send it after "
        + "EVENT_CONNECTED_TO_SERVER. Nothing was sent.");
    assertThat(reply.data).containsExactly(entry(KEY_SYNC_DTYPE, SYNC_DATA_SCHEMA), entry(KEY_TAG, "t1"));
    assertThat(h.backend.uploads).isEmpty();
    assertThat(h.server.getRequestCount()).isZero();
  }

  @Test void userSyncFillsTheUidAndRepliesWithSidAndTag() throws Exception {
    h.startConnected();

    h.engine.send(userSync("contacts-1"));

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg1).isEqualTo(CMD_SYNC);
    assertThat(reply.arg2).isEqualTo(0);
    assertThat(reply.data).containsExactly(entry(KEY_SYNC_DTYPE, 3), entry(KEY_SID, "psn00001"),
        entry(KEY_TAG, "contacts-1"));
    SyncRequest request = h.backend.uploads.poll();
    assertThat(request.idName).isEqualTo("uid");
    assertThat(request.idValue).isEqualTo(EngineHarness.UID);
    assertThat(request.appid).isEqualTo("5f1a2b3c");
    assertThat(request.resName).isEqualTo("OS123.contacts");
    assertThat(SyncResourceTest.base64(request.resource)).isEqualTo(DATA);
  }

  @Test void appidSyncFillsTheConfiguredAppid() throws Exception {
    h.startConnected();

    h.engine.send(sync(null, "{\"id_name\":\"appid\",\"id_value\":\"\",\"res_name\":\"OS123.songs\"}"));

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg2).isEqualTo(0);
    assertThat(reply.data).doesNotContainKey(KEY_TAG);
    SyncRequest request = h.backend.uploads.poll();
    assertThat(request.idName).isEqualTo("appid");
    assertThat(request.idValue).isEqualTo("5f1a2b3c");
  }

  @Test void customDimensionWithoutIdValueIsRefusedBeforeSending() throws Exception {
    h.startConnected();

    h.engine.send(sync("f", "{\"id_name\":\"family\",\"id_value\":\"\",\"res_name\":\"OS123.family_members\"}"));

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg2).isEqualTo(ERROR_INVALID_PARAMS);
    assertThat(reply.info).isEqualTo("CMD_SYNC data.param.id_value is required for the custom "
        + "dimension family; only uid and appid are filled automatically");
    assertThat(h.backend.uploads).isEmpty();
  }

  @Test void severalSyncsInFlightAreMatchedByTag() throws Exception {
    h.startConnected();
    CountDownLatch gate = new CountDownLatch(1);
    h.backend.uploadGate = gate;

    h.engine.send(userSync("a"));
    h.engine.send(userSync("b"));
    h.engine.send(userSync("c"));
    h.expectNoEventWhileIoIsHeld();
    gate.countDown();

    java.util.Set<String> tags = new java.util.HashSet<>();
    java.util.Set<Object> sids = new java.util.HashSet<>();
    for (int i = 0; i < 3; i++) {
      Event reply = h.expect(EVENT_CMD_RETURN);
      assertThat(reply.arg2).isEqualTo(0);
      tags.add((String) reply.data.get(KEY_TAG));
      sids.add(reply.data.get(KEY_SID));
    }
    assertThat(tags).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(sids).hasSize(3);
  }

  @Test void webApiResultsComeStraightToTheWorkerAndTheDataIsDecodedOnTheClientsThreads()
      throws Exception {
    h.startConnected();

    h.engine.send(userSync("s"));
    Event synced = h.expect(EVENT_CMD_RETURN);
    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"psn-from-yesterday\"}", null));
    Event queried = h.expect(EVENT_CMD_RETURN);

    assertThat(synced.arg2).as(synced.info).isZero();
    assertThat(queried.arg2).as(queried.info).isZero();
    assertThat(synced.thread).isEqualTo("voicelink-agent");
    assertThat(queried.thread).isEqualTo("voicelink-agent");
    assertThat(h.backend.decodedOn.poll()).as("the thread that decoded the sync's data")
        .startsWith("voicelink-io");
    h.expectNoEvent();
    assertThat(h.clientCallbacks).as("results handed to the client's callback executor").hasValue(0);
  }

  /**
   * A CMD_SYNC's data (up to 32 MiB of resource in Base64) is read on the client's threads: the
   * command after it is answered first, not held up behind the reading on the worker.
   */
  @Test void aSyncsDataIsReadOffTheWorker() throws Exception {
    h.startConnected();
    CountDownLatch held = h.holdWorker();
    h.engine.send(new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"bad\"}",
        "{\"param\":{}}".getBytes(StandardCharsets.UTF_8)));
    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0, "[]", null));
    held.countDown();

    Event setParams = h.expect(EVENT_ERROR);
    Event sync = h.expect(EVENT_CMD_RETURN);

    assertThat(setParams.arg1).isEqualTo(ERROR_INVALID_PARAMS);
    assertThat(sync.arg1).isEqualTo(CMD_SYNC);
    assertThat(sync.arg2).isEqualTo(ERROR_INVALID_PARAMS);
    assertThat(sync.info).isEqualTo("CMD_SYNC data.param.id_name is required: uid, appid or the"
        + " custom dimension name defined on the resource");
    assertThat(sync.data).containsExactly(entry(KEY_SYNC_DTYPE, SYNC_DATA_SCHEMA), entry(KEY_TAG, "bad"));
    assertThat(sync.thread).isEqualTo("voicelink-agent");
    h.expectNoEvent();
  }

  @Test void atMostThreeCommandsRunTheirCallsAndNoThreadWaitsForAnother() throws Exception {
    CountDownLatch gate = fiveSyncsWithThreeUploadsHeld();
    assertThat(ClientCore.of(h.client).runningCalls()).as("the client's calls running")
        .isEqualTo(PendingCommands.MAX_RUNNING);
    assertThat(h.backend.uploads).as("uploads begun beyond the three held").isEmpty();
    for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
      String name = thread.getKey().getName();
      if (!name.startsWith("voicelink-")) continue;
      assertThat(name).isNotEqualTo("voicelink-agent-io");
      for (StackTraceElement frame : thread.getValue()) {
        assertThat(frame.getClassName() + "." + frame.getMethodName())
            .as("a frame of %s: no thread waits for another's call", name)
            .isNotEqualTo(AbstractVoiceLinkCall.class.getName() + ".execute");
      }
    }
    gate.countDown();

    java.util.Set<String> tags = new java.util.HashSet<>();
    for (int i = 0; i < FIVE_TAGS.length; i++) {
      Event reply = h.expect(EVENT_CMD_RETURN);
      assertThat(reply.arg2).as(reply.info).isZero();
      tags.add((String) reply.data.get(KEY_TAG));
    }
    assertThat(tags).containsExactlyInAnyOrder(FIVE_TAGS);
    h.expectNoEvent();
  }

  private static final String[] FIVE_TAGS = {"a", "b", "c", "d", "e"};

  /**
   * Connects, sends five user syncs tagged {@link #FIVE_TAGS} and returns once the first three hold
   * their uploads at the gate it returns, with no event told meanwhile.
   */
  private CountDownLatch fiveSyncsWithThreeUploadsHeld() throws Exception {
    h.startConnected();
    CountDownLatch gate = new CountDownLatch(1);
    h.backend.uploadGate = gate;
    for (String tag : FIVE_TAGS) h.engine.send(userSync(tag));
    for (int i = 1; i <= PendingCommands.MAX_RUNNING; i++) {
      assertThat(h.backend.uploads.poll(5, TimeUnit.SECONDS)).as("upload %s held", i).isNotNull();
    }
    h.expectNoEventWhileIoIsHeld();
    return gate;
  }

  /**
   * A write still queued when the Agent is destroyed, whose own client (and with it the channel) the
   * destroy closed at once: its one reply is ERROR_DESTROYED, not a lost connection.
   */
  @Test void aWriteQueuedWhenDestroyedIsAnsweredDestroyedThoughItsChannelClosedFirst()
      throws Exception {
    h.startConnected();
    CountDownLatch held = h.holdWorker();
    h.engine.send(write("data_type=text,tag=w1", "call 老张"));

    h.engine.destroy();
    h.client.close(); // as Agent.destroy() closes the client it made, and the channel with it
    held.countDown();

    Event reply = h.expect(EVENT_ERROR);
    assertThat(reply.arg1).isEqualTo(ERROR_DESTROYED);
    assertThat(reply.info).isEqualTo("the Agent was destroyed before the write was sent. Nothing was"
        + " sent.");
    assertThat(reply.data).containsEntry(KEY_TAG, "w1").containsEntry(KEY_CMD, CMD_WRITE);
    h.expectNoEvent();
    assertThat(h.frames).as("nothing sent").isEmpty();
  }

  @Test void aConnectionAttemptOvertakenByDestroyLogsNoError() throws Exception {
    List<String> errors = Collections.synchronizedList(new ArrayList<String>());
    VoiceLinkLog.setSink((level, tag, message, error) -> {
      if (level == VoiceLinkLog.Level.ERROR) errors.add(tag + " " + message + " " + error);
    });
    try {
      CountDownLatch creation = new CountDownLatch(1);
      h.holdChannelCreation = creation;
      h.engine.start(true); // the worker's first connect() finds the engine alive and makes a channel
      assertThat(h.channelCreationHeld.await(5, TimeUnit.SECONDS)).isTrue();

      h.engine.destroy();
      h.client.close(); // as Agent.destroy() closes the client it made
      creation.countDown();

      assertThat(h.engine.awaitIdle(5, TimeUnit.SECONDS)).isTrue();
      assertThat(errors).isEmpty();
      assertThat(h.server.getRequestCount()).as("no upgrade").isZero();
    } finally {
      VoiceLinkLog.setSink(VoiceLinkLog.defaultSink());
    }
  }

  @Test void aQueryQueuedWhenDestroyedIsAnsweredDestroyedWithoutAnErrorLine() throws Exception {
    h.startConnected();
    h.engine.send(userSync("t"));
    String sid = (String) h.expect(EVENT_CMD_RETURN).data.get(KEY_SID);
    List<String> errors = Collections.synchronizedList(new ArrayList<String>());
    VoiceLinkLog.setSink((level, tag, message, error) -> {
      if (level == VoiceLinkLog.Level.ERROR) errors.add(tag + " " + message + " " + error);
    });
    try {
      CountDownLatch held = h.holdWorker();
      // Its upload just finished: the query would wait ten seconds on the client's scheduler.
      h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
          "{\"sid\":\"" + sid + "\",\"tag\":\"q\"}", null));

      h.engine.destroy();
      h.client.close(); // as Agent.destroy() closes the client it made, and its scheduler with it
      h.schedulerClosed = true;
      held.countDown();

      Event reply = h.expect(EVENT_CMD_RETURN);
      assertThat(reply.arg1).isEqualTo(CMD_QUERY_SYNC_STATUS);
      assertThat(reply.arg2).isEqualTo(ERROR_DESTROYED);
      assertThat(reply.info).isEqualTo("the Agent was destroyed before CMD_QUERY_SYNC_STATUS completed");
      assertThat(reply.data).containsEntry(KEY_SID, sid).containsEntry(KEY_TAG, "q");
      h.expectNoEvent();
      assertThat(h.engine.awaitIdle(5, TimeUnit.SECONDS)).isTrue();
      assertThat(errors).isEmpty();
      assertThat(h.backend.checks).isEmpty();
    } finally {
      VoiceLinkLog.setSink(VoiceLinkLog.defaultSink());
    }
  }

  @Test void destroyAnswersRunningAndWaitingCommandsOnceAndCancelsTheirCalls() throws Exception {
    CountDownLatch gate = fiveSyncsWithThreeUploadsHeld();

    h.engine.destroy();

    for (String tag : FIVE_TAGS) {
      Event reply = h.expect(EVENT_CMD_RETURN);
      assertThat(reply.arg1).isEqualTo(CMD_SYNC);
      assertThat(reply.arg2).isEqualTo(ERROR_DESTROYED);
      assertThat(reply.info).isEqualTo("the Agent was destroyed before CMD_SYNC completed");
      assertThat(reply.data).containsExactly(entry(KEY_SYNC_DTYPE, SYNC_DATA_SCHEMA),
          entry(KEY_TAG, tag));
    }
    assertThat(ClientCore.of(h.client).runningCalls()).as("calls left running").isZero();
    gate.countDown();
    h.expectNoEvent();
    assertThat(h.backend.uploads).as("uploads begun after the destroy").isEmpty();
  }

  @Test void serverRefusalKeepsCodeDescAndSid() throws Exception {
    h.startConnected();
    h.backend.uploadFailure = new ServerRefusalException("20004", "illegal ip", "psn999");

    h.engine.send(userSync("t"));

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg2).isEqualTo(ERROR_SERVER_REFUSED);
    assertThat(reply.info).isEqualTo("CMD_SYNC failed: 20004: illegal ip (sid psn999)");
    assertThat(reply.data).containsEntry(KEY_CODE, "20004").containsEntry(KEY_DESC, "illegal ip")
        .containsEntry(KEY_SID, "psn999").containsEntry(KEY_TAG, "t");
  }

  @Test void queryWaitsTenSecondsAfterTheUpload() throws Exception {
    h.startConnected();
    h.engine.send(userSync("t"));
    String sid = (String) h.expect(EVENT_CMD_RETURN).data.get(KEY_SID);

    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"" + sid + "\",\"tag\":\"q\"}", null));
    h.time.awaitScheduled(3); // the connection attempt, its greeting deadline, the query's wait
    assertThat(h.time.pendingDelaysMillis()).containsExactly(10_000L);
    h.time.advance(9_999, TimeUnit.MILLISECONDS);
    h.expectNoEvent();
    assertThat(h.backend.checks).isEmpty();
    h.time.advance(1, TimeUnit.MILLISECONDS);

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg1).isEqualTo(CMD_QUERY_SYNC_STATUS);
    assertThat(reply.arg2).isEqualTo(0);
    assertThat(reply.data).containsEntry(KEY_SYNC_DTYPE, SYNC_DATA_QUERY).containsEntry(KEY_SID, sid)
        .containsEntry(KEY_TAG, "q").containsEntry(KEY_RESULT,
            "{\"sid\":\"" + sid + "\",\"csid\":\"c1\",\"reply\":\"processed\",\"error\":0}");
    assertThat(h.backend.checks).containsExactly(sid);
  }

  @Test void queryOfAnUnknownSidIsSentAtOnce() throws Exception {
    h.startConnected();

    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"psn-from-yesterday\"}", null));

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg2).isEqualTo(0);
    assertThat(h.backend.checks).containsExactly("psn-from-yesterday");
  }

  @Test void aQueryThatFailsRepliesWithItsErrorCodeAndMayBeSentAgain() throws Exception {
    h.startConnected();
    String query = "{\"sid\":\"psn-from-yesterday\",\"tag\":\"q\"}";

    h.backend.checkFailure = new IOException("connection reset");
    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, query, null));
    Event dropped = h.expect(EVENT_CMD_RETURN);
    assertThat(dropped.arg1).isEqualTo(CMD_QUERY_SYNC_STATUS);
    assertThat(dropped.arg2).isEqualTo(ERROR_NETWORK);
    assertThat(dropped.info).isEqualTo("CMD_QUERY_SYNC_STATUS failed: connection reset");
    assertThat(dropped.data).containsOnly(entry(KEY_SYNC_DTYPE, SYNC_DATA_QUERY),
        entry(KEY_SID, "psn-from-yesterday"), entry(KEY_TAG, "q"));

    h.backend.checkFailure = new ServerRefusalException("10105", "invalid checksum", null);
    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, query, null));
    Event refused = h.expect(EVENT_CMD_RETURN);
    assertThat(refused.arg2).isEqualTo(ERROR_SERVER_REFUSED);
    assertThat(refused.data).containsEntry(KEY_CODE, "10105").containsEntry(KEY_DESC, "invalid checksum")
        .doesNotContainKey(KEY_RESULT);

    h.backend.checkFailure = null;
    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, query, null));
    Event answered = h.expect(EVENT_CMD_RETURN);
    assertThat(answered.arg2).isEqualTo(0);
    assertThat(answered.data).containsKey(KEY_RESULT);
    assertThat(h.backend.checks).hasSize(3);
    h.expectNoEvent();
  }

  @Test void queryWithoutSidNamesIt() throws Exception {
    h.startConnected();

    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, "{}", null));

    Event reply = h.expect(EVENT_CMD_RETURN);
    assertThat(reply.arg2).isEqualTo(ERROR_INVALID_PARAMS);
    assertThat(reply.info).isEqualTo("CMD_QUERY_SYNC_STATUS params.sid is required: the sid from the "
        + "CMD_SYNC reply");
    assertThat(reply.data).containsExactly(entry(KEY_SYNC_DTYPE, SYNC_DATA_QUERY));
  }

  @Test void setParamsAppliesToLaterAudioWritesOnly() throws Exception {
    h.startConnected();
    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0,
        "{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}", null));

    h.engine.send(new AgentMessage(CMD_WRITE, 0, 0, "data_type=audio,sample_rate=16000",
        new byte[] {1, 2, 3}));
    assertThat(EngineHarness.json(h.frame())).containsExactly(entry("type", "write"),
        entry("data_type", "audio"), entry("sample_rate", 16000.0),
        entry("pers_param", "{\"uid\":\"\"}"), entry("seq", 1.0));
    assertThat(h.frame()).isEqualTo("binary:010203");
    assertThat(EngineHarness.json(h.frame())).containsExactly(entry("type", "end"), entry("seq", 1.0));
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_WORKING);

    h.engine.send(write("data_type=text", "call Zhang San"));
    Map<String, Object> text = EngineHarness.json(h.frame());
    assertThat(text).containsExactly(entry("type", "write"), entry("data_type", "text"),
        entry("text", "call Zhang San"), entry("seq", 2.0));
  }

  @Test void aWritesPersParamOverridesSetParams() throws Exception {
    h.startConnected();
    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0,
        "{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}", null));

    h.engine.send(new AgentMessage(CMD_WRITE, 0, 0,
        "data_type=audio,sample_rate=16000,pers_param={\"family\":\"f-01\",\"uid\":\"\"}",
        new byte[] {9}));

    assertThat(EngineHarness.json(h.frame())).containsEntry("pers_param",
        "{\"family\":\"f-01\",\"uid\":\"\"}");
  }

  @Test void setParamsIgnoresWhatItDoesNotKnow() throws Exception {
    h.startConnected();
    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0, "{\"global\":{\"scene\":\"main\"},"
        + "\"audioparams\":{\"sample_rate\":\"16000\",\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}",
        null));
    // Params without audioparams.pers_param leave the setting as it is.
    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0, "{\"global\":{\"scene\":\"car\"}}", null));
    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0, "{\"audioparams\":{\"vad_eos\":\"600\"}}",
        null));
    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0, "", null));

    h.engine.send(new AgentMessage(CMD_WRITE, 0, 0, "data_type=audio,sample_rate=16000",
        new byte[] {1}));
    assertThat(EngineHarness.json(h.frame())).containsEntry("pers_param", "{\"uid\":\"\"}");
    assertThat(h.expect(EVENT_STATE).arg1).as("no error came before").isEqualTo(STATE_WORKING);
  }

  @Test void anEmptyPersParamClearsTheSetting() throws Exception {
    String config = "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":"
        + "\"http://localhost\"},\"audioparams\":{\"pers_param\":\"{\\\"appid\\\":\\\"\\\"}\"}}";
    try (EngineHarness c = new EngineHarness(config, 10)) {
      c.startConnected();
      c.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0,
          "{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}", null));
      c.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0, "{\"audioparams\":{\"pers_param\":\"\"}}",
          null));

      c.engine.send(new AgentMessage(CMD_WRITE, 0, 0, "data_type=audio,sample_rate=16000",
          new byte[] {1}));
      assertThat(EngineHarness.json(c.frame())).containsExactly(entry("type", "write"),
          entry("data_type", "audio"), entry("sample_rate", 16000.0), entry("seq", 1.0));
      assertThat(c.expect(EVENT_STATE).arg1).as("no error came before").isEqualTo(STATE_WORKING);
    }
  }

  @Test void invalidSetParamsIsAnErrorEventNamingTheProblem() throws Exception {
    h.startConnected();

    h.engine.send(new AgentMessage(CMD_SET_PARAMS, 0, 0,
        "{\"audioparams\":{\"pers_param\":\"uid=1\"}}", null));

    Event error = h.expect(EVENT_ERROR);
    assertThat(error.arg1).isEqualTo(ERROR_INVALID_PARAMS);
    assertThat(error.info).startsWith("CMD_SET_PARAMS params.audioparams.pers_param must be a JSON "
        + "object text");
    assertThat(error.data).containsExactly(entry(KEY_CMD, CMD_SET_PARAMS));
  }

  @Test void resultsAndErrorsOfWritesArriveAsEvents() throws Exception {
    WebSocket server = h.startConnected();
    h.engine.send(write("data_type=text,pers_param={\"uid\":\"\"},tag=w1", "call Zhang San"));
    assertThat(EngineHarness.json(h.frame())).containsEntry("pers_param", "{\"uid\":\"\"}");
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_WORKING);

    String result = "{\"type\":\"result\",\"seq\":1,\"text\":\"call Zhang San\",\"entities\":"
        + "[{\"res_name\":\"OS123.contacts\",\"value\":\"张三\",\"matched\":\"Zhang San\"}]}";
    server.send(result);

    Event event = h.expect(EVENT_RESULT);
    assertThat(event.info).isEqualTo(result);
    assertThat(event.data).containsEntry(KEY_SEQ, 1).containsEntry(KEY_DATA_TYPE, "text")
        .containsEntry(KEY_TAG, "w1").containsEntry(KEY_RESULT, result);
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_READY);

    h.engine.send(write("data_type=text", "hello"));
    h.frame();
    h.expect(EVENT_STATE);
    server.send("{\"type\":\"error\",\"seq\":2,\"code\":\"40001\",\"desc\":\"bad write\"}");
    Event error = h.expect(EVENT_ERROR);
    assertThat(error.arg1).isEqualTo(ERROR_SERVER_REFUSED);
    assertThat(error.info).isEqualTo("write 2 refused: 40001: bad write");
    assertThat(error.data).containsEntry(KEY_SEQ, 2).containsEntry(KEY_CODE, "40001");
  }

  @Test void aWriteWithoutAnswerIsANetworkErrorAfterThirtySeconds() throws Exception {
    WebSocket server = h.startConnected();
    h.engine.send(write("data_type=text,tag=w1", "call Zhang San"));
    h.frame();
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_WORKING);
    assertThat(h.time.pendingDelaysMillis()).containsExactly(30_000L);
    h.time.advance(29_999, TimeUnit.MILLISECONDS);
    h.expectNoEvent();

    h.time.advance(1, TimeUnit.MILLISECONDS);
    Event timeout = h.expect(EVENT_ERROR);
    assertThat(timeout.arg1).isEqualTo(ERROR_NETWORK);
    assertThat(timeout.info)
        .isEqualTo("write 1: no result within 30 s of the write; it may be sent again");
    assertThat(timeout.data).containsEntry(KEY_SEQ, 1).containsEntry(KEY_TAG, "w1")
        .containsEntry(KEY_CODE, "result_timeout");
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_READY);

    server.send("{\"type\":\"result\",\"seq\":1,\"text\":\"late\"}");
    h.engine.send(write("data_type=text,tag=w2", "call Zhang San"));
    h.frame();
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_WORKING);
    server.send("{\"type\":\"result\",\"seq\":2,\"text\":\"call Zhang San\"}");
    assertThat(h.expect(EVENT_RESULT).data).containsEntry(KEY_SEQ, 2).containsEntry(KEY_TAG, "w2");
  }

  @Test void invalidWriteParamsNameTheKey() throws Exception {
    h.startConnected();

    h.engine.send(write("data_type=text,data_type=audio", "x"));
    assertThat(h.expect(EVENT_ERROR).info).isEqualTo("CMD_WRITE param data_type is given twice");
    h.engine.send(write("data_type=video", "x"));
    assertThat(h.expect(EVENT_ERROR).info).isEqualTo("CMD_WRITE param data_type must be audio or "
        + "text; was: video");
    h.engine.send(write("data_type=text,pers_param={\"uid\":\"\"", "x"));
    assertThat(h.expect(EVENT_ERROR).info).isEqualTo("CMD_WRITE param pers_param is a JSON object "
        + "that is never closed: expected a matching }");
    // A good write after them is the first frame to arrive: none of the bad ones went out.
    h.engine.send(write("data_type=text", "barrier"));
    assertThat(h.frame()).contains("barrier");
  }

  @Test void audioLargerThanTheSocketCanQueueIsRefusedAsInvalidAndNothingIsSent() throws Exception {
    h.startConnected();

    h.engine.send(new AgentMessage(CMD_WRITE, 0, 0, "data_type=audio,tag=long",
        new byte[16 * 1024 * 1024]));
    Event refused = h.expect(EVENT_ERROR);
    assertThat(refused.arg1).isEqualTo(ERROR_INVALID_PARAMS);
    assertThat(refused.info).isEqualTo("CMD_WRITE data refused: audio must fit the socket's send queue"
        + " of 16777216 bytes with its messages; this write is 16777302 bytes. Nothing was sent.");
    assertThat(refused.data).contains(entry(KEY_TAG, "long"));
    h.engine.send(write("data_type=text", "barrier"));
    assertThat(h.frame()).contains("barrier").contains("\"seq\":1");
  }

  @Test void serverDropReportsDisconnectFailsPendingWritesAndReconnects() throws Exception {
    WebSocket server = h.startConnected();
    h.engine.send(write("data_type=text,tag=w", "hello"));
    h.frame();
    h.expect(EVENT_STATE);
    h.acceptNextConnection("0123456789abcdef0123456789abcdef");

    server.close(1011, "server restarting");

    Event lost = h.expect(EVENT_ERROR);
    assertThat(lost.arg1).isEqualTo(ERROR_CONNECTION_LOST);
    assertThat(lost.data).containsEntry(KEY_SEQ, 1).containsEntry(KEY_TAG, "w");
    h.expect(EVENT_SERVER_DISCONNECTED);
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_IDLE);
    // the first attempt, its greeting deadline, the write's result deadline, then the reconnect
    h.time.awaitScheduled(4);
    assertThat(h.time.pendingDelaysMillis()).as("the reconnect alone: the lost write's deadline"
        + " ended with the connection").hasSize(1);
    long delay = h.time.pendingDelaysMillis().get(0);
    assertThat(delay).as("full jitter under the first ceiling, 1 s").isBetween(0L, 1000L);
    h.time.advance(delay, TimeUnit.MILLISECONDS);
    Event again = h.expect(EVENT_CONNECTED_TO_SERVER);
    assertThat(again.data).containsEntry(KEY_UID, "0123456789abcdef0123456789abcdef");
  }

  @Test void aLossHeardAfterTheChannelConnectedAgainFailsOnlyTheWritesMadeOnTheLostConnection()
      throws Exception {
    String otherUid = "0123456789abcdef0123456789abcdef";
    WebSocket first = h.startConnected();
    assertThat(h.news()).isEqualTo("connected " + EngineHarness.UID);
    h.engine.send(write("data_type=text,tag=lost", "one"));
    assertThat(EngineHarness.json(h.frame())).containsEntry("seq", 1.0);
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_WORKING);
    // The worker lags: the next write, then the news of the loss and of the new connection, queue
    // behind this task, so the write goes out on the new connection before the loss is handled.
    CountDownLatch release = h.holdWorker();
    h.engine.send(write("data_type=text,tag=kept", "two"));
    h.acceptNextConnection(otherUid);
    first.close(1011, "server restarting");
    assertThat(h.news()).isEqualTo("disconnected, last seq 1");
    // the first attempt, its greeting deadline, the lost write's result deadline, then the reconnect
    h.time.awaitScheduled(4);
    h.time.advance(h.time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    assertThat(h.news()).isEqualTo("connected " + otherUid);
    release.countDown();

    assertThat(EngineHarness.json(h.frame())).as("the second write, on the new connection")
        .containsEntry("seq", 2.0);
    Event lost = h.expect(EVENT_ERROR);
    assertThat(lost.arg1).isEqualTo(ERROR_CONNECTION_LOST);
    assertThat(lost.info).isEqualTo("write 1: the connection to the server was lost before the result");
    assertThat(lost.data).containsEntry(KEY_SEQ, 1).containsEntry(KEY_TAG, "lost");
    h.expect(EVENT_SERVER_DISCONNECTED);
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_IDLE);
    assertThat(h.expect(EVENT_CONNECTED_TO_SERVER).data).containsEntry(KEY_UID, otherUid);
    assertThat(h.expect(EVENT_STATE).arg1).as("the second write still waits").isEqualTo(STATE_WORKING);

    h.serverSockets.poll(5, TimeUnit.SECONDS)
        .send("{\"type\":\"result\",\"seq\":2,\"text\":\"two\",\"entities\":[]}");
    Event result = h.expect(EVENT_RESULT);
    assertThat(result.data).containsEntry(KEY_SEQ, 2).containsEntry(KEY_TAG, "kept");
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_READY);
    h.expectNoEvent();
  }

  @Test void aRejectedTokenIsReportedToTheTokenSourceBeforeRetrying() throws Exception {
    h.server.enqueue(new MockResponse().setResponseCode(401));
    h.acceptNextConnection(EngineHarness.UID);
    h.engine.start(true);
    h.runAttempt(1);

    h.runAttempt(2);
    assertThat(h.tokens.rejected).containsExactly("device-token-1");

    h.expect(EVENT_CONNECTED_TO_SERVER);
    h.server.takeRequest();
    assertThat(h.server.takeRequest().getHeader("Authorization")).isEqualTo("device-token-2");
  }

  /** A harness whose Agent tried three times (two reconnects) and gave up: the server answered 503. */
  private static EngineHarness gaveUpAfterThree503s() throws Exception {
    EngineHarness bounded = new EngineHarness(EngineHarness.CONFIG, 2);
    try {
      for (int i = 0; i < 3; i++) bounded.server.enqueue(new MockResponse().setResponseCode(503));
      bounded.engine.start(true);
      for (int attempt = 1; attempt <= 3; attempt++) bounded.runAttempt(attempt);
      return bounded;
    } catch (Exception | AssertionError e) {
      bounded.close();
      throw e;
    }
  }

  @Test void givingUpIsReportedAndTheNetworkReturningStartsAgain() throws Exception {
    try (EngineHarness bounded = gaveUpAfterThree503s()) {
      Event gaveUp = bounded.expect(EVENT_ERROR);
      assertThat(gaveUp.arg1).isEqualTo(ERROR_RECONNECT_GAVE_UP);
      assertThat(gaveUp.info).isEqualTo("Gave up connecting (HTTP 503 on upgrade); trying again "
          + "when the network comes back or at the next CMD_WRITE, CMD_SYNC or CMD_QUERY_SYNC_STATUS");
      assertThat(bounded.server.getRequestCount()).isEqualTo(3);
      assertThat(bounded.time.pendingDelaysMillis()).as("no reconnect is left to run").isEmpty();
      bounded.time.advance(10, TimeUnit.MINUTES);
      bounded.expectNoEvent();
      assertThat(bounded.server.getRequestCount()).isEqualTo(3);

      bounded.acceptNextConnection(EngineHarness.UID);
      bounded.engine.networkAvailable();
      bounded.runAttempt(4);
      bounded.expect(EVENT_CONNECTED_TO_SERVER);
    }
  }

  @Test void aWriteAfterGivingUpStartsConnectingAgainWhileTheNetworkStayedUp() throws Exception {
    try (EngineHarness bounded = gaveUpAfterThree503s()) {
      assertThat(bounded.expect(EVENT_ERROR).arg1).isEqualTo(ERROR_RECONNECT_GAVE_UP);

      bounded.acceptNextConnection(EngineHarness.UID);
      bounded.engine.send(write("data_type=text,tag=w1", "call 老张"));
      Event refused = bounded.expect(EVENT_ERROR);
      assertThat(refused.arg1).isEqualTo(ERROR_NOT_CONNECTED);
      assertThat(refused.data).containsEntry(KEY_TAG, "w1");
      bounded.runAttempt(4);
      bounded.expect(EVENT_CONNECTED_TO_SERVER);
      assertThat(bounded.server.getRequestCount()).isEqualTo(4);
    }
  }

  /** An app that only syncs: the server was down for long, the network stayed up. */
  @Test void aSyncAfterGivingUpStartsConnectingAgainWhileTheNetworkStayedUp() throws Exception {
    try (EngineHarness bounded = gaveUpAfterThree503s()) {
      assertThat(bounded.expect(EVENT_ERROR).arg1).isEqualTo(ERROR_RECONNECT_GAVE_UP);

      bounded.acceptNextConnection(EngineHarness.UID);
      bounded.engine.send(userSync("s1"));
      Event refused = bounded.expect(EVENT_CMD_RETURN);
      assertThat(refused.arg1).isEqualTo(CMD_SYNC);
      assertThat(refused.arg2).isEqualTo(ERROR_NOT_CONNECTED);
      assertThat(refused.data).containsEntry(KEY_TAG, "s1");
      bounded.runAttempt(4);
      bounded.expect(EVENT_CONNECTED_TO_SERVER);
      assertThat(bounded.server.getRequestCount()).isEqualTo(4);
    }
  }

  /**
   * The app's own TokenSource (not a TokenManager, which tells of its sign-ins) had no token, then
   * has one again: the next write, refused as not connected, starts an attempt that connects.
   */
  @Test void aWriteAfterAnAuthorizationLossTriesTheAppsTokenSourceAgain() throws Exception {
    h.tokens.refusal = new ServerRefusalException("invalid_refresh_token", "refresh token revoked", null);
    h.engine.start(true);
    h.runAttempt(1);
    assertThat(h.expect(EVENT_ERROR).arg1).isEqualTo(ERROR_NOT_AUTHORIZED);
    assertThat(h.server.getRequestCount()).as("no token, no upgrade").isZero();

    h.tokens.refusal = null;
    h.acceptNextConnection(EngineHarness.UID);
    h.engine.send(write("data_type=text,tag=w1", "call 老张"));

    assertThat(h.expect(EVENT_ERROR).arg1).isEqualTo(ERROR_NOT_CONNECTED);
    h.runAttempt(2);
    assertThat(h.expect(EVENT_CONNECTED_TO_SERVER).data).containsEntry(KEY_UID, EngineHarness.UID);
    assertThat(h.server.takeRequest(5, TimeUnit.SECONDS).getHeader("Authorization"))
        .isEqualTo("device-token-1");
  }

  /**
   * The token source has a token again without a sign-in (another manager of its store renewed the
   * credential this one's refusal had stopped): the agent connects at once, without a command; when
   * it was not stopped, the news changes nothing.
   */
  @Test void aTokenBackAfterAnAuthorizationLossConnectsWithoutACommand() throws Exception {
    h.tokens.refusal = new ServerRefusalException("invalid_refresh_token", "refresh token revoked", null);
    h.engine.start(true);
    h.runAttempt(1);
    assertThat(h.expect(EVENT_ERROR).arg1).isEqualTo(ERROR_NOT_AUTHORIZED);

    h.tokens.refusal = null;
    h.acceptNextConnection(EngineHarness.UID);
    h.engine.tokenBack();
    h.runAttempt(2);

    assertThat(h.expect(EVENT_CONNECTED_TO_SERVER).data).containsEntry(KEY_UID, EngineHarness.UID);
    h.expect(EVENT_STATE);
    h.engine.tokenBack(); // connected: a refresh's news, as every refresh brings
    assertThat(h.engine.awaitIdle(5, TimeUnit.SECONDS)).isTrue();
    assertThat(h.server.getRequestCount()).as("one upgrade only").isEqualTo(1);
  }

  /**
   * The token comes back while an attempt that asked before it is failing for want of one: the
   * news reaches the worker first, the failure after it. The agent tries again with the token
   * instead of reporting a lost authorization and waiting for a command.
   */
  @Test void aTokenBackWhileAnAttemptFailsForWantOfATokenConnectsAgain() throws Exception {
    h.tokens.refusal = new ServerRefusalException("invalid_refresh_token", "refresh token revoked", null);
    h.tokens.whileRefusing = () -> {
      h.tokens.refusal = null;
      h.engine.tokenBack();
    };
    h.acceptNextConnection(EngineHarness.UID);
    h.engine.start(true);
    h.runAttempt(1);
    h.runAttempt(2);

    assertThat(h.expect(EVENT_CONNECTED_TO_SERVER).data).containsEntry(KEY_UID, EngineHarness.UID);
    assertThat(h.server.takeRequest(5, TimeUnit.SECONDS).getHeader("Authorization"))
        .isEqualTo("device-token-1");
  }

  /** Connected, the token's news changes nothing: a later refusal is reported as a lost authorization. */
  @Test void aTokenBackWhileConnectedLeavesALaterRefusalReported() throws Exception {
    WebSocket server = h.startConnected();
    h.engine.tokenBack();

    assertThat(dropWithTheTokenRefusedAfter(server).arg1).isEqualTo(ERROR_NOT_AUTHORIZED);
    h.expectNoEvent();
    assertThat(h.server.getRequestCount()).as("no token, no second upgrade").isEqualTo(1);
  }

  /**
   * The server drops the connection, and the attempt after it finds the token refused: the error
   * that follows the disconnection.
   */
  private Event dropWithTheTokenRefusedAfter(WebSocket server) throws InterruptedException {
    h.tokens.refusal = new ServerRefusalException("invalid_refresh_token", "refresh token revoked", null);
    server.close(1011, "server restarting");
    h.expect(EVENT_SERVER_DISCONNECTED);
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_IDLE);
    h.runAttempt(3); // after the first attempt and its greeting deadline
    return h.expect(EVENT_ERROR);
  }

  /**
   * The manager lost its authorization while connected (a refused refresh) and got a token back
   * (another manager's refresh): a later real loss is reported again.
   */
  @Test void aTokenBackAfterALossReportedWhileConnectedLeavesTheNextLossReported() throws Exception {
    WebSocket server = h.startConnected();
    h.engine.notAuthorized("The device must sign in again: its refresh token was refused.");
    assertThat(h.expect(EVENT_ERROR).arg1).isEqualTo(ERROR_NOT_AUTHORIZED);
    h.engine.tokenBack();

    Event lost = dropWithTheTokenRefusedAfter(server);
    assertThat(lost.arg1).isEqualTo(ERROR_NOT_AUTHORIZED);
    assertThat(lost.info).isEqualTo("The device token was refused (no access token:"
        + " invalid_refresh_token: refresh token revoked). Sign in again (Agent.signIn).");
    h.expectNoEvent();
  }

  @Test void theLastAllowedReconnectMayStillSucceed() throws Exception {
    EngineHarness bounded = new EngineHarness(EngineHarness.CONFIG, 2);
    try {
      for (int i = 0; i < 2; i++) bounded.server.enqueue(new MockResponse().setResponseCode(503));
      bounded.acceptNextConnection(EngineHarness.UID);
      bounded.engine.start(true);
      for (int attempt = 1; attempt <= 3; attempt++) bounded.runAttempt(attempt);

      assertThat(bounded.expect(EVENT_CONNECTED_TO_SERVER).data)
          .containsEntry(KEY_UID, EngineHarness.UID);
    } finally {
      bounded.close();
    }
  }

  @Test void aServerThatNeverGreetsIsLeftAtTheGreetingTimeoutAndTriedAgain() throws Exception {
    h.acceptNextConnection(null);
    h.acceptNextConnection(EngineHarness.UID);
    h.engine.start(true);
    h.runAttempt(1);
    h.time.awaitScheduled(2); // the socket is open: its greeting deadline
    assertThat(h.time.pendingDelaysMillis()).containsExactly(10_000L);
    h.time.advance(9_999, TimeUnit.MILLISECONDS);
    h.expectNoEvent();
    assertThat(h.server.getRequestCount()).isEqualTo(1);

    h.time.advance(1, TimeUnit.MILLISECONDS);
    h.runAttempt(3); // the reconnect, after the first attempt and its deadline
    assertThat(h.expect(EVENT_CONNECTED_TO_SERVER).data).containsEntry(KEY_UID, EngineHarness.UID);
    assertThat(h.server.getRequestCount()).isEqualTo(2);
  }

  @Test void networkLossDisconnectsAtOnceAndPausesReconnecting() throws Exception {
    h.startConnected();

    h.engine.networkLost();

    h.expect(EVENT_SERVER_DISCONNECTED);
    assertThat(h.expect(EVENT_STATE).arg1).isEqualTo(STATE_IDLE);
    h.expectNoEvent();
    assertThat(h.time.pendingDelaysMillis()).isEmpty();

    h.acceptNextConnection(EngineHarness.UID);
    h.engine.networkAvailable();
    h.runAttempt(3); // after the first attempt and its greeting deadline
    h.expect(EVENT_CONNECTED_TO_SERVER);
  }

  @Test void aNetworkBackBeforeTheServersRetryAfterEndsConnectsOnlyOnceItEnds() throws Exception {
    h.server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "5"));
    h.engine.start(true);
    h.runAttempt(1);
    h.time.awaitScheduled(2);
    assertThat(h.time.pendingDelaysMillis()).as("the channel's own reconnect waits 5 s")
        .containsExactly(5_000L);
    h.time.advance(2, TimeUnit.SECONDS);
    h.engine.networkLost();
    h.expectNoEvent();
    assertThat(h.time.pendingDelaysMillis()).as("the closed channel's reconnect is called off").isEmpty();

    aNetworkBackConnectsOnlyAfter(3_000L, "what is left of the server's 5 s");
  }

  @Test void aServersRetryAfterHoldsWhenTheNetworkIsLostBeforeTheAgentHearsOfIt() throws Exception {
    h.server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "5"));
    h.engine.start(true);
    h.time.awaitScheduled(1);
    CountDownLatch release = new CountDownLatch(1);
    h.engine.execute(() -> awaitQuietly(release)); // the worker takes nothing until released
    h.engine.networkLost();                        // queued before the refusal's news
    h.runAttempt(1);
    h.time.awaitScheduled(2);
    assertThat(h.news()).isEqualTo("disconnected, last seq 0");
    release.countDown();
    h.expectNoEvent();

    aNetworkBackConnectsOnlyAfter(5_000L, "the server's 5 s, though its channel is gone");
  }

  /** The network comes back: the Agent's next channel connects once {@code waitMillis} are over. */
  private void aNetworkBackConnectsOnlyAfter(long waitMillis, String why) throws Exception {
    h.acceptNextConnection(EngineHarness.UID);
    int scheduled = h.time.scheduledCount();
    h.engine.networkAvailable();
    h.time.awaitScheduled(scheduled + 1);
    assertThat(h.time.pendingDelaysMillis()).as(why).containsExactly(waitMillis);
    h.time.advance(waitMillis - 1, TimeUnit.MILLISECONDS);
    h.expectNoEvent();
    assertThat(h.server.getRequestCount()).isEqualTo(1);

    h.time.advance(1, TimeUnit.MILLISECONDS);
    h.time.awaitScheduled(scheduled + 2); // the new channel's first attempt, at once
    h.time.runDueTasks(); // unless the advance ran it already
    h.expect(EVENT_CONNECTED_TO_SERVER);
    assertThat(h.server.getRequestCount()).isEqualTo(2);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).as("released").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test void refusedTokenIsReportedAsReauthorizationRequired() throws Exception {
    h.tokens.refusal = new ServerRefusalException("invalid_refresh_token", "refresh token revoked", null);

    h.engine.start(true);
    h.runAttempt(1);

    Event error = h.expect(EVENT_ERROR);
    assertThat(error.arg1).isEqualTo(ERROR_NOT_AUTHORIZED);
    assertThat(error.info).isEqualTo("The device token was refused (no access token: "
        + "invalid_refresh_token: refresh token revoked). Sign in again (Agent.signIn).");
    assertThat(h.time.pendingDelaysMillis()).isEmpty();
  }

  @Test void destroyAnswersEveryPendingCommandExactlyOnce() throws Exception {
    h.startConnected();
    h.engine.send(userSync("done"));
    String sid = (String) h.expect(EVENT_CMD_RETURN).data.get(KEY_SID);
    CountDownLatch gate = new CountDownLatch(1);
    h.backend.uploadGate = gate;
    h.engine.send(userSync("in-flight"));
    h.engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"" + sid + "\",\"tag\":\"waiting\"}", null));
    h.engine.send(write("data_type=text,tag=unanswered", "hello"));
    h.frame();
    h.expect(EVENT_STATE);
    h.backend.uploads.poll(5, TimeUnit.SECONDS);

    h.engine.destroy();

    Event sync = h.expect(EVENT_CMD_RETURN);
    assertThat(sync.arg1).isEqualTo(CMD_SYNC);
    assertThat(sync.arg2).isEqualTo(ERROR_DESTROYED);
    assertThat(sync.data).containsEntry(KEY_TAG, "in-flight");
    Event query = h.expect(EVENT_CMD_RETURN);
    assertThat(query.arg1).isEqualTo(CMD_QUERY_SYNC_STATUS);
    assertThat(query.arg2).isEqualTo(ERROR_DESTROYED);
    assertThat(query.data).containsEntry(KEY_TAG, "waiting");
    Event write = h.expect(EVENT_ERROR);
    assertThat(write.arg1).isEqualTo(ERROR_DESTROYED);
    assertThat(write.data).containsEntry(KEY_TAG, "unanswered");

    gate.countDown();
    h.time.advance(1, TimeUnit.MINUTES);
    h.expectNoEvent();
    assertThatThrownBy(() -> h.engine.send(userSync("late")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Agent was destroyed; create a new Agent to send CMD_SYNC");
  }

  @Test void unknownMessageTypeIsAnError() throws Exception {
    h.engine.start(false);

    h.engine.send(new AgentMessage(99, 0, 0, null, null));

    Event error = h.expect(EVENT_ERROR);
    assertThat(error.arg1).isEqualTo(ERROR_UNSUPPORTED);
    assertThat(error.info).isEqualTo("msgType 99 is not supported; send CMD_WRITE (2), "
        + "CMD_SET_PARAMS (10), CMD_SYNC (13) or CMD_QUERY_SYNC_STATUS (24)");
  }
}
