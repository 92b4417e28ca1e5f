package dev.voicelink.core.internal;

import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.BufferedSink;

/**
 * A request body that is {@link #delegate} as it is, but for what a subclass changes: its content
 * type, length and one-shot-ness stay the original's, so the wire is unchanged.
 */
public abstract class ForwardingBody extends RequestBody {
  protected final RequestBody delegate;

  protected ForwardingBody(RequestBody delegate) {
    this.delegate = delegate;
  }

  @Override public @Nullable MediaType contentType() {
    return delegate.contentType();
  }

  @Override public long contentLength() throws IOException {
    return delegate.contentLength();
  }

  @Override public boolean isOneShot() {
    return delegate.isOneShot();
  }

  @Override public boolean isDuplex() {
    return delegate.isDuplex();
  }

  @Override public void writeTo(BufferedSink sink) throws IOException {
    delegate.writeTo(sink);
  }
}
