package dev.voicelink.auth;

/**
 * A token was asked of a {@link TokenManager} that holds none: the device (or user) was never signed
 * in, or it {@linkplain TokenManager#signOut() signed out}. Sign in with {@link TokenManager#signIn},
 * or give a record obtained otherwise to {@link TokenManager#setRecord}.
 *
 * <p>Not a server's answer, since there was nothing to ask the server with; it is an {@link
 * AuthorizationException} (code {@value #CODE}) because the remedy is the same as for a refused
 * refresh token, and code that handles one handles both. Thrown on the thread that asked for a token;
 * immutable.
 */
public final class NotSignedInException extends AuthorizationException {
  private static final long serialVersionUID = 1L;

  /** The {@link #code()} of this exception. */
  public static final String CODE = "not_signed_in";

  NotSignedInException() {
    super(CODE, "no token is stored: sign in first (TokenManager.signIn), or give a record to"
        + " TokenManager.setRecord");
  }
}
