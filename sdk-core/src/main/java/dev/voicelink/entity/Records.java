package dev.voicelink.entity;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import okio.Buffer;
import okio.BufferedSink;
import okio.ByteString;

/**
 * Reads records, checks each against the definition's fields, and writes them out as the resource
 * text (JSON lines), its Base64, or a JSON array, streaming through small buffers.
 */
final class Records {
  /** 3-byte aligned, so that Base64 of consecutive chunks concatenates without padding inside. */
  private static final int CHUNK = 3 * 4096;

  /** Receives each checked record's JSON text. */
  interface LineSink {
    void line(String json) throws IOException;
  }

  private final ResourceName name;
  private final List<String> fields;
  private final boolean hasMainField;
  private final long maxBytes;

  /**
   * @param fields the fields every record needs; the first is the main field (non-empty) when
   *     {@code hasMainField}
   */
  Records(ResourceName name, List<String> fields, boolean hasMainField, long maxBytes) {
    this.name = name;
    this.fields = fields;
    this.hasMainField = hasMainField;
    this.maxBytes = maxBytes;
  }

  static Records of(ResourceDefinition definition, long maxBytes) {
    return new Records(definition.name(), definition.fields(), true, maxBytes);
  }

  /**
   * Reads every record, checks it, and passes its JSON text to {@code sink}. Returns the size in bytes
   * of the resource text (records joined by {@code \n}).
   */
  long forEach(RecordSource source, LineSink sink) throws IOException {
    long textBytes = 0;
    int count = 0;
    boolean[] seen = new boolean[fields.size()];
    try (RecordSource.Cursor cursor = source.open()) {
      for (String line; (line = cursor.next()) != null; ) {
        count++;
        check(line, cursor.position(), count, seen);
        textBytes += (count > 1 ? 1 : 0) + utf8Length(line);
        if (textBytes > maxBytes) {
          throw new InvalidResourceException("the resource text of " + name + " exceeds the maximum of "
              + maxBytes + " bytes at " + cursor.position()
              + "; split the resource or raise maxResourceBytes", null, count);
        }
        sink.line(line);
      }
    }
    if (count == 0) {
      throw new InvalidResourceException("the resource " + name + " has no records", null, 0);
    }
    return textBytes;
  }

  private void check(String line, String position, int number, boolean[] seen) throws IOException {
    java.util.Arrays.fill(seen, false);
    if (line.startsWith("\uFEFF")) {
      // Only the text's own start may carry one (it is stripped); here files were joined together.
      throw new InvalidResourceException(position + " of " + name + " starts with a byte-order mark;"
          + " save the records as UTF-8 without BOM", null, number);
    }
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
        if (index == 0 && hasMainField && value.isEmpty()) {
          throw new InvalidResourceException(position + " of " + name + ": main field " + key
              + " must not be empty", key, number);
        }
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
    for (int i = 0; i < seen.length; i++) {
      if (!seen[i]) {
        throw new InvalidResourceException(position + " of " + name + " lacks the field "
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

  static long utf8Length(String text) {
    long length = 0;
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        length++;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
        length += 4;
        i++;
      } else {
        length += 3; // lone surrogates are written as '?' by okio, one byte; overcounting is harmless
      }
    }
    return length;
  }

  /** Writes the resource text's Base64 (no line breaks), optionally escaped for a form body. */
  static final class Base64Writer implements LineSink {
    private final Buffer pending = new Buffer();
    private final BufferedSink out;
    private final boolean formEscape;
    private boolean first = true;

    Base64Writer(BufferedSink out, boolean formEscape) {
      this.out = out;
      this.formEscape = formEscape;
    }

    @Override public void line(String json) throws IOException {
      if (!first) pending.writeByte('\n');
      first = false;
      pending.writeUtf8(json);
      while (pending.size() >= CHUNK) emit(pending.readByteString(CHUNK));
    }

    void finish() throws IOException {
      if (pending.size() > 0) emit(pending.readByteString());
    }

    private void emit(ByteString bytes) throws IOException {
      String base64 = bytes.base64();
      if (!formEscape) {
        out.writeUtf8(base64);
        return;
      }
      for (int i = 0, n = base64.length(); i < n; i++) {
        char c = base64.charAt(i);
        if (c == '+') {
          out.writeUtf8("%2B");
        } else if (c == '/') {
          out.writeUtf8("%2F");
        } else if (c == '=') {
          out.writeUtf8("%3D");
        } else {
          out.writeByte(c);
        }
      }
    }
  }

  /** Writes records as the elements of a JSON array (without the brackets). */
  static final class ArrayWriter implements LineSink {
    private final BufferedSink out;
    private boolean first = true;

    ArrayWriter(BufferedSink out) {
      this.out = out;
    }

    @Override public void line(String json) throws IOException {
      if (!first) out.writeByte(',');
      first = false;
      out.writeUtf8(json);
    }
  }
}
