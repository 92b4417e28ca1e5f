package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.LuminanceSource;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.Result;
import com.google.zxing.ResultMetadataType;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

// Every code is read back by ZXing, an independent decoder, the way a phone's camera app would.
class QrCodeTest {
  private static final String LINK = "http://10.0.2.2:8080/auth/verify?user_code=BCDFGHJK";

  @Test
  void theVerificationLinkDecodesWithEveryMask() throws Exception {
    for (int mask = 0; mask < 8; mask++) {
      QrCode code = QrCode.encode(LINK, mask);
      assertThat(code.mask).isEqualTo(mask);
      Result result = decode(code);
      assertThat(result.getText()).as("mask " + mask).isEqualTo(LINK);
      assertThat(result.getResultMetadata().get(ResultMetadataType.ERROR_CORRECTION_LEVEL)).isEqualTo("M");
    }
  }

  // The byte capacity of each version at level M: the largest text of a version and one byte more.
  @ParameterizedTest
  @CsvSource({"14,1", "15,2", "26,2", "27,3", "42,3", "62,4", "84,5", "106,6", "107,7", "122,7",
      "152,8", "180,9", "181,10", "213,10"})
  void smallestVersionThatHoldsTheTextIsChosenAndDecodes(int length, int version) throws Exception {
    String text = text(length);
    QrCode code = QrCode.encode(text);
    assertThat(code.version).isEqualTo(version);
    assertThat(code.size).isEqualTo(17 + 4 * version);
    assertThat(decode(code).getText()).isEqualTo(text);
  }

  @Test
  void multiByteUtf8Decodes() throws Exception {
    String text = "http://example.com/verify?user_code=ÄÖÜ-代码";
    Map<DecodeHintType, Object> hints = new EnumMap<>(DecodeHintType.class);
    hints.put(DecodeHintType.CHARACTER_SET, "UTF-8");
    assertThat(decode(QrCode.encode(text), hints).getText()).isEqualTo(text);
  }

  @Test
  void textBeyondVersion10IsRefused() {
    assertThatThrownBy(() -> QrCode.encode(text(214)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("text is too long for a version 10 QR code: 214 bytes");
  }

  @Test
  void maskOutOfRangeIsRefused() {
    assertThatThrownBy(() -> QrCode.encode(LINK, 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mask must be -1..7; was 8");
  }

  private static String text(int length) {
    StringBuilder text = new StringBuilder("http://10.0.2.2:8080/auth/verify?user_code=");
    while (text.length() < length) {
      text.append((char) ('A' + text.length() % 26));
    }
    return text.substring(0, length);
  }

  private static Result decode(QrCode code) throws Exception {
    Map<DecodeHintType, Object> hints = new EnumMap<>(DecodeHintType.class);
    return decode(code, hints);
  }

  // As the app renders it (QrCodes), read by ZXing's detector, as a camera would see the screen.
  private static Result decode(QrCode code, Map<DecodeHintType, Object> hints) throws Exception {
    int side = code.side(QrCodes.PIXELS_PER_MODULE, QrCodes.QUIET_ZONE);
    int[] pixels = code.pixels(QrCodes.PIXELS_PER_MODULE, QrCodes.QUIET_ZONE, 0xFF000000, 0xFFFFFFFF);
    LuminanceSource source = new RGBLuminanceSource(side, side, pixels);
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints);
  }
}
