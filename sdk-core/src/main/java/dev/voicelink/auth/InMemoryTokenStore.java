package dev.voicelink.auth;

import org.jspecify.annotations.Nullable;

/**
 * A {@link TokenStore} that keeps the record in memory only: for tests and short-lived tools. Nothing
 * survives the process.
 *
 * <p>Thread-safe; one instance per credential, for as long as its {@link TokenManager}.
 */
public final class InMemoryTokenStore implements TokenStore {
  private volatile @Nullable TokenRecord record;

  public InMemoryTokenStore() {
  }

  /** A store that already holds {@code record}. */
  public InMemoryTokenStore(@Nullable TokenRecord record) {
    this.record = record;
  }

  @Override public @Nullable TokenRecord load() {
    return record;
  }

  @Override public void save(TokenRecord record) {
    if (record == null) throw new IllegalArgumentException("record must not be null");
    this.record = record;
  }

  @Override public void clear() {
    record = null;
  }

  @Override public String toString() {
    return "InMemoryTokenStore{" + record + "}";
  }
}
