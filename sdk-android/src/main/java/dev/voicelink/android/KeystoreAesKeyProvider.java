package dev.voicelink.android;

import android.security.keystore.KeyGenParameterSpec;
import android.security.keystore.KeyPermanentlyInvalidatedException;
import android.security.keystore.KeyProperties;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import org.jspecify.annotations.Nullable;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;

/**
 * API 23+: an AES-256 key generated inside the Android Keystore for AES/GCM/NoPadding. Its bytes
 * never enter the app's memory; on devices with secure hardware they never leave it. Loaded only when
 * {@code Build.VERSION.SDK_INT >= 23}.
 */
@Api23
final class KeystoreAesKeyProvider implements KeyProvider {
  private final String alias;

  KeystoreAesKeyProvider(String alias) {
    this.alias = alias;
  }

  @Override public @Nullable SecretKey existingKey() throws GeneralSecurityException {
    Key key = keyStore().getKey(alias, null);
    return key instanceof SecretKey ? (SecretKey) key : null;
  }

  @Override public SecretKey createKey() throws GeneralSecurityException {
    KeyGenerator generator = KeyGenerator.getInstance(KeyProperties.KEY_ALGORITHM_AES,
        ANDROID_KEY_STORE);
    generator.init(new KeyGenParameterSpec.Builder(alias,
        KeyProperties.PURPOSE_ENCRYPT | KeyProperties.PURPOSE_DECRYPT)
        .setBlockModes(KeyProperties.BLOCK_MODE_GCM)
        .setEncryptionPaddings(KeyProperties.ENCRYPTION_PADDING_NONE)
        .setKeySize(256)
        .build());
    return generator.generateKey();
  }

  @Override public void deleteKey() throws GeneralSecurityException {
    KeyStore store = keyStore();
    if (store.containsAlias(alias)) store.deleteEntry(alias);
  }

  @Override public boolean cipherChoosesIv() {
    return true;
  }

  /** Only an invalidated key (the lock screen was removed, new biometrics enrolled) is gone for good. */
  @Override public boolean isLostForGood(GeneralSecurityException e) {
    return e instanceof KeyPermanentlyInvalidatedException;
  }

  private static KeyStore keyStore() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(ANDROID_KEY_STORE);
    try {
      store.load(null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot open the Android Keystore", e);
    }
    return store;
  }

  @Override public String toString() {
    return "AndroidKeyStore AES-256 key " + alias;
  }
}
