package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;

/**
 * The typed readers of {@link AgentEvent}: each reads its own event, as the agent makes it (the same
 * {@link EventData} the engine emits), and says null to every other one.
 */
@RunWith(RobolectricTestRunner.class)
public final class AgentEventReadersTest {
  private static final String RESULT_JSON = "{\"type\":\"result\",\"seq\":7,\"text\":\"call 老张\","
      + "\"entities\":[{\"res_name\":\"OS123.contacts\",\"value\":\"张三\",\"matched\":\"老张\"}]}";

  private static AgentEvent event(int type, int arg1, int arg2, String info, Map<String, Object> data) {
    return new AgentEvent(type, arg1, arg2, info, data);
  }

  private static Map<String, Object> with(Map<String, Object> data, String key, Object value) {
    data.put(key, value);
    return data;
  }

  /** One event of each kind the agent emits. */
  private static List<AgentEvent> allKinds() {
    return Arrays.asList(
        event(EVENT_CMD_RETURN, CMD_SYNC, SUCCESS, "", EventData.sync("psn0001", "contacts-1")),
        event(EVENT_CMD_RETURN, CMD_QUERY_SYNC_STATUS, SUCCESS, "", with(EventData.query("psn0001", null),
            KEY_RESULT, "{\"sid\":\"psn0001\",\"csid\":\"c2\",\"reply\":\"processed\",\"error\":0}")),
        event(EVENT_RESULT, 0, 0, RESULT_JSON, with(EventData.write(7, "text", "w-1"), KEY_RESULT,
            RESULT_JSON)),
        event(EVENT_ERROR, ERROR_CONNECTION_LOST, 0, "the connection dropped",
            EventData.write(8, "audio", null)),
        event(EVENT_CONNECTED_TO_SERVER, 0, 0, "", EventData.of(KEY_UID,
            "d41d8cd98f00b204e9800998ecf8427e")),
        event(EVENT_SERVER_DISCONNECTED, 0, 0, "", EventData.none()),
        event(EVENT_STATE, STATE_WORKING, 0, "", EventData.none()));
  }

  @Test public void eachReaderReadsItsOwnEventAndNoOther() {
    List<AgentEvent> events = allKinds();
    for (int i = 0; i < events.size(); i++) {
      AgentEvent event = events.get(i);
      assertThat(SyncReturn.from(event) != null).as("SyncReturn of " + event).isEqualTo(i == 0);
      assertThat(SyncStatus.from(event) != null).as("SyncStatus of " + event).isEqualTo(i == 1);
      assertThat(WriteResult.from(event) != null).as("WriteResult of " + event).isEqualTo(i == 2);
      assertThat(AgentError.from(event) != null).as("AgentError of " + event).isEqualTo(i == 3);
      assertThat(ConnectionEvent.from(event) != null).as("ConnectionEvent of " + event).isEqualTo(i >= 4);
    }
  }

  @Test public void aSyncReturn() {
    SyncReturn ok = SyncReturn.from(allKinds().get(0));
    assertThat(ok.isSuccess()).isTrue();
    assertThat(ok.errorCode()).isEqualTo(SUCCESS);
    assertThat(ok.sid()).isEqualTo("psn0001");
    assertThat(ok.tag()).isEqualTo("contacts-1");
    assertThat(ok.info()).isEmpty();
    assertThat(ok).hasToString("SyncReturn{sid=psn0001, tag=contacts-1}");

    Map<String, Object> refused = EventData.sync(null, "contacts-2");
    refused.put(KEY_CODE, "20004");
    refused.put(KEY_DESC, "illegal ip");
    refused.put(KEY_SID, "wapi0009");
    SyncReturn failed = SyncReturn.from(event(EVENT_CMD_RETURN, CMD_SYNC, ERROR_SERVER_REFUSED,
        "CMD_SYNC failed: illegal ip", refused));
    assertThat(failed.isSuccess()).isFalse();
    assertThat(failed.errorCode()).isEqualTo(ERROR_SERVER_REFUSED);
    assertThat(failed.serverCode()).isEqualTo("20004");
    assertThat(failed.serverDescription()).isEqualTo("illegal ip");
    assertThat(failed).hasToString("SyncReturn{ERROR_SERVER_REFUSED: CMD_SYNC failed: illegal ip,"
        + " tag=contacts-2}");
  }

  @Test public void aSyncStatus() {
    SyncStatus processed = SyncStatus.from(allKinds().get(1));
    assertThat(processed.isSuccess()).isTrue();
    assertThat(processed.processed()).isTrue();
    assertThat(processed.sid()).isEqualTo("psn0001");
    assertThat(processed.reply()).isEqualTo("processed");
    assertThat(processed.checkError()).isEqualTo(0);
    assertThat(processed.csid()).isEqualTo("c2");
    assertThat(processed.tag()).isNull();

    SyncStatus pending = SyncStatus.from(event(EVENT_CMD_RETURN, CMD_QUERY_SYNC_STATUS, SUCCESS, "",
        with(EventData.query("psn0002", "q"), KEY_RESULT,
            "{\"sid\":\"psn0002\",\"csid\":\"c3\",\"reply\":\"processing\",\"error\":10302}")));
    assertThat(pending.processed()).isFalse();
    assertThat(pending.checkError()).isEqualTo(10302);
    assertThat(pending).hasToString("SyncStatus{sid=psn0002, error=10302, reply=processing, tag=q}");

    SyncStatus notChecked = SyncStatus.from(event(EVENT_CMD_RETURN, CMD_QUERY_SYNC_STATUS,
        ERROR_NETWORK, "CMD_QUERY_SYNC_STATUS failed: timeout", EventData.query("psn0003", null)));
    assertThat(notChecked.processed()).isFalse();
    assertThat(notChecked.reply()).isNull();
    assertThat(notChecked.checkError()).isNull();
    assertThat(notChecked.errorCode()).isEqualTo(ERROR_NETWORK);
  }

  @Test public void aWriteResult() {
    WriteResult write = WriteResult.from(allKinds().get(2));
    assertThat(write.seq()).isEqualTo(7);
    assertThat(write.dataType()).isEqualTo("text");
    assertThat(write.tag()).isEqualTo("w-1");
    assertThat(write.result().text()).isEqualTo("call 老张");
    assertThat(write.result().entities()).hasSize(1);
    assertThat(write.result().entities().get(0).resourceName()).isEqualTo("OS123.contacts");
    assertThat(write.result().entities().get(0).value()).isEqualTo("张三");
    assertThat(write.result().entities().get(0).matched()).isEqualTo("老张");
    assertThat(write.result().json()).isEqualTo(RESULT_JSON);

    assertThatThrownBy(() -> WriteResult.from(event(EVENT_RESULT, 0, 0, "{\"type\":\"error\"}",
        EventData.write(1, "text", null))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("EVENT_RESULT info is not the result of a write: not the result of a write: its type"
            + " is error");
  }

  @Test public void anAgentError() {
    AgentError lost = AgentError.from(allKinds().get(3));
    assertThat(lost.code()).isEqualTo(ERROR_CONNECTION_LOST);
    assertThat(lost.codeName()).isEqualTo("ERROR_CONNECTION_LOST");
    assertThat(lost.command()).isEqualTo(CMD_WRITE);
    assertThat(lost.seq()).isEqualTo(8);
    assertThat(lost.dataType()).isEqualTo("audio");
    assertThat(lost.tag()).isNull();
    assertThat(lost.info()).isEqualTo("the connection dropped");

    AgentError notAuthorized = AgentError.from(event(EVENT_ERROR, ERROR_NOT_AUTHORIZED, 0, "sign in",
        EventData.none()));
    assertThat(notAuthorized.command()).isNull();
    assertThat(notAuthorized.seq()).isNull();
    assertThat(notAuthorized).hasToString("AgentError{ERROR_NOT_AUTHORIZED: sign in}");
    assertThat(AgentError.codeName(SUCCESS)).isEqualTo("SUCCESS");
    assertThat(AgentError.codeName(12345)).isEqualTo("12345");
  }

  @Test public void connectionEvents() {
    List<AgentEvent> events = allKinds();
    ConnectionEvent connected = ConnectionEvent.from(events.get(4));
    assertThat(connected.kind()).isEqualTo(ConnectionEvent.Kind.CONNECTED);
    assertThat(connected.uid()).isEqualTo("d41d8cd98f00b204e9800998ecf8427e");
    assertThat(ConnectionEvent.from(events.get(5)).kind()).isEqualTo(ConnectionEvent.Kind.DISCONNECTED);
    assertThat(ConnectionEvent.from(events.get(6)).kind()).isEqualTo(ConnectionEvent.Kind.WORKING);
    assertThat(ConnectionEvent.from(event(EVENT_STATE, STATE_IDLE, 0, "", EventData.none())).kind())
        .isEqualTo(ConnectionEvent.Kind.IDLE);
    assertThat(ConnectionEvent.from(event(EVENT_STATE, STATE_READY, 0, "", EventData.none())).kind())
        .isEqualTo(ConnectionEvent.Kind.READY);
    assertThat(ConnectionEvent.from(event(EVENT_STATE, 99, 0, "", EventData.none()))).isNull();
  }
}
