package dev.voicelink.core.internal;

import dev.voicelink.core.VirtualTime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SkewCorrectedClockTest {
  /** 2025-11-21T08:00:00Z. */
  private final VirtualTime device = new VirtualTime(1_763_712_000_000L);
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

  @Test void aServerTimeNoServerCanMeanIsIgnored() {
    // A load balancer whose clock reads 1970, or a Date header from the year 2200.
    clock.observeServerTime(device.wallMillis() + 3_600_000L);
    clock.observeServerTime(0L);
    clock.observeServerTime(7_258_118_400_000L);
    assertThat(clock.offsetMillis()).as("the earlier correction stays").isEqualTo(3_600_000L);
  }

  @Test void monotonicTimeIsNeverCorrected() {
    clock.observeServerTime(device.wallMillis() + 3_600_000L);
    assertThat(clock.monotonicNanos()).isEqualTo(device.monotonicNanos());
  }
}
