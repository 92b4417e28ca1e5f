package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The reference server writes decimals as servers do: plain digits, every decimal kept. */
class JsonTest {
  @Test void decimalsAreWrittenInPlainDigitsWithTheirDecimals() {
    assertThat(Json.write(Json.obj("created_at", BigDecimal.valueOf(1_763_712_005_000L, 3))))
        .isEqualTo("{\"created_at\":1763712005.000}");
    assertThat(Json.write(Json.obj("expires_in", BigDecimal.valueOf(1.99999995E7))))
        .isEqualTo("{\"expires_in\":19999999.5}");
    assertThat(Json.write(Json.obj("expires_in", BigDecimal.valueOf(2.0E10))))
        .as("a decimal whose scale is below zero").isEqualTo("{\"expires_in\":20000000000}");
  }
}
