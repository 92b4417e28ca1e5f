package dev.voicelink.core.internal;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okio.BufferedSource;
import org.jspecify.annotations.Nullable;

/**
 * Reads a JSON value into plain Java objects, as Moshi's {@link JsonReader#readJsonValue()} does,
 * with the same results and the same errors, except that objects are {@link LinkedHashMap}s and a
 * member named twice is said without its values (Moshi quotes both, and a value may be a secret).
 * {@code readJsonValue} builds Moshi's own tree map, whose classes an app shrunk by R8 would carry
 * for this one call (about 6 KB of its dex); every map the SDK keeps from such a value is a
 * {@code LinkedHashMap} already.
 */
public final class JsonValues {
  private JsonValues() {
  }

  /**
   * The reader's error message for people who passed JSON text: Moshi advises its own lenient mode,
   * which means nothing to someone who wrote a record or a command's params; this says what is wrong
   * and where instead.
   */
  public static String reason(Exception e) {
    return String.valueOf(e.getMessage()).replace(
        "Use JsonReader.setLenient(true) to accept malformed JSON",
        "malformed JSON (not a quoted string, number, object, array, true, false or null)");
  }

  /**
   * The next value of {@code reader}: a {@code Map<String, Object>} (in the order of the text), a
   * {@code List<Object>}, a String, a Double, a Boolean or null.
   *
   * @throws JsonDataException if an object names a member twice: {@code member 'name' appears twice
   *     in the object at path $.x}, no value quoted
   */
  public static @Nullable Object read(JsonReader reader) throws IOException {
    return read(reader, null, null);
  }

  /**
   * Reads a string member as it is written, without making a String of it: a command's resource of
   * many megabytes in Base64.
   */
  public interface LargeString {
    /**
     * Reads {@code written}, the member's value as the JSON text has it (its quotes and escapes, not
     * checked by the reader), to its end, and returns what the object's map holds for the member.
     * {@code path} is the member's JSON path, for errors.
     */
    Object read(BufferedSource written, String path) throws IOException;
  }

  /**
   * As {@link #read(JsonReader)}, except that a string value of the member {@code largeName} of the
   * top-level object goes to {@code large}, which reads it as written (any other value of that member
   * is read as usual).
   */
  public static @Nullable Object read(JsonReader reader, @Nullable String largeName,
      @Nullable LargeString large) throws IOException {
    switch (reader.peek()) {
      case BEGIN_ARRAY: {
        List<@Nullable Object> list = new ArrayList<>();
        reader.beginArray();
        while (reader.hasNext()) list.add(read(reader, null, null));
        reader.endArray();
        return list;
      }
      case BEGIN_OBJECT: {
        Map<String, @Nullable Object> map = new LinkedHashMap<>();
        reader.beginObject();
        while (reader.hasNext()) {
          String name = reader.nextName();
          Object value = large != null && name.equals(largeName)
              && reader.peek() == JsonReader.Token.STRING
              ? large.read(reader.nextSource(), reader.getPath()) : read(reader, null, null);
          Object replaced = map.put(name, value);
          if (replaced != null) {
            throw new JsonDataException("member '" + name + "' appears twice in the object at path "
                + reader.getPath());
          }
        }
        reader.endObject();
        return map;
      }
      case STRING:
        return reader.nextString();
      case NUMBER:
        return reader.nextDouble();
      case BOOLEAN:
        return reader.nextBoolean();
      case NULL:
        return reader.nextNull();
      default:
        throw new IllegalStateException("Expected a value but was " + reader.peek() + " at path "
            + reader.getPath());
    }
  }
}
