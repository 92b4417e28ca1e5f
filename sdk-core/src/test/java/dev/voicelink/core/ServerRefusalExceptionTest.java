package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.AuthorizationException;

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

  @Test void aNullCodeOrDescriptionIsNamedNotANullPointer() {
    // as an app's own token source may make one: new AuthorizationException(error, e.getMessage())
    assertThatThrownBy(() -> new AuthorizationException("invalid_grant", null))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("description must not be null; give \"\" for none");
    assertThatThrownBy(() -> new ServerRefusalException(null, "refused", null))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("code must not be null");
  }
}
