package dev.voicelink.core.internal;

import org.jspecify.annotations.Nullable;
import okio.ByteString;

/**
 * Shows a secret as a short fingerprint so that two log lines can be matched without revealing it:
 * {@code secret("abc")} is {@code "‹secret ba7816bf›"}, the first 8 hex digits of its SHA-256.
 */
public final class Redact {
  private Redact() {
  }

  public static String secret(@Nullable String secret) {
    if (secret == null) return "‹none›";
    if (secret.isEmpty()) return "‹empty›";
    return "‹secret " + fingerprint(secret) + "›";
  }

  /** The first 8 hex digits of the SHA-256 of {@code secret}. */
  public static String fingerprint(String secret) {
    return ByteString.encodeUtf8(secret).sha256().hex().substring(0, 8);
  }
}
