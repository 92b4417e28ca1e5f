package dev.voicelink.auth;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/** One refresh of a {@link TokenManager} that any number of callers wait for. Thread-safe. */
final class RefreshFlight {
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile @Nullable TokenRecord record;
  private volatile @Nullable Throwable failure;

  void complete(@Nullable TokenRecord result, @Nullable Throwable error) {
    record = result;
    failure = error;
    done.countDown();
  }

  /**
   * The flight's record, or its failure. A flight that failed while the current token stays valid
   * holds both: {@code forced} (a caller that asked for a new token) gets the failure, others the
   * token.
   */
  TokenRecord await(boolean forced) throws IOException, AuthorizationException {
    try {
      // An ended flight gives its result even to a thread interrupted meanwhile.
      if (done.getCount() > 0) done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a token refresh");
    }
    Throwable error = failure;
    if (error != null && record != null && !forced) return record;
    if (error instanceof AuthorizationException) throw (AuthorizationException) error;
    if (error instanceof IOException) throw (IOException) error;
    if (error instanceof RuntimeException) throw (RuntimeException) error;
    if (error instanceof Error) throw (Error) error;
    return record;
  }
}
