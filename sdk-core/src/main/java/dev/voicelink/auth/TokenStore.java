package dev.voicelink.auth;

import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Where a token manager keeps its one token record across restarts.
 *
 * <p>Implementations: {@link InMemoryTokenStore} (tests, short-lived processes), {@link
 * FileTokenStore} (embedded JVMs) and, in the Android module, a store encrypted with an Android
 * Keystore key. A store holds secrets: it must never log them.
 *
 * <p>{@link #save} must be atomic: after a crash at any moment, {@link #load} returns the old record
 * or the new one, never a mix and never nothing. Implementations must be thread-safe; a token manager
 * calls them from whichever thread asked for a token.
 *
 * <p>The token managers of one store in a process hear each other's writes: a sign-in, a sign-out,
 * an app's record or a refresh through one is at once the others' too, and their listeners hear it
 * with the same cause. Stores are one when they are {@linkplain Object#equals equal}: the SDK's
 * stores are equal when they keep the same file; a store of the app's is one with itself only,
 * unless it overrides {@code equals} and {@code hashCode}.
 */
public interface TokenStore {
  /** The stored record, or null if none was saved (or it was {@linkplain #clear() cleared}). */
  @Nullable TokenRecord load() throws IOException;

  /** Replaces the stored record with {@code record}, atomically and durably. */
  void save(TokenRecord record) throws IOException;

  /** Removes the stored record. */
  void clear() throws IOException;
}
