package dev.voicelink.entity;

import dev.voicelink.entity.internal.RecordStreams;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.File;
import java.io.FileInputStream;
import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The records of a resource, read as many times as an upload needs (once to check them, once to send
 * them, once more if a request is retried), never all held in memory by the SDK.
 *
 * <ul>
 *   <li>{@link #fromFile(File)}: a UTF-8 file of JSON records, one per line.
 *   <li>{@link #fromText(String)}: the same as text.
 *   <li>{@link #of(Iterable)}: records as maps from field name to value; the iterable is iterated once
 *       per read.
 * </ul>
 *
 * <p>A byte-order mark at the start of a file or text is dropped (the platform would not use a resource
 * that starts with one). Blank lines are skipped; a line break may be {@code \n} or {@code \r\n}.
 * Invalid UTF-8 is refused with an {@link InvalidResourceException}, and so is a line of more than
 * 1,048,576 characters (1 Mi), as it is read: a record is one JSON object, and a longer line
 * is a whole document written on one line, which is not read into memory.
 *
 * <p>Immutable; safe to share if the underlying file or iterable is not changed while it is read.
 */
public abstract class RecordSource {
  /** The longest line a file or text may hold: far more than any record of names and aliases. */
  static final int MAX_RECORD_CHARS = 1024 * 1024;

  RecordSource() {
  }

  static {
    RecordStreams.SEAM.install(new RecordStreams() {
      @Override public RecordSource lines(String description, String notUtf8, Opener opener) {
        return new StreamLines(description, notUtf8, opener);
      }
    });
  }

  /** Records from a UTF-8 file of JSON lines, which may start with a byte-order mark. */
  public static RecordSource fromFile(final File file) {
    if (file == null) throw new IllegalArgumentException("file must not be null");
    String description = "file " + file.getName();
    return new StreamLines(description, notUtf8(description), () -> new FileInputStream(file));
  }

  /** Records from text: JSON objects separated by line breaks; a leading byte-order mark is dropped. */
  public static RecordSource fromText(final String text) {
    if (text == null) throw new IllegalArgumentException("text must not be null");
    return new LineSource("text", notUtf8("text")) {
      @Override Reader openReader() {
        return new StringReader(text);
      }

      @Override boolean startsWithByteOrderMark() {
        return !text.isEmpty() && text.charAt(0) == '\uFEFF';
      }
    };
  }

  /**
   * Records as maps from field name to value, written as JSON objects with the map's iteration order.
   * {@code records.iterator()} is called once per read.
   */
  public static RecordSource of(final Iterable<? extends Map<String, String>> records) {
    if (records == null) throw new IllegalArgumentException("records must not be null");
    return new RecordSource() {
      @Override Cursor open() {
        final Iterator<? extends Map<String, String>> iterator = records.iterator();
        return new Cursor() {
          int number;

          @Override public @Nullable Object next() throws IOException {
            if (!iterator.hasNext()) return null;
            Map<String, String> record = iterator.next();
            number++;
            if (record == null) {
              throw new InvalidResourceException("record " + number + " is null", null, number);
            }
            return record;
          }

          @Override public String position() {
            return "record " + number;
          }

          @Override public void close() {
          }
        };
      }

      @Override boolean startsWithByteOrderMark() {
        return false;
      }

      @Override public String toString() {
        return "RecordSource.of(" + records.getClass().getSimpleName() + ")";
      }
    };
  }

  /** Starts a fresh read; the caller closes the cursor. */
  abstract Cursor open() throws IOException;

  /** Whether the raw source starts with a byte-order mark (which the SDK strips). */
  abstract boolean startsWithByteOrderMark() throws IOException;

  /**
   * One read over the records, in order, then null: each is a line of JSON text (a String) or a
   * non-null {@code Map<String, String>} from {@link #of}, which {@link Records} writes as JSON itself.
   */
  interface Cursor extends Closeable {
    @Nullable Object next() throws IOException;

    /** Where the last record returned came from, for messages: "line 3" or "record 3". */
    String position();
  }

  static Charset utf8() {
    return Charset.forName("UTF-8");
  }

  static java.nio.charset.CharsetDecoder strictUtf8() {
    return utf8().newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  private static String notUtf8(String description) {
    return "the resource " + description + " is not valid UTF-8; save it as UTF-8";
  }

  private abstract static class LineSource extends RecordSource {
    private final String description;
    private final String notUtf8;

    LineSource(String description, String notUtf8) {
      this.description = description;
      this.notUtf8 = notUtf8;
    }

    abstract Reader openReader() throws IOException;

    @Override Cursor open() throws IOException {
      final BufferedReader reader =
          new BufferedReader(new BoundedLines(openReader(), description), 16 * 1024);
      return new Cursor() {
        int line;
        int records;

        @Override public @Nullable Object next() throws IOException {
          while (true) {
            String text;
            try {
              if (opensArray()) {
                // No record, whatever follows: its first character is all the check needs, and a
                // contacts export written as one JSON array is one line of any size.
                line++;
                records++;
                return "[";
              }
              text = reader.readLine();
            } catch (CharacterCodingException e) {
              // The reader decodes ahead of the lines it returns, so no line number is reliable here.
              throw new InvalidResourceException(notUtf8, null, 0);
            }
            if (text == null) return null;
            line++;
            if (line == 1 && !text.isEmpty() && text.charAt(0) == '\uFEFF') text = text.substring(1);
            if (isBlank(text)) continue;
            records++;
            return text;
          }
        }

        /** Whether the next line starts a JSON array (after the text's byte-order mark). */
        private boolean opensArray() throws IOException {
          reader.mark(2);
          int first = reader.read();
          if (first == '\uFEFF' && line == 0) first = reader.read();
          reader.reset();
          return first == '[';
        }

        @Override public String position() {
          return records == line ? "record " + records : "record " + records + " (line " + line + ")";
        }

        @Override public void close() throws IOException {
          reader.close();
        }
      };
    }

    @Override public String toString() {
      return "RecordSource(" + description + ")";
    }
  }

  /** Lines decoded as they are read from a stream of UTF-8 bytes, opened again for every read. */
  private static final class StreamLines extends LineSource {
    private final RecordStreams.Opener opener;

    StreamLines(String description, String notUtf8, RecordStreams.Opener opener) {
      super(description, notUtf8);
      this.opener = opener;
    }

    @Override Reader openReader() throws IOException {
      return new InputStreamReader(opener.open(), strictUtf8());
    }

    @Override boolean startsWithByteOrderMark() throws IOException {
      try (InputStream in = opener.open()) {
        byte[] head = new byte[3];
        int read = 0;
        while (read < 3) {
          int n = in.read(head, read, 3 - read);
          if (n < 0) break;
          read += n;
        }
        return read == 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb
            && (head[2] & 0xff) == 0xbf;
      }
    }
  }

  /**
   * Refuses a line longer than {@link #MAX_RECORD_CHARS} as its characters come in, under the buffer
   * that splits the lines: {@code readLine} would otherwise build a document of any size as one
   * string.
   */
  private static final class BoundedLines extends FilterReader {
    private final String description;
    private int lineChars;
    private int breaks;
    private boolean afterCarriageReturn;

    BoundedLines(Reader in, String description) {
      super(in);
      this.description = description;
    }

    @Override public int read(char[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      for (int i = offset; i < offset + n; i++) {
        char c = buffer[i];
        if (c == '\n' || c == '\r') {
          if (c == '\r' || !afterCarriageReturn) breaks++;
          afterCarriageReturn = c == '\r';
          lineChars = 0;
        } else if (c == '\uFEFF' && breaks == 0 && lineChars == 0) {
          afterCarriageReturn = false; // the text's byte-order mark, which the cursor drops
        } else {
          afterCarriageReturn = false;
          if (++lineChars > MAX_RECORD_CHARS) {
            throw new InvalidResourceException("line " + (breaks + 1) + " of the resource " + description
                + " is longer than " + MAX_RECORD_CHARS + " characters, which no record is: give one"
                + " JSON object per line (JSON Lines), not a JSON document on one line", null, 0);
          }
        }
      }
      return n;
    }

    @Override public int read() throws IOException {
      char[] one = new char[1];
      return read(one, 0, 1) == -1 ? -1 : one[0];
    }
  }

  static boolean isBlank(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (!Character.isWhitespace(text.charAt(i))) return false;
    }
    return true;
  }
}
