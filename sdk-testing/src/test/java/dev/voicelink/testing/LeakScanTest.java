package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LeakScanTest {
  private static final String TOKEN = "at_00112233445566778899aabbccddeeff";

  @Test void aFindingNamesKindPlaceAndLineButNeverTheSecret() {
    LeakScan scan = LeakScan.empty().secret("access_token", TOKEN)
        .secret("refresh_token", "rt_99887766554433221100ffeeddccbbaa");

    scan.scan("stderr", "first line\nAuthorization: " + TOKEN + " rt_99887766554433221100ffeeddccbbaa");

    assertThat(scan.findings()).hasSize(2);
    assertThatThrownBy(scan::assertNoLeak).isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("2 secret(s) leaked:\n  access_token #1 of 1 (35 chars) in stderr at line 2:"
            + " …first line Authorization: *********************************** ‹…›…")
        .hasMessageNotContaining(TOKEN).hasMessageNotContaining("99887766");
  }

  @Test void smsCodesCountOnlyWhereNoDigitIsNextToThem() {
    LeakScan scan = LeakScan.empty().secret("sms_code", "123456");

    scan.scan("out", "at 1712345678 ms, size 91234567");
    assertThat(scan.findings()).isEmpty();

    scan.scan("out", "your code is 123456.");
    assertThat(scan.findings()).hasSize(1);
  }

  @Test void cleanTextPassesAndCountsWhatWasScanned() {
    LeakScan scan = LeakScan.empty().secret("client_secret", "s3cret-value");

    scan.scan("log", "nothing here").scan("log", "or here");

    scan.assertNoLeak();
    assertThat(scan.totalScannedChars()).isEqualTo(19);
    assertThat(scan.counts()).containsEntry("client_secret", 1);
  }

  @Test void aScanWithoutSecretsCannotPass() {
    assertThatThrownBy(() -> LeakScan.empty().scan("log", "x").assertNoLeak())
        .hasMessage("no secrets were collected: the scan cannot fail");
  }
}
