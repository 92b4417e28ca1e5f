package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import dev.voicelink.core.internal.Utf8Line;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import okhttp3.FormBody;
import okio.Buffer;
import okio.ByteString;
import org.junit.jupiter.api.Test;

/**
 * The byte-level encoders give exactly what okio, Moshi and FormBody give, and bodies their length.
 * The JSON oracle is independent of the SDK's own writing: hand-written vectors, and Moshi's map
 * adapter for the random records.
 */
class EncodingPathsTest {
  private static final ResourceDefinition CONTACTS = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias").dimension(Dimension.USER)
      .build();
  private static final RecordSource.Cursor LINE_1 = new RecordSource.Cursor() {
    @Override public Object next() {
      return null;
    }

    @Override public String position() {
      return "record 1";
    }

    @Override public void close() {
    }
  };
  private static final JsonAdapter<Map<String, String>> MOSHI_MAP = new Moshi.Builder().build()
      .<Map<String, String>>adapter(Types.newParameterizedType(Map.class, String.class, String.class))
      .serializeNulls();
  private final Random random = new Random(42);

  /**
   * Records and their JSON text written by hand from RFC 8259 and Moshi's documented choices:
   * {@code \b \f \n \r \t} and other controls as six-character escapes, U+2028 and U+2029 escaped
   * (so the text is also valid JavaScript), DEL and non-ASCII as UTF-8, a lone surrogate as {@code ?}
   * (what UTF-8 cannot carry), a null value as {@code null}.
   */
  private static final String[][] VECTORS = {
      {"name", "Li Lei", "alias", "", "{\"name\":\"Li Lei\",\"alias\":\"\"}"},
      {"name", "a\"b\\c/d", "alias", "x", "{\"name\":\"a\\\"b\\\\c/d\",\"alias\":\"x\"}"},
      {"name", "\b\f\n\r\t", "alias", "\u0000\u001f", "{\"name\":\"\\b\\f\\n\\r\\t\",\"alias\":\"\\u0000\\u001f\"}"},
      {"name", "\u2028\u2029", "alias", "\u007f", "{\"name\":\"\\u2028\\u2029\",\"alias\":\"\u007f\"}"},
      {"name", "\u5f20\u4e09 \ud83d\ude00", "alias", "\u00e9", "{\"name\":\"\u5f20\u4e09 \ud83d\ude00\",\"alias\":\"\u00e9\"}"},
      {"name", "x\ud800y", "alias", "\udc00", "{\"name\":\"x?y\",\"alias\":\"?\"}"},
      {"na\"me", "v", "alias", null, "{\"na\\\"me\":\"v\",\"alias\":null}"},
  };

  @Test void jsonObjectsAreTheVectorsWrittenByHand() throws IOException {
    Utf8Line line = new Utf8Line();
    for (String[] vector : VECTORS) {
      Map<String, String> record = new LinkedHashMap<>();
      record.put(vector[0], vector[1]);
      record.put(vector[2], vector[3]);
      line.clear();
      assertThat(line.appendJsonObject(record)).isTrue();
      assertThat(ByteString.of(line.bytes, 0, line.length))
          .as("vector %s", vector[4]).isEqualTo(ByteString.encodeUtf8(vector[4]));
      assertThat(moshi(record)).as("the oracle agrees with the vector").isEqualTo(vector[4]);
    }
  }

  @Test void mapRecordsEncodeAsTheVectors() throws IOException {
    Map<String, String> first = new LinkedHashMap<>();
    first.put("name", "\u5f20\u4e09 \ud83d\ude00");
    first.put("alias", "a\"b\\c\n\u2028");
    Map<String, String> second = new LinkedHashMap<>();
    second.put("name", "Li Lei");
    second.put("alias", "\u00e9");
    List<Map<String, String>> records = new ArrayList<>();
    records.add(first);
    records.add(second);
    String expected = "{\"name\":\"\u5f20\u4e09 \ud83d\ude00\",\"alias\":\"a\\\"b\\\\c\\n\\u2028\"}\n"
        + "{\"name\":\"Li Lei\",\"alias\":\"\u00e9\"}";
    assertThat(ResourceEncoder.base64(CONTACTS, RecordSource.of(records)))
        .isEqualTo(ByteString.encodeUtf8(expected).base64());
  }

  @Test void base64MatchesOkioForEveryLengthAndSplit() throws IOException {
    for (int length = 0; length <= 300; length++) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      String base64 = ByteString.of(bytes).base64();
      String form = base64.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D");
      for (boolean escape : new boolean[] {false, true}) {
        Buffer out = new Buffer();
        Base64Encoder encoder = new Base64Encoder(out, escape);
        Base64Encoder counter = new Base64Encoder(null, escape);
        for (int offset = 0; offset < length; ) {
          int chunk = Math.min(length - offset, random.nextInt(7));
          encoder.write(bytes, offset, chunk);
          counter.write(bytes, offset, chunk);
          offset += chunk;
        }
        long written = encoder.finish();
        String expected = escape ? form : base64;
        assertThat(out.readUtf8()).as("length %s escape %s", length, escape).isEqualTo(expected);
        assertThat(written).isEqualTo(expected.length());
        assertThat(counter.finish()).isEqualTo(expected.length());
      }
    }
  }

  @Test void base64OfLargeInputCrossesTheBuffer() throws IOException {
    byte[] bytes = new byte[100_003];
    random.nextBytes(bytes);
    Buffer out = new Buffer();
    Base64Encoder encoder = new Base64Encoder(out, true);
    encoder.write(bytes, 0, bytes.length);
    encoder.finish();
    assertThat(out.readUtf8()).isEqualTo(ByteString.of(bytes).base64()
        .replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"));
  }

  @Test void utf8MatchesOkioIncludingLoneSurrogates() {
    Utf8Line line = new Utf8Line();
    for (int i = 0; i < 2000; i++) {
      String text = randomText(random.nextInt(40));
      line.clear();
      line.appendUtf8(text);
      assertThat(ByteString.of(line.bytes, 0, line.length))
          .isEqualTo(new Buffer().writeUtf8(text).readByteString());
    }
  }

  @Test void jsonObjectMatchesMoshi() throws IOException {
    Utf8Line line = new Utf8Line();
    for (int i = 0; i < 2000; i++) {
      Map<String, String> record = new LinkedHashMap<>();
      for (int f = random.nextInt(5); f > 0; f--) {
        record.put(randomText(random.nextInt(6)), random.nextInt(8) == 0 ? null : randomText(random.nextInt(30)));
      }
      line.clear();
      assertThat(line.appendJsonObject(record)).isTrue();
      assertThat(ByteString.of(line.bytes, 0, line.length).utf8()).isEqualTo(moshi(record));
    }
  }

  @Test void mapRecordsEncodeAsMoshiWritesThem() throws IOException {
    List<Map<String, String>> records = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      Map<String, String> record = new LinkedHashMap<>();
      record.put("name", "n" + unicodeText(1 + random.nextInt(12)));
      if (i % 3 == 0) record.put("extra", random.nextBoolean() ? null : unicodeText(5));
      record.put("alias", unicodeText(random.nextInt(8)));
      if (i > 0) text.append('\n');
      text.append(moshi(record));
      records.add(record);
    }
    assertThat(ResourceEncoder.base64(CONTACTS, RecordSource.of(records)))
        .isEqualTo(new Buffer().writeUtf8(text.toString()).readByteString().base64());
  }

  @Test void quickCheckNeverPassesWhatMoshiRefuses() throws IOException {
    Records records = Records.of(CONTACTS, Long.MAX_VALUE);
    String good = "{\"name\":\"Li Lei\",\"alias\":\"\",\"phone\":\"1\"}";
    String alphabet = "{}[]\":,\\ \t a1nmelis0\u0001\u00e9\u5f20";
    boolean[] seen = new boolean[2];
    int quick = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder line = new StringBuilder(good);
      for (int m = 1 + random.nextInt(3); m > 0; m--) {
        int at = random.nextInt(line.length() + 1);
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        switch (random.nextInt(3)) {
          case 0: line.insert(at, c); break;
          case 1: if (at < line.length()) line.deleteCharAt(at); break;
          default: if (at < line.length()) line.setCharAt(at, c);
        }
      }
      if (records.quickCheck(line.toString(), seen)) {
        quick++;
        // Moshi's reader agrees: the same line passes the full check.
        records.check(line.toString(), LINE_1, 1, new boolean[2]);
      }
    }
    assertThat(quick).as("mutations the scan still accepts").isGreaterThan(100);
    assertThat(records.quickCheck(good, seen)).isTrue();
    assertThat(records.quickCheck(" { \"alias\" : \"x\" ,\"name\":\"y\" } ", seen)).isTrue();
    assertThat(records.quickCheck("{\"name\":\"\",\"alias\":\"\"}", seen)).isFalse();
    assertThat(records.quickCheck("{\"name\":\"a\\u0041\",\"alias\":\"\"}", seen)).isFalse();
    assertThat(records.quickCheck("{\"name\":\"a\",\"alias\":\"\",\"n\":1}", seen)).isFalse();
  }

  @Test void contentLengthIsTheBytesWrittenOnEveryPath() throws IOException {
    for (int count : new int[] {1, 2, 3, 50, 15_000}) { // the last is over the kept-text limit
      List<Map<String, String>> records = new ArrayList<>();
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < count; i++) {
        Map<String, String> record = new LinkedHashMap<>();
        record.put("name", "\u5f20 " + i + unicodeText(random.nextInt(60)));
        record.put("alias", "?>" + i);
        records.add(record);
        if (i > 0) text.append('\n');
        text.append(moshi(record));
      }
      for (RecordSource source : new RecordSource[] {
          RecordSource.of(records), RecordSource.fromText(text.toString())}) {
        for (StreamingBody.Encoding encoding : StreamingBody.Encoding.values()) {
          StreamingBody body = StreamingBody.create(null, ByteString.encodeUtf8("a=b&data="),
              Records.of(CONTACTS, Long.MAX_VALUE), source, ByteString.encodeUtf8("&z"), encoding);
          for (int write = 0; write < 2; write++) { // a retry sends the same bytes
            Buffer out = new Buffer();
            body.writeTo(out);
            assertThat(out.size()).as("%s records, %s", count, encoding).isEqualTo(body.contentLength());
            String data = out.readUtf8();
            String expected;
            if (encoding == StreamingBody.Encoding.JSON_ARRAY) {
              expected = text.toString().replace("}\n{", "},{");
            } else {
              String base64 = ByteString.encodeUtf8(text.toString()).base64();
              expected = encoding == StreamingBody.Encoding.BASE64 ? base64 : formValue(base64);
            }
            assertThat(data).isEqualTo("a=b&data=" + expected + "&z");
          }
        }
      }
    }
  }

  @Test void aNullKeyIsRefusedNamingTheRecord() {
    Map<String, String> record = new LinkedHashMap<>();
    record.put("name", "x");
    record.put(null, "y");
    List<Map<String, String>> records = new ArrayList<>();
    records.add(record);
    assertThatThrownBy(() -> ResourceEncoder.base64(CONTACTS, RecordSource.of(records)))
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 1 of OS123.contacts has a field without a name (a null key); every field"
            + " needs one");
  }

  @Test void aLoneSurrogateIsRefusedNamingTheRecordAndTheField() {
    String cutEmoji = "Li Lei \ud83d"; // the first half of U+1F600
    assertThatThrownBy(() -> ResourceEncoder.base64(CONTACTS, RecordSource.of(Arrays.asList(
        record("Li Lei", ""), record("Han Meimei \ud83d\ude00", cutEmoji)))))
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 2 of OS123.contacts: field alias has a lone surrogate U+D83D at character 8;"
            + " UTF-8 can only carry a surrogate pair (often an emoji was cut in half)")
        .satisfies(e -> {
          assertThat(((InvalidResourceException) e).field()).isEqualTo("alias");
          assertThat(((InvalidResourceException) e).recordNumber()).isEqualTo(2);
        });
    Map<String, String> badKey = new LinkedHashMap<>();
    badKey.put("name", "Li Lei");
    badKey.put("alias", "");
    badKey.put("x\ude00", "y");
    assertThatThrownBy(() -> ResourceEncoder.base64(CONTACTS, RecordSource.of(Collections.singletonList(badKey))))
        .hasMessage("record 1 of OS123.contacts: the name of field 3 has a lone surrogate U+DE00 at"
            + " character 2; UTF-8 can only carry a surrogate pair (often an emoji was cut in half)");
    assertThatThrownBy(() -> ResourceEncoder.base64(CONTACTS,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}\n{\"name\":\"\ude00\ud83d\",\"alias\":\"\"}")))
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 2 of OS123.contacts has a lone surrogate U+DE00 at character 10; UTF-8 can"
            + " only carry a surrogate pair (often an emoji was cut in half)");
  }

  @Test void surrogatePairsPassTheLoneSurrogateCheck() throws IOException {
    String text = "{\"name\":\"\ud83d\ude00\",\"alias\":\"\udbff\udfff\"}";
    assertThat(ResourceEncoder.base64(CONTACTS, RecordSource.fromText(text)))
        .isEqualTo(ByteString.encodeUtf8(text).base64());
    assertThat(ResourceEncoder.base64(CONTACTS, RecordSource.of(Collections.singletonList(
        record("\ud83d\ude00", "\udbff\udfff")))))
        .isEqualTo(ByteString.encodeUtf8(text).base64());
  }

  private static Map<String, String> record(String name, String alias) {
    Map<String, String> record = new LinkedHashMap<>();
    record.put("name", name);
    record.put("alias", alias);
    return record;
  }

  /** What FormBody makes of a Base64 value. */
  private static String formValue(String base64) throws IOException {
    Buffer buffer = new Buffer();
    new FormBody.Builder().add("d", base64).build().writeTo(buffer);
    return buffer.readUtf8().substring(2);
  }

  /**
   * The oracle: Moshi's own serialization of a {@code Map<String, String>} (its map adapter, nulls
   * kept), not a transcription of the SDK's JSON writing. The vectors above pin the same text by hand.
   */
  private static String moshi(Map<String, String> record) {
    return MOSHI_MAP.toJson(record);
  }

  /** ASCII, controls, quotes, backslashes, 2- and 3-byte chars, pairs, lone surrogates, U+2028. */
  private String randomText(int length) {
    return randomText(length, "\"\\\n\r\t\b\f\u0000\u001f\u007f\u00e9\u5f20\u2028\u2029\ud800\udc00");
  }

  /** As {@link #randomText(int)} without lone surrogates: text that an upload accepts. */
  private String unicodeText(int length) {
    return randomText(length, "\"\\\n\r\t\b\f\u0000\u001f\u007f\u00e9\u5f20\u2028\u2029");
  }

  private String randomText(int length, String specials) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int kind = random.nextInt(4);
      if (kind == 0) {
        text.append(specials.charAt(random.nextInt(specials.length())));
      } else if (kind == 1 && random.nextInt(4) == 0) {
        text.appendCodePoint(0x1f600 + random.nextInt(50));
      } else {
        text.append((char) (0x20 + random.nextInt(0x5f)));
      }
    }
    return text.toString();
  }
}
