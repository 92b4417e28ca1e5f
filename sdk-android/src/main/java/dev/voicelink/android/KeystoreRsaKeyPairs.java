package dev.voicelink.android;

import android.content.Context;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.util.Calendar;
import org.jspecify.annotations.Nullable;
import javax.security.auth.x500.X500Principal;

/** An RSA-2048 key pair in the Android Keystore, made with the API 18 {@code KeyPairGeneratorSpec}. */
final class KeystoreRsaKeyPairs implements RsaWrappedKeyProvider.KeyPairs {
  private final Context context;
  private final String alias;

  KeystoreRsaKeyPairs(Context context, String alias) {
    this.context = context;
    this.alias = alias;
  }

  @Override public @Nullable KeyPair existing() throws GeneralSecurityException {
    KeyStore store = keyStore();
    if (!store.containsAlias(alias)) return null;
    KeyStore.Entry entry = store.getEntry(alias, null);
    if (!(entry instanceof KeyStore.PrivateKeyEntry)) return null;
    KeyStore.PrivateKeyEntry pair = (KeyStore.PrivateKeyEntry) entry;
    return new KeyPair(pair.getCertificate().getPublicKey(), pair.getPrivateKey());
  }

  @SuppressWarnings("deprecation") // KeyPairGeneratorSpec is the only way on API 21-22
  @Override public KeyPair create() throws GeneralSecurityException {
    Calendar start = Calendar.getInstance();
    Calendar end = Calendar.getInstance();
    end.add(Calendar.YEAR, 30);
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA",
        KeyProvider.ANDROID_KEY_STORE);
    generator.initialize(new android.security.KeyPairGeneratorSpec.Builder(context)
        .setAlias(alias)
        .setSubject(new X500Principal("CN=" + alias))
        .setSerialNumber(BigInteger.ONE)
        .setStartDate(start.getTime())
        .setEndDate(end.getTime())
        .setKeySize(2048)
        .build());
    return generator.generateKeyPair();
  }

  @Override public void delete() throws GeneralSecurityException {
    KeyStore store = keyStore();
    if (store.containsAlias(alias)) store.deleteEntry(alias);
  }

  private static KeyStore keyStore() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyProvider.ANDROID_KEY_STORE);
    try {
      store.load(null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot open the Android Keystore", e);
    }
    return store;
  }
}
