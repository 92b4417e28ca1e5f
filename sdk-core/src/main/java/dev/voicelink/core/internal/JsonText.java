package dev.voicelink.core.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Compact JSON text written exactly as Moshi's {@code JsonWriter} writes it (strings escaped by
 * {@link Utf8Line}, as Moshi escapes them; a lone surrogate as {@code ?}, as okio writes it): the
 * small objects the SDK sends, stores and logs. Moshi's writer would cost every shrunk app its classes
 * for these few objects, and its escaping is already the SDK's own in {@link Utf8Line}.
 *
 * <p>As Moshi's writer by default, a name whose value is null is left out with it; {@link
 * #serializingNulls()} writes it. Values written one after another at the top level follow each other
 * without a separator, as Moshi's lenient writer writes them. The caller writes a well-formed
 * sequence: this checks nothing of it. Not thread-safe.
 */
public final class JsonText {
  private final Utf8Line out = new Utf8Line();
  private final boolean serializeNulls;
  /** For each open object or array, innermost last: whether it has a member yet. */
  private boolean[] filled = new boolean[8];
  private int depth;
  /** The name of the next value, written with it (so that a left-out null leaves no name). */
  private @Nullable String name;

  public JsonText() {
    this(false);
  }

  private JsonText(boolean serializeNulls) {
    this.serializeNulls = serializeNulls;
  }

  /** A writer that writes a null value and its name. */
  public static JsonText serializingNulls() {
    return new JsonText(true);
  }

  public JsonText beginObject() {
    return open('{');
  }

  public JsonText endObject() {
    return close('}');
  }

  public JsonText beginArray() {
    return open('[');
  }

  public JsonText endArray() {
    return close(']');
  }

  public JsonText name(String name) {
    this.name = name;
    return this;
  }

  /** A string value; null is {@link #nullValue()}. */
  public JsonText value(@Nullable String value) {
    if (value == null) return nullValue();
    beforeValue();
    out.appendJsonString(value);
    return this;
  }

  public JsonText value(long value) {
    return rawValue(Long.toString(value));
  }

  public JsonText value(boolean value) {
    return rawValue(value ? "true" : "false");
  }

  public JsonText nullValue() {
    if (name != null && !serializeNulls) {
      name = null;
      return this;
    }
    return rawValue("null");
  }

  /** A value written as it is given: a number as a reader gave its text. */
  public JsonText rawValue(String text) {
    beforeValue();
    out.appendUtf8(text);
    return this;
  }

  /** The text written so far. */
  public String text() {
    return new String(out.bytes, 0, out.length, StandardCharsets.UTF_8);
  }

  private JsonText open(char bracket) {
    beforeValue();
    out.appendByte(bracket);
    if (depth == filled.length) filled = Arrays.copyOf(filled, 2 * depth);
    filled[depth++] = false;
    return this;
  }

  private JsonText close(char bracket) {
    depth--;
    out.appendByte(bracket);
    return this;
  }

  private void beforeValue() {
    if (depth > 0) {
      if (filled[depth - 1]) out.appendByte(',');
      filled[depth - 1] = true;
    }
    if (name != null) {
      out.appendJsonString(name);
      out.appendByte(':');
      name = null;
    }
  }
}
