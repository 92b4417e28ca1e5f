package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.squareup.moshi.JsonReader;
import dev.voicelink.android.AgentConstants;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.ResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import okio.Buffer;
import okio.ByteString;
import org.junit.jupiter.api.Test;

class CommandsTest {
  private static final ResourceDefinition CONTACTS = ResourceDefinition.builder().name("OS123.contacts")
      .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();

  @Test
  void syncDataCarriesTheContactsAsBase64JsonLinesOwnedByTheUser() throws Exception {
    AgentMessage sync = Commands.syncContacts(CONTACTS, "contacts-1");

    assertThat(sync.msgType()).isEqualTo(AgentConstants.CMD_SYNC);
    assertThat(sync.arg1()).isEqualTo(AgentConstants.SYNC_DATA_SCHEMA);
    byte[] data = sync.data();
    Map<?, ?> body = (Map<?, ?>) JsonReader.of(new Buffer().write(data)).readJsonValue();
    @SuppressWarnings("unchecked")
    Map<String, Object> param = (Map<String, Object>) body.get("param");
    assertThat(param).containsOnlyKeys("id_name", "id_value", "res_name");
    assertThat(param.get("id_name")).isEqualTo("uid");
    assertThat(param.get("id_value")).isEqualTo("");
    assertThat(param.get("res_name")).isEqualTo("OS123.contacts");
    String base64 = (String) body.get("data");
    assertThat(base64).doesNotContain("\n");
    assertThat(ByteString.decodeBase64(base64).utf8()).isEqualTo(
        "{\"name\":\"Zhang San\",\"alias\":\"Old Zhang\"}\n"
        + "{\"name\":\"Li Si\",\"alias\":\"\"}\n"
        + "{\"name\":\"Wang Wu\",\"alias\":\"Xiao Wang\"}");
    assertThat(new String(data, StandardCharsets.UTF_8)).doesNotStartWith("\uFEFF");
  }

  @Test
  void paramsTexts() {
    assertThat(Commands.syncContacts(CONTACTS, "contacts-1").params()).isEqualTo("{\"tag\":\"contacts-1\"}");
    AgentMessage query = Commands.queryStatus("psn1");
    assertThat(query.msgType()).isEqualTo(AgentConstants.CMD_QUERY_SYNC_STATUS);
    assertThat(query.arg1()).isEqualTo(AgentConstants.SYNC_DATA_SCHEMA);
    assertThat(query.params()).isEqualTo("{\"sid\":\"psn1\"}");
    AgentMessage setParams = Commands.setPersParam();
    assertThat(setParams.msgType()).isEqualTo(AgentConstants.CMD_SET_PARAMS);
    assertThat(setParams.params())
        .isEqualTo("{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}");
    AgentMessage write = Commands.writeText("call Old Zhang");
    assertThat(write.msgType()).isEqualTo(AgentConstants.CMD_WRITE);
    assertThat(write.params()).isEqualTo("data_type=text,pers_param={\"uid\":\"\"}");
    assertThat(new String(write.data(), StandardCharsets.UTF_8)).isEqualTo("call Old Zhang");
  }

  @Test
  void anEmptyTextIsNoWrite() {
    assertThatThrownBy(() -> Commands.writeText("")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("text must not be empty");
  }
}
