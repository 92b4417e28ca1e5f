package dev.voicelink.entity;

import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okio.BufferedSink;

/**
 * Streaming Base64 (standard alphabet, padded, no line breaks) of the resource text, optionally
 * escaped as the value of a form field ({@code +}, {@code /} and {@code =} as {@code %2B}, {@code %2F},
 * {@code %3D}), the same bytes okio's {@code ByteString.base64()} and OkHttp's {@code FormBody} give.
 *
 * <p>Without a sink it only counts the bytes it would write: the exact length of a form body needs
 * the number of {@code +} and {@code /} in the Base64, which a table lookup per 12 bits gives without
 * producing the text. Records arrive as lines; the encoder joins them with {@code \n}.
 *
 * <p>Not thread-safe: one per pass.
 */
final class Base64Encoder implements Records.LineSink {
  private static final byte[] ALPHABET = new byte[64];
  private static final byte[] NEWLINE = {'\n'};
  /** For each 12 bits: how many of its two sextets are 62 or 63 ({@code +} or {@code /}). */
  private static final byte[] SPECIAL = new byte[4096];
  /** For each 12 bits: its two Base64 characters, plus {@code ESCAPE} if either needs escaping. */
  private static final int[] PAIRS = new int[4096];
  private static final int ESCAPE = 0x10000;

  static {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; i++) ALPHABET[i] = (byte) alphabet.charAt(i);
    for (int i = 0; i < 4096; i++) {
      SPECIAL[i] = (byte) (((i >>> 6) >= 62 ? 1 : 0) + ((i & 63) >= 62 ? 1 : 0));
      PAIRS[i] = (ALPHABET[i >>> 6] << 8) | ALPHABET[i & 63] | (SPECIAL[i] != 0 ? ESCAPE : 0);
    }
  }

  /** Room for the worst case of one group (four escaped sextets) is kept free at the end. */
  private static final int BUFFER_SIZE = 4096;

  private final @Nullable BufferedSink out;
  private final boolean formEscape;
  private final byte[] buffer;
  private int position;
  /** Input bytes not yet encoded (0, 1 or 2 of them), big-endian in {@code pending}. */
  private int pending;
  private int pendingCount;
  private final byte[] group = new byte[3];
  private boolean first = true;
  /** Encoded bytes so far (written, or counted when there is no sink). */
  private long length;

  /** Writes to {@code out}, or only counts when it is null. */
  Base64Encoder(@Nullable BufferedSink out, boolean formEscape) {
    this.out = out;
    this.formEscape = formEscape;
    this.buffer = out != null ? new byte[BUFFER_SIZE] : null;
  }

  @Override public void line(byte[] utf8, int count) throws IOException {
    if (!first) write(NEWLINE, 0, 1);
    first = false;
    write(utf8, 0, count);
  }

  /** Encodes {@code count} bytes of {@code in} from {@code offset}. */
  void write(byte[] in, int offset, int count) throws IOException {
    int end = offset + count;
    while (pendingCount != 0 && offset < end) {
      pending = (pending << 8) | (in[offset++] & 0xff);
      if (++pendingCount == 3) {
        group[0] = (byte) (pending >>> 16);
        group[1] = (byte) (pending >>> 8);
        group[2] = (byte) pending;
        encodeGroups(group, 0, 1);
        pending = 0;
        pendingCount = 0;
      }
    }
    int groups = (end - offset) / 3;
    encodeGroups(in, offset, groups);
    offset += 3 * groups;
    while (offset < end) {
      pending = (pending << 8) | (in[offset++] & 0xff);
      pendingCount++;
    }
  }

  private void encodeGroups(byte[] in, int offset, int groups) throws IOException {
    if (buffer == null) {
      length += 4L * groups;
      if (formEscape) {
        long special = 0;
        for (int end = offset + 3 * groups; offset < end; offset += 3) {
          int g = (in[offset] & 0xff) << 16 | (in[offset + 1] & 0xff) << 8 | (in[offset + 2] & 0xff);
          special += SPECIAL[g >>> 12] + SPECIAL[g & 0xfff];
        }
        length += 2 * special;
      }
      return;
    }
    byte[] b = buffer;
    int[] pairs = PAIRS;
    int escape = formEscape ? ESCAPE : 0;
    while (groups > 0) {
      int room = (b.length - position) / 12;
      if (room == 0) {
        flushBuffer();
        continue;
      }
      int n = Math.min(room, groups);
      groups -= n;
      int p = position;
      for (int end = offset + 3 * n; offset < end; offset += 3) {
        int g = (in[offset] & 0xff) << 16 | (in[offset + 1] & 0xff) << 8 | (in[offset + 2] & 0xff);
        int high = pairs[g >>> 12];
        int low = pairs[g & 0xfff];
        if (((high | low) & escape) != 0) {
          p = escaped(b, p, g >>> 18);
          p = escaped(b, p, (g >>> 12) & 63);
          p = escaped(b, p, (g >>> 6) & 63);
          p = escaped(b, p, g & 63);
        } else {
          b[p] = (byte) (high >>> 8);
          b[p + 1] = (byte) high;
          b[p + 2] = (byte) (low >>> 8);
          b[p + 3] = (byte) low;
          p += 4;
        }
      }
      length += p - position;
      position = p;
    }
  }

  private static int escaped(byte[] b, int p, int sextet) {
    if (sextet < 62) {
      b[p] = ALPHABET[sextet];
      return p + 1;
    }
    b[p] = '%';
    b[p + 1] = '2';
    b[p + 2] = (byte) (sextet == 62 ? 'B' : 'F');
    return p + 3;
  }

  /** Encodes what is pending with padding, and writes everything out. Returns the encoded length. */
  long finish() throws IOException {
    if (pendingCount != 0) {
      int g = pendingCount == 1 ? pending << 16 : pending << 8;
      int sextets = pendingCount + 1;
      byte[] tail = new byte[12];
      int p = 0;
      for (int i = 0; i < sextets; i++) {
        int sextet = (g >>> (18 - 6 * i)) & 63;
        p = formEscape ? escaped(tail, p, sextet) : put(tail, p, ALPHABET[sextet]);
      }
      for (int i = sextets; i < 4; i++) {
        if (formEscape) {
          tail[p++] = '%';
          tail[p++] = '3';
          tail[p++] = 'D';
        } else {
          tail[p++] = '=';
        }
      }
      pending = 0;
      pendingCount = 0;
      length += p;
      if (buffer != null) {
        if (buffer.length - position < p) flushBuffer();
        System.arraycopy(tail, 0, buffer, position, p);
        position += p;
      }
    }
    if (buffer != null) flushBuffer();
    return length;
  }

  private static int put(byte[] b, int p, byte value) {
    b[p] = value;
    return p + 1;
  }

  private void flushBuffer() throws IOException {
    if (position > 0 && out != null) out.write(buffer, 0, position);
    position = 0;
  }

  /** Bytes written (or counted) so far, including what {@link #finish} has added. */
  long length() {
    return length;
  }
}
