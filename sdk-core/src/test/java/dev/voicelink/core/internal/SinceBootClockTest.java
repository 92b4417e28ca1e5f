package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.Clock;
import org.junit.jupiter.api.Test;

/** On a JVM there is no Android clock: {@code Clock.system()} is the JVM's own. */
class SinceBootClockTest {
  @Test void aJvmHasNoAndroidClockAndTheSystemClockIsNotIt() {
    assertThat(SinceBootClock.find()).isNull();
    assertThat(Clock.system()).isNotInstanceOf(SinceBootClock.class).hasToString("Clock.system()");
  }
}
