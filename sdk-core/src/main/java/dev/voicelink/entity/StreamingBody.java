package dev.voicelink.entity;

import java.io.IOException;
import javax.annotation.Nullable;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.BufferedSink;
import okio.ByteString;

/**
 * A request body whose records are read, checked and encoded while it is written, so that a large
 * resource never sits in memory. It is built by a first full pass that checks every record and
 * measures the body without encoding it: a bad record fails before any request starts, and the body
 * has an exact length. It can be written again (a retried request reads the source again).
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

  private StreamingBody(@Nullable MediaType contentType, ByteString prefix, Records records,
      RecordSource source, ByteString suffix, Encoding encoding) throws IOException {
    this.contentType = contentType;
    this.prefix = prefix;
    this.records = records;
    this.source = source;
    this.suffix = suffix;
    this.encoding = encoding;
    this.contentLength = prefix.size() + encode(null) + suffix.size();
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
    encode(sink);
    sink.write(suffix);
  }

  /** One pass over the records: writes them to {@code sink}, or only counts when it is null. */
  private long encode(@Nullable BufferedSink sink) throws IOException {
    if (encoding == Encoding.JSON_ARRAY) {
      ArrayWriter writer = new ArrayWriter(sink);
      records.forEach(source, writer);
      return writer.length;
    }
    Base64Encoder writer = new Base64Encoder(sink, encoding == Encoding.FORM_BASE64);
    records.forEach(source, writer);
    return writer.finish();
  }

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
