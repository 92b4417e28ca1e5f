package dev.voicelink.samples.app;

import java.io.InputStream;
import java.io.OutputStream;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyPairGeneratorSpi;
import java.security.KeyStore;
import java.security.KeyStoreSpi;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Collections;
import java.util.Date;
import java.util.Enumeration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.KeyGeneratorSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The device's Android Keystore, which Robolectric does not provide, as a JCA provider named
 * {@code AndroidKeyStore} that keeps keys in memory for the JVM's life (like the real one, it
 * outlives the app's process, so a simulated restart finds its key again). It offers what the SDK's
 * encrypted token store asks of the real one: an AES key from a {@code KeyGenParameterSpec} (API 23+)
 * and an RSA key pair from a {@code KeyPairGeneratorSpec} (API 21-22), looked up by alias.
 */
public final class FakeAndroidKeyStore extends Provider {
  private static final long serialVersionUID = 1L;
  static final Map<String, Object> KEYS = new ConcurrentHashMap<>();

  private FakeAndroidKeyStore() {
    super("AndroidKeyStore", 1.0, "in-memory Android Keystore for tests");
    put("KeyStore.AndroidKeyStore", Store.class.getName());
    put("KeyGenerator.AES", AesGenerator.class.getName());
    put("KeyPairGenerator.RSA", RsaGenerator.class.getName());
  }

  /**
   * Installs a provider with no keys. Providers are global to the JVM while each Robolectric SDK level
   * loads this class anew, so the provider of this class replaces any earlier one.
   */
  static synchronized void install() {
    KEYS.clear();
    Security.removeProvider("AndroidKeyStore");
    Security.addProvider(new FakeAndroidKeyStore());
  }

  static synchronized void uninstall() {
    Security.removeProvider("AndroidKeyStore");
    KEYS.clear();
  }

  private static String alias(AlgorithmParameterSpec spec) {
    try {
      return (String) spec.getClass().getMethod("getKeystoreAlias").invoke(spec);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("not a Keystore key spec: " + spec, e);
    }
  }

  public static final class AesGenerator extends KeyGeneratorSpi {
    private String alias;

    @Override protected void engineInit(SecureRandom random) {
      throw new UnsupportedOperationException("the Keystore needs a KeyGenParameterSpec");
    }

    @Override protected void engineInit(AlgorithmParameterSpec params, SecureRandom random) {
      alias = alias(params);
    }

    @Override protected void engineInit(int keysize, SecureRandom random) {
      throw new UnsupportedOperationException("the Keystore needs a KeyGenParameterSpec");
    }

    @Override protected SecretKey engineGenerateKey() {
      byte[] bytes = new byte[32];
      new SecureRandom().nextBytes(bytes);
      SecretKey key = new SecretKeySpec(bytes, "AES");
      KEYS.put(alias, key);
      return key;
    }
  }

  public static final class RsaGenerator extends KeyPairGeneratorSpi {
    private String alias;

    @Override public void initialize(int keysize, SecureRandom random) {
      throw new UnsupportedOperationException("the Keystore needs a KeyPairGeneratorSpec");
    }

    @Override public void initialize(AlgorithmParameterSpec params, SecureRandom random) {
      alias = alias(params);
    }

    @Override public KeyPair generateKeyPair() {
      try {
        KeyPairGenerator software = KeyPairGenerator.getInstance("RSA", "SunRsaSign");
        software.initialize(2048);
        KeyPair pair = software.generateKeyPair();
        KEYS.put(alias, pair);
        return pair;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A certificate that only carries its public key, which is all the token store reads of it. */
  static final class KeyOnlyCertificate extends Certificate {
    private static final long serialVersionUID = 1L;
    private final PublicKey key;

    KeyOnlyCertificate(PublicKey key) {
      super("X.509");
      this.key = key;
    }

    @Override public byte[] getEncoded() {
      return key.getEncoded();
    }

    @Override public void verify(PublicKey key) {
    }

    @Override public void verify(PublicKey key, String sigProvider) {
    }

    @Override public String toString() {
      return "certificate of " + key.getAlgorithm() + " key";
    }

    @Override public PublicKey getPublicKey() {
      return key;
    }
  }

  public static final class Store extends KeyStoreSpi {
    @Override public Key engineGetKey(String alias, char[] password) {
      Object entry = KEYS.get(alias);
      return entry instanceof KeyPair ? ((KeyPair) entry).getPrivate() : (Key) entry;
    }

    @Override public Certificate[] engineGetCertificateChain(String alias) {
      Certificate certificate = engineGetCertificate(alias);
      return certificate == null ? null : new Certificate[] {certificate};
    }

    @Override public Certificate engineGetCertificate(String alias) {
      Object entry = KEYS.get(alias);
      return entry instanceof KeyPair ? new KeyOnlyCertificate(((KeyPair) entry).getPublic()) : null;
    }

    @Override public KeyStore.Entry engineGetEntry(String alias, KeyStore.ProtectionParameter protection) {
      Object entry = KEYS.get(alias);
      if (entry instanceof KeyPair) {
        return new KeyStore.PrivateKeyEntry((PrivateKey) engineGetKey(alias, null),
            engineGetCertificateChain(alias));
      }
      return entry == null ? null : new KeyStore.SecretKeyEntry((SecretKey) entry);
    }

    @Override public Date engineGetCreationDate(String alias) {
      return KEYS.containsKey(alias) ? new Date(0) : null;
    }

    @Override public void engineSetKeyEntry(String alias, Key key, char[] password, Certificate[] chain) {
      throw new UnsupportedOperationException("keys are made by the Keystore's generators");
    }

    @Override public void engineSetKeyEntry(String alias, byte[] key, Certificate[] chain) {
      throw new UnsupportedOperationException("keys are made by the Keystore's generators");
    }

    @Override public void engineSetCertificateEntry(String alias, Certificate cert) {
      throw new UnsupportedOperationException("no certificate entries");
    }

    @Override public void engineDeleteEntry(String alias) {
      KEYS.remove(alias);
    }

    @Override public Enumeration<String> engineAliases() {
      return Collections.enumeration(KEYS.keySet());
    }

    @Override public boolean engineContainsAlias(String alias) {
      return KEYS.containsKey(alias);
    }

    @Override public int engineSize() {
      return KEYS.size();
    }

    @Override public boolean engineIsKeyEntry(String alias) {
      return KEYS.containsKey(alias);
    }

    @Override public boolean engineIsCertificateEntry(String alias) {
      return false;
    }

    @Override public String engineGetCertificateAlias(Certificate cert) {
      return null;
    }

    @Override public void engineStore(OutputStream stream, char[] password) {
    }

    @Override public void engineLoad(InputStream stream, char[] password) {
    }
  }
}
