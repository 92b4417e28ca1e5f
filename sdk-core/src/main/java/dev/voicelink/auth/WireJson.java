package dev.voicelink.auth;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.internal.JsonValues;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;

/** Reads the flat JSON objects of the authorization service without reflection. */
final class WireJson {
  private final Map<?, ?> fields;

  private WireJson(Map<?, ?> fields) {
    this.fields = fields;
  }

  /** The object in {@code body}, or null if the body is empty, not JSON, or not an object. */
  static @Nullable WireJson parse(@Nullable String body) {
    if (body == null || body.trim().isEmpty()) return null;
    try {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(body));
      Object value = JsonValues.read(reader);
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) return null;
      return value instanceof Map ? new WireJson((Map<?, ?>) value) : null;
    } catch (JsonDataException | IOException e) {
      return null;
    }
  }

  /**
   * The JSON object of an HTTP answer's {@code body}, read without buffering more than {@code
   * maxBytes}; null if there is no body, it is longer, or it is not a JSON object.
   */
  static @Nullable Map<?, ?> object(@Nullable ResponseBody body, long maxBytes) throws IOException {
    if (body == null) return null;
    BufferedSource source = body.source();
    if (source.request(maxBytes + 1)) return null;
    try {
      Object value = JsonValues.read(JsonReader.of(source));
      return value instanceof Map ? (Map<?, ?>) value : null;
    } catch (JsonDataException | JsonEncodingException e) {
      return null;
    }
  }

  boolean has(String name) {
    return fields.get(name) != null;
  }

  /** The string field {@code name}, or null if absent or not a string. */
  @Nullable String string(String name) {
    Object value = fields.get(name);
    return value instanceof String ? (String) value : null;
  }

  /**
   * The whole-number field {@code name} (a JSON number or a numeric string), {@code absent} if the
   * field is missing, and {@link Long#MIN_VALUE} if it is present but not a whole number.
   */
  long number(String name, long absent) {
    Object value = fields.get(name);
    if (value == null) return absent;
    if (value instanceof Number) {
      double d = ((Number) value).doubleValue();
      if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) > 9.0e15) return Long.MIN_VALUE;
      return (long) d;
    }
    if (value instanceof String) {
      try {
        return Long.parseLong(((String) value).trim());
      } catch (NumberFormatException e) {
        return Long.MIN_VALUE;
      }
    }
    return Long.MIN_VALUE;
  }

  /** Whether the field {@code name} is a JSON string (a number sent as text, say). */
  boolean isText(String name) {
    return fields.get(name) instanceof String;
  }

  /**
   * The number field {@code name} (a JSON number or a numeric string) as a double, whole or not;
   * NaN if the field is missing or not a finite number.
   */
  double decimal(String name) {
    Object value = fields.get(name);
    if (value instanceof Number) {
      double d = ((Number) value).doubleValue();
      return Double.isInfinite(d) ? Double.NaN : d;
    }
    if (value instanceof String) {
      try {
        double d = Double.parseDouble(((String) value).trim());
        return Double.isInfinite(d) ? Double.NaN : d;
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }
}
