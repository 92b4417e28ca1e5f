package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.squareup.moshi.JsonReader;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.ResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import okio.Buffer;
import okio.ByteString;
import org.junit.jupiter.api.Test;

class CommandsTest {
  @Test
  void syncDataCarriesTheContactsAsBase64JsonLinesOwnedByTheUser() throws Exception {
    ResourceDefinition contacts = ResourceDefinition.builder().name("OS123.contacts").mainField("name")
        .secondaryFields("alias").dimension(Dimension.USER).build();

    byte[] data = Commands.syncUserResource(contacts, Commands.sampleContacts());

    Map<?, ?> sync = (Map<?, ?>) JsonReader.of(new Buffer().write(data)).readJsonValue();
    @SuppressWarnings("unchecked")
    Map<String, Object> param = (Map<String, Object>) sync.get("param");
    assertThat(param).containsOnlyKeys("id_name", "id_value", "res_name");
    assertThat(param.get("id_name")).isEqualTo("uid");
    assertThat(param.get("id_value")).isEqualTo("");
    assertThat(param.get("res_name")).isEqualTo("OS123.contacts");
    String base64 = (String) sync.get("data");
    assertThat(base64).doesNotContain("\n");
    assertThat(ByteString.decodeBase64(base64).utf8()).isEqualTo(
        "{\"name\":\"Zhang San\",\"alias\":\"Old Zhang\"}\n"
        + "{\"name\":\"Li Si\",\"alias\":\"\"}\n"
        + "{\"name\":\"Wang Wu\",\"alias\":\"Xiao Wang\"}");
    assertThat(new String(data, StandardCharsets.UTF_8)).doesNotStartWith("\uFEFF");
  }

  @Test
  void paramsTexts() {
    assertThat(Commands.syncParams("contacts-1")).isEqualTo("{\"tag\":\"contacts-1\"}");
    assertThat(Commands.queryParams("psn1")).isEqualTo("{\"sid\":\"psn1\"}");
    assertThat(Commands.setParams(Commands.USER_PERS_PARAM))
        .isEqualTo("{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}");
    assertThat(Commands.textWriteParams(Commands.USER_PERS_PARAM)).isEqualTo("data_type=text,pers_param={\"uid\":\"\"}");
  }

  @Test
  void quoteEscapesWhatJsonNeeds() {
    assertThat(Commands.quote("a\"b\\c\n\u0001é")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001é\"");
  }
}
