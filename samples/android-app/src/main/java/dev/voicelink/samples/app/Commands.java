package dev.voicelink.samples.app;

import java.nio.charset.StandardCharsets;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceEncoder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The params and data texts of the commands the sample sends (protocol 4.10). */
final class Commands {
  /** Activates the user-level resources; uid left empty is filled from the connection. */
  static final String USER_PERS_PARAM = "{\"uid\":\"\"}";

  private Commands() {
  }

  /**
   * CMD_SYNC data for a user-level resource: the records checked against the definition and encoded by
   * the SDK (UTF-8 JSON lines, no byte-order mark, Base64 without line breaks), owned by the signed-in
   * user ({@code id_name=uid}; the Agent fills the empty value from its connection).
   */
  static byte[] syncUserResource(ResourceDefinition definition, List<Map<String, String>> records)
      throws IOException {
    String base64 = ResourceEncoder.base64(definition, RecordSource.of(records));
    String data = "{\"param\":{\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":"
        + quote(definition.name().value()) + "},\"data\":\"" + base64 + "\"}";
    return data.getBytes(StandardCharsets.UTF_8);
  }

  static String syncParams(String tag) {
    return "{\"tag\":" + quote(tag) + "}";
  }

  static String queryParams(String sid) {
    return "{\"sid\":" + quote(sid) + "}";
  }

  static String setParams(String persParam) {
    return "{\"audioparams\":{\"pers_param\":" + quote(persParam) + "}}";
  }

  static String textWriteParams(String persParam) {
    return "data_type=text,pers_param=" + persParam;
  }

  /** A JSON string literal. */
  static String quote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    return out.append('"').toString();
  }

  /** The phone's contacts, as an app would read them from the contacts provider. */
  static List<Map<String, String>> sampleContacts() {
    List<Map<String, String>> contacts = new ArrayList<>();
    contacts.add(contact("Zhang San", "Old Zhang"));
    contacts.add(contact("Li Si", ""));
    contacts.add(contact("Wang Wu", "Xiao Wang"));
    return contacts;
  }

  private static Map<String, String> contact(String name, String alias) {
    Map<String, String> record = new LinkedHashMap<>();
    record.put("name", name);
    record.put("alias", alias);
    return record;
  }
}
