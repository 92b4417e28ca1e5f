package dev.voicelink.samples.app;

import dev.voicelink.samples.qr.QrCode;

import android.graphics.Bitmap;
import android.graphics.Color;

/** Renders a link as a QR code bitmap, black on white with the standard four-module quiet zone. */
final class QrCodes {
  static final int QUIET_ZONE = 4;
  static final int PIXELS_PER_MODULE = 8;

  private QrCodes() {
  }

  /** The QR code of {@code text}. @throws IllegalArgumentException if the text is too long */
  static Bitmap bitmap(String text) {
    QrCode code = QrCode.encode(text);
    int side = code.side(PIXELS_PER_MODULE, QUIET_ZONE);
    int[] pixels = code.pixels(PIXELS_PER_MODULE, QUIET_ZONE, Color.BLACK, Color.WHITE);
    return Bitmap.createBitmap(pixels, side, side, Bitmap.Config.ARGB_8888);
  }
}
