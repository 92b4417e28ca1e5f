package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.ServerBusyException;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BackoffTest {
  /** A Random whose nextDouble always returns the given value. */
  private static Random fixed(double value) {
    return new Random() {
      private static final long serialVersionUID = 1L;

      @Override public double nextDouble() {
        return value;
      }
    };
  }

  @Test void ceilingDoublesUpToTheCap() {
    Backoff backoff = new Backoff(1, 10, TimeUnit.SECONDS, 8, new Random(1));
    assertThat(backoff.ceilingMillis(1)).isEqualTo(1000);
    assertThat(backoff.ceilingMillis(2)).isEqualTo(2000);
    assertThat(backoff.ceilingMillis(3)).isEqualTo(4000);
    assertThat(backoff.ceilingMillis(4)).isEqualTo(8000);
    assertThat(backoff.ceilingMillis(5)).isEqualTo(10000);
    assertThat(backoff.ceilingMillis(Integer.MAX_VALUE)).isEqualTo(10000);
  }

  @Test void aCapAsLargeAsALongNeverOverflowsIntoNoWait() {
    // reconnectBackoff(1, Long.MAX_VALUE, SECONDS): 1000 ms doubled 54 times would overflow.
    Backoff backoff = new Backoff(1, Long.MAX_VALUE, TimeUnit.SECONDS, 100, fixed(0.99999999));
    for (int retry = 1; retry <= 100; retry++) {
      assertThat(backoff.ceilingMillis(retry)).isGreaterThanOrEqualTo(backoff.ceilingMillis(Math.max(1, retry - 1)));
      assertThat(backoff.delayMillis(retry)).isPositive();
    }
    assertThat(backoff.ceilingMillis(100)).isEqualTo(Long.MAX_VALUE);
  }

  @Test void fullJitterSpansZeroToTheCeiling() {
    assertThat(new Backoff(1, 10, TimeUnit.SECONDS, 3, fixed(0.0)).delayMillis(3)).isZero();
    assertThat(new Backoff(1, 10, TimeUnit.SECONDS, 3, fixed(0.5)).delayMillis(3)).isEqualTo(2000);
    assertThat(new Backoff(1, 10, TimeUnit.SECONDS, 3, fixed(0.99999999)).delayMillis(3))
        .isEqualTo(4000);
  }

  @Test void delaysStayWithinTheCeilingForAnyRandom() {
    Backoff backoff = new Backoff(250, 30_000, TimeUnit.MILLISECONDS, 20, new Random(42));
    for (int retry = 1; retry <= 20; retry++) {
      for (int i = 0; i < 100; i++) {
        assertThat(backoff.delayMillis(retry)).isBetween(0L, backoff.ceilingMillis(retry));
      }
    }
  }

  @Test void retriesAreBoundedAtNAndNotNPlusOne() {
    Backoff backoff = new Backoff(1, 2, TimeUnit.SECONDS, 3, new Random(1));
    assertThat(backoff.allows(0)).isFalse();
    assertThat(backoff.allows(1)).isTrue();
    assertThat(backoff.allows(3)).isTrue();
    assertThat(backoff.allows(4)).isFalse();
  }

  @Test void invalidSettingsAreNamed() {
    assertThatThrownBy(() -> new Backoff(0, 1, TimeUnit.SECONDS, 1, new Random()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("base must be positive; was: 0");
    assertThatThrownBy(() -> new Backoff(2, 1, TimeUnit.SECONDS, 1, new Random()))
        .hasMessage("cap must be at least base (2); was: 1");
    assertThatThrownBy(() -> new Backoff(1, 1, TimeUnit.SECONDS, -1, new Random()))
        .hasMessage("maxRetries must be 0 or more; was: -1");
  }

  @Test void theBackoffHonoursRetryAfterUpToItsCap() {
    Backoff backoff = new Backoff(1, 30, TimeUnit.SECONDS, 3,
        new Random(1));
    IOException busy = new ServerBusyException("HTTP 503", 503, 12_000L);
    assertThat(backoff.honouringRetryAfter(busy, 500L)).isEqualTo(12_000L);
    assertThat(backoff.honouringRetryAfter(busy, 20_000L)).isEqualTo(20_000L);
    assertThat(backoff.honouringRetryAfter(new ServerBusyException("HTTP 503", 503, 3_600_000L), 500L))
        .isEqualTo(30_000L);
    assertThat(backoff.honouringRetryAfter(new IOException("reset"), 500L)).isEqualTo(500L);
    assertThat(backoff.honouringRetryAfter(null, 500L)).isEqualTo(500L);
    assertThat(backoff.honouringRetryAfter(-1L, 500L)).isEqualTo(500L);
  }
}
