package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.FileTokenStoreWriter;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.internal.AtomicFiles;
import dev.voicelink.reliability.DocSection;
import dev.voicelink.reliability.KillLoop;
import java.io.File;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EncryptedTokenStore} survives SIGKILL at any moment of a save: a plain child JVM rewrites the
 * store in a loop (AES-GCM, Base64, temporary file, fsync, rename) and is killed at a random moment,
 * {@link KillLoop#kills()} times. After each kill a fresh store must decrypt a whole record the child
 * saved. An unreadable record would be worse here than in the file store: the store would take it
 * for undecryptable, delete it and ask for re-authorization, which the test's key provider turns
 * into a failure.
 */
class EncryptedTokenStoreKillTest {
  @TempDir File dir;

  @Test void everyKillLeavesTheOldOrTheNewRecord() throws Exception {
    File file = new File(dir, "dev.voicelink.tokens." + EncryptedStoreWriter.NAME);
    KillLoop.Result result = KillLoop.run(EncryptedStoreWriter.class,
        KillLoop.classPathOf(EncryptedStoreWriter.class, EncryptedTokenStore.class,
            FileTokenStoreWriter.class, TokenRecord.class, okio.Okio.class,
            com.squareup.moshi.Moshi.class, kotlin.Unit.class),
        file, AtomicFiles.temporaryFileOf(file), KillLoop.kills(), 20261122L, () -> {
          EncryptedTokenStore store = EncryptedStoreWriter.store(file);
          return FileTokenStoreWriter.numberOf(store.load()); // a lost record would throw
        });

    assertThat(result.lossDetails).isEmpty();
    assertThat(result.losses).isZero();
    assertThat(result.midWrite).isPositive();
    String row = KillLoop.row("`EncryptedTokenStore` (sdk-android, Keystore replaced by a fixed"
        + " software key): AES-GCM, temporary file, fsync, rename", result);
    System.out.println("crash safety: " + row);
    if (KillLoop.isDefaultRun()) {
      DocSection.check("reliability.md", "crash-android-store", row);
    }
  }
}
