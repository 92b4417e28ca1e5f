package dev.voicelink.entity;

import dev.voicelink.core.ServerRefusalException;
import org.jspecify.annotations.Nullable;

/**
 * The platform tools endpoint refused an entity upload (HTTP 400 with {@code code}, {@code message} and
 * {@code sid}). For example the token is not the kind the dimension needs, or the resource is unknown.
 *
 * <p>Immutable.
 */
public final class PlatformUploadException extends ServerRefusalException {
  private static final long serialVersionUID = 1L;

  private final int httpStatus;

  public PlatformUploadException(int httpStatus, String code, String message, @Nullable String sid) {
    super(code, message, sid);
    this.httpStatus = httpStatus;
  }

  /** The HTTP status of the refusal, 400 as the platform documents it. */
  public int httpStatus() {
    return httpStatus;
  }
}
