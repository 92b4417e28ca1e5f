package dev.voicelink.samples.qr;

import java.nio.charset.StandardCharsets;

/**
 * A small QR code encoder (ISO/IEC 18004): byte mode, versions 1 to 10, error correction level M
 * (15% of the symbol may be damaged), the mask with the lowest penalty. Enough for a verification
 * link: the speaker CLI prints it on a terminal, the Android sample draws it on screen, and the user
 * scans it with a phone.
 *
 * <p>Immutable; {@link #encode} may be called from any thread.
 */
public final class QrCode {
  public static final int MAX_VERSION = 10;
  /** Error correction codewords per block, level M, versions 1..10. */
  private static final int[] EC_PER_BLOCK = {0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26};
  /** Number of blocks, level M, versions 1..10. */
  private static final int[] BLOCKS = {0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5};
  /** Format bits of level M. */
  private static final int LEVEL_M = 0;

  private final int version;
  private final int size;
  private final boolean[][] dark;      // [row][column]
  private final boolean[][] function;  // modules that are not data
  private final int mask;

  private QrCode(int version, byte[] codewords, int forcedMask) {
    this.version = version;
    this.size = version * 4 + 17;
    this.dark = new boolean[size][size];
    this.function = new boolean[size][size];
    drawFunctionPatterns();
    drawCodewords(codewords);
    int chosen = forcedMask;
    if (chosen < 0) {
      int best = Integer.MAX_VALUE;
      for (int m = 0; m < 8; m++) {
        applyMask(m);
        drawFormatBits(m);
        int penalty = penalty();
        if (penalty < best) {
          best = penalty;
          chosen = m;
        }
        applyMask(m); // masking twice undoes it
      }
    }
    this.mask = chosen;
    applyMask(chosen);
    drawFormatBits(chosen);
  }

  /** Encodes {@code text} as UTF-8 in the smallest version that holds it. */
  public static QrCode encode(String text) {
    return encode(text, -1);
  }

  /** Encodes with a given mask (0..7), or the best one for -1. */
  public static QrCode encode(String text, int mask) {
    if (mask < -1 || mask > 7) throw new IllegalArgumentException("mask must be -1..7; was " + mask);
    byte[] data = text.getBytes(StandardCharsets.UTF_8);
    for (int version = 1; version <= MAX_VERSION; version++) {
      int capacityBits = dataCodewords(version) * 8;
      int neededBits = 4 + (version < 10 ? 8 : 16) + data.length * 8;
      if (neededBits <= capacityBits) {
        return new QrCode(version, addErrorCorrection(version, dataBytes(version, data)), mask);
      }
    }
    throw new IllegalArgumentException("text is too long for a QR code of version "
        + MAX_VERSION + ": " + data.length + " bytes");
  }

  public int version() {
    return version;
  }

  public int size() {
    return size;
  }

  public int mask() {
    return mask;
  }

  public boolean isDark(int row, int column) {
    return dark[row][column];
  }

  /**
   * The symbol as text for a terminal: two modules per character cell vertically (half blocks),
   * dark on light, with the four-module quiet zone the standard asks for.
   */
  public String toText() {
    int quiet = 4;
    StringBuilder out = new StringBuilder();
    for (int row = -quiet; row < size + quiet; row += 2) {
      for (int column = -quiet; column < size + quiet; column++) {
        boolean top = module(row, column);
        boolean bottom = module(row + 1, column);
        // Light modules are drawn as blocks so the code reads on dark terminal backgrounds.
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

  /** Side in pixels of {@link #pixels}. */
  public int side(int pixelsPerModule, int quietZone) {
    return (size + 2 * quietZone) * pixelsPerModule;
  }

  /**
   * The symbol as a square of ARGB pixels, row by row, with a light quiet zone of {@code quietZone}
   * modules: what a screen shows (Android's {@code Bitmap.createBitmap(int[], w, h, ARGB_8888)}).
   */
  public int[] pixels(int pixelsPerModule, int quietZone, int darkColor, int lightColor) {
    int side = side(pixelsPerModule, quietZone);
    int[] pixels = new int[side * side];
    for (int y = 0; y < side; y++) {
      for (int x = 0; x < side; x++) {
        boolean isDark = module(y / pixelsPerModule - quietZone, x / pixelsPerModule - quietZone);
        pixels[y * side + x] = isDark ? darkColor : lightColor;
      }
    }
    return pixels;
  }

  private boolean module(int row, int column) {
    return row >= 0 && row < size && column >= 0 && column < size && dark[row][column];
  }

  // ---- capacity and codewords ----

  static int totalCodewords(int version) {
    int modules = (16 * version + 128) * version + 64;
    if (version >= 2) {
      int align = version / 7 + 2;
      modules -= (25 * align - 10) * align - 55;
      if (version >= 7) modules -= 36;
    }
    return modules / 8;
  }

  static int dataCodewords(int version) {
    return totalCodewords(version) - EC_PER_BLOCK[version] * BLOCKS[version];
  }

  private static byte[] dataBytes(int version, byte[] data) {
    int capacity = dataCodewords(version);
    BitBuffer bits = new BitBuffer();
    bits.append(0x4, 4); // byte mode
    bits.append(data.length, version < 10 ? 8 : 16);
    for (byte b : data) bits.append(b & 0xFF, 8);
    bits.append(0, Math.min(4, capacity * 8 - bits.length));
    bits.append(0, (8 - bits.length % 8) % 8);
    for (int pad = 0xEC; bits.length < capacity * 8; pad ^= 0xEC ^ 0x11) bits.append(pad, 8);
    return bits.toBytes();
  }

  private static byte[] addErrorCorrection(int version, byte[] data) {
    int blocks = BLOCKS[version];
    int ecLength = EC_PER_BLOCK[version];
    int total = totalCodewords(version);
    int shortBlocks = blocks - total % blocks;
    int shortLength = total / blocks; // data + ec of a short block
    byte[] divisor = rsDivisor(ecLength);
    byte[][] withEc = new byte[blocks][];
    for (int i = 0, offset = 0; i < blocks; i++) {
      int dataLength = shortLength - ecLength + (i < shortBlocks ? 0 : 1);
      byte[] block = new byte[dataLength];
      System.arraycopy(data, offset, block, 0, dataLength);
      offset += dataLength;
      byte[] ec = rsRemainder(block, divisor);
      byte[] full = new byte[shortLength + 1];
      System.arraycopy(block, 0, full, 0, dataLength);
      // short blocks leave one gap before their EC so that columns line up when interleaving
      System.arraycopy(ec, 0, full, shortLength + 1 - ecLength, ecLength);
      withEc[i] = full;
    }
    byte[] result = new byte[total];
    int k = 0;
    for (int i = 0; i < shortLength + 1; i++) {
      for (int j = 0; j < blocks; j++) {
        if (i != shortLength - ecLength || j >= shortBlocks) result[k++] = withEc[j][i];
      }
    }
    return result;
  }

  private static byte[] rsDivisor(int degree) {
    byte[] result = new byte[degree];
    result[degree - 1] = 1;
    int root = 1;
    for (int i = 0; i < degree; i++) {
      for (int j = 0; j < degree; j++) {
        result[j] = (byte) gfMultiply(result[j] & 0xFF, root);
        if (j + 1 < degree) result[j] ^= result[j + 1];
      }
      root = gfMultiply(root, 0x02);
    }
    return result;
  }

  private static byte[] rsRemainder(byte[] data, byte[] divisor) {
    byte[] result = new byte[divisor.length];
    for (byte b : data) {
      int factor = (b ^ result[0]) & 0xFF;
      System.arraycopy(result, 1, result, 0, result.length - 1);
      result[result.length - 1] = 0;
      for (int i = 0; i < result.length; i++) {
        result[i] ^= (byte) gfMultiply(divisor[i] & 0xFF, factor);
      }
    }
    return result;
  }

  private static int gfMultiply(int x, int y) {
    int z = 0;
    for (int i = 7; i >= 0; i--) {
      z = (z << 1) ^ ((z >>> 7) * 0x11D);
      z ^= ((y >>> i) & 1) * x;
    }
    return z;
  }

  // ---- function patterns ----

  private void drawFunctionPatterns() {
    for (int i = 0; i < size; i++) {
      set(6, i, i % 2 == 0);
      set(i, 6, i % 2 == 0);
    }
    drawFinder(3, 3);
    drawFinder(3, size - 4);
    drawFinder(size - 4, 3);
    int[] align = alignmentCenters();
    for (int i = 0; i < align.length; i++) {
      for (int j = 0; j < align.length; j++) {
        boolean nearFinder = (i == 0 && j == 0) || (i == 0 && j == align.length - 1)
            || (i == align.length - 1 && j == 0);
        if (!nearFinder) drawAlignment(align[i], align[j]);
      }
    }
    drawFormatBits(0); // reserves the format areas; redrawn once the mask is chosen
    drawVersion();
  }

  private int[] alignmentCenters() {
    if (version == 1) return new int[0];
    int count = version / 7 + 2;
    int step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2;
    int[] result = new int[count];
    result[0] = 6;
    for (int i = count - 1, position = size - 7; i >= 1; i--, position -= step) {
      result[i] = position;
    }
    return result;
  }

  private void drawFinder(int row, int column) {
    for (int dy = -4; dy <= 4; dy++) {
      for (int dx = -4; dx <= 4; dx++) {
        int distance = Math.max(Math.abs(dx), Math.abs(dy));
        int r = row + dy;
        int c = column + dx;
        if (r >= 0 && r < size && c >= 0 && c < size) set(r, c, distance != 2 && distance != 4);
      }
    }
  }

  private void drawAlignment(int row, int column) {
    for (int dy = -2; dy <= 2; dy++) {
      for (int dx = -2; dx <= 2; dx++) {
        set(row + dy, column + dx, Math.max(Math.abs(dx), Math.abs(dy)) != 1);
      }
    }
  }

  private void drawFormatBits(int maskNumber) {
    int data = LEVEL_M << 3 | maskNumber;
    int rem = data;
    for (int i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    int bits = (data << 10 | rem) ^ 0x5412;
    for (int i = 0; i <= 5; i++) set(i, 8, bit(bits, i));
    set(7, 8, bit(bits, 6));
    set(8, 8, bit(bits, 7));
    set(8, 7, bit(bits, 8));
    for (int i = 9; i < 15; i++) set(8, 14 - i, bit(bits, i));
    for (int i = 0; i < 8; i++) set(8, size - 1 - i, bit(bits, i));
    for (int i = 8; i < 15; i++) set(size - 15 + i, 8, bit(bits, i));
    set(size - 8, 8, true); // the dark module
  }

  private void drawVersion() {
    if (version < 7) return;
    int rem = version;
    for (int i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1F25);
    int bits = version << 12 | rem;
    for (int i = 0; i < 18; i++) {
      boolean on = bit(bits, i);
      int a = size - 11 + i % 3;
      int b = i / 3;
      set(b, a, on);
      set(a, b, on);
    }
  }

  private void set(int row, int column, boolean on) {
    dark[row][column] = on;
    function[row][column] = true;
  }

  private static boolean bit(int value, int index) {
    return ((value >>> index) & 1) != 0;
  }

  // ---- data and masks ----

  private void drawCodewords(byte[] codewords) {
    int i = 0;
    for (int right = size - 1; right >= 1; right -= 2) {
      if (right == 6) right = 5;
      for (int vert = 0; vert < size; vert++) {
        for (int j = 0; j < 2; j++) {
          int column = right - j;
          boolean upward = ((right + 1) & 2) == 0;
          int row = upward ? size - 1 - vert : vert;
          if (!function[row][column] && i < codewords.length * 8) {
            dark[row][column] = bit(codewords[i >>> 3], 7 - (i & 7));
            i++;
          }
        }
      }
    }
  }

  private void applyMask(int maskNumber) {
    for (int y = 0; y < size; y++) {
      for (int x = 0; x < size; x++) {
        if (!function[y][x] && masked(maskNumber, x, y)) dark[y][x] = !dark[y][x];
      }
    }
  }

  static boolean masked(int maskNumber, int x, int y) {
    switch (maskNumber) {
      case 0: return (x + y) % 2 == 0;
      case 1: return y % 2 == 0;
      case 2: return x % 3 == 0;
      case 3: return (x + y) % 3 == 0;
      case 4: return (x / 3 + y / 2) % 2 == 0;
      case 5: return x * y % 2 + x * y % 3 == 0;
      case 6: return (x * y % 2 + x * y % 3) % 2 == 0;
      case 7: return ((x + y) % 2 + x * y % 3) % 2 == 0;
      default: throw new IllegalArgumentException("mask must be 0..7; was: " + maskNumber);
    }
  }

  /** The standard's four penalty rules; the mask with the lowest total reads best. */
  private int penalty() {
    int result = 0;
    int darkCount = 0;
    for (int a = 0; a < size; a++) {
      int rowRun = 0;
      int columnRun = 0;
      for (int b = 0; b < size; b++) {
        if (dark[a][b]) darkCount++;
        rowRun = b > 0 && dark[a][b] == dark[a][b - 1] ? rowRun + 1 : 1;
        if (rowRun == 5) result += 3; else if (rowRun > 5) result++;
        columnRun = b > 0 && dark[b][a] == dark[b - 1][a] ? columnRun + 1 : 1;
        if (columnRun == 5) result += 3; else if (columnRun > 5) result++;
        if (a + 1 < size && b + 1 < size && dark[a][b] == dark[a][b + 1]
            && dark[a][b] == dark[a + 1][b] && dark[a][b] == dark[a + 1][b + 1]) {
          result += 3;
        }
        if (b + 11 <= size) {
          if (finderLike(a, b, true)) result += 40;
          if (finderLike(a, b, false)) result += 40;
        }
      }
    }
    int total = size * size;
    int deviation = Math.abs(darkCount * 20 - total * 10);
    result += deviation / total * 10;
    return result;
  }

  private static final boolean[] FINDER_RUN_A =
      {true, false, true, true, true, false, true, false, false, false, false};
  private static final boolean[] FINDER_RUN_B =
      {false, false, false, false, true, false, true, true, true, false, true};

  private boolean finderLike(int line, int start, boolean horizontal) {
    boolean a = true;
    boolean b = true;
    for (int k = 0; k < 11; k++) {
      boolean on = horizontal ? dark[line][start + k] : dark[start + k][line];
      a &= on == FINDER_RUN_A[k];
      b &= on == FINDER_RUN_B[k];
    }
    return a || b;
  }

  private static final class BitBuffer {
    private final java.util.BitSet bits = new java.util.BitSet();
    int length;

    void append(int value, int count) {
      for (int i = count - 1; i >= 0; i--) bits.set(length++, ((value >>> i) & 1) != 0);
    }

    byte[] toBytes() {
      byte[] result = new byte[length / 8];
      for (int i = 0; i < length; i++) {
        if (bits.get(i)) result[i >>> 3] |= (byte) (0x80 >>> (i & 7));
      }
      return result;
    }
  }
}
