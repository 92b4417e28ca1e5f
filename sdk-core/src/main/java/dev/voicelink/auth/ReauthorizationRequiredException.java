package dev.voicelink.auth;

/**
 * The refresh token was refused ({@code invalid_refresh_token}, spec 3.2): the user must authorize
 * the device again with a new device flow. The stored record is kept until the app replaces or clears
 * it, so a transient server bug cannot erase a sign-in.
 */
public final class ReauthorizationRequiredException extends AuthorizationException {
  private static final long serialVersionUID = 1L;

  public ReauthorizationRequiredException(String error, String message) {
    super(error, message);
  }
}
