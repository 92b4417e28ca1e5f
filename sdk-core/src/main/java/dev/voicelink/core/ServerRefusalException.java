package dev.voicelink.core;

import org.jspecify.annotations.Nullable;

/**
 * The server understood the request and said no. Carries what the server said so that it can be
 * shown, logged and matched: its {@linkplain #code() code}, its {@linkplain #description()
 * description} and, where the endpoint returns one, the {@linkplain #sid() sid} that identifies the
 * call in the platform's logs.
 *
 * <p>The SDK reports the two other kinds of failure differently: a misuse of the API throws {@link
 * IllegalArgumentException} or {@link IllegalStateException} before anything is sent, and a transport
 * failure is an {@link java.io.IOException}. Subclasses name the service that refused.
 *
 * <p>Instances are immutable. Their messages never contain a secret.
 */
public class ServerRefusalException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String code;
  private final String description;
  private final @Nullable String sid;

  public ServerRefusalException(String code, String description, @Nullable String sid) {
    super(message(code, description, sid));
    this.code = code;
    this.description = description;
    this.sid = sid;
  }

  private static String message(String code, String description, @Nullable String sid) {
    // An app's own token source or test fake makes these too: a null is its mistake, named here.
    if (code == null) throw new IllegalArgumentException("code must not be null");
    if (description == null) {
      throw new IllegalArgumentException("description must not be null; give \"\" for none");
    }
    StringBuilder result = new StringBuilder().append(code);
    if (!description.isEmpty()) result.append(": ").append(description);
    if (sid != null) result.append(" (sid ").append(sid).append(')');
    return result.toString();
  }

  /** The server's code, for example {@code invalid_refresh_token} or {@code 20004}. */
  public final String code() {
    return code;
  }

  /** The server's human-readable text (its {@code desc} or {@code message}); may be empty. */
  public final String description() {
    return description;
  }

  /** The server's identifier of the refused call, or null when the endpoint returns none. */
  public final @Nullable String sid() {
    return sid;
  }
}
