package dev.voicelink.android;

import dev.voicelink.auth.FileTokenStoreWriter;
import java.io.File;
import java.security.SecureRandom;
import org.jspecify.annotations.Nullable;
import java.security.GeneralSecurityException;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Child process of {@link EncryptedTokenStoreKillTest}: a plain JVM (no Android framework is touched)
 * that saves records {@code first, first + 1, ...} into an {@link EncryptedTokenStore} until it is
 * killed, and says {@code saved <first>} once the first save returned. The key is a fixed software
 * AES key, so that the next process can decrypt: the store's encryption and file writing are the
 * real code, only the Keystore is replaced.
 */
public final class EncryptedStoreWriter {
  static final String NAME = "kill";

  private EncryptedStoreWriter() {
  }

  static EncryptedTokenStore store(File file) {
    return new EncryptedTokenStore(file, new FixedKey(), NAME, new SecureRandom());
  }

  public static void main(String[] args) throws Exception {
    FileTokenStoreWriter.exitWhenTheParentIsGone();
    EncryptedTokenStore store = store(new File(args[0]));
    long first = Long.parseLong(args[1]);
    store.save(FileTokenStoreWriter.recordNumber(first));
    System.out.println("saved " + first);
    System.out.flush();
    for (long n = first + 1; ; n++) {
      store.save(FileTokenStoreWriter.recordNumber(n));
    }
  }

  /** One AES-256 key for every process of a test run; deleting it is a test failure. */
  static final class FixedKey implements KeyProvider {
    private static final SecretKey KEY = new SecretKeySpec(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}, "AES");

    @Override public @Nullable SecretKey existingKey() {
      return KEY;
    }

    @Override public SecretKey createKey() {
      return KEY;
    }

    @Override public void deleteKey() {
      throw new AssertionError("the store wanted to delete its key: it found undecryptable data");
    }

    @Override public boolean cipherChoosesIv() {
      return false;
    }

    @Override public boolean isLostForGood(GeneralSecurityException e) {
      return false;
    }
  }
}
