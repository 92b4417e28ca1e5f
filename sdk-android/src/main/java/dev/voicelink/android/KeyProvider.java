package dev.voicelink.android;

import java.security.GeneralSecurityException;
import org.jspecify.annotations.Nullable;
import javax.crypto.SecretKey;

/**
 * Where {@link EncryptedTokenStore} gets its AES key. The seam exists because the Android Keystore is
 * a system service: tests put a software key behind it and run the real AES-GCM code.
 */
interface KeyProvider {
  String ANDROID_KEY_STORE = "AndroidKeyStore";

  /** The key, or null if there is none (never made, or wiped by the system or a restore). */
  @Nullable SecretKey existingKey() throws GeneralSecurityException;

  /** Makes a new key, replacing any existing one. */
  SecretKey createKey() throws GeneralSecurityException;

  /** Forgets the key. */
  void deleteKey() throws GeneralSecurityException;

  /**
   * Whether the cipher must choose the IV itself: Android Keystore keys refuse a caller's IV
   * (randomized encryption); a software key gets a fresh random one from the store.
   */
  boolean cipherChoosesIv();

  /**
   * Whether {@code e}, thrown while the key was fetched, a cipher set up with it or the record
   * decrypted, means the key or the record can never be used again (the system invalidated it, or
   * what holds it is damaged). Android reports a Keystore that fails only this time with the same
   * exception types as a lost key otherwise ({@code UnrecoverableKeyException}, a bare {@code
   * InvalidKeyException}), so only exceptions that say so for certain count.
   */
  boolean isLostForGood(GeneralSecurityException e);
}
