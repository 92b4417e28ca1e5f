package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdsTest {
  @Test void aSecretUnderSixteenCharactersGetsNoFingerprint() {
    // "abc123" (a console file's client secret, say) would be found again from 8 hex digits at once
    assertThat(Ids.fingerprint("abc123")).isEqualTo("(short: not shown)");
    assertThat(Ids.fingerprint("0123456789abcde")).isEqualTo("(short: not shown)");
    assertThat(Ids.fingerprint("0123456789abcdef")).matches("[0-9a-f]{8}")
        .isEqualTo(Ids.md5Hex("fingerprint:0123456789abcdef").substring(0, 8));
    assertThat(Account.create("OS123", "abc123", "app-1").toString())
        .doesNotContain(Ids.md5Hex("fingerprint:abc123").substring(0, 8));
  }
}
