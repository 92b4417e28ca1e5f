package dev.voicelink.auth;

import java.io.IOException;

/**
 * Thrown by a {@link TokenStore}'s {@code load()} when the store held a record that can never be read
 * again: on Android, the Keystore key that encrypted it was invalidated or wiped, or the data was
 * restored to another device. The store has deleted it (or keeps it until the next save, where a
 * later start might read it after all); the user must sign in again. A {@link
 * TokenManager} tells its listeners {@link TokenManager.State#REAUTHORIZATION_REQUIRED}, cause {@link
 * TokenManager.Cause#RECORD_LOST}, with this exception as the change's failure.
 *
 * <p>Not for a store that cannot be read for a moment (a Keystore service restarting, a full disk):
 * that is an ordinary {@link IOException}, and the record is kept. The message says why, never a
 * secret. Immutable.
 */
public final class RecordLostException extends IOException {
  private static final long serialVersionUID = 1L;

  public RecordLostException(String message) {
    super(requireMessage(message));
  }

  public RecordLostException(String message, Throwable cause) {
    super(requireMessage(message), cause);
  }

  private static String requireMessage(String message) {
    if (message == null || message.isEmpty()) {
      throw new IllegalArgumentException("message must say why the record was lost");
    }
    return message;
  }
}
