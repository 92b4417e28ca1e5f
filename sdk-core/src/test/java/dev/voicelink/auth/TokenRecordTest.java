package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.internal.Redact;
import org.junit.jupiter.api.Test;

class TokenRecordTest {
  static TokenRecord record(String access, String refresh) {
    return TokenRecord.builder()
        .grant(TokenRecord.Grant.DEVICE)
        .clientId("vl-speaker-01")
        .accessToken(access)
        .refreshToken(refresh)
        .expiresInSeconds(8_640_000L)
        .createdAtEpochSeconds(1_763_712_000L)
        .receivedAtEpochMillis(1_763_712_000_500L)
        .build();
  }

  @Test void storageJsonRoundTripsAndNamesWhatIsWrong() throws Exception {
    TokenRecord record = record("at-1", "rt-1");
    String json = record.toStorageJson();
    assertThat(json).startsWith("{\"version\":1,\"grant\":");
    assertThat(TokenRecord.fromStorageJson(json)).isEqualTo(record);
    assertThatThrownBy(() -> TokenRecord.fromStorageJson(json.replace("\"version\":1", "\"version\":2")))
        .isInstanceOf(java.io.IOException.class)
        .hasMessage("version 2 is not supported; this SDK reads version 1");
    assertThatThrownBy(() -> TokenRecord.fromStorageJson("{\"version\":1,\"grant\":\"device\"}"))
        .hasMessage("client_id is missing");
  }

  @Test void everyRecordTheBuilderTakesIsReadBackFromStorage() throws Exception {
    // the largest values the builder takes: a record that said more could be saved, never loaded
    TokenRecord longest = record("at-1", "rt-1").newBuilder().expiresInSeconds(315_360_000L)
        .createdAtEpochSeconds(253_402_300_799L).receivedAtEpochMillis(253_402_300_799_999L).build();
    assertThat(TokenRecord.fromStorageJson(longest.toStorageJson())).isEqualTo(longest);
    assertThatThrownBy(() -> TokenRecord.builder().expiresInSeconds(Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expires_in must be 0 to 315360000 seconds (10 years); was: " + Long.MAX_VALUE);
    assertThatThrownBy(() -> TokenRecord.builder().createdAtEpochSeconds(253_402_300_800L))
        .hasMessage("created_at must be 0 to 253402300799 epoch seconds (the year 9999); was:"
            + " 253402300800");
    assertThatThrownBy(() -> TokenRecord.builder().receivedAtEpochMillis(Long.MAX_VALUE))
        .hasMessage("receivedAtEpochMillis must be 0 to 253402300799999 (the year 9999); was: "
            + Long.MAX_VALUE);
  }

  @Test void toStringShowsFingerprintsOnly() {
    TokenRecord record = record("at-7c1e9d2b5a", "rt-0f4a8e3c6d");
    assertThat(record.toString())
        .doesNotContain("at-7c1e9d2b5a")
        .doesNotContain("rt-0f4a8e3c6d")
        .isEqualTo("TokenRecord{grant=device, client_id=vl-speaker-01, token_type=bearer,"
            + " access_token=" + Redact.secret("at-7c1e9d2b5a")
            + ", refresh_token=" + Redact.secret("rt-0f4a8e3c6d")
            + ", expires_in=8640000, created_at=1763712000, received_at_ms=1763712000500}");
  }

  @Test void expiryCountsFromReceiptNotFromCreatedAt() {
    TokenRecord record = record("a", "r").newBuilder().createdAtEpochSeconds(0).build();
    assertThat(record.expiresAtEpochMillis()).isEqualTo(1_763_712_000_500L + 8_640_000_000L);
  }

  @Test void missingFieldsAreNamed() {
    assertThatThrownBy(() -> TokenRecord.builder().grant(TokenRecord.Grant.CLOUD).clientId("c")
        .expiresInSeconds(1).receivedAtEpochMillis(0).build())
        .isInstanceOf(IllegalStateException.class).hasMessage("access_token is required");
    assertThatThrownBy(() -> TokenRecord.builder().expiresInSeconds(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expires_in must be 0 to 315360000 seconds (10 years); was: -1");
    assertThatThrownBy(() -> TokenRecord.builder().clientId(" vl-speaker"))
        .hasMessage("client_id must not start or end with a space; was: \" vl-speaker\"");
  }
}
