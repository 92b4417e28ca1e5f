package dev.voicelink.core.internal;

import org.jspecify.annotations.Nullable;
import okio.ByteString;

/**
 * Shows a secret as a short fingerprint so that two log lines can be matched without revealing it:
 * {@code secret("rt-1f7d0c3a9b8e4d2f")} is {@code "‹secret 7c128ab8›"}, the first 8 hex digits of its
 * SHA-256. A secret shorter than {@value #FINGERPRINT_MIN_LENGTH} characters is shown as {@code
 * ‹secret›} alone: the fingerprint of a short one (a 6-digit code, a short account key) can be
 * reversed by trying them all. Checks secrets without showing them.
 */
public final class Redact {
  private Redact() {
  }

  /** Shorter secrets get no fingerprint. */
  public static final int FINGERPRINT_MIN_LENGTH = 16;

  public static String secret(@Nullable String secret) {
    if (secret == null) return "‹none›";
    if (secret.isEmpty()) return "‹empty›";
    if (secret.length() < FINGERPRINT_MIN_LENGTH) return "‹secret›";
    return "‹secret " + fingerprint(secret) + "›";
  }

  /**
   * Checks a secret the app passes in ({@code field} names it in the message, which never shows the
   * value): not empty, no whitespace at either end and no control character. A line break read with
   * a key from a file would otherwise be signed or sent with it, and refused by the server with no
   * hint why.
   */
  public static String checkSecret(@Nullable String value, String field) {
    if (value == null || value.trim().isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    if (Character.isWhitespace(value.charAt(0))
        || Character.isWhitespace(value.charAt(value.length() - 1))) {
      throw new IllegalArgumentException(field + " must not start or end with whitespace (a line"
          + " break read with it from a file, say); the value is not shown");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(field + " must not contain control characters; the value"
            + " is not shown");
      }
    }
    return value;
  }

  /** The first 8 hex digits of the SHA-256 of {@code secret}. */
  public static String fingerprint(String secret) {
    return ByteString.encodeUtf8(secret).sha256().hex().substring(0, 8);
  }
}
