package dev.voicelink.android;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.InvalidResourceException;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.ResourceDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okio.ByteString;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The typed commands build exactly the raw messages the conformance vectors pin (conformance/
 * vectors.json), which the agent's own readers read back; bad values fail before anything is sent,
 * naming the field.
 */
class AgentCommandsTest {
  private static final JsonAdapter<Map<String, Object>> JSON = new Moshi.Builder().build()
      .adapter(Types.newParameterizedType(Map.class, String.class, Object.class));
  private static final ResourceDefinition CONTACTS = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias").dimension(Dimension.USER)
      .build();

  private static Dimension dimension(String idName) {
    if (idName.equals("uid")) return Dimension.USER;
    if (idName.equals("appid")) return Dimension.APPLICATION;
    return Dimension.custom(idName);
  }

  /** The records of a vector's Base64, as maps in their order. */
  private static List<Map<String, String>> records(String base64) throws IOException {
    List<Map<String, String>> records = new ArrayList<>();
    for (String line : ByteString.decodeBase64(base64).utf8().split("\n")) {
      Map<String, String> record = new LinkedHashMap<>();
      for (Map.Entry<String, Object> field : JSON.fromJson(line).entrySet()) {
        record.put(field.getKey(), (String) field.getValue());
      }
      records.add(record);
    }
    return records;
  }

  @SuppressWarnings("unchecked")
  @TestFactory List<DynamicTest> everySyncVectorIsBuiltByteForByteFromTypedValues() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map<String, Object> vector : ConformanceVectors.list("cmd_sync_to_web_api")) {
      Map<String, Object> raw = (Map<String, Object>) vector.get("cmd_sync_data");
      Map<String, Object> param = (Map<String, Object>) raw.get("param");
      String idName = (String) param.get("id_name");
      String idValue = (String) param.get("id_value");
      ResourceDefinition definition = ResourceDefinition.builder().name((String) param.get("res_name"))
          .mainField("name").secondaryFields("alias").dimension(dimension(idName)).build();
      tests.add(DynamicTest.dynamicTest((String) vector.get("note"), () -> {
        AgentCommands.SyncBuilder sync = AgentCommands.sync(definition)
            .records(records((String) raw.get("data"))).tag("t-1");
        if (!idValue.isEmpty()) sync.ownerId(idValue);
        if (param.containsKey("appid")) sync.appid((String) param.get("appid"));
        if (vector.containsKey("error")) {
          assertThatThrownBy(sync::build).isInstanceOf(IllegalStateException.class)
              .hasMessage("ownerId is required for the custom dimension family: the value of the group"
                  + " the records belong to");
          return;
        }
        AgentMessage message = sync.build();
        assertThat(message.msgType()).isEqualTo(AgentConstants.CMD_SYNC);
        assertThat(message.arg1()).isEqualTo(AgentConstants.SYNC_DATA_SCHEMA);
        assertThat(message.params()).isEqualTo("{\"tag\":\"t-1\"}");
        assertThat(new String(message.data(), UTF_8)).isEqualTo(JSON.toJson(raw));
        // and the agent reads it as the raw form it is
        SyncRequest read = CommandParams.syncRequest(message.data(), (String) vector.get("connected_uid"),
            (String) vector.get("config_appid"));
        Map<String, Object> form = (Map<String, Object>) vector.get("web_api_form");
        assertThat(read.resName).isEqualTo(form.get("res_name"));
        assertThat(read.appid).isEqualTo(form.get("appid"));
        assertThat(SyncResourceTest.base64(read.resource)).isEqualTo(form.get("data"));
        assertThat(CommandParams.tag(message.params(), "CMD_SYNC")).isEqualTo("t-1");
      }));
    }
    return tests;
  }

  @SuppressWarnings("unchecked")
  @TestFactory List<DynamicTest> everyActivationVectorIsSetAndClearedAsTheRawParams() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map<String, Object> vector : ConformanceVectors.list("activation_pers_param")) {
      String persParam = JSON.toJson((Map<String, Object>) vector.get("pers_param"));
      tests.add(DynamicTest.dynamicTest((String) vector.get("level"), () -> {
        PersParam activation = PersParam.parseActivation(persParam);
        AgentMessage set = AgentCommands.setPersParam(activation);
        assertThat(set.msgType()).isEqualTo(AgentConstants.CMD_SET_PARAMS);
        assertThat(set.params()).isEqualTo("{\"audioparams\":{\"pers_param\":"
            + new Moshi.Builder().build().adapter(String.class).toJson(activation.toJson()) + "}}");
        assertThat(JSON.fromJson(CommandParams.setParamsPersParam(set.params())))
            .isEqualTo(vector.get("pers_param"));

        AgentMessage write = AgentCommands.writeText("call Li Lei").persParam(activation).build();
        Map<String, String> params = WriteParams.parse(write.params());
        assertThat(params).containsOnlyKeys("data_type", "pers_param");
        assertThat(JSON.fromJson(params.get("pers_param"))).isEqualTo(vector.get("pers_param"));
      }));
    }
    return tests;
  }

  @SuppressWarnings("unchecked")
  @TestFactory List<DynamicTest> everyWriteVectorTheTypedFormCanSayIsBuiltAsItParses() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map<String, Object> vector : ConformanceVectors.list("cmd_write_params")) {
      Map<String, String> expected = (Map<String, String>) vector.get("expect");
      if (expected == null) continue; // malformed raw params: the typed form cannot write them
      tests.add(DynamicTest.dynamicTest((String) vector.get("params"), () -> {
        String persParam = expected.get("pers_param");
        AgentCommands.WriteBuilder write = expected.get("data_type").equals("audio")
            ? AgentCommands.writeAudio(new byte[] {1, 2}, Integer.parseInt(expected.get("sample_rate")))
            : AgentCommands.writeText("call Li Lei");
        if (persParam != null) write.persParam(PersParam.parseActivation(persParam));
        assertThat(WriteParams.parse(write.build().params())).isEqualTo(expected);
      }));
    }
    assertThat(tests).hasSize(5);
    return tests;
  }

  @Test void theOtherCommandsAreTheirRawForms() {
    assertThat(AgentCommands.querySyncStatus("psn0001")).isEqualTo(new AgentMessage(
        AgentConstants.CMD_QUERY_SYNC_STATUS, AgentConstants.SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"psn0001\"}", null));
    assertThat(AgentCommands.querySyncStatus("psn0001", "q-1").params())
        .isEqualTo("{\"sid\":\"psn0001\",\"tag\":\"q-1\"}");
    assertThat(AgentCommands.clearPersParam()).isEqualTo(new AgentMessage(
        AgentConstants.CMD_SET_PARAMS, 0, 0, "{\"audioparams\":{\"pers_param\":\"\"}}", null));
    assertThat(CommandParams.setParamsPersParam(AgentCommands.clearPersParam().params())).isEmpty();
    assertThat(AgentCommands.writeText("给老张打电话").tag("w-1").build()).isEqualTo(new AgentMessage(
        AgentConstants.CMD_WRITE, 0, 0, "data_type=text,tag=w-1", "给老张打电话".getBytes(UTF_8)));
    assertThat(AgentCommands.writeAudio(new byte[] {1, 2, 3}, 16000).build()).isEqualTo(new AgentMessage(
        AgentConstants.CMD_WRITE, 0, 0, "data_type=audio,sample_rate=16000", new byte[] {1, 2, 3}));
    assertThat(AgentCommands.sync(CONTACTS).base64Data("eyJuYW1lIjoiTGkgTGVpIiwiYWxpYXMiOiIifQ==")
        .build()).isEqualTo(new AgentMessage(AgentConstants.CMD_SYNC, AgentConstants.SYNC_DATA_SCHEMA, 0,
            "", ("{\"param\":{\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":\"OS123.contacts\"},"
                + "\"data\":\"eyJuYW1lIjoiTGkgTGVpIiwiYWxpYXMiOiIifQ==\"}").getBytes(UTF_8)));
  }

  @Test void recordsTextIsEncodedAsRecordsAre() {
    Map<String, String> li = new LinkedHashMap<>();
    li.put("name", "Li Lei");
    li.put("alias", "");
    assertThat(AgentCommands.sync(CONTACTS).recordsText("\uFEFF{\"name\":\"Li Lei\",\"alias\":\"\"}\n")
        .build()).isEqualTo(AgentCommands.sync(CONTACTS).records(Arrays.asList(li)).build());
  }

  @Test void badValuesFailBeforeSendingNamingTheField() {
    assertThatThrownBy(() -> AgentCommands.sync(ResourceDefinition.builder().name("OS123.speakers")
        .mainField("name").dimension(Dimension.DEVICE).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("definition OS123.speakers is of the device level, which CMD_SYNC does not upload:"
            + " upload it with PlatformToolsClient.uploadEntities");
    Map<String, String> noName = new LinkedHashMap<>();
    noName.put("alias", "x");
    assertThatThrownBy(() -> AgentCommands.sync(CONTACTS).records(Arrays.asList(noName)))
        .isInstanceOf(InvalidResourceException.class).hasMessageContaining("name");
    assertThatThrownBy(() -> AgentCommands.sync(CONTACTS).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("records are required: records(...), recordsText(...) or base64Data(...)");
    for (String refused : new String[] {"not base64!", "QUJD\n", "QUJD\r", "QU\tJD"}) {
      // okio's decodeBase64 takes the line break and the tab; a JSON string could not carry them as is
      assertThatThrownBy(() -> AgentCommands.sync(CONTACTS).base64Data(refused)).as(refused)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("base64Data must be Base64 without line breaks or tabs");
    }
    assertThatThrownBy(() -> AgentCommands.sync(CONTACTS).ownerId("alice"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ownerId is not a valid uid: auth_id must be 32 lowercase letters or digits; was 5"
            + " characters");
    assertThatThrownBy(() -> AgentCommands.sync(CONTACTS).ownerId(" d41d8cd98f00b204e9800998ecf8427e"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ownerId must not have blanks at either end; was: \" d41d8cd98f00b204e9800998ecf8427e\"");
    assertThatThrownBy(() -> AgentCommands.sync(CONTACTS).tag(""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("tag must not be empty");
    assertThatThrownBy(() -> AgentCommands.querySyncStatus("1234"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sid must begin with psn, as the sid of a CMD_SYNC reply does; was: 1234");
    assertThatThrownBy(() -> AgentCommands.querySyncStatus(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sid is required: the sid of the CMD_SYNC reply");
    assertThatThrownBy(() -> AgentCommands.setPersParam(PersParam.user("d41d8cd98f00b204e9800998ecf8427e")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("persParam must be an activation, made with PersParam.activation(); was"
            + " the owner of an upload: ");
    assertThatThrownBy(() -> AgentCommands.writeText(""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("text must not be empty");
    assertThatThrownBy(() -> AgentCommands.writeAudio(new byte[] {1}, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sampleRate must be positive, such as 16000; was: 0");
    assertThatThrownBy(() -> AgentCommands.writeText("hi").tag("a,b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tag of a write must not contain a comma nor start with {; was: a,b");
  }
}
