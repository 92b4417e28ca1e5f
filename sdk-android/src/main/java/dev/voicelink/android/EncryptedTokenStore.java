package dev.voicelink.android;

import android.content.Context;
import android.content.SharedPreferences;
import android.os.Build;
import dev.voicelink.auth.RecordLostException;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenStore;
import dev.voicelink.core.internal.AtomicFiles;
import dev.voicelink.core.internal.Log;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import okio.BufferedSource;
import okio.ByteString;
import okio.Okio;

/**
 * sdk-core's {@link TokenStore} on Android: the token record, encrypted with AES-256/GCM, in a file
 * of the app's private {@linkplain Context#getNoBackupFilesDir() no-backup directory}.
 *
 * <pre>{@code
 * EncryptedTokenStore store = EncryptedTokenStore.create(context);
 * TokenManager tokens = TokenManager.builder(client).deviceGrant(clientId).store(store).build();
 * }</pre>
 *
 * <p><b>Keys.</b> On API 23 and later the AES key is generated inside the Android Keystore and never
 * leaves it. On API 21–22 the Keystore cannot hold AES keys: a random AES key is stored wrapped
 * (RSA/ECB/PKCS1Padding) with an RSA-2048 key pair generated in the Keystore ({@code
 * KeyPairGeneratorSpec}). Both protect the record against anyone who gets the record file
 * without this device's Keystore: a copied or restored backup, a file read through another app's bug
 * or off a rooted device's storage dump. Neither protects against code running as this app.
 *
 * <p><b>Undecryptable data.</b> If the stored record cannot be decrypted or read (the key was
 * invalidated or wiped, a backup was restored to another device, the data was altered), {@link
 * #load()} throws a {@link RecordLostException} naming the store and why; its {@code TokenManager}
 * then says {@code REAUTHORIZATION_REQUIRED} with the cause {@code RECORD_LOST}, and an Agent reports
 * {@code ERROR_NOT_AUTHORIZED}. An unreadable record and its key are deleted, because nothing can
 * ever read them again; the next {@link #save} creates a fresh key. A record whose key is missing is
 * kept: before API 31 the Keystore also says "no key" when its service cannot be reached, and a later
 * load reads the record again; the next save replaces it. The user must sign in again. A Keystore that fails for a moment (its service restarting) is not that, though Android
 * reports it with the same exception types as a broken key: only a missing key, a failed
 * authentication tag and a key the system invalidated count as lost. Otherwise {@code load} and
 * {@code save} throw an {@link IOException} and keep the record and its key, until a key has failed
 * {@value #KEY_FAILURES_BEFORE_REPLACING} saves in a row: that save makes a new key in its place and
 * goes on with it.
 *
 * <p><b>Crash safety.</b> {@link #save} writes a temporary file, forces it to the storage device and
 * renames it over the record file (sdk-core's {@code FileTokenStore} does the same): a process killed
 * at any moment leaves the old record or the new one, never a torn one that would read as
 * undecryptable.
 *
 * <p><b>Backups.</b> The record file {@code no_backup/dev.voicelink.tokens.<name>} is never backed up.
 * On API 21–22 the wrapped key lives in the preferences file {@code dev.voicelink.tokens.<name>.xml};
 * exclude it from backups (see docs/android-token-store.md), though without this device's Keystore it
 * is useless.
 *
 * <p>Thread-safe; instances of one name in a process (an Agent's and the app's) take turns on its
 * file, so their saves never interleave. They are {@linkplain #equals equal}: their token managers
 * hear each other's sign-ins, sign-outs and refreshes, so an Agent made per screen knows at once of a
 * sign-in made through another. {@code load}, {@code save} and {@code clear} do file and
 * Keystore I/O: call them off the main thread (a token manager does). {@code create} does no I/O, so
 * a store (and an Agent that makes one) may be made on the main thread under StrictMode; the first
 * {@code load}, {@code save} or {@code clear} finds the file and the key.
 */
public final class EncryptedTokenStore implements TokenStore {
  static final String PREFS_PREFIX = "dev.voicelink.tokens.";
  private static final String TAG = "VoiceLinkTokens";
  private static final byte FORMAT = 1;
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final Charset UTF_8 = Charset.forName("UTF-8");

  private static final long MAX_FILE_BYTES = 64 * 1024;
  /**
   * Saves in a row that a key fails with what may be a Keystore service failing for a moment, before
   * the key is taken for broken (as some devices' keys stay after an update) and replaced.
   */
  static final int KEY_FAILURES_BEFORE_REPLACING = 3;

  private final String name;
  private final SecureRandom random;
  /** What makes two stores one: the app's store name, or the file of a store made on a file. */
  private final Object where;

  /** Finds the record file and the key, once, on the first load, save or clear. */
  private final Place place;
  private final Object opening = new Object();
  // Set once by open(), under opening; read only by a thread that called open() before.
  private File file;
  /** Shared with every other store instance on the same file in this process; null until open. */
  private @Nullable Object lock; // guarded by opening
  /** Saves in a row whose key failed; shared, as the lock is, by the instances on the file. */
  private int[] keyFailuresInARow; // guarded by lock
  private KeyProvider keys;

  /**
   * Where a store's record and key are. Finding them reads the disk (the no-backup directory is made
   * on first use, the preferences file is read), which an app's main thread must not do: a store is
   * often made there, and {@code create} only notes where to look.
   */
  interface Place {
    File file();

    KeyProvider keys();
  }

  EncryptedTokenStore(final File file, final KeyProvider keys, String name, SecureRandom random) {
    this(new Place() {
      @Override public File file() {
        return file;
      }

      @Override public KeyProvider keys() {
        return keys;
      }
    }, name, random, AtomicFiles.lockFor(file));
  }

  private EncryptedTokenStore(Place place, String name, SecureRandom random, Object where) {
    this.place = place;
    this.name = name;
    this.random = random;
    this.where = where;
  }

  /** Finds the file, the key and the file's lock, on the first call. */
  private Object open() {
    synchronized (opening) {
      Object fileLock = lock;
      if (fileLock == null) {
        // Set last: if finding the file or the key throws, the next call tries again.
        file = place.file();
        keys = place.keys();
        fileLock = AtomicFiles.lockFor(file);
        keyFailuresInARow = keyFailuresOf(fileLock);
        lock = fileLock;
      }
      return fileLock;
    }
  }

  /** Per file lock; never removed, as AtomicFiles keeps the locks themselves (few files). */
  private static final Map<Object, int[]> KEY_FAILURES = new HashMap<>();

  private static int[] keyFailuresOf(Object fileLock) {
    synchronized (KEY_FAILURES) {
      int[] count = KEY_FAILURES.get(fileLock);
      if (count == null) {
        count = new int[1];
        KEY_FAILURES.put(fileLock, count);
      }
      return count;
    }
  }

  /** The store named {@code default}. */
  public static EncryptedTokenStore create(Context context) {
    return create(context, "default");
  }

  /**
   * The store {@code name} (letters, digits, {@code .}, {@code _}, {@code -}): one per credential.
   * Its record is in the file {@code dev.voicelink.tokens.<name>} of the app's no-backup directory and
   * its key under the Keystore alias {@code dev.voicelink.tokens.<name>}.
   */
  public static EncryptedTokenStore create(Context context, String name) {
    if (context == null) throw new IllegalArgumentException("context must not be null");
    if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("name must be 1 to 64 letters, digits, '.', '_' or '-'; "
          + "was: " + name);
    }
    final Context app =
        context.getApplicationContext() != null ? context.getApplicationContext() : context;
    final String id = PREFS_PREFIX + name;
    return new EncryptedTokenStore(new Place() {
      @Override public File file() {
        return new File(app.getNoBackupFilesDir(), id);
      }

      @Override public KeyProvider keys() {
        return keyProviderFor(Build.VERSION.SDK_INT, app,
            app.getSharedPreferences(id, Context.MODE_PRIVATE), id);
      }
    }, name, new SecureRandom(), id);
  }

  /** The Keystore AES key on API 23+, the RSA-wrapped key below. The 23+ class is not loaded on 21. */
  static KeyProvider keyProviderFor(int sdk, Context context, SharedPreferences prefs, String alias) {
    if (sdk >= 23) return new KeystoreAesKeyProvider(alias);
    return new RsaWrappedKeyProvider(prefs, new KeystoreRsaKeyPairs(context, alias),
        new SecureRandom());
  }

  KeyProvider keyProvider() {
    open();
    return keys;
  }

  /**
   * The stored record, or null if none is stored.
   *
   * @throws RecordLostException if the record can never be read again (see the class comment)
   * @throws IOException if the file or the Keystore failed this time; the record is kept
   */
  @Override public @Nullable TokenRecord load() throws IOException {
    synchronized (open()) {
      return loadLocked();
    }
  }

  private @Nullable TokenRecord loadLocked() throws IOException {
    String stored = read();
    if (stored == null) return null;
    ByteString blob = ByteString.decodeBase64(stored);
    if (blob == null || blob.size() < 1 + IV_BYTES + TAG_BITS / 8 || blob.getByte(0) != FORMAT) {
      throw undecryptable("the stored record is not in this SDK's format");
    }
    byte[] plain;
    try {
      SecretKey key = keys.existingKey();
      if (key == null) {
        // Before API 31 the Keystore also answers "no key" when its service cannot be reached: the
        // record is kept for a later load, and the next save replaces it with a new key anyway.
        throw lost("its key is gone (wiped, or a backup from elsewhere)", false);
      }
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key,
          new GCMParameterSpec(TAG_BITS, blob.substring(1, 1 + IV_BYTES).toByteArray()));
      cipher.updateAAD(associatedData());
      plain = cipher.doFinal(blob.substring(1 + IV_BYTES).toByteArray());
      keyFailuresInARow[0] = 0;
    } catch (GeneralSecurityException e) {
      // Altered data or another key (a failed tag: AEADBadTagException) and a key lost for good
      // never decrypt. Anything else (UnrecoverableKeyException, a bare InvalidKeyException,
      // KeyStoreException, a bare BadPaddingException, which is how the Keystore reports an argument
      // error) is also how Android reports a Keystore service that failed this time: the data may
      // be fine.
      if (e instanceof AEADBadTagException || keys.isLostForGood(e)) {
        throw undecryptable("it cannot be decrypted (" + e.getClass().getSimpleName() + ")");
      }
      throw keystoreFailed(e);
    } catch (RuntimeException e) {
      // ProviderException and kin: the Keystore service failed this time.
      throw keystoreFailed(e);
    }
    try {
      return TokenRecord.fromStorageJson(new String(plain, UTF_8));
    } catch (IOException e) {
      throw undecryptable("it decrypted to no token record");
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }

  @Override public void save(TokenRecord record) throws IOException {
    synchronized (open()) {
      saveLocked(record);
    }
  }

  private void saveLocked(TokenRecord record) throws IOException {
    if (record == null) throw new IllegalArgumentException("record must not be null");
    byte[] plain = record.toStorageJson().getBytes(UTF_8);
    String blob;
    try {
      blob = encrypt(plain);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
    try {
      AtomicFiles.replace(file, blob.getBytes(UTF_8));
    } catch (IOException e) {
      throw new IOException("cannot write the token record of store " + name + ": "
          + e.getMessage(), e);
    }
  }

  @Override public void clear() throws IOException {
    synchronized (open()) {
      clearLocked();
    }
  }

  private void clearLocked() throws IOException {
    if (!AtomicFiles.delete(file)) {
      throw new IOException("cannot remove the token record of store " + name);
    }
  }

  private @Nullable String read() throws IOException {
    if (!file.exists()) return null;
    if (file.length() > MAX_FILE_BYTES) return "";
    try (BufferedSource source = Okio.buffer(Okio.source(file))) {
      return source.readUtf8();
    }
  }

  private String encrypt(byte[] plain) throws IOException {
    // caller holds lock
    try {
      byte[] sealed;
      try {
        SecretKey key = keys.existingKey();
        sealed = seal(key != null ? key : keys.createKey(), plain);
      } catch (GeneralSecurityException | RuntimeException e) {
        // From Cipher.init or from doFinal: some devices' keys take the init and fail the
        // encryption itself.
        if (e instanceof GeneralSecurityException && keys.isLostForGood((GeneralSecurityException) e)) {
          // An invalidated key (the lock screen was removed): start over with a new one.
          Log.warn(TAG, "token store " + name + ": its key is unusable ("
              + e.getClass().getSimpleName() + "); making a new one", null);
          keys.deleteKey();
          sealed = seal(keys.createKey(), plain);
        } else if (++keyFailuresInARow[0] < KEY_FAILURES_BEFORE_REPLACING) {
          throw e;
        } else {
          // A key that failed save after save, as some devices' keys do after a system update: no
          // sign-in could be saved again with it. Android 6–11's Keystore deletes the old key as it
          // starts making the new one (docs/android-token-store.md); later ones keep it until then.
          Log.warn(TAG, "token store " + name + ": its key failed " + keyFailuresInARow[0]
              + " saves in a row (" + e.getClass().getSimpleName() + "); making a new one", null);
          sealed = seal(keys.createKey(), plain);
        }
      }
      keyFailuresInARow[0] = 0;
      return ByteString.of(sealed).base64();
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IOException("cannot encrypt the token record with " + keys + ": " + e, e);
    }
  }

  /** {@code plain} encrypted with {@code key}: the format byte, the IV, then the sealed bytes. */
  private byte[] seal(SecretKey key, byte[] plain) throws GeneralSecurityException {
    Cipher cipher = encryptingCipher(key);
    byte[] iv = cipher.getIV();
    if (iv == null || iv.length != IV_BYTES) {
      throw new GeneralSecurityException("the cipher chose no 12-byte IV");
    }
    byte[] sealed = cipher.doFinal(plain);
    byte[] out = new byte[1 + IV_BYTES + sealed.length];
    out[0] = FORMAT;
    System.arraycopy(iv, 0, out, 1, IV_BYTES);
    System.arraycopy(sealed, 0, out, 1 + IV_BYTES, sealed.length);
    return out;
  }

  private static IOException keystoreFailed(Exception e) {
    return new IOException("the Android Keystore failed: " + e, e);
  }

  private Cipher encryptingCipher(SecretKey key) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    if (keys.cipherChoosesIv()) {
      cipher.init(Cipher.ENCRYPT_MODE, key);
    } else {
      byte[] iv = new byte[IV_BYTES];
      random.nextBytes(iv);
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
    }
    cipher.updateAAD(associatedData());
    return cipher;
  }

  /** Binds a blob to its format and store: a record copied into another store does not decrypt. */
  private byte[] associatedData() {
    return ("voicelink-token-store:" + FORMAT + ":" + name).getBytes(UTF_8);
  }

  private RecordLostException undecryptable(String why) {
    return lost(why, true);
  }

  /** The record lost; {@code delete} it and its key when nothing can ever read them again. */
  private RecordLostException lost(String why, boolean delete) {
    String reason = "the stored sign-in of token store " + name + " is lost: " + why
        + "; sign in again";
    Log.warn(TAG, reason, null);
    if (delete) {
      if (file.exists() && !file.delete()) {
        Log.warn(TAG, "token store " + name + ": cannot delete its unreadable record", null);
      }
      try {
        keys.deleteKey();
      } catch (GeneralSecurityException | RuntimeException e) {
        Log.warn(TAG, "token store " + name + ": cannot delete its key: " + e, null);
      }
    }
    return new RecordLostException(reason);
  }

  /** Whether {@code other} is a store of the same name (one file of this app), as {@code create} makes. */
  @Override public boolean equals(@Nullable Object other) {
    return other instanceof EncryptedTokenStore && ((EncryptedTokenStore) other).where.equals(where);
  }

  @Override public int hashCode() {
    return where.hashCode();
  }

  @Override public String toString() {
    return "EncryptedTokenStore{" + name + "}";
  }
}
