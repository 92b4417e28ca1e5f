package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The terminal drawing, turned back into pixels and read by ZXing's detector. */
class TerminalQrTest {
  private static final int PIXELS_PER_MODULE = 4;

  @Test void theVerificationLinkIsReadBackFromTheTerminalText() throws Exception {
    String link = "http://127.0.0.1:8080/auth/verify?user_code=BCDFGHJK";
    assertThat(read(TerminalQr.render(link))).isEqualTo(link);
  }

  @Test void multiByteUtf8IsReadBack() throws Exception {
    String link = "http://example.com/verify?user_code=ÄÖÜ-代码";
    assertThat(read(TerminalQr.render(link))).isEqualTo(link);
  }

  @Test void everyLineHasTheSymbolAndBothQuietZonesAndNothingElse() {
    String text = TerminalQr.render("http://127.0.0.1:8080/auth/verify?user_code=BCDFGHJK");
    String[] lines = text.split("\n");
    int width = lines[0].length();
    // 53 bytes need version 4 at level M (version 3 holds 42): 33 modules, and four light ones a side
    assertThat(width).isEqualTo(33 + 2 * TerminalQr.QUIET_ZONE);
    assertThat(lines).hasSize((width + 1) / 2).allSatisfy(line -> {
      assertThat(line).hasSize(width).matches("[\u2588\u2580\u2584 ]+");
    });
    assertThat(lines[0]).as("the top quiet zone is light").matches("\u2588+");
  }

  @Test void aLinkTooLongForAQrCodeIsRefusedNamingItsLength() {
    StringBuilder link = new StringBuilder("http://example.com/?");
    while (link.length() < 3000) link.append('x');
    assertThatThrownBy(() -> TerminalQr.render(link.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the link is too long for a QR code: 3000 characters");
  }

  /** Each character cell is two modules, top and bottom; a block is two light modules. */
  private static String read(String text) throws Exception {
    String[] lines = text.split("\n");
    int columns = lines[0].length();
    int rows = lines.length * 2;
    int width = columns * PIXELS_PER_MODULE;
    int height = rows * PIXELS_PER_MODULE;
    int[] pixels = new int[width * height];
    for (int row = 0; row < rows; row++) {
      for (int column = 0; column < columns; column++) {
        char cell = lines[row / 2].charAt(column);
        boolean top = row % 2 == 0;
        boolean dark = cell == ' ' || (top ? cell == '\u2584' : cell == '\u2580');
        for (int dy = 0; dy < PIXELS_PER_MODULE; dy++) {
          for (int dx = 0; dx < PIXELS_PER_MODULE; dx++) {
            pixels[(row * PIXELS_PER_MODULE + dy) * width + column * PIXELS_PER_MODULE + dx] =
                dark ? 0xFF000000 : 0xFFFFFFFF;
          }
        }
      }
    }
    Map<DecodeHintType, Object> hints = new EnumMap<>(DecodeHintType.class);
    hints.put(DecodeHintType.CHARACTER_SET, "UTF-8");
    hints.put(DecodeHintType.PURE_BARCODE, Boolean.TRUE);
    RGBLuminanceSource source = new RGBLuminanceSource(width, height, pixels);
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
  }
}
