package dev.voicelink.testing;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import com.squareup.moshi.Moshi;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okio.Buffer;
import org.jspecify.annotations.Nullable;

/**
 * Tiny JSON helpers over Moshi's untyped adapter: objects are Maps, numbers are Doubles when read; a
 * {@link BigDecimal} is written as its digits, so an answer can carry a fraction such as {@code 5.000}.
 */
final class Json {
  private static final JsonAdapter<Object> ADAPTER = new Moshi.Builder()
      .add(BigDecimal.class, new DecimalAdapter()).build().adapter(Object.class);
  private static final JsonAdapter<Object> WRITER = ADAPTER.serializeNulls();

  private Json() {
  }

  /** Parses one complete JSON document; null when the text is not JSON. */
  static @Nullable Object parse(String text) {
    try {
      return ADAPTER.fromJson(text);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Parses a JSON object; null when the text is not one. */
  @SuppressWarnings("unchecked")
  static @Nullable Map<String, Object> parseObject(String text) {
    Object o = parse(text);
    return o instanceof Map ? (Map<String, Object>) o : null;
  }

  /** A JSON number that is a whole number &gt;= 0, as a long; null for anything else. */
  static @Nullable Long wholeNumber(@Nullable Object value) {
    if (!(value instanceof Double)) return null;
    double d = (Double) value;
    return d >= 0 && d == Math.rint(d) && d <= Long.MAX_VALUE ? (long) d : null;
  }

  /**
   * Parses a JSON object keeping every number as written (a {@link BigDecimal} of its literal, which
   * {@link #write} writes back digit for digit: {@code 1763712005.250} stays so); null when the text is
   * not one.
   */
  @SuppressWarnings("unchecked")
  static @Nullable Map<String, Object> parseObjectKeepingNumbers(String text) {
    try (JsonReader reader = JsonReader.of(new Buffer().writeUtf8(text))) {
      Object value = readKeepingNumbers(reader);
      return reader.peek() == JsonReader.Token.END_DOCUMENT && value instanceof Map
          ? (Map<String, Object>) value : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static @Nullable Object readKeepingNumbers(JsonReader reader) throws IOException {
    switch (reader.peek()) {
      case BEGIN_OBJECT: {
        Map<String, Object> object = new LinkedHashMap<>();
        reader.beginObject();
        while (reader.hasNext()) object.put(reader.nextName(), readKeepingNumbers(reader));
        reader.endObject();
        return object;
      }
      case BEGIN_ARRAY: {
        List<Object> array = new ArrayList<>();
        reader.beginArray();
        while (reader.hasNext()) array.add(readKeepingNumbers(reader));
        reader.endArray();
        return array;
      }
      case NUMBER: return new BigDecimal(reader.nextString());
      case STRING: return reader.nextString();
      case BOOLEAN: return reader.nextBoolean();
      case NULL: return reader.nextNull();
      default: throw new IOException("not a JSON value: " + reader.peek());
    }
  }

  static String write(Object value) {
    return WRITER.toJson(value);
  }

  static Map<String, Object> obj(@Nullable Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    return m;
  }

  /**
   * Writes a {@link BigDecimal} as a JSON number in plain digits ({@code 20000000000}, never {@code
   * 2E+10}), with all its decimals; answers only write them.
   */
  private static final class DecimalAdapter extends JsonAdapter<BigDecimal> {
    @Override public @Nullable BigDecimal fromJson(JsonReader reader) {
      throw new UnsupportedOperationException("answers only write decimals");
    }

    @Override public void toJson(JsonWriter writer, @Nullable BigDecimal value) throws IOException {
      writer.value(value == null || value.scale() >= 0 ? value : value.setScale(0));
    }
  }
}
