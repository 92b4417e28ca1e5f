package dev.voicelink.auth;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A store whose {@link #load()} waits until the test {@link #open()}s it (10 s at most), so that a
 * test sees the manager in {@code LOADING} for sure, whatever the machine's speed.
 */
final class GatedLoadStore implements TokenStore {
  private final TokenStore delegate;
  private final CountDownLatch gate = new CountDownLatch(1);

  GatedLoadStore(TokenStore delegate) {
    this.delegate = delegate;
  }

  void open() {
    gate.countDown();
  }

  @Override public @Nullable TokenRecord load() throws IOException {
    try {
      if (!gate.await(10, TimeUnit.SECONDS)) throw new IOException("the test never opened the store");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the store was gated");
    }
    return delegate.load();
  }

  @Override public void save(TokenRecord record) throws IOException {
    delegate.save(record);
  }

  @Override public void clear() throws IOException {
    delegate.clear();
  }
}
