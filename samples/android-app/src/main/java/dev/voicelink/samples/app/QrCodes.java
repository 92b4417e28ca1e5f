package dev.voicelink.samples.app;

import android.graphics.Bitmap;
import android.graphics.Color;
import io.nayuki.qrcodegen.QrCode;

/**
 * Renders a link as a QR code bitmap, black on white with the standard four-module quiet zone.
 * Only {@link QrCode#encodeText} is used: the library's {@code QrSegmentAdvanced} (kanji mode) calls
 * stream APIs that Android 21 lacks.
 */
final class QrCodes {
  static final int QUIET_ZONE = 4;
  static final int PIXELS_PER_MODULE = 8;

  private QrCodes() {
  }

  /** The QR code of {@code text}. @throws IllegalArgumentException if the text is too long */
  static Bitmap bitmap(String text) {
    QrCode code;
    try {
      code = QrCode.encodeText(text, QrCode.Ecc.MEDIUM);
    } catch (io.nayuki.qrcodegen.DataTooLongException e) {
      throw new IllegalArgumentException("the link is too long for a QR code", e);
    }
    int side = (code.size + 2 * QUIET_ZONE) * PIXELS_PER_MODULE;
    int[] pixels = new int[side * side];
    for (int y = 0; y < side; y++) {
      int moduleY = y / PIXELS_PER_MODULE - QUIET_ZONE;
      for (int x = 0; x < side; x++) {
        int moduleX = x / PIXELS_PER_MODULE - QUIET_ZONE;
        // getModule is false (light) outside the symbol, which draws the quiet zone.
        pixels[y * side + x] = code.getModule(moduleX, moduleY) ? Color.BLACK : Color.WHITE;
      }
    }
    return Bitmap.createBitmap(pixels, side, side, Bitmap.Config.ARGB_8888);
  }
}
