package dev.voicelink.samples.speaker;

import io.nayuki.qrcodegen.QrCode;

/** Draws a link as a QR code in a terminal, so that a phone can scan it off the screen. */
final class TerminalQr {
  /** The light margin around the symbol, in modules, that the QR standard asks for. */
  static final int QUIET_ZONE = 4;

  private TerminalQr() {
  }

  /**
   * The QR code of {@code text} (error correction M) as lines of half-block characters: each
   * character cell holds two modules, one above the other. Light modules are drawn as blocks, so the
   * code reads on the dark background most terminals have.
   *
   * @throws IllegalArgumentException if the text is too long for a QR code
   */
  static String render(String text) {
    QrCode code;
    try {
      code = QrCode.encodeText(text, QrCode.Ecc.MEDIUM);
    } catch (io.nayuki.qrcodegen.DataTooLongException e) {
      throw new IllegalArgumentException("the link is too long for a QR code: " + text.length()
          + " characters", e);
    }
    StringBuilder out = new StringBuilder();
    for (int y = -QUIET_ZONE; y < code.size + QUIET_ZONE; y += 2) {
      for (int x = -QUIET_ZONE; x < code.size + QUIET_ZONE; x++) {
        // getModule is false (light) outside the symbol, which draws the quiet zone.
        boolean top = code.getModule(x, y);
        boolean bottom = code.getModule(x, y + 1);
        if (!top && !bottom) {
          out.append('\u2588');
        } else if (!top) {
          out.append('\u2580');
        } else if (!bottom) {
          out.append('\u2584');
        } else {
          out.append(' ');
        }
      }
      out.append('\n');
    }
    return out.toString();
  }
}
