package dev.voicelink.testing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

final class Ids {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  /** No vowels (no words), no look-alikes (0/O, 1/I). */
  private static final char[] USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ".toCharArray();

  private Ids() {
  }

  static String random(String prefix, int bytes) {
    byte[] b = new byte[bytes];
    RANDOM.nextBytes(b);
    return prefix + hex(b);
  }

  static String userCode() {
    StringBuilder sb = new StringBuilder(8);
    for (int i = 0; i < 8; i++) sb.append(USER_CODE_ALPHABET[RANDOM.nextInt(USER_CODE_ALPHABET.length)]);
    return sb.toString();
  }

  static String smsCode() {
    return String.format("%06d", RANDOM.nextInt(1_000_000));
  }

  /** The platform's user identity: 32 lowercase hex chars, one-to-one with the phone number. */
  static String authIdForPhone(String phone) {
    return md5Hex("user:" + phone);
  }

  static String md5Hex(String text) {
    try {
      return hex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A short, non-reversible fingerprint of a secret, for printing; none for a secret under 16
   * characters, whose fingerprint could be reversed by trying every value (as the SDK's logs do).
   */
  static String fingerprint(String secret) {
    if (secret.length() < 16) return "(short: not shown)";
    return md5Hex("fingerprint:" + secret).substring(0, 8);
  }

  static boolean constantTimeEquals(String a, String b) {
    return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  static String hex(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[bytes[i] & 0xf];
    }
    return new String(out);
  }
}
