package dev.voicelink.entity;

import java.io.IOException;
import java.io.OutputStream;
import okio.Buffer;
import okio.BufferedSink;
import okio.ByteString;
import okio.Okio;

/**
 * Turns records into what the platform takes: the resource text (UTF-8 JSON lines joined by {@code
 * \n}, no byte-order mark) encoded as Base64 without line breaks.
 *
 * <p>Every record is checked against the definition before the first byte is written: the main field
 * present and non-empty, the secondary fields present as strings (possibly empty); other fields are
 * kept. The upload clients do this themselves; use this class where the Base64 text itself is needed,
 * for example as the {@code data} of a {@code CMD_SYNC}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ResourceEncoder {
  /**
   * The default limit on the resource text, in bytes before Base64: 32 MiB. The platform does not
   * state one; this keeps a runaway export from being encoded and sent.
   */
  public static final long DEFAULT_MAX_RESOURCE_BYTES = 32L * 1024 * 1024;

  private ResourceEncoder() {
  }

  /**
   * Checks every record and returns the size of the resource text in bytes.
   *
   * @throws InvalidResourceException naming the record and field at fault, or the size over {@code
   *     maxBytes}
   * @throws IOException if the source cannot be read
   */
  public static long check(ResourceDefinition definition, RecordSource records, long maxBytes)
      throws IOException {
    checkArguments(definition, records, maxBytes);
    return Records.of(definition, maxBytes).forEach(records, new Records.LineSink() {
      @Override public void line(byte[] utf8, int length) {
      }
    });
  }

  /**
   * Checks every record, then writes the Base64 of the resource text (ASCII) to {@code out},
   * streaming. Nothing is written if a record is invalid. {@code out} is flushed, not closed.
   */
  public static void writeBase64(ResourceDefinition definition, RecordSource records, long maxBytes,
      OutputStream out) throws IOException {
    if (out == null) throw new IllegalArgumentException("out must not be null");
    BufferedSink sink = Okio.buffer(Okio.sink(out));
    writeBase64(definition, records, maxBytes, sink);
    sink.flush();
  }

  /** The Base64 of the resource text as one string (for small resources); see {@link #writeBase64}. */
  public static String base64(ResourceDefinition definition, RecordSource records) throws IOException {
    Buffer buffer = new Buffer();
    writeBase64(definition, records, DEFAULT_MAX_RESOURCE_BYTES, buffer);
    return buffer.readUtf8();
  }

  static void writeBase64(ResourceDefinition definition, RecordSource records, long maxBytes,
      BufferedSink sink) throws IOException {
    checkArguments(definition, records, maxBytes);
    // Creating the body checks every record (and counts the Base64) before anything is written.
    StreamingBody.create(null, ByteString.EMPTY, Records.of(definition, maxBytes), records,
        ByteString.EMPTY, StreamingBody.Encoding.BASE64).writeTo(sink);
  }

  private static void checkArguments(ResourceDefinition definition, RecordSource records,
      long maxBytes) {
    if (definition == null) throw new IllegalArgumentException("definition must not be null");
    if (records == null) throw new IllegalArgumentException("records must not be null");
    checkLimit(maxBytes);
  }

  static void checkLimit(long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxResourceBytes must be positive; was " + maxBytes);
    }
  }
}
