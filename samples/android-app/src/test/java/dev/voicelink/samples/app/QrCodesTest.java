package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;

import android.graphics.Bitmap;
import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import java.util.EnumMap;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;

@RunWith(RobolectricTestRunner.class)
public final class QrCodesTest {
  /**
   * The text of the QR code in {@code bitmap}, read by ZXing as a generated symbol: its finder-pattern
   * search for photos misses about 1 in 700 clean symbols, depending on the content.
   */
  static String decode(Bitmap bitmap) throws Exception {
    int width = bitmap.getWidth();
    int height = bitmap.getHeight();
    int[] pixels = new int[width * height];
    bitmap.getPixels(pixels, 0, width, 0, 0, width, height);
    Map<DecodeHintType, Object> hints = new EnumMap<>(DecodeHintType.class);
    hints.put(DecodeHintType.PURE_BARCODE, Boolean.TRUE);
    RGBLuminanceSource source = new RGBLuminanceSource(width, height, pixels);
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
  }

  @Test
  public void linksReadBackExactlyWithTheQuietZone() throws Exception {
    // the first two are among the contents ZXing misses when it reads them as a photo
    for (String link : new String[] {
        "http://localhost:30039/realms/speakers/activate?user_code=WDJB-MJHT",
        "http://localhost:30071/realms/speakers/activate?user_code=WDJB-MJHT",
        "http://127.0.0.1:8080/auth/oauth/ivs/verify?user_code=8NQZ-4KXP"}) {
      Bitmap bitmap = QrCodes.bitmap(link);
      assertThat(decode(bitmap)).isEqualTo(link);
      int modules = bitmap.getWidth() / QrCodes.PIXELS_PER_MODULE;
      assertThat(bitmap.getPixel(0, 0)).as("quiet zone").isEqualTo(0xFFFFFFFF);
      assertThat(bitmap.getPixel(QrCodes.QUIET_ZONE * QrCodes.PIXELS_PER_MODULE,
          QrCodes.QUIET_ZONE * QrCodes.PIXELS_PER_MODULE)).as("finder pattern corner").isEqualTo(0xFF000000);
      assertThat(modules).isEqualTo(bitmap.getHeight() / QrCodes.PIXELS_PER_MODULE);
    }
  }
}
