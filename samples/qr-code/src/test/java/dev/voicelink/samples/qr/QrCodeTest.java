package dev.voicelink.samples.qr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.zxing.common.BitMatrix;
import com.google.zxing.common.DecoderResult;
import com.google.zxing.qrcode.decoder.Decoder;
import org.junit.jupiter.api.Test;

/** Every code is read back by an independent decoder (ZXing), for each version and mask. */
class QrCodeTest {
  private static String decode(QrCode code) throws Exception {
    BitMatrix matrix = new BitMatrix(code.size());
    for (int row = 0; row < code.size(); row++) {
      for (int column = 0; column < code.size(); column++) {
        if (code.isDark(row, column)) matrix.set(column, row);
      }
    }
    DecoderResult result = new Decoder().decode(matrix);
    assertThat(result.getECLevel()).isEqualTo("M");
    return result.getText();
  }

  private static String text(int length) {
    StringBuilder result = new StringBuilder("https://auth.example.com/verify?user_code=");
    while (result.length() < length) result.append((char) ('A' + result.length() % 26));
    return result.substring(0, length);
  }

  @Test void versionOneHasTheKnownFinderAndTimingPatterns() {
    QrCode code = QrCode.encode("WDJB-MJHT");
    assertThat(code.version()).isEqualTo(1);
    assertThat(code.size()).isEqualTo(21);
    String[] finder = {"#######", "#.....#", "#.###.#", "#.###.#", "#.###.#", "#.....#", "#######"};
    for (int r = 0; r < 7; r++) {
      for (int c = 0; c < 7; c++) {
        boolean expected = finder[r].charAt(c) == '#';
        assertThat(code.isDark(r, c)).isEqualTo(expected);
        assertThat(code.isDark(r, 14 + c)).isEqualTo(expected);
        assertThat(code.isDark(14 + r, c)).isEqualTo(expected);
      }
    }
    for (int i = 8; i < 13; i++) assertThat(code.isDark(6, i)).isEqualTo(i % 2 == 0);
    assertThat(code.isDark(13, 8)).as("dark module").isTrue();
  }

  @Test void everyVersionDecodes() throws Exception {
    int[] lengths = {10, 20, 40, 60, 80, 100, 120, 150, 180, 210};
    for (int i = 0; i < lengths.length; i++) {
      QrCode code = QrCode.encode(text(lengths[i]));
      assertThat(code.version()).isEqualTo(i + 1);
      assertThat(decode(code)).isEqualTo(text(lengths[i]));
    }
  }

  @Test void versionCapacityBoundaries() throws Exception {
    // level M byte capacity: version 1 holds 14 bytes, version 10 holds 213
    assertThat(QrCode.encode(text(14)).version()).isEqualTo(1);
    assertThat(QrCode.encode(text(15)).version()).isEqualTo(2);
    assertThat(decode(QrCode.encode(text(213)))).isEqualTo(text(213));
    assertThatThrownBy(() -> QrCode.encode(text(214)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("text is too long for a QR code of version 10: 214 bytes");
  }

  @Test void maskOutOfRangeIsRefused() {
    assertThatThrownBy(() -> QrCode.encode("x", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mask must be -1..7; was 8");
  }

  @Test void everyMaskDecodes() throws Exception {
    for (int mask = 0; mask < 8; mask++) {
      QrCode code = QrCode.encode("http://127.0.0.1:8080/auth/verify?user_code=BCDFGHJK", mask);
      assertThat(code.mask()).isEqualTo(mask);
      assertThat(decode(code)).isEqualTo("http://127.0.0.1:8080/auth/verify?user_code=BCDFGHJK");
    }
  }

  @Test void utf8Decodes() throws Exception {
    assertThat(decode(QrCode.encode("https://a.example.com/v?c=张三"))).isEqualTo(
        "https://a.example.com/v?c=张三");
  }

  @Test void textRenderingHasAQuietZoneAndTwoRowsPerLine() {
    QrCode code = QrCode.encode("WDJB-MJHT");
    String[] lines = code.toText().split("\n");
    assertThat(lines).hasSize((21 + 8 + 1) / 2);
    for (String line : lines) assertThat(line).hasSize(21 + 8);
    assertThat(lines[0]).matches("\u2588+");
  }
}
