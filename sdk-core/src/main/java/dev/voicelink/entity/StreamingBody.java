package dev.voicelink.entity;

import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.ByteString;

/**
 * A request body whose records are read, checked and encoded while it is written, so that a large
 * resource never sits in memory. It is built by a first full pass that checks every record and
 * measures the body: a bad record fails before any request starts, and the body has an exact length.
 *
 * <p>A resource text of at most {@link #KEPT_TEXT_BYTES} is kept from that pass, so the source is
 * read once and writing only encodes it. A larger one is measured without being encoded (the Base64
 * length needs only a count of the characters that form escaping widens) and read again while the
 * body is written. It can be written again: a request sent again after a refusal (a checksum signed
 * again, a 401 answered) sends the same bytes.
 */
final class StreamingBody extends RequestBody {
  enum Encoding {
    /** Base64 of the resource text, escaped as the value of a form field. */
    FORM_BASE64,
    /** Base64 of the resource text. */
    BASE64,
    /** The records as the elements of a JSON array. */
    JSON_ARRAY
  }

  private final @Nullable MediaType contentType;
  private final ByteString prefix;
  private final Records records;
  private final RecordSource source;
  private final ByteString suffix;
  private final Encoding encoding;
  private final long contentLength;
  /** The resource text (records joined), when it is small enough to keep. */
  private final @Nullable Buffer text;

  /**
   * The largest resource text kept in memory between measuring and writing: 1 MiB, well inside the
   * smallest heaps the SDK runs in, and most uploads (an address book of a few thousand contacts).
   */
  static final long KEPT_TEXT_BYTES = 1024 * 1024;

  private StreamingBody(@Nullable MediaType contentType, ByteString prefix, Records records,
      RecordSource source, ByteString suffix, Encoding encoding) throws IOException {
    this.contentType = contentType;
    this.prefix = prefix;
    this.records = records;
    this.source = source;
    this.suffix = suffix;
    this.encoding = encoding;
    Measure measure = new Measure(encoding);
    records.forEach(source, measure);
    this.text = measure.text;
    this.contentLength = prefix.size() + measure.length() + suffix.size();
  }

  /** Checks every record (throwing {@link InvalidResourceException}) and measures the body. */
  static StreamingBody create(@Nullable MediaType contentType, ByteString prefix, Records records,
      RecordSource source, ByteString suffix, Encoding encoding) throws IOException {
    return new StreamingBody(contentType, prefix, records, source, suffix, encoding);
  }

  @Override public @Nullable MediaType contentType() {
    return contentType;
  }

  @Override public long contentLength() {
    return contentLength;
  }

  @Override public void writeTo(BufferedSink sink) throws IOException {
    sink.write(prefix);
    if (text == null) {
      try {
        if (encoding == Encoding.JSON_ARRAY) {
          records.forEach(source, new ArrayWriter(sink));
        } else {
          Base64Encoder writer = new Base64Encoder(sink, encoding == Encoding.FORM_BASE64);
          records.forEach(source, writer);
          writer.finish();
        }
      } catch (InvalidResourceException e) {
        // The first read found them fine: the file or iterable changed while it was read again. Part
        // of the body is sent by now, so this is a failed transfer, not input refused before sending.
        throw new IOException("the records changed after they were checked, and their encoding"
            + " stopped part-way: " + e.getMessage(), e);
      }
    } else if (encoding == Encoding.JSON_ARRAY) {
      text.copyTo(sink.getBuffer(), 0, text.size()); // shares the segments, copies no bytes
      sink.emitCompleteSegments();
    } else {
      Base64Encoder writer = new Base64Encoder(sink, encoding == Encoding.FORM_BASE64);
      encode(text, writer);
      writer.finish();
    }
    sink.write(suffix);
  }

  /** Feeds the bytes of {@code text} to {@code encoder} without consuming them. */
  private static void encode(Buffer text, Base64Encoder encoder) throws IOException {
    Buffer.UnsafeCursor cursor = new Buffer.UnsafeCursor();
    text.readUnsafe(cursor);
    try {
      for (int read = cursor.seek(0); read != -1; read = cursor.next()) {
        encoder.write(cursor.data, cursor.start, cursor.end - cursor.start);
      }
    } finally {
      cursor.close();
    }
  }

  /**
   * The measuring pass: keeps the joined text while it is small, then counts what the body's
   * encoding would write.
   */
  private static final class Measure implements Records.LineSink {
    private final Encoding encoding;
    private final byte separator;
    @Nullable Buffer text = new Buffer();
    private @Nullable Base64Encoder counter;
    private long arrayLength;
    private boolean first = true;

    Measure(Encoding encoding) {
      this.encoding = encoding;
      this.separator = (byte) (encoding == Encoding.JSON_ARRAY ? ',' : '\n');
    }

    @Override public void line(byte[] utf8, int length) throws IOException {
      if (text != null) {
        if (!first) text.writeByte(separator);
        text.write(utf8, 0, length);
        first = false;
        if (text.size() > KEPT_TEXT_BYTES) {
          // Too large to keep: from here on, count only; the body is read again when written.
          if (encoding == Encoding.JSON_ARRAY) {
            arrayLength = text.size();
          } else {
            counter = new Base64Encoder(null, encoding == Encoding.FORM_BASE64);
            encode(text, counter);
          }
          text.clear();
          text = null;
        }
        return;
      }
      if (encoding == Encoding.JSON_ARRAY) {
        arrayLength += 1 + length;
      } else {
        counter.write(SEPARATOR, 0, 1);
        counter.write(utf8, 0, length);
      }
    }

    long length() throws IOException {
      if (text == null) {
        return encoding == Encoding.JSON_ARRAY ? arrayLength : counter.finish();
      }
      if (encoding == Encoding.JSON_ARRAY) return text.size();
      Base64Encoder count = new Base64Encoder(null, encoding == Encoding.FORM_BASE64);
      encode(text, count);
      return count.finish();
    }
  }

  private static final byte[] SEPARATOR = {'\n'};

  /** Writes records as the elements of a JSON array (without the brackets), or counts them. */
  private static final class ArrayWriter implements Records.LineSink {
    private final @Nullable BufferedSink out;
    private boolean first = true;
    long length;

    ArrayWriter(@Nullable BufferedSink out) {
      this.out = out;
    }

    @Override public void line(byte[] utf8, int count) throws IOException {
      if (!first) {
        if (out != null) out.writeByte(',');
        length++;
      }
      first = false;
      if (out != null) out.write(utf8, 0, count);
      length += count;
    }
  }
}
