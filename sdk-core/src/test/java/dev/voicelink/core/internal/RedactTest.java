package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactTest {
  @Test void showsAFingerprintNeverTheSecret() {
    String secret = "rt-1f7d0c3a9b8e4d2f";
    assertThat(Redact.secret(secret)).isEqualTo("‹secret " + Redact.fingerprint(secret) + "›")
        .doesNotContain(secret);
    // SHA-256("abc") = ba7816bf...
    assertThat(Redact.fingerprint("abc")).isEqualTo("ba7816bf");
    assertThat(Redact.fingerprint(secret)).isEqualTo("7c128ab8"); // the speaker CLI pins the same
  }

  /** The fingerprint of a short secret (a 6-digit code, a short key) is reversed by trying them all. */
  @Test void aShortSecretGetsNoFingerprint() {
    assertThat(Redact.secret("123456")).isEqualTo("‹secret›");
    assertThat(Redact.secret("fifteen-chars-1")).isEqualTo("‹secret›");
    assertThat(Redact.secret("sixteen-chars-12")).isEqualTo("‹secret "
        + Redact.fingerprint("sixteen-chars-12") + "›");
  }

  @Test void nullAndEmptyAreNamed() {
    assertThat(Redact.secret(null)).isEqualTo("‹none›");
    assertThat(Redact.secret("")).isEqualTo("‹empty›");
  }
}
