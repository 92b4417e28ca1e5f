package dev.voicelink.auth;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/** One refresh of a {@link TokenManager} that any number of callers wait for. Thread-safe. */
final class RefreshFlight {
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile @Nullable TokenRecord record;
  private volatile @Nullable Exception failure;

  void complete(@Nullable TokenRecord result, @Nullable Exception error) {
    record = result;
    failure = error;
    done.countDown();
  }

  TokenRecord await() throws IOException, AuthorizationException {
    try {
      // An ended flight gives its result even to an interrupted thread: the owner's record is saved.
      if (done.getCount() > 0) done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a token refresh");
    }
    Exception error = failure;
    if (error instanceof AuthorizationException) throw (AuthorizationException) error;
    if (error instanceof IOException) throw (IOException) error;
    if (error instanceof RuntimeException) throw (RuntimeException) error;
    return record;
  }
}
