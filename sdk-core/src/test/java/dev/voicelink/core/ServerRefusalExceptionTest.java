package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerRefusalExceptionTest {
  @Test void messageCarriesCodeDescriptionAndSid() {
    ServerRefusalException e = new ServerRefusalException("20004", "illegal ip", "psn0001");
    assertThat(e).hasMessage("20004: illegal ip (sid psn0001)");
    assertThat(e.code()).isEqualTo("20004");
    assertThat(e.description()).isEqualTo("illegal ip");
    assertThat(e.sid()).isEqualTo("psn0001");
  }

  @Test void sidAndDescriptionAreOptional() {
    assertThat(new ServerRefusalException("access_denied", "", null)).hasMessage("access_denied");
  }
}
