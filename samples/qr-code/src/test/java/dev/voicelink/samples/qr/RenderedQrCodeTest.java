package dev.voicelink.samples.qr;

import static org.assertj.core.api.Assertions.assertThat;

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

/** The rendered pixels, read by ZXing's detector the way a phone's camera reads a screen. */
class RenderedQrCodeTest {
  private static final int PIXELS_PER_MODULE = 8;
  private static final int QUIET_ZONE = 4;
  private static final String LINK = "http://10.0.2.2:8080/auth/verify?user_code=BCDFGHJK";

  @Test
  void theVerificationLinkIsReadFromThePixelsWithEveryMask() throws Exception {
    for (int mask = 0; mask < 8; mask++) {
      Result result = decode(QrCode.encode(LINK, mask), new EnumMap<>(DecodeHintType.class));
      assertThat(result.getText()).as("mask " + mask).isEqualTo(LINK);
      assertThat(result.getResultMetadata().get(ResultMetadataType.ERROR_CORRECTION_LEVEL)).isEqualTo("M");
    }
  }

  @ParameterizedTest
  @CsvSource({"14,1", "42,3", "107,7", "213,10"})
  void everySizeIsReadFromThePixels(int length, int version) throws Exception {
    String text = text(length);
    QrCode code = QrCode.encode(text);
    assertThat(code.version()).isEqualTo(version);
    assertThat(code.side(PIXELS_PER_MODULE, QUIET_ZONE))
        .isEqualTo((17 + 4 * version + 2 * QUIET_ZONE) * PIXELS_PER_MODULE);
    assertThat(decode(code, new EnumMap<>(DecodeHintType.class)).getText()).isEqualTo(text);
  }

  @Test
  void multiByteUtf8IsReadFromThePixels() throws Exception {
    String text = "http://example.com/verify?user_code=ÄÖÜ-代码";
    Map<DecodeHintType, Object> hints = new EnumMap<>(DecodeHintType.class);
    hints.put(DecodeHintType.CHARACTER_SET, "UTF-8");
    assertThat(decode(QrCode.encode(text), hints).getText()).isEqualTo(text);
  }

  private static String text(int length) {
    StringBuilder text = new StringBuilder("http://10.0.2.2:8080/auth/verify?user_code=");
    while (text.length() < length) {
      text.append((char) ('A' + text.length() % 26));
    }
    return text.substring(0, length);
  }

  private static Result decode(QrCode code, Map<DecodeHintType, Object> hints) throws Exception {
    int side = code.side(PIXELS_PER_MODULE, QUIET_ZONE);
    int[] pixels = code.pixels(PIXELS_PER_MODULE, QUIET_ZONE, 0xFF000000, 0xFFFFFFFF);
    LuminanceSource source = new RGBLuminanceSource(side, side, pixels);
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints);
  }
}
