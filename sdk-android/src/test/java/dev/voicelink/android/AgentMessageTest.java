package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.CMD_WRITE;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * An {@link AgentMessage} is the same however it is made, keeps its bytes to itself, and never shows
 * them.
 */
class AgentMessageTest {
  private static final byte[] CONTACTS = "{\"name\":\"张三\",\"alias\":\"小张\"}".getBytes(UTF_8);

  @Test void theBuilderMakesWhatTheConstructorMakes() {
    AgentMessage built = AgentMessage.builder(CMD_SYNC).arg1(SYNC_DATA_SCHEMA).arg2(7)
        .params("{\"tag\":\"c1\"}").data(CONTACTS).build();
    AgentMessage constructed = new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 7, "{\"tag\":\"c1\"}", CONTACTS);
    assertThat(built).isEqualTo(constructed).hasSameHashCodeAs(constructed);
    assertThat(built.newBuilder().build()).isEqualTo(built);

    AgentMessage bare = AgentMessage.builder(CMD_WRITE).build();
    assertThat(bare).isEqualTo(new AgentMessage(CMD_WRITE, 0, 0, null, null));
    assertThat(bare.params()).isEmpty();
    assertThat(bare.data()).isNull();
  }

  @Test void theDataIsCopiedInAndOut() {
    byte[] given = CONTACTS.clone();
    AgentMessage message = new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, null, given);
    AgentMessage built = AgentMessage.builder(CMD_SYNC).data(given).build();
    given[0] = 'X';
    message.data()[1] = 'Y';
    assertThat(message.data()).isEqualTo(CONTACTS);
    assertThat(built.data()).isEqualTo(CONTACTS);
  }

  @Test void toStringShowsTheDataLengthNeverItsContent() {
    AgentMessage message = new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"c1\"}", CONTACTS);
    assertThat(message).hasToString("AgentMessage{msgType=" + CMD_SYNC + ", arg1=" + SYNC_DATA_SCHEMA
        + ", arg2=0, params={\"tag\":\"c1\"}, data=" + CONTACTS.length + " bytes}");
    assertThat(message.toString()).doesNotContain("张三");
  }
}
