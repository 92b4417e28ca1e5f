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

  @Test void nullAndEmptyAreNamed() {
    assertThat(Redact.secret(null)).isEqualTo("‹none›");
    assertThat(Redact.secret("")).isEqualTo("‹empty›");
  }
}
