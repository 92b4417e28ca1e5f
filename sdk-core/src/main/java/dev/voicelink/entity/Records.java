package dev.voicelink.entity;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.internal.JsonValues;
import dev.voicelink.core.internal.Utf8Line;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import okio.Buffer;
import org.jspecify.annotations.Nullable;

/**
 * Reads records, checks each against the definition's {@link RecordRules}, and hands each one's JSON
 * text to a {@link LineSink} (a {@link Base64Encoder}, a JSON array, or a counter), streaming through
 * one reused buffer. Each record is read by a quick path first and, when that is not sure, by a
 * checked path that words the refusal: a map is written and checked in one walk, and else written
 * again and checked field by field; a line of text is scanned for the common shape, and else read by
 * Moshi's reader, so that errors keep Moshi's wording. Whether a field is good is for the rules alone
 * to say, on either path.
 */
final class Records {
  /** Receives each checked record's JSON text as UTF-8, in a buffer that is reused afterwards. */
  interface LineSink {
    void line(byte[] utf8, int length) throws IOException;
  }

  /** Records read between two looks at whether the call that reads them was cancelled. */
  private static final int RECORDS_PER_CANCEL_CHECK = 256;

  private final RecordRules rules;
  private final ResourceName name;
  private final long maxBytes;
  private final @Nullable VoiceLinkCall<?> reader;

  private Records(RecordRules rules, long maxBytes, @Nullable VoiceLinkCall<?> reader) {
    this.rules = rules;
    this.name = rules.name();
    this.maxBytes = maxBytes;
    this.reader = reader;
  }

  /**
   * These records as read by {@code call}: a read stops with {@link CallCancelledException} soon
   * after the call is cancelled, so a cancelled upload does not go on checking a large file.
   */
  Records readBy(VoiceLinkCall<?> call) {
    return new Records(rules, maxBytes, call);
  }

  static Records of(ResourceDefinition definition, long maxBytes) {
    return new Records(RecordRules.of(definition), maxBytes, null);
  }

  /** Records of a resource whose definition is not at hand: each must be a JSON object. */
  static Records anyObject(ResourceName name, long maxBytes) {
    return new Records(RecordRules.anyFields(name), maxBytes, null);
  }

  /**
   * Reads every record, checks it, and passes its JSON text (UTF-8) to {@code sink}. Returns the size
   * in bytes of the resource text (records joined by {@code \n}).
   */
  long forEach(RecordSource source, LineSink sink) throws IOException {
    long textBytes = 0;
    int count = 0;
    boolean[] seen = rules.newSeen();
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
    if (record instanceof String) {
      return new InvalidResourceException(position + " of " + name + " has a lone surrogate "
          + Utf8Line.loneSurrogateIn((String) record) + Utf8Line.LONE_SURROGATE_FIX, null, number);
    }
    @SuppressWarnings("unchecked") // as in forEach
    Map<String, String> map = (Map<String, String>) record;
    int ordinal = 0;
    for (Map.Entry<String, String> field : map.entrySet()) {
      ordinal++;
      String key = field.getKey();
      String found = Utf8Line.loneSurrogateIn(key);
      if (found != null) {
        return new InvalidResourceException(position + " of " + name + ": the name of field "
            + ordinal + " has a lone surrogate " + found + Utf8Line.LONE_SURROGATE_FIX, null, number);
      }
      String value = field.getValue();
      found = value == null ? null : Utf8Line.loneSurrogateIn(value);
      if (found != null) {
        return new InvalidResourceException(position + " of " + name + ": field " + key
            + " has a lone surrogate " + found + Utf8Line.LONE_SURROGATE_FIX, key, number);
      }
    }
    throw new AssertionError("no lone surrogate in " + position);
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
   * record is not certainly good (a null key, or a field that the rules refuse or miss): the caller
   * then writes and checks it the long way, which words the error. The long way must run: a null key
   * is refused before any rule, wherever it stands in the map.
   */
  private boolean quickJson(Map<String, String> record, Utf8Line line, KeyCache cache,
      boolean[] seen) {
    rules.begin(seen);
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
        index = rules.indexOf(key);
        if (position < KeyCache.SIZE) {
          cache.keys[position] = key;
          cache.json[position] = Arrays.copyOfRange(line.bytes, start, line.length);
          cache.fieldIndex[position] = index;
        }
      }
      position++;
      if (index >= 0 && rules.accept(seen, index, value) != null) return false;
      if (value == null) {
        line.append(NULL);
      } else {
        line.appendJsonString(value);
      }
    }
    line.appendByte('}');
    return rules.missing(seen) < 0;
  }

  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  /**
   * Checks a record given as a map, with the result and messages the check of its JSON text gives:
   * fields in the map's order, a null value is JSON {@code null}.
   */
  private void check(Map<String, String> record, RecordSource.Cursor cursor, int number,
      boolean[] seen) {
    rules.begin(seen);
    for (Map.Entry<String, String> field : record.entrySet()) {
      String key = field.getKey();
      int index = rules.indexOf(key);
      if (index < 0) continue;
      String value = field.getValue();
      RecordRules.Rule broken = rules.accept(seen, index, value);
      if (broken != null) {
        throw rules.refusal(broken, key, JsonReader.Token.NULL.toString(), cursor.position(),
            number);
      }
    }
    checkSeen(cursor, number, seen);
  }

  /**
   * Whether {@code line} is certainly a good record: one JSON object whose values are strings without
   * escapes, which the rules take. False means "not sure": {@link #check(String,
   * RecordSource.Cursor, int, boolean[])} then decides, and words any error. The scan knows JSON's
   * syntax only as far as it goes: it must never take what Moshi's strict reader refuses.
   */
  boolean quickCheck(String line, boolean[] seen) {
    rules.begin(seen);
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
        int index = rules.indexOf(line, keyStart, keyEnd - keyStart);
        if (index >= 0 && rules.accept(seen, index, line, valueStart, valueEnd) != null) {
          return false;
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
    return rules.missing(seen) < 0;
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

  /** Whether only whitespace follows the value just read; Moshi's strict reader throws on more. */
  private static boolean endsHere(JsonReader reader) throws IOException {
    try {
      return reader.peek() == JsonReader.Token.END_DOCUMENT;
    } catch (JsonEncodingException e) {
      return false;
    }
  }

  /**
   * What in a string of {@code line} Moshi's reader takes but JSON has not (RFC 8259, section 7), said
   * after the record's position; or null. The line is sent as it is, so the platform would get text
   * that is not JSON, or, for an escaped lone surrogate, a character UTF-8 cannot carry.
   */
  private static @Nullable String notJsonInString(String line) {
    boolean inString = false;
    int pendingHigh = -1; // where an escaped high surrogate waits for its low half
    for (int i = 0, n = line.length(); i < n; i++) {
      char c = line.charAt(i);
      if (!inString) {
        inString = c == '"';
        continue;
      }
      int escaped = -1;
      if (c == '\\' && i + 1 < n) {
        char e = line.charAt(i + 1);
        if (e == 'u') {
          escaped = hex4(line, i + 2);
          if (escaped < 0) return null; // Moshi names a malformed escape itself
        } else if ("\"\\/bfnrt".indexOf(e) < 0) {
          return " has the escape \\" + e + " in a string, at character " + (i + 1) + ", which JSON"
              + " does not have; write " + e + " itself";
        }
      } else if (c == '"') {
        inString = false;
      } else if (c < 0x20) {
        String code = String.format(Locale.ROOT, "%04X", (int) c);
        return " has the control character U+" + code + " unescaped in a string, at character "
            + (i + 1) + "; JSON needs it escaped (\\u" + code + ")";
      }
      if (pendingHigh >= 0 && !Character.isLowSurrogate((char) escaped)) {
        return escapedLoneSurrogate(line, pendingHigh);
      }
      if (pendingHigh < 0 && escaped >= 0 && Character.isLowSurrogate((char) escaped)) {
        return escapedLoneSurrogate(line, i);
      }
      pendingHigh = escaped >= 0 && Character.isHighSurrogate((char) escaped) ? i : -1;
      if (c == '\\') i += escaped >= 0 ? 5 : 1;
    }
    return pendingHigh >= 0 ? escapedLoneSurrogate(line, pendingHigh) : null;
  }

  private static String escapedLoneSurrogate(String line, int at) {
    return " has a lone surrogate U+" + line.substring(at + 2, at + 6).toUpperCase(Locale.ROOT)
        + " (escaped) at character " + (at + 1) + Utf8Line.LONE_SURROGATE_FIX;
  }

  /** The value of the four hex digits at {@code at}, or -1. */
  private static int hex4(String line, int at) {
    if (at + 4 > line.length()) return -1;
    int value = 0;
    for (int i = at; i < at + 4; i++) {
      char c = line.charAt(i);
      int digit = c < 0x80 ? Character.digit(c, 16) : -1; // JSON's hex digits are ASCII
      if (digit < 0) return -1;
      value = value * 16 + digit;
    }
    return value;
  }

  /** The full check of a line of text, with Moshi's reader. */
  void check(String line, RecordSource.Cursor cursor, int number, boolean[] seen)
      throws IOException {
    rules.begin(seen);
    if (line.startsWith("\uFEFF")) {
      // Only the text's own start may carry one (it is stripped); here files were joined together.
      throw new InvalidResourceException(cursor.position() + " of " + name + " starts with a byte-order mark;"
          + " save the records as UTF-8 without BOM", null, number);
    }
    String position = cursor.position();
    String notJson = notJsonInString(line);
    if (notJson != null) throw new InvalidResourceException(position + " of " + name + notJson, null, number);
    JsonReader reader = JsonReader.of(new Buffer().writeUtf8(line));
    try {
      if (reader.peek() != JsonReader.Token.BEGIN_OBJECT) {
        throw new InvalidResourceException(position + " of " + name + " must be a JSON object; was "
            + reader.peek(), null, number);
      }
      reader.beginObject();
      while (reader.hasNext()) {
        String key = reader.nextName();
        int index = rules.indexOf(key);
        if (index < 0) {
          reader.skipValue();
          continue;
        }
        JsonReader.Token found = reader.peek();
        String value = found == JsonReader.Token.STRING ? reader.nextString() : null;
        RecordRules.Rule broken = rules.accept(seen, index, value);
        if (broken != null) throw rules.refusal(broken, key, found.toString(), position, number);
      }
      reader.endObject();
      if (!endsHere(reader)) {
        throw new InvalidResourceException(position + " of " + name
            + " has more after its JSON object; put one record per line", null, number);
      }
    } catch (JsonEncodingException | JsonDataException e) {
      throw new InvalidResourceException(position + " of " + name + " is not a JSON object: "
          + JsonValues.reason(e), null, number);
    } catch (EOFException e) {
      throw new InvalidResourceException(position + " of " + name + " is cut off: its JSON object"
          + " ends early", null, number);
    }
    checkSeen(cursor, number, seen);
  }

  private void checkSeen(RecordSource.Cursor cursor, int number, boolean[] seen) {
    int missing = rules.missing(seen);
    if (missing >= 0) throw rules.lacks(missing, cursor.position(), number);
  }

}
