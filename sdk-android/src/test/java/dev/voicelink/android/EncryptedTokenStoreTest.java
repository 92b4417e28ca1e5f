package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import android.content.Context;
import android.content.SharedPreferences;
import android.os.Build;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.RecordLostException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import android.security.keystore.KeyPermanentlyInvalidatedException;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyStoreException;
import java.security.UnrecoverableKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.Security;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import javax.crypto.BadPaddingException;
import javax.crypto.CipherSpi;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import okio.ByteString;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;

/**
 * The encrypted token store at SDK 21, 28 and 35. Robolectric has no Android Keystore, so the keys sit
 * behind {@link KeyProvider}: a software AES key (as the Keystore's would be) and a software RSA pair
 * (as the API 21–22 fallback's would be); the AES-GCM, the wrapping and the recovery are the real code.
 */
@RunWith(RobolectricTestRunner.class)
public final class EncryptedTokenStoreTest {
  private static final TokenRecord RECORD = TokenRecord.builder()
      .grant(TokenRecord.Grant.DEVICE)
      .clientId("vl-speaker-01")
      .accessToken("at-secret-0123456789")
      .refreshToken("rt-secret-9876543210")
      .expiresInSeconds(8_640_000)
      .createdAtEpochSeconds(1_763_712_000L)
      .receivedAtEpochMillis(1_763_712_000_123L)
      .build();

  private SharedPreferences prefs;
  private File recordFile;
  private final SoftwareAesKeys aesKeys = new SoftwareAesKeys();
  private final List<String> reasons = new ArrayList<>();

  @Before public void prefs() {
    prefs = RuntimeEnvironment.getApplication()
        .getSharedPreferences(EncryptedTokenStore.PREFS_PREFIX + "test", Context.MODE_PRIVATE);
    recordFile = new File(RuntimeEnvironment.getApplication().getNoBackupFilesDir(),
        EncryptedTokenStore.PREFS_PREFIX + "test");
    recordFile.delete();
  }

  private @Nullable String blob() throws IOException {
    return recordFile.exists()
        ? new String(Files.readAllBytes(recordFile.toPath()), StandardCharsets.UTF_8) : null;
  }

  private void putBlob(String blob) throws IOException {
    Files.write(recordFile.toPath(), blob.getBytes(StandardCharsets.UTF_8));
  }

  /** What {@code store}'s load throws for a record it lost for good. */
  private static String lostOn(EncryptedTokenStore store) {
    try {
      store.load();
    } catch (RecordLostException expected) {
      return expected.getMessage();
    } catch (IOException e) {
      throw new AssertionError("not a lost record", e);
    }
    throw new AssertionError("the record was read");
  }

  private EncryptedTokenStore store(KeyProvider keys) {
    EncryptedTokenStore store = new EncryptedTokenStore(recordFile, keys, "test", new SecureRandom());
    return store;
  }

  @Test public void roundTripsAndStoresNoTokenInTheClear() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    assertThat(store.load()).isNull();

    store.save(RECORD);

    String blob = blob();
    assertThat(blob).isNotNull();
    String decoded = ByteString.decodeBase64(blob).string(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertThat(decoded).doesNotContain("at-secret").doesNotContain("rt-secret")
        .doesNotContain("vl-speaker-01");
    // A new instance (the next process) reads it back, field for field.
    assertThat(store(aesKeys).load()).isEqualTo(RECORD);
  }

  @Test public void eachSaveUsesAFreshIv() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    String first = blob();
    store.save(RECORD);
    String second = blob();
    assertThat(second).isNotEqualTo(first);
    assertThat(store.load()).isEqualTo(RECORD);
  }

  @Test public void aKeystoreChosenIvRoundTripsToo() throws Exception {
    aesKeys.cipherChoosesIv = true;
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    assertThat(store(aesKeys).load()).isEqualTo(RECORD);
  }

  @Test public void tamperedDataMeansReauthorizationNotACrash() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    byte[] blob = ByteString.decodeBase64(blob())
        .toByteArray();
    blob[blob.length - 20] ^= 1;
    putBlob(ByteString.of(blob).base64());

    reasons.add(lostOn(store));

    assertThat(reasons).containsExactly("the stored sign-in of token store test is lost: it cannot be"
        + " decrypted (AEADBadTagException); sign in again");
    // The bad blob and its key are gone; a new authorization saves and reads back normally.
    assertThat(recordFile.exists()).isFalse();
    assertThat(aesKeys.key).isNull();
    store.save(RECORD);
    assertThat(store.load()).isEqualTo(RECORD);
  }

  @Test public void garbageIsReauthorizationToo() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    putBlob("not base64 at all!");
    reasons.add(lostOn(store));
    assertThat(reasons).singleElement().asString()
        .contains("the stored record is not in this SDK's format");
  }

  @Test public void wipedKeyMeansReauthorization() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    aesKeys.key = null; // the Keystore lost it (lock screen removed, app data restored elsewhere)

    reasons.add(lostOn(store));

    assertThat(reasons).singleElement().asString().contains("its key is gone");
    assertThat(recordFile).as("kept: the key may only be out of reach").exists();
  }

  @Test public void aKeyTheKeystoreCouldNotFindForAMomentReadsTheRecordAgain() throws Exception {
    // Before API 31, a Keystore service that cannot be reached answers "no key".
    store(aesKeys).save(RECORD);
    SecretKey key = aesKeys.key;
    aesKeys.key = null;
    reasons.add(lostOn(store(aesKeys)));

    aesKeys.key = key;
    assertThat(store(aesKeys).load()).isEqualTo(RECORD);
    assertThat(aesKeys.deleted).isZero();
  }

  @Test public void anotherKeyMeansReauthorization() throws Exception {
    store(aesKeys).save(RECORD);
    aesKeys.key = KeyGenerator.getInstance("AES").generateKey(); // a restore onto another device

    reasons.add(lostOn(store(aesKeys)));
    assertThat(reasons).singleElement().asString().contains("AEADBadTagException");
  }

  @Test public void aFailingKeystoreIsAnIoErrorAndKeepsTheData() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    aesKeys.failWith = new ProviderException("Keystore operation failed");

    assertThatThrownBy(store::load).isInstanceOf(IOException.class)
        .hasMessage("the Android Keystore failed: java.security.ProviderException: Keystore "
            + "operation failed");

    aesKeys.failWith = null;
    assertThat(store.load()).isEqualTo(RECORD);
  }

  @Test public void aKeystoreThatCannotFetchTheKeyThisTimeKeepsTheData() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    String saved = blob();
    // What Android's Keystore throws from getKey for any service error but "not found".
    aesKeys.failWithChecked = new UnrecoverableKeyException("Failed to obtain information about key");

    assertThatThrownBy(store::load).isInstanceOf(IOException.class)
        .hasMessage("the Android Keystore failed: java.security.UnrecoverableKeyException: Failed to"
            + " obtain information about key");

    assertThat(blob()).isEqualTo(saved);
    assertThat(aesKeys.key).isNotNull();
    aesKeys.failWithChecked = null;
    assertThat(store.load()).isEqualTo(RECORD);
  }

  @Test public void aCipherTheKeystoreCannotSetUpThisTimeKeepsTheDataOnLoadAndSave() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    String saved = blob();
    SecretKey key = aesKeys.key;
    // A bare InvalidKeyException at Cipher.init, as the Keystore reports "Keystore operation failed".
    aesKeys.key = new SecretKeySpec(new byte[5], "AES");

    assertThatThrownBy(store::load).isInstanceOf(IOException.class)
        .hasMessageStartingWith("the Android Keystore failed: java.security.InvalidKeyException");
    assertThatThrownBy(() -> store.save(RECORD)).isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot encrypt the token record with");

    assertThat(aesKeys.deleted).isZero();
    assertThat(blob()).isEqualTo(saved);
    aesKeys.key = key;
    assertThat(store.load()).isEqualTo(RECORD);
  }

  @Test public void aKeyThatFailsSaveAfterSaveIsReplacedSoThatASignInCanBeSavedAgain() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    String saved = blob();
    // Some devices' keys fail every operation after an update, with the types of a passing failure.
    aesKeys.failWithChecked = new UnrecoverableKeyException("Failed to obtain information about key");
    for (int save = 1; save < EncryptedTokenStore.KEY_FAILURES_BEFORE_REPLACING; save++) {
      assertThatThrownBy(() -> store.save(RECORD)).isInstanceOf(IOException.class)
          .hasMessageStartingWith("cannot encrypt the token record with");
      assertThat(aesKeys.deleted).isZero();
      assertThat(blob()).isEqualTo(saved);
    }
    aesKeys.failWithChecked = null;
    aesKeys.key = new SecretKeySpec(new byte[5], "AES"); // still broken at Cipher.init
    TokenRecord next = RECORD.newBuilder().accessToken("at-after-the-new-key").build();

    store.save(next);

    assertThat(aesKeys.deleted).as("replaced in place, never deleted first").isZero();
    assertThat(store.load()).isEqualTo(next);
  }

  @Test public void aKeyThatFailsAtTheEncryptionItselfSaveAfterSaveIsReplacedToo() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    String saved = blob();
    // Cipher.init takes the key and doFinal fails, as some devices' Keystore keys do: an
    // IllegalBlockSizeException that wraps the Keystore's refusal.
    aesKeys.key = new FailingAtDoFinal.BrokenKey();
    Security.insertProviderAt(new FailingAtDoFinal(), 1);
    try {
      for (int save = 1; save < EncryptedTokenStore.KEY_FAILURES_BEFORE_REPLACING; save++) {
        assertThatThrownBy(() -> store.save(RECORD)).isInstanceOf(IOException.class)
            .hasMessageStartingWith("cannot encrypt the token record with")
            .hasMessageContaining("IllegalBlockSizeException: Keystore operation failed");
        assertThat(blob()).isEqualTo(saved);
      }
      TokenRecord next = RECORD.newBuilder().accessToken("at-after-the-new-key").build();

      store.save(next);

      assertThat(aesKeys.key).isNotInstanceOf(FailingAtDoFinal.BrokenKey.class);
      assertThat(aesKeys.deleted).as("replaced in place, never deleted first").isZero();
      assertThat(store.load()).isEqualTo(next);
    } finally {
      Security.removeProvider(FailingAtDoFinal.NAME);
    }
  }

  /**
   * The Keystore reports an argument error (keymaster -38) as a bare BadPaddingException: no proof that
   * the data is lost, unlike a failed tag (AEADBadTagException). The record and its key stay.
   */
  @Test public void aBareBadPaddingFromTheKeystoreKeepsTheRecordAndItsKey() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    String saved = blob();
    SecretKey key = aesKeys.key;
    aesKeys.key = new FailingAtDoFinal.ArgumentErrorKey();
    Security.insertProviderAt(new FailingAtDoFinal(), 1);
    try {
      assertThatThrownBy(store::load).isExactlyInstanceOf(IOException.class)
          .hasMessage("the Android Keystore failed: javax.crypto.BadPaddingException");
      assertThat(blob()).isEqualTo(saved);
      assertThat(aesKeys.deleted).isZero();
    } finally {
      Security.removeProvider(FailingAtDoFinal.NAME);
    }
    aesKeys.key = key;
    assertThat(store.load()).isEqualTo(RECORD);
  }

  /** Before API 23 the AES key is a software one: a bare BadPaddingException is the data's. */
  @Test public void aBareBadPaddingFromTheSoftwareCipherOfApi21MeansTheRecordIsLost() {
    RsaWrappedKeyProvider keys = wrapped(new SoftwareRsaPairs());
    assertThat(keys.isLostForGood(new BadPaddingException("mac check in GCM failed"))).isTrue();
    assertThat(keys.isLostForGood(new java.security.InvalidKeyException("Keystore operation failed")))
        .isFalse();
  }

  @Test public void aKeystoreThatCannotMakeANewKeyEitherLeavesTheRecordForALaterLoad()
      throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    String saved = blob();
    SecretKey key = aesKeys.key;
    aesKeys.failWith = new ProviderException("Keystore operation failed"); // creating too
    for (int save = 1; save <= EncryptedTokenStore.KEY_FAILURES_BEFORE_REPLACING; save++) {
      assertThatThrownBy(() -> store.save(RECORD)).isInstanceOf(IOException.class);
    }
    assertThat(aesKeys.deleted).isZero();
    assertThat(blob()).isEqualTo(saved);
    aesKeys.failWith = null; // the Keystore is back
    assertThat(aesKeys.key).isSameAs(key);
    assertThat(store.load()).isEqualTo(RECORD);
  }

  @Test public void theStoresOnOneFileCountTheKeysFailuresTogether() throws Exception {
    EncryptedTokenStore agents = store(aesKeys);
    EncryptedTokenStore apps = store(aesKeys);
    agents.save(RECORD);
    aesKeys.key = new SecretKeySpec(new byte[5], "AES");
    for (int save = 1; save < EncryptedTokenStore.KEY_FAILURES_BEFORE_REPLACING; save++) {
      EncryptedTokenStore either = save % 2 == 0 ? agents : apps;
      assertThatThrownBy(() -> either.save(RECORD)).isInstanceOf(IOException.class);
    }
    agents.save(RECORD); // the third failure in a row on this file: a new key
    assertThat(apps.load()).isEqualTo(RECORD);
  }

  @Test public void aSaveThatSucceedsStartsTheCountOfFailuresAgain() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    SecretKey key = aesKeys.key;
    for (int round = 0; round < 2; round++) {
      aesKeys.key = new SecretKeySpec(new byte[5], "AES");
      for (int save = 1; save < EncryptedTokenStore.KEY_FAILURES_BEFORE_REPLACING; save++) {
        assertThatThrownBy(() -> store.save(RECORD)).isInstanceOf(IOException.class);
      }
      aesKeys.key = key; // the Keystore is back
      store.save(RECORD);
    }
    assertThat(aesKeys.deleted).isZero();
    assertThat(store.load()).isEqualTo(RECORD);
  }

  @Test public void aKeyLostForGoodMeansReauthorizationAndItsRecordAndKeyDeleted() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    aesKeys.failWithChecked = new InvalidatedKey();

    reasons.add(lostOn(store));

    assertThat(reasons).singleElement().asString().contains("it cannot be decrypted (InvalidatedKey)");
    assertThat(recordFile).doesNotExist();
    assertThat(aesKeys.deleted).isEqualTo(1);
  }

  @Test @Config(sdk = {28, 35}) // the levels of the build that have the API 23 Keystore
  public void onlyAnInvalidatedKeystoreKeyIsLostForGood() {
    KeystoreAesKeyProvider keys = new KeystoreAesKeyProvider("test");
    assertThat(keys.isLostForGood(new KeyPermanentlyInvalidatedException())).isTrue();
    assertThat(keys.isLostForGood(new InvalidKeyException("Keystore operation failed"))).isFalse();
    assertThat(keys.isLostForGood(new UnrecoverableKeyException("Failed to obtain information about"
        + " key"))).isFalse();
    assertThat(keys.isLostForGood(new KeyStoreException("System error"))).isFalse();
  }

  @Test public void aDamagedWrappedKeyIsLostForGood() throws Exception {
    SoftwareRsaPairs pairs = new SoftwareRsaPairs();
    store(wrapped(pairs)).save(RECORD);
    prefs.edit().putString(RsaWrappedKeyProvider.WRAPPED_KEY, "not base64!").commit();

    reasons.add(lostOn(store(wrapped(pairs))));
    assertThat(reasons).singleElement().asString().contains("it cannot be decrypted");
  }

  @Test public void clearRemovesTheRecord() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    store.clear();
    assertThat(store.load()).isNull();
  }

  /** Equal stores are one to their token managers, which hear each other's writes (sdk-core). */
  @Test public void storesOfOneNameAreEqualAndOfAnotherNameAreNot() {
    Context app = RuntimeEnvironment.getApplication();
    assertThat(EncryptedTokenStore.create(app, "default")).isEqualTo(EncryptedTokenStore.create(app))
        .hasSameHashCodeAs(EncryptedTokenStore.create(app))
        .isNotEqualTo(EncryptedTokenStore.create(app, "work"));
    assertThat(store(aesKeys)).as("made on one file").isEqualTo(store(new SoftwareAesKeys()))
        .isNotEqualTo(EncryptedTokenStore.create(app, "test"));
  }

  @Test public void aRecordCopiedToAnotherStoreDoesNotDecrypt() throws Exception {
    store(aesKeys).save(RECORD);
    EncryptedTokenStore other = new EncryptedTokenStore(recordFile, aesKeys, "other", new SecureRandom());
    assertThat(lostOn(other)).contains("it cannot be decrypted (AEADBadTagException)");
  }

  // The API 21-22 fallback: an AES key wrapped with an RSA key pair.

  @Test public void rsaWrappedKeyRoundTrips() throws Exception {
    SoftwareRsaPairs pairs = new SoftwareRsaPairs();
    store(wrapped(pairs)).save(RECORD);

    assertThat(prefs.getString(RsaWrappedKeyProvider.WRAPPED_KEY, null)).isNotNull();
    assertThat(store(wrapped(pairs)).load()).isEqualTo(RECORD);
    assertThat(pairs.created).isEqualTo(1);
  }

  @Test public void rsaWrappedWipedKeyPairMeansReauthorization() throws Exception {
    SoftwareRsaPairs pairs = new SoftwareRsaPairs();
    store(wrapped(pairs)).save(RECORD);
    pairs.pair = null;

    EncryptedTokenStore store = store(wrapped(pairs));
    reasons.add(lostOn(store));

    assertThat(reasons).singleElement().asString().contains("its key is gone");
    store.save(RECORD); // a fresh pair and key
    assertThat(pairs.created).isEqualTo(2);
    assertThat(store(wrapped(pairs)).load()).isEqualTo(RECORD);
  }

  @Test public void rsaWrappedWithAnotherPairMeansReauthorization() throws Exception {
    SoftwareRsaPairs pairs = new SoftwareRsaPairs();
    store(wrapped(pairs)).save(RECORD);
    pairs.pair = pairs.create(); // a backup restored onto another device: same prefs, other Keystore

    reasons.add(lostOn(store(wrapped(pairs))));
    assertThat(reasons).singleElement().asString().contains("it cannot be decrypted");
  }

  @Test public void theKeyProviderFollowsTheApiLevel() {
    Context context = RuntimeEnvironment.getApplication();
    assertThat(EncryptedTokenStore.keyProviderFor(21, context, prefs, "a"))
        .isInstanceOf(RsaWrappedKeyProvider.class);
    assertThat(EncryptedTokenStore.keyProviderFor(22, context, prefs, "a"))
        .isInstanceOf(RsaWrappedKeyProvider.class);
    assertThat(EncryptedTokenStore.keyProviderFor(23, context, prefs, "a"))
        .isInstanceOf(KeystoreAesKeyProvider.class);
    assertThat(EncryptedTokenStore.create(context).keyProvider()).isInstanceOf(
        Build.VERSION.SDK_INT >= 23 ? KeystoreAesKeyProvider.class : RsaWrappedKeyProvider.class);
  }

  @Test public void createLeavesTheDiskAloneUntilTheFirstLoad() throws Exception {
    DiskWatchingContext app = new DiskWatchingContext(RuntimeEnvironment.getApplication());
    EncryptedTokenStore store = EncryptedTokenStore.create(app, "lazy");
    assertThat(app.diskCalls()).as("disk calls by create").isEmpty();

    assertThat(store.load()).isNull();

    String here = " on " + Thread.currentThread().getName();
    assertThat(app.diskCalls()).contains("getNoBackupFilesDir" + here);
    if (Build.VERSION.SDK_INT < 23) {
      assertThat(app.diskCalls()).contains("getSharedPreferences" + here); // the wrapped key's home
    }
  }

  @Test public void createChecksTheName() {
    assertThatThrownBy(() -> EncryptedTokenStore.create(RuntimeEnvironment.getApplication(), "a/b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("name must be 1 to 64 letters, digits, '.', '_' or '-'; was: a/b");
  }

  @Test public void aTokenManagerSaysTheSignInIsLostAfterUndecryptableData() throws Exception {
    VirtualTime time = new VirtualTime();
    VoiceLinkClient config = VoiceLinkClient.builder().authUrl("https://auth.example.com")
        .clock(time).scheduler(time).build();
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    aesKeys.key = null;
    TokenManager restarted = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(store).listenerExecutor(Runnable::run).build();
    BlockingQueue<TokenManager.StateChange> changes = new LinkedBlockingQueue<>();
    restarted.addListener(changes::add);

    TokenManager.StateChange change = changes.poll(10, TimeUnit.SECONDS);
    if (change.state() == TokenManager.State.LOADING) change = changes.poll(10, TimeUnit.SECONDS);
    assertThat(change.state()).isEqualTo(TokenManager.State.REAUTHORIZATION_REQUIRED);
    assertThat(change.cause()).isEqualTo(TokenManager.Cause.RECORD_LOST);
    assertThat(change.failure()).isInstanceOf(RecordLostException.class)
        .hasMessage("the stored sign-in of token store test is lost: its key is gone (wiped, or a"
            + " backup from elsewhere); sign in again");
    assertThatThrownBy(restarted::accessToken).isInstanceOf(ReauthorizationRequiredException.class);
    config.close();
  }

  @Test public void toStringAndReasonsHoldNoSecret() throws Exception {
    EncryptedTokenStore store = store(aesKeys);
    store.save(RECORD);
    aesKeys.key = null;
    reasons.add(lostOn(store));
    assertThat(store.toString()).isEqualTo("EncryptedTokenStore{test}");
    assertThat(reasons).singleElement().asString().doesNotContain("secret");
  }

  private RsaWrappedKeyProvider wrapped(SoftwareRsaPairs pairs) {
    return new RsaWrappedKeyProvider(prefs, pairs, new SecureRandom());
  }

  /** What a software key's provider reports for a key the system invalidated. */
  static final class InvalidatedKey extends InvalidKeyException {
  }

  /**
   * AES-GCM for one kind of key only, whose encryption and decryption fail at {@code doFinal} after
   * {@code init} took the key (a bare BadPaddingException for an {@link ArgumentErrorKey}). Any other
   * key it refuses at {@code init}, so the JCA gives that key to the next provider.
   */
  @SuppressWarnings("deprecation") // Provider(String, double, String): Java 8 has no other
  static final class FailingAtDoFinal extends Provider {
    static final String NAME = "VoiceLinkTestFailingAtDoFinal";
    private static final long serialVersionUID = 1L;

    FailingAtDoFinal() {
      super(NAME, 1.0, "AES/GCM whose encryption fails at doFinal for BrokenKey");
      put("Cipher.AES/GCM/NoPadding", Spi.class.getName());
    }

    /** A key whose decryption the Keystore refuses with a bare BadPaddingException (keymaster -38). */
    static final class ArgumentErrorKey extends BrokenKey {
      private static final long serialVersionUID = 1L;
    }

    static class BrokenKey implements SecretKey {
      private static final long serialVersionUID = 1L;

      @Override public String getAlgorithm() {
        return "AES";
      }

      @Override public String getFormat() {
        return "RAW";
      }

      @Override public byte[] getEncoded() {
        return new byte[32];
      }
    }

    public static final class Spi extends CipherSpi {
      private @Nullable Key key;

      @Override protected void engineSetMode(String mode) {
      }

      @Override protected void engineSetPadding(String padding) {
      }

      @Override protected int engineGetBlockSize() {
        return 16;
      }

      @Override protected int engineGetOutputSize(int inputLen) {
        return inputLen + 16;
      }

      @Override protected byte[] engineGetIV() {
        return new byte[12];
      }

      @Override protected @Nullable AlgorithmParameters engineGetParameters() {
        return null;
      }

      @Override protected void engineInit(int mode, Key key, SecureRandom random)
          throws InvalidKeyException {
        takeOnly(key);
      }

      @Override protected void engineInit(int mode, Key key, AlgorithmParameterSpec params,
          SecureRandom random) throws InvalidKeyException {
        takeOnly(key);
      }

      @Override protected void engineInit(int mode, Key key, AlgorithmParameters params,
          SecureRandom random) throws InvalidKeyException {
        takeOnly(key);
      }

      @Override protected void engineUpdateAAD(byte[] src, int offset, int len) {
      }

      @Override protected byte[] engineUpdate(byte[] input, int offset, int len) {
        return new byte[0];
      }

      @Override protected int engineUpdate(byte[] input, int offset, int len, byte[] output,
          int outputOffset) {
        return 0;
      }

      @Override protected byte[] engineDoFinal(byte[] input, int offset, int len)
          throws IllegalBlockSizeException, BadPaddingException {
        fail();
        return new byte[0];
      }

      @Override protected int engineDoFinal(byte[] input, int offset, int len, byte[] output,
          int outputOffset) throws IllegalBlockSizeException, BadPaddingException {
        fail();
        return 0;
      }

      private void fail() throws IllegalBlockSizeException, BadPaddingException {
        if (key instanceof ArgumentErrorKey) throw new BadPaddingException();
        throw new IllegalBlockSizeException("Keystore operation failed");
      }

      private void takeOnly(Key key) throws InvalidKeyException {
        if (!(key instanceof BrokenKey)) throw new InvalidKeyException("not a BrokenKey");
        this.key = key;
      }
    }
  }

  /** Stands in for the Keystore's AES key. */
  static final class SoftwareAesKeys implements KeyProvider {
    @Nullable SecretKey key;
    boolean cipherChoosesIv;
    @Nullable RuntimeException failWith;
    @Nullable GeneralSecurityException failWithChecked;
    int deleted;

    @Override public @Nullable SecretKey existingKey() throws GeneralSecurityException {
      if (failWith != null) throw failWith;
      if (failWithChecked != null) throw failWithChecked;
      return key;
    }

    @Override public boolean isLostForGood(GeneralSecurityException e) {
      return e instanceof InvalidatedKey;
    }

    @Override public SecretKey createKey() throws GeneralSecurityException {
      if (failWith != null) throw failWith;
      KeyGenerator generator = KeyGenerator.getInstance("AES");
      generator.init(256);
      key = generator.generateKey();
      return key;
    }

    @Override public void deleteKey() {
      key = null;
      deleted++;
    }

    @Override public boolean cipherChoosesIv() {
      return cipherChoosesIv;
    }
  }

  /** Stands in for the Keystore's RSA key pair. */
  static final class SoftwareRsaPairs implements RsaWrappedKeyProvider.KeyPairs {
    @Nullable KeyPair pair;
    int created;

    @Override public @Nullable KeyPair existing() {
      return pair;
    }

    @Override public KeyPair create() throws GeneralSecurityException {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      pair = generator.generateKeyPair();
      created++;
      return pair;
    }

    @Override public void delete() {
      pair = null;
    }
  }
}
