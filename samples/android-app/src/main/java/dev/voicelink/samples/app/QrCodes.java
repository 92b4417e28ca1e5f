package dev.voicelink.samples.app;

import android.graphics.Bitmap;
import javax.annotation.Nullable;

/** Renders a link as a QR code bitmap. */
final class QrCodes {
  private QrCodes() {
  }

  /** The QR code of {@code text}, or null when it cannot be encoded. */
  static @Nullable Bitmap bitmap(String text) {
    return null;
  }
}
