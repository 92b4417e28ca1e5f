package dev.voicelink.entity;

import java.io.IOException;
import javax.annotation.Nullable;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.ByteString;
import okio.Okio;
import okio.Sink;
import okio.Timeout;

/**
 * A request body whose records are read, checked and encoded while it is written, so that a large
 * resource never sits in memory. It is built by a first full pass that checks every record and
 * measures the body: a bad record fails before any request starts, and the body has an exact length.
 * It can be written again (a retried request reads the source again).
 */
final class StreamingBody extends RequestBody {
  enum Encoding {
    /** Base64 of the resource text, escaped as the value of a form field. */
    FORM_BASE64,
    /** The records as the elements of a JSON array. */
    JSON_ARRAY
  }

  private final MediaType contentType;
  private final ByteString prefix;
  private final Records records;
  private final RecordSource source;
  private final ByteString suffix;
  private final Encoding encoding;
  private final long contentLength;

  private StreamingBody(MediaType contentType, ByteString prefix, Records records, RecordSource source,
      ByteString suffix, Encoding encoding) throws IOException {
    this.contentType = contentType;
    this.prefix = prefix;
    this.records = records;
    this.source = source;
    this.suffix = suffix;
    this.encoding = encoding;
    CountingSink counter = new CountingSink();
    BufferedSink sink = Okio.buffer(counter);
    write(sink);
    sink.flush();
    this.contentLength = counter.count;
  }

  /** Checks every record (throwing {@link InvalidResourceException}) and measures the body. */
  static StreamingBody create(MediaType contentType, ByteString prefix, Records records,
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
    write(sink);
  }

  private void write(BufferedSink sink) throws IOException {
    sink.write(prefix);
    if (encoding == Encoding.FORM_BASE64) {
      Records.Base64Writer writer = new Records.Base64Writer(sink, true);
      records.forEach(source, writer);
      writer.finish();
    } else {
      records.forEach(source, new Records.ArrayWriter(sink));
    }
    sink.write(suffix);
  }

  private static final class CountingSink implements Sink {
    long count;

    @Override public void write(Buffer source, long byteCount) throws IOException {
      source.skip(byteCount);
      count += byteCount;
    }

    @Override public void flush() {
    }

    @Override public Timeout timeout() {
      return Timeout.NONE;
    }

    @Override public void close() {
    }
  }
}
