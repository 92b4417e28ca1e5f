package dev.voicelink.entity;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.VoiceLinkCall;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import okio.Buffer;
import org.jspecify.annotations.Nullable;

/**
 * Reads records, checks each against the definition's fields, and hands each one's JSON text to a
 * {@link LineSink} (a {@link Base64Encoder}, a JSON array, or a counter), streaming through one reused
 * buffer. Records given as maps are checked as maps; lines of text are checked by a scan of the common
 * shape first, and by Moshi's reader when the scan is not sure, so errors keep Moshi's wording.
 */
final class Records {
  /** Receives each checked record's JSON text as UTF-8, in a buffer that is reused afterwards. */
  interface LineSink {
    void line(byte[] utf8, int length) throws IOException;
  }

  /** Records read between two looks at whether the call that reads them was cancelled. */
  private static final int RECORDS_PER_CANCEL_CHECK = 256;

  private final ResourceName name;
  private final List<String> fields;
  private final boolean hasMainField;
  private final long maxBytes;
  private final @Nullable VoiceLinkCall<?> reader;

  /**
   * @param fields the fields every record needs; the first is the main field (non-empty) when
   *     {@code hasMainField}
   */
  Records(ResourceName name, List<String> fields, boolean hasMainField, long maxBytes) {
    this(name, fields, hasMainField, maxBytes, null);
  }

  private Records(ResourceName name, List<String> fields, boolean hasMainField, long maxBytes,
      @Nullable VoiceLinkCall<?> reader) {
    this.name = name;
    this.fields = fields;
    this.hasMainField = hasMainField;
    this.maxBytes = maxBytes;
    this.reader = reader;
  }

  /**
   * These records as read by {@code call}: a read stops with {@link CallCancelledException} soon
   * after the call is cancelled, so a cancelled upload does not go on checking a large file.
   */
  Records readBy(VoiceLinkCall<?> call) {
    return new Records(name, fields, hasMainField, maxBytes, call);
  }

  static Records of(ResourceDefinition definition, long maxBytes) {
    return new Records(definition.name(), definition.fields(), true, maxBytes);
  }

  /** Records of a resource whose definition is not at hand: each must be a JSON object. */
  static Records anyObject(ResourceName name, long maxBytes) {
    return new Records(name, Collections.<String>emptyList(), false, maxBytes);
  }

  /**
   * Reads every record, checks it, and passes its JSON text (UTF-8) to {@code sink}. Returns the size
   * in bytes of the resource text (records joined by {@code \n}).
   */
  long forEach(RecordSource source, LineSink sink) throws IOException {
    long textBytes = 0;
    int count = 0;
    boolean[] seen = new boolean[fields.size()];
    Utf8Line line = new Utf8Line();
    KeyCache keys = new KeyCache();
    try (RecordSource.Cursor cursor = source.open()) {
      for (Object record; (record = cursor.next()) != null; ) {
        if (reader != null && count % RECORDS_PER_CANCEL_CHECK == 0 && reader.isCancelled()) {
          throw new CallCancelledException();
        }
        count++;
        line.clear();
        if (record instanceof String) {
          String text = (String) record;
          if (!quickCheck(text, seen)) check(text, cursor, count, seen);
          line.appendUtf8(text);
        } else {
          @SuppressWarnings("unchecked") // RecordSource.of takes only maps of strings
          Map<String, String> map = (Map<String, String>) record;
          if (!quickJson(map, line, keys, seen)) {
            line.clear();
            if (!line.appendJsonObject(map)) {
              // Only a null key has no JSON text.
              throw new InvalidResourceException(cursor.position() + " of " + name
                  + " has a field without a name (a null key); every field needs one", null, count);
            }
            check(map, cursor, count, seen);
          }
        }
        if (line.hasLoneSurrogate()) throw loneSurrogate(record, cursor.position(), count);
        textBytes += (count > 1 ? 1 : 0) + line.length;
        if (textBytes > maxBytes) {
          throw new InvalidResourceException("the resource text of " + name + " exceeds the maximum of "
              + maxBytes + " bytes at " + cursor.position()
              + "; split the resource or raise maxResourceBytes", null, count);
        }
        sink.line(line.bytes, line.length);
      }
    }
    if (count == 0) {
      throw new InvalidResourceException("the resource " + name + " has no records", null, 0);
    }
    return textBytes;
  }

  /**
   * The refusal of a record with a surrogate char that has no pair (often an emoji cut in half): UTF-8
   * cannot carry it, and sending {@code ?} in its place would change the entity without a word.
   */
  private InvalidResourceException loneSurrogate(Object record, String position, int number) {
    String fix = "; UTF-8 can only carry a surrogate pair (often an emoji was cut in half)";
    if (record instanceof String) {
      return new InvalidResourceException(position + " of " + name + " has a lone surrogate "
          + loneSurrogateIn((String) record) + fix, null, number);
    }
    @SuppressWarnings("unchecked") // as in forEach
    Map<String, String> map = (Map<String, String>) record;
    int ordinal = 0;
    for (Map.Entry<String, String> field : map.entrySet()) {
      ordinal++;
      String key = field.getKey();
      String found = loneSurrogateIn(key);
      if (found != null) {
        return new InvalidResourceException(position + " of " + name + ": the name of field "
            + ordinal + " has a lone surrogate " + found + fix, null, number);
      }
      String value = field.getValue();
      found = value == null ? null : loneSurrogateIn(value);
      if (found != null) {
        return new InvalidResourceException(position + " of " + name + ": field " + key
            + " has a lone surrogate " + found + fix, key, number);
      }
    }
    throw new AssertionError("no lone surrogate in " + position);
  }

  /** Where {@code text}'s first unpaired surrogate is, e.g. {@code U+D83D at character 3}, or null. */
  private static @Nullable String loneSurrogateIn(String text) {
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      if (!Character.isSurrogate(c)) continue;
      if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
        continue;
      }
      return String.format(Locale.ROOT, "U+%04X at character %d", (int) c, i + 1);
    }
    return null;
  }

  /**
   * The JSON text of keys seen at each position of a record, by identity: records built in a loop
   * share their key strings, so each key is escaped and looked up among the fields once per upload.
   */
  private static final class KeyCache {
    static final int SIZE = 16;
    final String[] keys = new String[SIZE];
    /** {@code "key":} as UTF-8. */
    final byte[][] json = new byte[SIZE][];
    final int[] fieldIndex = new int[SIZE];
  }

  /**
   * Writes a good record's JSON text and checks it in one walk over the map. Returns false when the
   * record is not certainly good (a null key or value of a field, an empty main field, a field
   * missing): the caller then writes and checks it the long way, which words the error.
   */
  private boolean quickJson(Map<String, String> record, Utf8Line line, KeyCache cache,
      boolean[] seen) {
    Arrays.fill(seen, false);
    line.appendByte('{');
    int position = 0;
    for (Map.Entry<String, String> field : record.entrySet()) {
      String key = field.getKey();
      String value = field.getValue();
      if (key == null) return false;
      if (position > 0) line.appendByte(',');
      int index;
      if (position < KeyCache.SIZE && cache.keys[position] == key) {
        line.append(cache.json[position]);
        index = cache.fieldIndex[position];
      } else {
        int start = line.length;
        line.appendJsonString(key);
        line.appendByte(':');
        index = fields.indexOf(key);
        if (position < KeyCache.SIZE) {
          cache.keys[position] = key;
          cache.json[position] = Arrays.copyOfRange(line.bytes, start, line.length);
          cache.fieldIndex[position] = index;
        }
      }
      position++;
      if (value == null) {
        if (index >= 0) return false;
        line.append(NULL);
        continue;
      }
      if (index >= 0) {
        if (index == 0 && hasMainField && isBlank(value, 0, value.length())) return false;
        seen[index] = true;
      }
      line.appendJsonString(value);
    }
    line.appendByte('}');
    for (boolean found : seen) {
      if (!found) return false;
    }
    return true;
  }

  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  /**
   * Checks a record given as a map, with the result and messages the check of its JSON text gives:
   * fields in the map's order, a null value is JSON {@code null}.
   */
  private void check(Map<String, String> record, RecordSource.Cursor cursor, int number,
      boolean[] seen) throws IOException {
    Arrays.fill(seen, false);
    for (Map.Entry<String, String> field : record.entrySet()) {
      String key = field.getKey();
      int index = fields.indexOf(key);
      if (index < 0) continue;
      String value = field.getValue();
      if (value == null) {
        throw new InvalidResourceException(cursor.position() + " of " + name + ": field " + key
            + " must be a string; was " + JsonReader.Token.NULL, key, number);
      }
      if (index == 0 && hasMainField) checkMainField(key, value, cursor.position(), number);
      seen[index] = true;
    }
    checkSeen(cursor, number, seen);
  }

  /**
   * Whether {@code line} is certainly a good record: one JSON object whose values are strings without
   * escapes, every field present, the main field non-empty. False means "not sure": {@link
   * #check(String, RecordSource.Cursor, int, boolean[])} then decides, and words any error.
   */
  boolean quickCheck(String line, boolean[] seen) {
    Arrays.fill(seen, false);
    int n = line.length();
    int i = skipWhitespace(line, 0, n);
    if (i == n || line.charAt(i) != '{') return false;
    i = skipWhitespace(line, i + 1, n);
    if (i < n && line.charAt(i) == '}') {
      i++;
    } else {
      while (true) {
        if (i == n || line.charAt(i) != '"') return false;
        int keyStart = i + 1;
        int keyEnd = endOfPlainString(line, keyStart, n);
        if (keyEnd < 0) return false;
        i = skipWhitespace(line, keyEnd + 1, n);
        if (i == n || line.charAt(i) != ':') return false;
        i = skipWhitespace(line, i + 1, n);
        if (i == n || line.charAt(i) != '"') return false;
        int valueStart = i + 1;
        int valueEnd = endOfPlainString(line, valueStart, n);
        if (valueEnd < 0) return false;
        int index = fieldIndex(line, keyStart, keyEnd - keyStart);
        if (index >= 0) {
          if (index == 0 && hasMainField && isBlank(line, valueStart, valueEnd)) return false;
          seen[index] = true;
        }
        i = skipWhitespace(line, valueEnd + 1, n);
        if (i == n) return false;
        char c = line.charAt(i++);
        if (c == '}') break;
        if (c != ',') return false;
        i = skipWhitespace(line, i, n);
      }
    }
    if (skipWhitespace(line, i, n) != n) return false;
    for (boolean field : seen) {
      if (!field) return false;
    }
    return true;
  }

  /**
   * The main field names the entity: an empty one, or one of only spaces and control characters
   * (which the platform takes as empty, code 32117), is refused before anything is sent.
   */
  private void checkMainField(String key, String value, String position, int number)
      throws InvalidResourceException {
    if (value.isEmpty()) {
      throw new InvalidResourceException(position + " of " + name + ": main field " + key
          + " must not be empty", key, number);
    }
    if (isBlank(value, 0, value.length())) {
      throw new InvalidResourceException(position + " of " + name + ": main field " + key
          + " must not be blank (it has only spaces or control characters)", key, number);
    }
  }

  /** Whether {@code text[start, end)} has no character above a space, as {@code trim()} counts. */
  private static boolean isBlank(CharSequence text, int start, int end) {
    for (int i = start; i < end; i++) {
      if (text.charAt(i) > ' ') return false;
    }
    return true;
  }

  /** JSON whitespace, as Moshi's strict reader takes it. */
  private static int skipWhitespace(String text, int i, int n) {
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    }
    return i;
  }

  /** The index of the closing quote of a string without escapes or control characters, else -1. */
  private static int endOfPlainString(String text, int i, int n) {
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c == '"') return i;
      if (c == '\\' || c < 0x20) return -1;
    }
    return -1;
  }

  private int fieldIndex(String text, int start, int length) {
    for (int i = 0, size = fields.size(); i < size; i++) {
      String field = fields.get(i);
      if (field.length() == length && text.regionMatches(start, field, 0, length)) return i;
    }
    return -1;
  }

  /** The full check of a line of text, with Moshi's reader. */
  void check(String line, RecordSource.Cursor cursor, int number, boolean[] seen)
      throws IOException {
    Arrays.fill(seen, false);
    if (line.startsWith("\uFEFF")) {
      // Only the text's own start may carry one (it is stripped); here files were joined together.
      throw new InvalidResourceException(cursor.position() + " of " + name + " starts with a byte-order mark;"
          + " save the records as UTF-8 without BOM", null, number);
    }
    String position = cursor.position();
    JsonReader reader = JsonReader.of(new Buffer().writeUtf8(line));
    try {
      if (reader.peek() != JsonReader.Token.BEGIN_OBJECT) {
        throw new InvalidResourceException(position + " of " + name + " must be a JSON object; was "
            + reader.peek(), null, number);
      }
      reader.beginObject();
      while (reader.hasNext()) {
        String key = reader.nextName();
        int index = fields.indexOf(key);
        if (index < 0) {
          reader.skipValue();
          continue;
        }
        if (reader.peek() != JsonReader.Token.STRING) {
          throw new InvalidResourceException(position + " of " + name + ": field " + key
              + " must be a string; was " + reader.peek(), key, number);
        }
        String value = reader.nextString();
        if (index == 0 && hasMainField) checkMainField(key, value, position, number);
        seen[index] = true;
      }
      reader.endObject();
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) {
        throw new InvalidResourceException(position + " of " + name
            + " has more after its JSON object; put one record per line", null, number);
      }
    } catch (JsonEncodingException | JsonDataException e) {
      throw new InvalidResourceException(position + " of " + name + " is not a JSON object: "
          + e.getMessage(), null, number);
    } catch (EOFException e) {
      throw new InvalidResourceException(position + " of " + name + " is cut off: its JSON object"
          + " ends early", null, number);
    }
    checkSeen(cursor, number, seen);
  }

  private void checkSeen(RecordSource.Cursor cursor, int number, boolean[] seen) {
    for (int i = 0; i < seen.length; i++) {
      if (!seen[i]) {
        throw new InvalidResourceException(cursor.position() + " of " + name + " lacks the field "
            + fields.get(i) + "; every record needs " + describeFields(), fields.get(i), number);
      }
    }
  }

  private String describeFields() {
    StringBuilder result = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) result.append(i == fields.size() - 1 ? " and " : ", ");
      result.append(fields.get(i));
      if (i == 0 && hasMainField) result.append(" (non-empty)");
    }
    return result.toString();
  }

}
