package dev.voicelink.android;

import android.content.SharedPreferences;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import org.jspecify.annotations.Nullable;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import okio.ByteString;

/**
 * API 21–22, where the Android Keystore holds no AES keys: a software AES-256 key, stored only
 * encrypted ("wrapped") with an RSA key pair that lives in the Keystore. The wrapped key sits next to
 * the token in the same private preferences; without the Keystore's private key it is useless.
 */
final class RsaWrappedKeyProvider implements KeyProvider {
  static final String WRAPPED_KEY = "wrapped_key";
  private static final String RSA = "RSA/ECB/PKCS1Padding";

  /** The RSA key pair: in the Android Keystore, or in memory in tests. */
  interface KeyPairs {
    @Nullable KeyPair existing() throws GeneralSecurityException;

    KeyPair create() throws GeneralSecurityException;

    void delete() throws GeneralSecurityException;
  }

  private final SharedPreferences prefs;
  private final KeyPairs pairs;
  private final SecureRandom random;

  RsaWrappedKeyProvider(SharedPreferences prefs, KeyPairs pairs, SecureRandom random) {
    this.prefs = prefs;
    this.pairs = pairs;
    this.random = random;
  }

  @Override public @Nullable SecretKey existingKey() throws GeneralSecurityException {
    String wrapped = prefs.getString(WRAPPED_KEY, null);
    if (wrapped == null) return null;
    KeyPair pair = pairs.existing();
    if (pair == null) return null;
    ByteString bytes = ByteString.decodeBase64(wrapped);
    if (bytes == null) throw new UnusableWrappedKey("the wrapped key is not Base64");
    Cipher rsa = Cipher.getInstance(RSA);
    rsa.init(Cipher.DECRYPT_MODE, pair.getPrivate());
    byte[] raw;
    try {
      raw = rsa.doFinal(bytes.toByteArray());
    } catch (BadPaddingException | IllegalBlockSizeException e) {
      // A backup restored onto another device: the same preferences, another Keystore's pair.
      throw new UnusableWrappedKey("the wrapped key was wrapped with another key pair");
    }
    if (raw.length != 32) throw new UnusableWrappedKey("the unwrapped key is not AES-256");
    return new SecretKeySpec(raw, "AES");
  }

  @Override public SecretKey createKey() throws GeneralSecurityException {
    KeyPair pair = pairs.existing();
    if (pair == null) pair = pairs.create();
    byte[] raw = new byte[32];
    random.nextBytes(raw);
    Cipher rsa = Cipher.getInstance(RSA);
    rsa.init(Cipher.ENCRYPT_MODE, pair.getPublic());
    String wrapped = ByteString.of(rsa.doFinal(raw)).base64();
    if (!prefs.edit().putString(WRAPPED_KEY, wrapped).commit()) {
      throw new GeneralSecurityException("cannot write the wrapped key to the preferences");
    }
    return new SecretKeySpec(raw, "AES");
  }

  @Override public void deleteKey() throws GeneralSecurityException {
    prefs.edit().remove(WRAPPED_KEY).commit();
    pairs.delete();
  }

  @Override public boolean cipherChoosesIv() {
    return false;
  }

  /**
   * A wrapped key that is damaged or was wrapped with another key pair is gone for good (a key pair
   * wiped with the lock screen is no key at all), and so is a record that does not authenticate: the
   * AES key is a software one here, so a {@code BadPaddingException} from its cipher is always the
   * data's (Android 5's BouncyCastle reports a failed GCM tag as a bare one), never the Keystore's.
   */
  @Override public boolean isLostForGood(GeneralSecurityException e) {
    return e instanceof UnusableWrappedKey || e instanceof BadPaddingException;
  }

  /** The wrapped key in the preferences cannot be unwrapped here, now or ever. */
  private static final class UnusableWrappedKey extends GeneralSecurityException {
    UnusableWrappedKey(String message) {
      super(message);
    }
  }

  @Override public String toString() {
    return "AES-256 key wrapped with an AndroidKeyStore RSA key pair";
  }
}
