package dev.voicelink.core.internal;

import java.io.IOException;
import okhttp3.Response;
import okio.Buffer;
import okio.BufferedSource;

/**
 * The first bytes of a response body, left unread for the body's reader: what {@code
 * Response.peekBody} gives, copied from the body's own buffer, so that a shrunk app does not carry
 * okio's {@code PeekSource} for the SDK's two looks at a body (the log, and a checksum refusal).
 */
public final class Peek {
  private Peek() {
  }

  /** Up to {@code maxBytes} bytes; fewer only if the body ends first. */
  public static Buffer body(Response response, long maxBytes) throws IOException {
    BufferedSource source = response.body().source();
    source.request(maxBytes);
    Buffer peeked = new Buffer();
    source.getBuffer().copyTo(peeked, 0, Math.min(maxBytes, source.getBuffer().size()));
    return peeked;
  }
}
