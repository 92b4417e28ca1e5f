package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConformanceVectorsTest {
  @Test void checksums() throws IOException {
    List<Map<String, Object>> vectors = Vectors.list("checksum");
    assertThat(vectors).isNotEmpty();
    for (Map<String, Object> v : vectors) {
      assertThat(ChecksumSigner.checksum((String) v.get("account_key"), (String) v.get("nonce"),
          (String) v.get("cur_time"))).as(v.toString()).isEqualTo(v.get("checksum"));
    }
  }

  @SuppressWarnings("unchecked")
  @Test void resourceEncoding() throws IOException {
    List<Map<String, Object>> vectors = Vectors.list("resource_encoding");
    assertThat(vectors).hasSize(3);
    for (Map<String, Object> v : vectors) {
      Map<String, Object> definition = (Map<String, Object>) v.get("definition");
      List<String> fields = (List<String>) definition.get("fields");
      ResourceDefinition resource = ResourceDefinition.builder()
          .name((String) definition.get("res_name"))
          .mainField(fields.get(0))
          .secondaryFields(fields.subList(1, fields.size()).toArray(new String[0]))
          .dimension(Dimension.USER)
          .build();
      String text = v.containsKey("resource_text")
          ? (String) v.get("resource_text") : (String) v.get("input_text_with_bom");
      String base64 = ResourceEncoder.base64(resource, RecordSource.fromText(text));
      assertThat(base64).as((String) v.get("note")).isEqualTo(v.get("data_base64"))
          .doesNotContain("\n").doesNotContain("\r");
    }
  }

  @SuppressWarnings("unchecked")
  @Test void badResourcesFailNamingTheField() throws IOException {
    List<Map<String, Object>> vectors = Vectors.list("bad_resources");
    assertThat(vectors).hasSize(4);
    for (final Map<String, Object> v : vectors) {
      final String expected = (String) v.get("error");
      final List<String> fields = (List<String>) v.get("fields");
      final List<Map<String, String>> records = (List<Map<String, String>>) v.get("records");
      Runnable encode = () -> {
        try {
          encoded(fields, records, (String) v.get("res_name"));
        } catch (IOException e) {
          throw new AssertionError(e);
        }
      };
      if (expected == null) {
        // accepted, and sent as it is: the fields the definition does not name are kept
        StringBuilder text = new StringBuilder();
        for (Map<String, String> record : records) {
          if (text.length() > 0) text.append('\n');
          text.append(Vectors.toJson(record));
        }
        assertThat(Base64.getDecoder().decode(encoded(fields, records, (String) v.get("res_name"))))
            .as((String) v.get("note")).asString(StandardCharsets.UTF_8).isEqualTo(text.toString());
      } else if (expected.equals("res_name")) {
        assertThatThrownBy(encode::run).as((String) v.get("note"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("res_name must be <namespace>.<name>, e.g. OS123.contacts; was: contacts"
                + " (the namespace prefix is missing; the console shows it on the entity keys page)");
      } else {
        assertThatThrownBy(encode::run).as((String) v.get("note"))
            .isInstanceOfSatisfying(InvalidResourceException.class, e -> {
              assertThat(e.field()).isEqualTo(expected);
              assertThat(e.recordNumber()).isEqualTo(1);
            });
      }
    }
  }

  private static String encoded(List<String> fields, List<Map<String, String>> records, String resName)
      throws IOException {
    ResourceDefinition definition = ResourceDefinition.builder()
        .name(resName)
        .mainField(fields.get(0))
        .secondaryFields(fields.subList(1, fields.size()).toArray(new String[0]))
        .dimension(Dimension.APPLICATION)
        .build();
    return ResourceEncoder.base64(definition, RecordSource.of(records));
  }

  /** What the SDK must say is wrong with an invalid auth_id, worked out here from the rule alone. */
  private static String authIdProblem(String bad) {
    if (bad.isEmpty()) return "was empty";
    if (bad.length() != 32) return "was " + bad.length() + " characters";
    for (int i = 0; i < bad.length(); i++) {
      char c = bad.charAt(i);
      if (!Character.isDigit(c) && !(c >= 'a' && c <= 'z')) return "has '" + c + "' at index " + i;
    }
    throw new AssertionError(bad + " is a valid auth_id");
  }

  @SuppressWarnings("unchecked")
  @Test void authIds() throws IOException {
    Map<String, Object> vectors = Vectors.map("auth_id");
    for (String valid : (List<String>) vectors.get("valid")) {
      assertThat(PersParam.user(valid).toJson()).isEqualTo("{\"auth_id\":\"" + valid + "\"}");
    }
    List<String> invalid = (List<String>) vectors.get("invalid");
    assertThat(invalid).hasSize(5);
    for (String bad : invalid) {
      assertThatThrownBy(() -> PersParam.user(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("auth_id must be 32 lowercase letters or digits; " + authIdProblem(bad));
    }
  }

  @SuppressWarnings("unchecked")
  @Test void activationPersParams() throws IOException {
    for (Map<String, Object> v : Vectors.list("activation_pers_param")) {
      PersParam.Activation activation = PersParam.activation();
      String level = (String) v.get("level");
      Map<String, String> expected = (Map<String, String>) v.get("pers_param");
      if (level.equals("application")) {
        activation.application();
      } else if (level.equals("user")) {
        activation.user();
      } else if (level.equals("custom")) {
        activation.custom("family", "f-01");
      } else {
        activation.application().user().custom("family", "f-01");
      }
      PersParam built = activation.build();
      assertThat(built.entries()).containsExactlyEntriesOf(expected);
      assertThat(built.toJson()).isEqualTo(Vectors.toJson(expected));
      assertThat(built.isActivation()).isTrue();
      PersParam read = PersParam.parseActivation(Vectors.toJson(expected));
      assertThat(read.entries()).containsExactlyEntriesOf(expected);
      assertThat(read.isActivation()).isTrue();
    }
  }

  @SuppressWarnings("unchecked")
  @Test void uploadPersParamsOfTheSyncMapping() throws IOException {
    for (Map<String, Object> v : Vectors.list("cmd_sync_to_web_api")) {
      if (!v.containsKey("web_api_form")) continue;
      Map<String, Object> form = (Map<String, Object>) v.get("web_api_form");
      Map<String, String> expected = (Map<String, String>) form.get("pers_param");
      Map<String, Object> param = (Map<String, Object>)
          ((Map<String, Object>) v.get("cmd_sync_data")).get("param");
      String idName = (String) param.get("id_name");
      PersParam persParam;
      if (idName.equals("uid")) {
        persParam = PersParam.user((String) v.get("connected_uid"));
      } else if (idName.equals("appid")) {
        persParam = PersParam.application((String) v.get("config_appid"));
      } else {
        persParam = PersParam.custom(idName, (String) param.get("id_value"));
      }
      assertThat(persParam.toJson()).isEqualTo(Vectors.toJson(expected));
    }
  }

  @Test void customUploadWithoutValueIsRefused() {
    assertThatThrownBy(() -> PersParam.custom("family", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the value of custom dimension family must not be empty: it names the group that"
            + " owns the data");
  }
}
