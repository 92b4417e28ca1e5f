package dev.voicelink.testing;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Decodes and checks resource data (protocol 2.5) against its definition. */
final class ResourceData {
  /** A refusal: the web API code and a description naming what is wrong. */
  static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;
    final String code;

    Invalid(String code, String message) {
      super(message);
      this.code = code;
    }
  }

  private ResourceData() {
  }

  /** Base64 text of UTF-8 JSON lines → records (only the defined fields kept). */
  static List<Map<String, String>> decode(String base64, EntityDefinition def) throws Invalid {
    String notBase64 = "data is not valid Base64 (standard alphabet, = padding, no line breaks)";
    // Java's decoder takes a missing = padding; Base64 as protocol 2.5 means it (RFC 4648) has it.
    if (base64.length() % 4 != 0) throw new Invalid(WebApiCodes.BASE64, notBase64);
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new Invalid(WebApiCodes.BASE64, notBase64);
    }
    if (bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF) {
      throw new Invalid(WebApiCodes.ENCODING, "data starts with a byte-order mark; send UTF-8 without BOM");
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new Invalid(WebApiCodes.ENCODING, "data is not UTF-8 text");
    }
    String[] split = text.split("\n", -1);
    List<Map<String, String>> records = new ArrayList<>();
    for (int i = 0; i < split.length; i++) {
      String line = split[i].endsWith("\r") ? split[i].substring(0, split[i].length() - 1) : split[i];
      if (line.trim().isEmpty()) continue;
      records.add(record(Json.parseObject(line), def, "line " + (i + 1)));
    }
    if (records.isEmpty()) throw new Invalid(WebApiCodes.NO_RECORDS, "data holds no records");
    return records;
  }

  /** Checks one record (a parsed JSON object or null) and keeps its defined fields. */
  static List<Map<String, String>> records(List<?> items, EntityDefinition def) throws Invalid {
    List<Map<String, String>> records = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      Object item = items.get(i);
      @SuppressWarnings("unchecked") Map<String, Object> m = item instanceof Map ? (Map<String, Object>) item : null;
      records.add(record(m, def, "data[" + i + "]"));
    }
    if (records.isEmpty()) throw new Invalid(WebApiCodes.NO_RECORDS, "data holds no records");
    return records;
  }

  private static Map<String, String> record(@Nullable Map<String, Object> json, EntityDefinition def,
      String where)
      throws Invalid {
    if (json == null) throw new Invalid(WebApiCodes.RECORD_NOT_JSON, where + " is not a JSON object");
    Map<String, String> out = new LinkedHashMap<>();
    for (String field : def.fields()) {
      Object v = json.get(field);
      if (v == null) {
        throw new Invalid(WebApiCodes.RECORD_FIELDS, where + " lacks field " + field + " (" + def.resName()
            + " defines " + def.fields() + ")");
      }
      if (!(v instanceof String)) throw new Invalid(WebApiCodes.RECORD_FIELDS, where + ": field " + field + " must be a string");
      out.put(field, (String) v);
    }
    if (out.get(def.mainField()).trim().isEmpty()) {
      throw new Invalid(WebApiCodes.RECORD_FIELDS, where + ": main field " + def.mainField() + " must not be empty");
    }
    return out;
  }
}
