package dev.voicelink.auth;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * One refresh of a {@link TokenManager} that any number of callers wait for. Thread-safe.
 *
 * <p>A flight for a record that fell due first looks in the store, once for all its callers, for a
 * record another manager or process refreshed meanwhile; when it finds one that serves, that is its
 * result and nothing is sent.
 */
final class RefreshFlight {
  private final CountDownLatch done = new CountDownLatch(1);
  private final boolean looksInStoreFirst;
  private final long generation;
  private volatile @Nullable TokenRecord record;
  private volatile @Nullable Throwable failure;
  /** Whether the result is a record found in the store, not one the server gave. */
  private volatile boolean foundInStore;

  /** {@code generation}: the manager's count of sign-ins, sign-outs and set records at the start. */
  RefreshFlight(boolean looksInStoreFirst, long generation) {
    this.looksInStoreFirst = looksInStoreFirst;
    this.generation = generation;
  }

  boolean looksInStoreFirst() {
    return looksInStoreFirst;
  }

  long generation() {
    return generation;
  }

  void complete(@Nullable TokenRecord result, @Nullable Throwable error) {
    record = result;
    failure = error;
    done.countDown();
  }

  /** Ends the flight with the record another manager refreshed, found in the store. */
  void completeFoundInStore(TokenRecord result) {
    foundInStore = true;
    complete(result, null);
  }

  /**
   * The flight's record, or its failure. A flight that failed while the current token stays valid
   * holds both: {@code forced} (a caller that asked for a new token) gets the failure, others the
   * token. Null for {@code forced} when the record was found in the store: that caller asks for a
   * refresh of it.
   */
  @Nullable TokenRecord await(boolean forced) throws IOException, AuthorizationException {
    try {
      // An ended flight gives its result even to a thread interrupted meanwhile.
      if (done.getCount() > 0) done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a token refresh");
    }
    Throwable error = failure;
    if (forced && foundInStore) return null;
    if (error != null && record != null && !forced) return record;
    if (error instanceof AuthorizationException) throw (AuthorizationException) error;
    if (error instanceof IOException) throw (IOException) error;
    if (error instanceof RuntimeException) throw (RuntimeException) error;
    if (error instanceof Error) throw (Error) error;
    return record;
  }
}
