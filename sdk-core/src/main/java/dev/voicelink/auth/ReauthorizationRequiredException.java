package dev.voicelink.auth;

/**
 * The refresh token was refused ({@code invalid_refresh_token}, protocol 3.2): the user must authorize
 * the device again with a new device flow. The stored record is kept until the app replaces or clears
 * it, so a transient server bug cannot erase a sign-in.
 *
 * <p>Thrown by {@link TokenManager} on the thread that asked for a token; immutable. The manager stays
 * in {@link TokenManager.State#REAUTHORIZATION_REQUIRED} until a new record is set.
 */
public final class ReauthorizationRequiredException extends AuthorizationException {
  private static final long serialVersionUID = 1L;

  /**
   * The {@link #code()} when the store lost the record ({@link RecordLostException}: on Android, its
   * Keystore key is gone): not a server's answer, but the remedy is the same.
   */
  public static final String RECORD_LOST = "record_lost";

  public ReauthorizationRequiredException(String error, String message) {
    super(error, message);
  }
}
