package dev.voicelink.testing;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import com.squareup.moshi.Moshi;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
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
   * {@code value} with every whole Double (as the untyped adapter reads any number) replaced by a Long,
   * in place in maps and lists, so that writing it again does not turn {@code 2} into {@code 2.0}.
   */
  @SuppressWarnings("unchecked")
  static @Nullable Object wholeNumbersAsLongs(@Nullable Object value) {
    if (value instanceof Double) {
      double d = (Double) value;
      return d == Math.rint(d) && Math.abs(d) < 9.007199254740992E15 ? (Object) (long) d : value;
    }
    if (value instanceof Map) {
      for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) {
        e.setValue(wholeNumbersAsLongs(e.getValue()));
      }
    } else if (value instanceof List) {
      ListIterator<Object> i = ((List<Object>) value).listIterator();
      while (i.hasNext()) i.set(wholeNumbersAsLongs(i.next()));
    }
    return value;
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
