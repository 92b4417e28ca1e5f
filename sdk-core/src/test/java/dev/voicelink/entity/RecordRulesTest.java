package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The rules a record must keep refuse it in the same words on every path: a map or its JSON text,
 * read by the quick path or the checked one. The words are pinned as users have seen them.
 */
class RecordRulesTest {
  private static final ResourceDefinition CONTACTS = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias").dimension(Dimension.USER)
      .build();
  private static final JsonAdapter<Map<String, String>> MOSHI_MAP = new Moshi.Builder().build()
      .<Map<String, String>>adapter(Types.newParameterizedType(Map.class, String.class, String.class))
      .serializeNulls();
  private static final String PREFIX = "record 2 of OS123.contacts";

  /** A record's JSON text, what its refusal says after {@link #PREFIX}, and the field it names. */
  private static final String[][] REFUSALS = {
      {"{\"name\":\"\",\"alias\":\"\"}", ": main field name must not be empty", "name"},
      {"{\"alias\":\"\",\"name\":\" \\t\\u0001\"}",
          ": main field name must not be blank (it has only spaces or control characters)", "name"},
      {"{\"name\":null,\"alias\":\"\"}", ": field name must be a string; was NULL", "name"},
      {"{\"name\":\"a\",\"alias\":null}", ": field alias must be a string; was NULL", "alias"},
      {"{\"name\":\"a\",\"alias\":7}", ": field alias must be a string; was NUMBER", "alias"},
      {"{\"name\":{},\"alias\":\"\"}", ": field name must be a string; was BEGIN_OBJECT", "name"},
      {"{\"name\":\"a\"}",
          " lacks the field alias; every record needs name (non-empty) and alias", "alias"},
      {"{\"alias\":\"\",\"other\":null}",
          " lacks the field name; every record needs name (non-empty) and alias", "name"},
      // The first rule broken, in the record's order, is the one named.
      {"{\"alias\":null,\"name\":\"\"}", ": field alias must be a string; was NULL", "alias"},
      {"{\"name\":\"\",\"alias\":null}", ": main field name must not be empty", "name"},
  };

  @Test void eachRuleIsWordedAlikeForTextAndMaps() throws IOException {
    for (String[] refusal : REFUSALS) {
      String text = "{\"name\":\"first\",\"alias\":\"\"}\n" + refusal[0];
      assertRefused(RecordSource.fromText(text), refusal);
      if (refusal[0].matches(".*:[0-9{].*")) continue; // a map of strings holds no number, no object
      Map<String, String> record = MOSHI_MAP.fromJson(refusal[0]);
      Map<String, String> first = new LinkedHashMap<>();
      first.put("name", "first");
      first.put("alias", "");
      List<Map<String, String>> records = new ArrayList<>();
      records.add(first);
      records.add(record);
      assertRefused(RecordSource.of(records), refusal);
    }
  }

  /**
   * Random records of the defined fields and others, with good and bad values: a map and its JSON
   * text (as Moshi writes it) are accepted alike, or refused in the same words.
   */
  @Test void mapsAndTheirJsonTextAgree() throws IOException {
    Random random = new Random(7);
    String[] keys = {"name", "alias", "other", "Name"};
    String[] values = {null, "", " ", "\t\u0001", "a", "\u00e9 x", "\"q\"", "a\\b"};
    int refused = 0;
    for (int i = 0; i < 3000; i++) {
      Map<String, String> record = new LinkedHashMap<>();
      for (int f = random.nextInt(5); f > 0; f--) {
        record.put(keys[random.nextInt(keys.length)], values[random.nextInt(values.length)]);
      }
      String text = MOSHI_MAP.toJson(record);
      Outcome fromMap = outcome(RecordSource.of(Collections.singletonList(record)));
      Outcome fromText = outcome(RecordSource.fromText(text));
      assertThat(fromMap).as("%s", text).isEqualTo(fromText);
      if (fromMap.message != null) refused++;
    }
    assertThat(refused).as("records refused").isBetween(300, 2900);
  }

  /**
   * A raw control character inside a string of a text record (a tab pasted into a name): Moshi's
   * strict reader takes it, but the line would go to the platform as text that is not JSON. Escaped,
   * or between the tokens, it is fine.
   */
  @Test void aRawControlCharacterInAStringOfATextRecordIsRefusedBeforeSending() throws IOException {
    InvalidResourceException e = catchThrowableOfType(() -> ResourceEncoder.check(CONTACTS,
        RecordSource.fromText("{\"name\":\"first\",\"alias\":\"\"}\n{\"name\":\"a\tb\",\"alias\":\"\"}"),
        Long.MAX_VALUE), InvalidResourceException.class);
    assertThat(e).hasMessage(PREFIX + " has the control character U+0009 unescaped in a string, at"
        + " character 11; JSON needs it escaped (\\u0009)");
    assertThat(e.recordNumber()).isEqualTo(2);
    assertThat(catchThrowableOfType(() -> ResourceEncoder.check(CONTACTS,
        RecordSource.fromText("{\"name\":\"x\",\"alias\":\"\",\"note\":\"\u0000\"}"), Long.MAX_VALUE),
        InvalidResourceException.class)).as("in a field the definition does not name too")
        .hasMessageContaining("U+0000 unescaped in a string, at character 32;");

    assertThat(ResourceEncoder.check(CONTACTS, RecordSource.fromText(
        "{\t\"name\":\"a\\tb \\\"q\\\"\",\"alias\":\"\\u0001\"}"), Long.MAX_VALUE))
        .as("escaped, and a tab between tokens").isPositive();
  }

  /**
   * Escapes Moshi's reader takes but JSON has not: {@code \'}, and an escaped surrogate without its
   * pair (Python's json.dumps escapes every non-ASCII character, so a name cut mid-emoji is this).
   * The line is sent as it is: the platform would get text that is not JSON, or a lone surrogate.
   */
  @Test void escapesThatJsonHasNotAreRefusedBeforeSending() throws IOException {
    String first = "{\"name\":\"first\",\"alias\":\"\"}\n";
    String[][] refusals = {
        {"{\"name\":\"O\\'Brien\",\"alias\":\"\"}",
            " has the escape \\' in a string, at character 11, which JSON does not have; write ' itself"},
        {"{\"name\":\"\\ud83d\",\"alias\":\"\"}", " has a lone surrogate U+D83D (escaped) at character 10"
            + "; UTF-8 can only carry a surrogate pair (often an emoji was cut in half)"},
        {"{\"name\":\"a\\ud83db\",\"alias\":\"\"}", " has a lone surrogate U+D83D (escaped) at character 11"
            + "; UTF-8 can only carry a surrogate pair (often an emoji was cut in half)"},
        {"{\"name\":\"a\",\"alias\":\"\\uDE00\"}", " has a lone surrogate U+DE00 (escaped) at character 22"
            + "; UTF-8 can only carry a surrogate pair (often an emoji was cut in half)"},
        {"{\"name\":\"a\",\"x\":\"\\uD83D\\n\",\"alias\":\"\"}", " has a lone surrogate U+D83D (escaped) at"
            + " character 18; UTF-8 can only carry a surrogate pair (often an emoji was cut in half)"},
    };
    for (String[] refusal : refusals) {
      InvalidResourceException e = catchThrowableOfType(() -> ResourceEncoder.check(CONTACTS,
          RecordSource.fromText(first + refusal[0]), Long.MAX_VALUE), InvalidResourceException.class);
      assertThat(e).as(refusal[0]).hasMessage(PREFIX + refusal[1]);
      assertThat(e.recordNumber()).isEqualTo(2);
    }
    // Hex digits of another script are no escape at all: the JSON reader says so, not a surrogate rule.
    assertThat(catchThrowableOfType(() -> ResourceEncoder.check(CONTACTS, RecordSource.fromText(
        first + "{\"name\":\"\\u\uFF24\uFF18\uFF13\uFF24\",\"alias\":\"\"}"), Long.MAX_VALUE),
        InvalidResourceException.class)).hasMessageStartingWith(PREFIX + " is not a JSON object: ");

    assertThat(ResourceEncoder.check(CONTACTS, RecordSource.fromText(
        "{\"name\":\"\\ud83d\\ude00 \\\" \\\\ \\/ \\b\\f\\n\\r\\t\",\"alias\":\"\\u00e9\"}"), Long.MAX_VALUE))
        .as("a pair, and every escape JSON has").isPositive();
  }

  /** Two records on one line, and a line that is not JSON, are said in words a record's author reads. */
  @Test void twoRecordsOnOneLineAndALineThatIsNotJsonAreSaidPlainly() {
    assertThat(catchThrowableOfType(() -> ResourceEncoder.check(CONTACTS, RecordSource.fromText(
        "{\"name\":\"first\",\"alias\":\"\"}\n{\"name\":\"a\",\"alias\":\"\"} {\"name\":\"b\",\"alias\":\"\"}"),
        Long.MAX_VALUE), InvalidResourceException.class))
        .hasMessage(PREFIX + " has more after its JSON object; put one record per line");
    assertThat(catchThrowableOfType(() -> ResourceEncoder.check(CONTACTS, RecordSource.fromText(
        "{\"name\":\"first\",\"alias\":\"\"}\nname=b"), Long.MAX_VALUE), InvalidResourceException.class))
        .hasMessage(PREFIX + " is not a JSON object: malformed JSON (not a quoted string, number,"
            + " object, array, true, false or null) at path $");
  }

  /** Up to 1 Mi characters a line is a record; past that, a document on one line, refused unread. */
  @Test void aLineLongerThanAnyRecordIsRefusedNamingItsLine() throws IOException {
    String first = "{\"name\":\"first\",\"alias\":\"\"}";
    String longest = "{\"name\":\"" + repeat('a', RecordSource.MAX_RECORD_CHARS - 22)
        + "\",\"alias\":\"\"}";
    assertThat(longest).hasSize(RecordSource.MAX_RECORD_CHARS);
    assertThat(ResourceEncoder.check(CONTACTS, RecordSource.fromText(first + "\r\n\n" + longest),
        Long.MAX_VALUE)).isEqualTo(first.length() + 1 + longest.length());
    assertThat(ResourceEncoder.check(CONTACTS, RecordSource.fromText("\uFEFF" + longest),
        Long.MAX_VALUE)).as("the text's byte-order mark is no character of the line")
        .isEqualTo(longest.length());

    InvalidResourceException e = catchThrowableOfType(() -> ResourceEncoder.check(CONTACTS,
        RecordSource.fromText(first + "\r\n\n" + longest + " "), Long.MAX_VALUE),
        InvalidResourceException.class);
    assertThat(e).hasMessage("line 3 of the resource text is longer than 1048576 characters, which no"
        + " record is: give one JSON object per line (JSON Lines), not a JSON document on one line");
  }

  private static String repeat(char c, int n) {
    char[] chars = new char[n];
    java.util.Arrays.fill(chars, c);
    return new String(chars);
  }

  private static void assertRefused(RecordSource source, String[] refusal) {
    InvalidResourceException e = catchThrowableOfType(
        () -> ResourceEncoder.check(CONTACTS, source, Long.MAX_VALUE), InvalidResourceException.class);
    assertThat(e).as(refusal[0]).isNotNull();
    assertThat(e).hasMessage(PREFIX + refusal[1]);
    assertThat(e.field()).isEqualTo(refusal[2]);
    assertThat(e.recordNumber()).isEqualTo(2);
  }

  private static Outcome outcome(RecordSource source) throws IOException {
    try {
      return new Outcome(ResourceEncoder.check(CONTACTS, source, Long.MAX_VALUE), null, null);
    } catch (InvalidResourceException e) {
      return new Outcome(-1, e.getMessage(), e.field());
    }
  }

  private static final class Outcome {
    final long size;
    final String message;
    final String field;

    Outcome(long size, String message, String field) {
      this.size = size;
      this.message = message;
      this.field = field;
    }

    @Override public boolean equals(Object other) {
      if (!(other instanceof Outcome)) return false;
      Outcome that = (Outcome) other;
      return size == that.size && String.valueOf(message).equals(String.valueOf(that.message))
          && String.valueOf(field).equals(String.valueOf(that.field));
    }

    @Override public int hashCode() {
      return Long.hashCode(size);
    }

    @Override public String toString() {
      return message != null ? message + " (field " + field + ")" : size + " bytes";
    }
  }
}
