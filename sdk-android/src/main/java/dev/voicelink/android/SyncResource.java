package dev.voicelink.android;

import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.internal.JsonValues;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import okio.BufferedSource;
import okio.Okio;

/**
 * The resource text of a {@code CMD_SYNC}: the Base64 string of its data's {@code data} member, read
 * from the command's own bytes and decoded as it is read, each time the upload reads its records. A
 * resource of many megabytes is never held as a String, as decoded bytes or as a second copy: the
 * command's bytes are the one copy (docs/agent.md, CMD_SYNC).
 *
 * <p>Base64 is read as okio's {@code ByteString.decodeBase64} reads it: the standard and the URL-safe
 * alphabets, spaces, line breaks and tabs skipped, {@code =} padding only at the end; other control
 * characters only at either end, as the established SDK trimmed them. The JSON string's
 * escapes ({@code \/} from writers that escape slashes, {@code \}{@code u002F}) are undone first.
 * Immutable; every {@link #open()} reads from the start.
 */
final class SyncResource {
  static final String MEMBER = "data";
  static final String NOT_BASE64 = "data.data must be Base64 of the resource text";

  private final byte[] command;
  private final long writtenChars;

  private SyncResource(byte[] command, long writtenChars) {
    this.command = command;
    this.writtenChars = writtenChars;
  }

  /**
   * What the map of a parsed CMD_SYNC data holds for a string {@code data} member: the command's
   * resource, having read past it without keeping any of it, its JSON escapes checked as Moshi checks
   * them.
   */
  static JsonValues.LargeString member(final byte[] command) {
    return (written, path) -> new SyncResource(command, countWritten(written, path));
  }

  /** Whether the member holds nothing but spaces: no resource at all. */
  boolean isBlank() {
    return writtenChars == 0;
  }

  /** The resource text's UTF-8 bytes, decoded from the start as they are read. */
  InputStream open() throws IOException {
    JsonReader reader = JsonReader.of(Okio.buffer(Okio.source(new ByteArrayInputStream(command))));
    reader.beginObject();
    while (reader.hasNext()) {
      // A member named twice was refused, unless the first was null: the string is the parsed one.
      if (reader.nextName().equals(MEMBER) && reader.peek() == JsonReader.Token.STRING) {
        return new Decoding(reader.nextSource(), reader.getPath());
      }
      reader.skipValue();
    }
    throw new IllegalStateException("the CMD_SYNC data has lost its data member since it was parsed");
  }

  /** The characters of the written string, its escapes undone, other than spaces and controls. */
  private static long countWritten(BufferedSource written, String path) throws IOException {
    Decoding text = new Decoding(written, path);
    long count = 0;
    for (int c; (c = text.nextChar()) >= 0; ) {
      if (c > ' ') count++;
    }
    return count;
  }

  @Override public String toString() {
    return writtenChars + " Base64 chars";
  }

  /**
   * Undoes the JSON string's escapes and decodes its Base64, three bytes at a time. Other control
   * characters than okio's spaces are taken at either end of the Base64, where the established SDK's
   * {@code String.trim()} dropped them, and refused between its symbols.
   */
  private static final class Decoding extends InputStream {
    private final BufferedSource written;
    private final String path;
    private final byte[] group = new byte[3];
    private int groupAt;
    private int groupLength;
    private int word;
    private int symbols;
    private boolean begun;
    private boolean controlSinceSymbol;
    private boolean padded;
    private boolean ended;

    Decoding(BufferedSource written, String path) throws IOException {
      this.written = written;
      this.path = path;
      if (next("Unterminated string") != '"') throw new IllegalStateException("not a string at " + path);
    }

    @Override public int read() throws IOException {
      if (groupAt == groupLength && !decodeGroup()) return -1;
      return group[groupAt++] & 0xff;
    }

    @Override public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = 0;
      while (n < length && (groupAt < groupLength || decodeGroup())) {
        buffer[offset + n++] = group[groupAt++];
      }
      return n == 0 && length > 0 ? -1 : n;
    }

    /** Decodes the next three bytes, or the last one or two; false at the end. */
    private boolean decodeGroup() throws IOException {
      groupAt = 0;
      groupLength = 0;
      while (!ended) {
        int c = nextChar();
        if (c < 0) {
          ended = true;
          return lastGroup();
        }
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c < ' ') {
          controlSinceSymbol = begun;
          continue;
        }
        if (controlSinceSymbol) throw new IllegalArgumentException(NOT_BASE64);
        begun = true;
        if (c == '=') {
          padded = true;
          continue;
        }
        int bits = bits(c);
        if (bits < 0 || padded) throw new IllegalArgumentException(NOT_BASE64);
        word = word << 6 | bits;
        if (++symbols == 4) {
          symbols = 0;
          group[0] = (byte) (word >> 16);
          group[1] = (byte) (word >> 8);
          group[2] = (byte) word;
          groupLength = 3;
          return true;
        }
      }
      return false;
    }

    private boolean lastGroup() {
      if (symbols == 1) throw new IllegalArgumentException(NOT_BASE64); // 6 bits: no whole byte
      if (symbols == 2) {
        group[0] = (byte) (word >> 4);
        groupLength = 1;
      } else if (symbols == 3) {
        group[0] = (byte) (word >> 10);
        group[1] = (byte) (word >> 2);
        groupLength = 2;
      }
      return groupLength > 0;
    }

    /**
     * The string's next character with its escape undone, or -1 at the closing quote. Escapes are
     * read as Moshi reads them; the parse refuses the wrong ones with Moshi's messages (but for a
     * quote among the four hex digits of a Unicode escape, which ends the string there: "Unterminated escape
     * sequence").
     */
    int nextChar() throws IOException {
      int c = next("Unterminated string");
      if (c == '"') return -1;
      if (c != '\\') return c;
      int escaped = next("Unterminated escape sequence");
      switch (escaped) {
        case 'u':
          char[] hex = new char[4];
          for (int i = 0; i < 4; i++) hex[i] = (char) next("Unterminated escape sequence");
          int value = 0;
          for (char digit : hex) {
            int bits = Character.digit(digit, 16);
            if (bits < 0) throw syntaxError("\\u" + new String(hex));
            value = value << 4 | bits;
          }
          return value;
        case 'b':
          return '\b';
        case 'f':
          return '\f';
        case 'n':
          return '\n';
        case 'r':
          return '\r';
        case 't':
          return '\t';
        case '\n':
        case '\'':
        case '"':
        case '\\':
        case '/':
          return escaped;
        default:
          throw syntaxError("Invalid escape sequence: \\" + (char) escaped);
      }
    }

    private int next(String atTheEnd) throws IOException {
      try {
        return written.readByte() & 0xff;
      } catch (EOFException e) {
        throw syntaxError(atTheEnd);
      }
    }

    private JsonEncodingException syntaxError(String message) {
      return new JsonEncodingException(message + " at path " + path);
    }

    private static int bits(int c) {
      if (c >= 'A' && c <= 'Z') return c - 'A';
      if (c >= 'a' && c <= 'z') return c - 'a' + 26;
      if (c >= '0' && c <= '9') return c - '0' + 52;
      if (c == '+' || c == '-') return 62;
      if (c == '/' || c == '_') return 63;
      return -1;
    }

    @Override public void close() throws IOException {
      written.close();
    }
  }
}
