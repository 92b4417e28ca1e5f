package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.squareup.moshi.JsonWriter;
import java.io.IOException;
import java.util.Random;
import okio.Buffer;
import okio.BufferedSink;
import org.junit.jupiter.api.Test;

/** JsonText writes what Moshi's JsonWriter writes, byte for byte. */
class JsonTextTest {
  private final Random random = new Random(7);

  @Test void everyCharIsWrittenAsMoshiWritesIt() throws IOException {
    for (int c = 0; c <= 0xffff; c++) {
      String text = "a" + (char) c + "b";
      assertThat(new JsonText().value(text).text()).as("U+%04X", c).isEqualTo(moshiString(text));
    }
  }

  @Test void vectorsWrittenByHand() {
    assertThat(new JsonText().value("\"\\/\b\f\n\r\t\u0000\u001f\u007f<>&='\u2028\u2029").text())
        .isEqualTo("\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f<>&='\\u2028\\u2029\"");
    assertThat(new JsonText().value("\u5f20 \ud83d\ude00 x\ud800y \udc00").text())
        .isEqualTo("\"\u5f20 \ud83d\ude00 x?y ?\"");
    assertThat(new JsonText().beginObject().name("a").value(1).name("b").nullValue()
        .name("c").beginArray().value(true).value((String) null).beginObject().endObject().endArray()
        .name("d").value((String) null).name("e").beginObject().endObject().endObject().text())
        .isEqualTo("{\"a\":1,\"c\":[true,null,{}],\"e\":{}}");
    assertThat(JsonText.serializingNulls().beginObject().name("a").nullValue().name("b")
        .value((String) null).name("n").rawValue("-1.5e3").endObject().text())
        .isEqualTo("{\"a\":null,\"b\":null,\"n\":-1.5e3}");
  }

  @Test void randomDocumentsMatchMoshi() throws IOException {
    for (int i = 0; i < 3000; i++) {
      boolean nulls = random.nextBoolean();
      JsonText ours = nulls ? JsonText.serializingNulls() : new JsonText();
      Buffer buffer = new Buffer();
      JsonWriter moshi = JsonWriter.of(buffer);
      moshi.setSerializeNulls(nulls);
      moshi.setLenient(true); // values one after another at the top level, as Scrub writes them
      for (int top = 1 + random.nextInt(2); top > 0; top--) writeValue(ours, moshi, 0);
      moshi.flush();
      assertThat(ours.text()).isEqualTo(buffer.readUtf8());
    }
  }

  /** The same random value to both writers. */
  private void writeValue(JsonText ours, JsonWriter moshi, int depth) throws IOException {
    switch (random.nextInt(depth < 4 ? 8 : 5)) {
      case 0: {
        String text = random.nextInt(4) == 0 ? null : randomText();
        ours.value(text);
        moshi.value(text);
        break;
      }
      case 1: {
        long number = random.nextLong() >> random.nextInt(64);
        ours.value(number);
        moshi.value(number);
        break;
      }
      case 2: {
        boolean flag = random.nextBoolean();
        ours.value(flag);
        moshi.value(flag);
        break;
      }
      case 3:
        ours.nullValue();
        moshi.nullValue();
        break;
      case 4: {
        String number = Double.toString(random.nextGaussian() * 1e6);
        ours.rawValue(number);
        try (BufferedSink sink = moshi.valueSink()) {
          sink.writeUtf8(number);
        }
        break;
      }
      case 5:
      case 6: {
        ours.beginObject();
        moshi.beginObject();
        for (int n = random.nextInt(4); n > 0; n--) {
          String name = randomText();
          ours.name(name);
          moshi.name(name);
          writeValue(ours, moshi, depth + 1);
        }
        ours.endObject();
        moshi.endObject();
        break;
      }
      default: {
        ours.beginArray();
        moshi.beginArray();
        for (int n = random.nextInt(4); n > 0; n--) writeValue(ours, moshi, depth + 1);
        ours.endArray();
        moshi.endArray();
      }
    }
  }

  /** Text from every range that escaping or UTF-8 treats apart, lone surrogates included. */
  private String randomText() {
    StringBuilder text = new StringBuilder();
    for (int n = random.nextInt(12); n > 0; n--) {
      switch (random.nextInt(6)) {
        case 0: text.append((char) random.nextInt(0x80)); break;
        case 1: text.append((char) (0x80 + random.nextInt(0x780))); break;
        case 2: text.append(random.nextBoolean() ? '\u2028' : '\u2029'); break;
        case 3: text.append((char) (0xd800 + random.nextInt(0x800))); break;
        case 4: text.appendCodePoint(0x10000 + random.nextInt(0x100000)); break;
        default: text.append((char) random.nextInt(0x10000));
      }
    }
    return text.toString();
  }

  private static String moshiString(String text) throws IOException {
    Buffer buffer = new Buffer();
    JsonWriter writer = JsonWriter.of(buffer);
    writer.value(text);
    writer.flush();
    return buffer.readUtf8();
  }
}
