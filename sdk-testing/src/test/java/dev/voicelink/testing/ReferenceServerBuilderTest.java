package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The builder refuses a setting it cannot use at once, naming the setting, before a server starts. */
class ReferenceServerBuilderTest {
  @Test void nullsAreRefusedByName() {
    ReferenceServer.Builder builder = ReferenceServer.builder();
    assertThatThrownBy(() -> builder.console(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("console must not be null");
    assertThatThrownBy(() -> builder.clock(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("clock must not be null");
    assertThatThrownBy(() -> builder.bindAddress(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bindAddress must not be null");
    assertThatThrownBy(() -> builder.recognizer(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("recognizer must not be null");
  }

  @Test void aPortOutsideTheRangeIsRefused() {
    assertThatThrownBy(() -> ReferenceServer.builder().port(65536))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("port must be 0..65535; was: 65536");
    assertThatThrownBy(() -> ReferenceServer.builder().port(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("port must be 0..65535; was: -1");
  }
}
