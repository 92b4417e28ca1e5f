package dev.voicelink.samples.app;

import java.nio.charset.StandardCharsets;

/**
 * A minimal QR code encoder (ISO/IEC 18004): byte mode, error correction level M, versions 1 to 10
 * (up to 213 bytes, plenty for a verification link), the mask with the lowest penalty. Enough to put
 * the device-authorization link on screen without a library that the Android build cannot fetch.
 *
 * <p>Immutable once built. {@link #dark(int, int)} reads module (x, y), 0-based from the top left,
 * without the quiet zone.
 */
final class QrCode {
  static final int MAX_VERSION = 10;
  // Level M, indexed by version (index 0 unused).
  private static final int[] ECC_PER_BLOCK = {-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26};
  private static final int[] BLOCKS = {-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5};
  private static final int FORMAT_BITS_M = 0;

  final int version;
  final int size;
  final int mask;
  private final boolean[][] modules;
  private final boolean[][] function;

  private QrCode(int version, byte[] dataCodewords, int forcedMask) {
    this.version = version;
    this.size = version * 4 + 17;
    modules = new boolean[size][size];
    function = new boolean[size][size];
    drawFunctionPatterns();
    drawCodewords(addEccAndInterleave(dataCodewords));

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
        applyMask(m); // XOR again: undone
      }
    }
    this.mask = chosen;
    applyMask(chosen);
    drawFormatBits(chosen);
  }

  /** The smallest QR code (level M) that holds {@code text} as UTF-8 bytes. */
  static QrCode encode(String text) {
    return encode(text, -1);
  }

  /** As {@link #encode(String)} with a fixed mask 0..7, or -1 for the best one. */
  static QrCode encode(String text, int mask) {
    if (mask < -1 || mask > 7) throw new IllegalArgumentException("mask must be -1..7; was " + mask);
    byte[] data = text.getBytes(StandardCharsets.UTF_8);
    for (int version = 1; version <= MAX_VERSION; version++) {
      int capacityBits = dataCodewords(version) * 8;
      int countBits = version <= 9 ? 8 : 16;
      if (4 + countBits + data.length * 8 > capacityBits) continue;

      BitBuffer bits = new BitBuffer(capacityBits);
      bits.append(0x4, 4); // byte mode
      bits.append(data.length, countBits);
      for (byte b : data) {
        bits.append(b & 0xFF, 8);
      }
      bits.append(0, Math.min(4, capacityBits - bits.length)); // terminator
      bits.append(0, (8 - bits.length % 8) % 8);
      for (int pad = 0xEC; bits.length < capacityBits; pad ^= 0xEC ^ 0x11) {
        bits.append(pad, 8);
      }
      return new QrCode(version, bits.bytes(), mask);
    }
    throw new IllegalArgumentException("text is too long for a version " + MAX_VERSION
        + " QR code: " + data.length + " bytes");
  }

  boolean dark(int x, int y) {
    return modules[y][x];
  }

  /** Side in pixels of {@link #pixels}. */
  int side(int pixelsPerModule, int quietZone) {
    return (size + 2 * quietZone) * pixelsPerModule;
  }

  /** The code as a square of ARGB pixels, row by row, with a light quiet zone of {@code quietZone} modules. */
  int[] pixels(int pixelsPerModule, int quietZone, int darkColor, int lightColor) {
    int side = side(pixelsPerModule, quietZone);
    int[] pixels = new int[side * side];
    for (int y = 0; y < side; y++) {
      int my = y / pixelsPerModule - quietZone;
      for (int x = 0; x < side; x++) {
        int mx = x / pixelsPerModule - quietZone;
        boolean dark = mx >= 0 && my >= 0 && mx < size && my < size && modules[my][mx];
        pixels[y * side + x] = dark ? darkColor : lightColor;
      }
    }
    return pixels;
  }

  // ---- layout ----

  private void drawFunctionPatterns() {
    for (int i = 0; i < size; i++) {
      setFunction(6, i, i % 2 == 0);
      setFunction(i, 6, i % 2 == 0);
    }
    drawFinder(3, 3);
    drawFinder(size - 4, 3);
    drawFinder(3, size - 4);
    int[] align = alignmentPositions();
    int n = align.length;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        boolean underFinder = (i == 0 && j == 0) || (i == 0 && j == n - 1) || (i == n - 1 && j == 0);
        if (!underFinder) drawAlignment(align[i], align[j]);
      }
    }
    drawFormatBits(0); // reserves the area; redrawn with the real mask
    drawVersion();
  }

  private void drawFinder(int x, int y) {
    for (int dy = -4; dy <= 4; dy++) {
      for (int dx = -4; dx <= 4; dx++) {
        int distance = Math.max(Math.abs(dx), Math.abs(dy));
        int xx = x + dx;
        int yy = y + dy;
        if (xx >= 0 && xx < size && yy >= 0 && yy < size) setFunction(xx, yy, distance != 2 && distance != 4);
      }
    }
  }

  private void drawAlignment(int x, int y) {
    for (int dy = -2; dy <= 2; dy++) {
      for (int dx = -2; dx <= 2; dx++) {
        setFunction(x + dx, y + dy, Math.max(Math.abs(dx), Math.abs(dy)) != 1);
      }
    }
  }

  private int[] alignmentPositions() {
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

  private void drawFormatBits(int mask) {
    int data = FORMAT_BITS_M << 3 | mask;
    int remainder = data;
    for (int i = 0; i < 10; i++) {
      remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
    }
    int bits = (data << 10 | remainder) ^ 0x5412;
    for (int i = 0; i <= 5; i++) {
      setFunction(8, i, bit(bits, i));
    }
    setFunction(8, 7, bit(bits, 6));
    setFunction(8, 8, bit(bits, 7));
    setFunction(7, 8, bit(bits, 8));
    for (int i = 9; i < 15; i++) {
      setFunction(14 - i, 8, bit(bits, i));
    }
    for (int i = 0; i < 8; i++) {
      setFunction(size - 1 - i, 8, bit(bits, i));
    }
    for (int i = 8; i < 15; i++) {
      setFunction(8, size - 15 + i, bit(bits, i));
    }
    setFunction(8, size - 8, true);
  }

  private void drawVersion() {
    if (version < 7) return;
    int remainder = version;
    for (int i = 0; i < 12; i++) {
      remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1F25);
    }
    int bits = version << 12 | remainder;
    for (int i = 0; i < 18; i++) {
      boolean dark = bit(bits, i);
      int a = size - 11 + i % 3;
      int b = i / 3;
      setFunction(a, b, dark);
      setFunction(b, a, dark);
    }
  }

  private void setFunction(int x, int y, boolean dark) {
    modules[y][x] = dark;
    function[y][x] = true;
  }

  private void drawCodewords(byte[] codewords) {
    int i = 0;
    for (int right = size - 1; right >= 1; right -= 2) {
      if (right == 6) right = 5;
      for (int vertical = 0; vertical < size; vertical++) {
        for (int j = 0; j < 2; j++) {
          int x = right - j;
          boolean upward = ((right + 1) & 2) == 0;
          int y = upward ? size - 1 - vertical : vertical;
          if (!function[y][x] && i < codewords.length * 8) {
            modules[y][x] = bit(codewords[i >>> 3], 7 - (i & 7));
            i++;
          }
        }
      }
    }
  }

  private void applyMask(int mask) {
    for (int y = 0; y < size; y++) {
      for (int x = 0; x < size; x++) {
        boolean invert;
        switch (mask) {
          case 0: invert = (x + y) % 2 == 0; break;
          case 1: invert = y % 2 == 0; break;
          case 2: invert = x % 3 == 0; break;
          case 3: invert = (x + y) % 3 == 0; break;
          case 4: invert = (x / 3 + y / 2) % 2 == 0; break;
          case 5: invert = x * y % 2 + x * y % 3 == 0; break;
          case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0; break;
          default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0; break;
        }
        if (invert && !function[y][x]) modules[y][x] = !modules[y][x];
      }
    }
  }

  // The four penalty rules of the standard: long runs, 2x2 blocks, finder-like patterns, dark balance.
  private int penalty() {
    int result = 0;
    for (int a = 0; a < size; a++) {
      result += runPenalty(a, true) + runPenalty(a, false);
    }
    for (int y = 0; y < size - 1; y++) {
      for (int x = 0; x < size - 1; x++) {
        boolean c = modules[y][x];
        if (c == modules[y][x + 1] && c == modules[y + 1][x] && c == modules[y + 1][x + 1]) result += 3;
      }
    }
    int dark = 0;
    for (boolean[] row : modules) {
      for (boolean module : row) {
        if (module) dark++;
      }
    }
    int total = size * size;
    int k = (Math.abs(dark * 20 - total * 10) + total - 1) / total - 1;
    return result + k * 10;
  }

  private int runPenalty(int line, boolean row) {
    int result = 0;
    int run = 0;
    boolean previous = false;
    for (int i = 0; i < size; i++) {
      boolean c = row ? modules[line][i] : modules[i][line];
      if (i > 0 && c == previous) {
        run++;
      } else {
        if (run >= 5) result += run - 2;
        run = 1;
        previous = c;
      }
      if (i + 11 <= size && finderLike(line, i, row)) result += 40;
    }
    if (run >= 5) result += run - 2;
    return result;
  }

  private static final boolean[] FINDER_LIKE = {true, false, true, true, true, false, true};

  private boolean finderLike(int line, int start, boolean row) {
    // 1:1:3:1:1 with four light modules before or after
    return matches(line, start, row, 0, 4) || matches(line, start, row, 4, 0);
  }

  private boolean matches(int line, int start, boolean row, int lightBefore, int lightAfter) {
    int i = start;
    for (int n = 0; n < lightBefore; n++, i++) {
      if (at(line, i, row)) return false;
    }
    for (boolean expected : FINDER_LIKE) {
      if (at(line, i++, row) != expected) return false;
    }
    for (int n = 0; n < lightAfter; n++, i++) {
      if (at(line, i, row)) return false;
    }
    return true;
  }

  private boolean at(int line, int i, boolean row) {
    return row ? modules[line][i] : modules[i][line];
  }

  // ---- error correction ----

  private static int rawDataModules(int version) {
    int result = (16 * version + 128) * version + 64;
    if (version >= 2) {
      int align = version / 7 + 2;
      result -= (25 * align - 10) * align - 55;
      if (version >= 7) result -= 36;
    }
    return result;
  }

  static int dataCodewords(int version) {
    return rawDataModules(version) / 8 - ECC_PER_BLOCK[version] * BLOCKS[version];
  }

  private byte[] addEccAndInterleave(byte[] data) {
    int blocks = BLOCKS[version];
    int eccLength = ECC_PER_BLOCK[version];
    int rawCodewords = rawDataModules(version) / 8;
    int shortBlocks = blocks - rawCodewords % blocks;
    int shortBlockLength = rawCodewords / blocks;
    byte[] divisor = reedSolomonDivisor(eccLength);
    byte[][] all = new byte[blocks][];
    for (int i = 0, k = 0; i < blocks; i++) {
      int dataLength = shortBlockLength - eccLength + (i < shortBlocks ? 0 : 1);
      byte[] block = new byte[shortBlockLength + 1];
      System.arraycopy(data, k, block, 0, dataLength);
      byte[] ecc = reedSolomonRemainder(data, k, dataLength, divisor);
      k += dataLength;
      // short blocks keep an unused slot where long blocks have their last data byte
      System.arraycopy(ecc, 0, block, shortBlockLength + 1 - eccLength, eccLength);
      all[i] = block;
    }
    byte[] result = new byte[rawCodewords];
    int n = 0;
    for (int i = 0; i < shortBlockLength + 1; i++) {
      for (int j = 0; j < blocks; j++) {
        if (i != shortBlockLength - eccLength || j >= shortBlocks) result[n++] = all[j][i];
      }
    }
    return result;
  }

  private static byte[] reedSolomonDivisor(int degree) {
    byte[] result = new byte[degree];
    result[degree - 1] = 1;
    int root = 1;
    for (int i = 0; i < degree; i++) {
      for (int j = 0; j < degree; j++) {
        result[j] = (byte) multiply(result[j] & 0xFF, root);
        if (j + 1 < degree) result[j] ^= result[j + 1];
      }
      root = multiply(root, 0x02);
    }
    return result;
  }

  private static byte[] reedSolomonRemainder(byte[] data, int offset, int length, byte[] divisor) {
    byte[] result = new byte[divisor.length];
    for (int i = offset; i < offset + length; i++) {
      int factor = (data[i] ^ result[0]) & 0xFF;
      System.arraycopy(result, 1, result, 0, result.length - 1);
      result[result.length - 1] = 0;
      for (int j = 0; j < result.length; j++) {
        result[j] ^= (byte) multiply(divisor[j] & 0xFF, factor);
      }
    }
    return result;
  }

  // GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1
  private static int multiply(int x, int y) {
    int z = 0;
    for (int i = 7; i >= 0; i--) {
      z = (z << 1) ^ ((z >>> 7) * 0x11D);
      z ^= ((y >>> i) & 1) * x;
    }
    return z;
  }

  private static boolean bit(int value, int i) {
    return ((value >>> i) & 1) != 0;
  }

  private static final class BitBuffer {
    final byte[] data;
    int length;

    BitBuffer(int capacityBits) {
      data = new byte[(capacityBits + 7) / 8];
    }

    void append(int value, int count) {
      for (int i = count - 1; i >= 0; i--, length++) {
        if (((value >>> i) & 1) != 0) data[length >>> 3] |= (byte) (0x80 >>> (length & 7));
      }
    }

    byte[] bytes() {
      return data;
    }
  }
}
