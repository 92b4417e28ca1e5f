package dev.voicelink.auth;

import dev.voicelink.core.ServerRefusalException;

/**
 * The authorization service refused a request: its error record (protocol 2.3) carried the {@linkplain
 * #code() error code} (for example {@code access_denied}, {@code expired_token}, {@code
 * invalid_client}) and, when present, its {@linkplain #description() message}. The authorization
 * service returns no {@code sid}.
 *
 * <p>Immutable. The message never contains a token, a device code or a secret.
 */
public class AuthorizationException extends ServerRefusalException {
  private static final long serialVersionUID = 1L;

  public AuthorizationException(String error, String message) {
    super(error, message, null);
  }
}
