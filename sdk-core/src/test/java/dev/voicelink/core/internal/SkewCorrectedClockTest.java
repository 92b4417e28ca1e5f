package dev.voicelink.core.internal;

import dev.voicelink.core.VirtualTime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SkewCorrectedClockTest {
  private final VirtualTime device = new VirtualTime(1_000_000_000L);
  private final SkewCorrectedClock clock = new SkewCorrectedClock(device);

  @Test void offsetWithinOneMinuteIsIgnored() {
    clock.observeServerTime(device.wallMillis() + 60_000L);
    assertThat(clock.offsetMillis()).isZero();
    assertThat(clock.wallMillis()).isEqualTo(device.wallMillis());
  }

  @Test void offsetJustBeyondOneMinuteIsApplied() {
    clock.observeServerTime(device.wallMillis() - 60_001L);
    assertThat(clock.offsetMillis()).isEqualTo(-60_001L);
    assertThat(clock.wallMillis()).isEqualTo(device.wallMillis() - 60_001L);
  }

  @Test void correctionIsDroppedOnceTheDeviceClockIsRight() {
    clock.observeServerTime(device.wallMillis() + 3_600_000L);
    device.shiftWallClock(3_600_000L); // NTP fixed the device clock
    clock.observeServerTime(device.wallMillis());
    assertThat(clock.offsetMillis()).isZero();
  }

  @Test void monotonicTimeIsNeverCorrected() {
    clock.observeServerTime(device.wallMillis() + 3_600_000L);
    assertThat(clock.monotonicNanos()).isEqualTo(device.monotonicNanos());
  }
}
