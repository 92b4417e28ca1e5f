package dev.voicelink.core.internal;

import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One record's JSON text as UTF-8, in a byte array reused from record to record: an upload of a
 * million records costs one array, not a String, a writer and a buffer per record.
 *
 * <p>Writes exactly the bytes the previous path wrote (okio's {@code writeUtf8}, Moshi's {@code
 * JsonWriter}), so the resource text and its Base64 are unchanged: JSON strings are escaped as Moshi
 * escapes them. A lone surrogate, which UTF-8 cannot carry, is written as {@code ?} as okio writes it,
 * and {@link #hasLoneSurrogate()} tells the caller, who refuses the record. {@link JsonText} writes
 * the SDK's other JSON with it, so there is one escaping. Not thread-safe: one per pass.
 */
public final class Utf8Line {
  private static final byte[] HEX = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
  };

  /** Printable ASCII that a JSON string holds as is: no quote, no backslash. */
  private static final boolean[] PLAIN = new boolean[128];

  static {
    for (int c = 0x20; c < 0x80; c++) PLAIN[c] = c != '"' && c != '\\';
  }

  public byte[] bytes = new byte[256];
  public int length;
  private boolean loneSurrogate;
  /** The chars of the string being written: a loop over an array is faster than charAt. */
  private char[] chars = new char[64];

  public void clear() {
    length = 0;
    loneSurrogate = false;
  }

  /** Whether the text written since {@link #clear()} held a surrogate without its pair. */
  public boolean hasLoneSurrogate() {
    return loneSurrogate;
  }

  /** What a refusal of a lone surrogate adds after where it stands. */
  public static final String LONE_SURROGATE_FIX =
      "; UTF-8 can only carry a surrogate pair (often an emoji was cut in half)";

  /**
   * Refuses a value that has a lone surrogate: sent as {@code ?}, it would name another owner or
   * device without a word. {@code field} names it in the message.
   *
   * @throws IllegalArgumentException naming the field and where the surrogate stands
   */
  public static void checkNoLoneSurrogate(String field, String value) {
    String found = loneSurrogateIn(value);
    if (found != null) {
      throw new IllegalArgumentException(field + " has a lone surrogate " + found + LONE_SURROGATE_FIX);
    }
  }

  /** Where {@code text}'s first unpaired surrogate is, e.g. {@code U+D83D at character 3}; or null. */
  public static @Nullable String loneSurrogateIn(String text) {
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

  private void require(long extra) {
    long needed = length + extra;
    if (needed <= bytes.length) return;
    if (needed > Integer.MAX_VALUE - 16) throw new OutOfMemoryError("record too large");
    byte[] larger = new byte[(int) Math.max(needed, Math.min(2L * bytes.length, Integer.MAX_VALUE - 16))];
    System.arraycopy(bytes, 0, larger, 0, length);
    bytes = larger;
  }

  private char[] charsOf(String text, int n) {
    if (chars.length < n) chars = new char[Math.max(n, 2 * chars.length)];
    text.getChars(0, n, chars, 0);
    return chars;
  }

  public void appendByte(int b) {
    require(1);
    bytes[length++] = (byte) b;
  }

  public void append(byte[] source) {
    require(source.length);
    System.arraycopy(source, 0, bytes, length, source.length);
    length += source.length;
  }

  /** Appends {@code text} as okio's {@code writeUtf8} would. */
  public void appendUtf8(String text) {
    int n = text.length();
    require(3L * n);
    char[] cs = charsOf(text, n);
    byte[] b = bytes;
    int p = length;
    for (int i = 0; i < n; i++) {
      char c = cs[i];
      if (c < 0x80) {
        b[p++] = (byte) c;
      } else {
        int next = i + 1 < n ? cs[i + 1] : -1;
        int before = p;
        p = appendNonAscii(b, p, c, next);
        if (p - before == 4) i++; // consumed the low surrogate too
      }
    }
    length = p;
  }

  /**
   * Appends a record as Moshi's {@code JsonWriter} (nulls serialized) writes it: {@code {"k":"v",...}}
   * in the map's iteration order. Returns false, having appended nothing, if a key is null (the caller
   * refuses the record).
   */
  public boolean appendJsonObject(Map<String, String> record) {
    int start = length;
    require(1);
    bytes[length++] = '{';
    boolean first = true;
    for (Map.Entry<String, String> field : record.entrySet()) {
      String key = field.getKey();
      if (key == null) {
        length = start;
        return false;
      }
      String value = field.getValue();
      require(1);
      if (!first) bytes[length++] = ',';
      first = false;
      appendJsonString(key);
      require(1);
      bytes[length++] = ':';
      if (value == null) {
        require(4);
        bytes[length++] = 'n';
        bytes[length++] = 'u';
        bytes[length++] = 'l';
        bytes[length++] = 'l';
      } else {
        appendJsonString(value);
      }
    }
    require(1);
    bytes[length++] = '}';
    return true;
  }

  /** A quoted JSON string, escaped as Moshi's {@code JsonUtf8Writer} escapes it. */
  public void appendJsonString(String text) {
    int n = text.length();
    require(6L * n + 2);
    char[] cs = charsOf(text, n);
    byte[] b = bytes;
    int p = length;
    b[p++] = '"';
    for (int i = 0; i < n; i++) {
      char c = cs[i];
      if (c < 0x80) {
        if (PLAIN[c]) {
          b[p++] = (byte) c;
          continue;
        }
        b[p++] = '\\';
        switch (c) {
          case '"': b[p++] = '"'; break;
          case '\\': b[p++] = '\\'; break;
          case '\t': b[p++] = 't'; break;
          case '\b': b[p++] = 'b'; break;
          case '\n': b[p++] = 'n'; break;
          case '\r': b[p++] = 'r'; break;
          case '\f': b[p++] = 'f'; break;
          default: p = unicodeEscape(b, p, c);
        }
      } else if (c == '\u2028' || c == '\u2029') {
        b[p++] = '\\';
        p = unicodeEscape(b, p, c);
      } else {
        int next = i + 1 < n ? cs[i + 1] : -1;
        int before = p;
        p = appendNonAscii(b, p, c, next);
        if (p - before == 4) i++;
      }
    }
    b[p++] = '"';
    length = p;
  }

  /** {@code u} and four lowercase hex digits (the backslash is already written). */
  private static int unicodeEscape(byte[] b, int p, char c) {
    b[p++] = 'u';
    b[p++] = HEX[(c >>> 12) & 0xf];
    b[p++] = HEX[(c >>> 8) & 0xf];
    b[p++] = HEX[(c >>> 4) & 0xf];
    b[p++] = HEX[c & 0xf];
    return p;
  }

  /**
   * UTF-8 of {@code c} (at least 0x80), pairing it with {@code next} if they form a surrogate pair;
   * a lone surrogate is written as {@code ?}, as okio does, and noted. Returns the new position: 4
   * bytes written means {@code next} was used.
   */
  private int appendNonAscii(byte[] b, int p, char c, int next) {
    if (c < 0x800) {
      b[p++] = (byte) (0xc0 | c >> 6);
      b[p++] = (byte) (0x80 | (c & 0x3f));
    } else if (c < 0xd800 || c > 0xdfff) {
      b[p++] = (byte) (0xe0 | c >> 12);
      b[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
      b[p++] = (byte) (0x80 | (c & 0x3f));
    } else if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      int codePoint = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      b[p++] = (byte) (0xf0 | codePoint >> 18);
      b[p++] = (byte) (0x80 | ((codePoint >> 12) & 0x3f));
      b[p++] = (byte) (0x80 | ((codePoint >> 6) & 0x3f));
      b[p++] = (byte) (0x80 | (codePoint & 0x3f));
    } else {
      loneSurrogate = true;
      b[p++] = '?';
    }
    return p;
  }
}
