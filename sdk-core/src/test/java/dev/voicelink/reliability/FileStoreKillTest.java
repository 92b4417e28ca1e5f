package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.FileTokenStoreWriter;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileTokenStore} survives SIGKILL at any moment of a save: a child JVM rewrites the token
 * file in a loop and is killed at a random moment, {@link KillLoop#kills()} times; after each kill a
 * fresh store must load a whole record the child saved, never an older one than before, never
 * nothing, never a corrupt file.
 */
class FileStoreKillTest {
  @TempDir File dir;

  @Test void everyKillLeavesTheOldOrTheNewRecord() throws Exception {
    File file = new File(dir, "token.json");
    KillLoop.Result result = KillLoop.run(FileTokenStoreWriter.class,
        KillLoop.classPathOf(FileTokenStoreWriter.class, FileTokenStore.class, okio.Okio.class,
            com.squareup.moshi.Moshi.class, kotlin.Unit.class), file,
        new File(dir, "token.json.tmp"), KillLoop.kills(), 20261121L,
        () -> FileTokenStoreWriter.numberOf(new FileTokenStore(file).load()));

    assertThat(result.lossDetails).isEmpty();
    assertThat(result.losses).isZero();
    assertThat(result.midWrite).as("kills that caught a save between creating and renaming its"
        + " temporary file").isPositive();
    List<String> leftovers = new ArrayList<>();
    for (String name : dir.list()) {
      if (!name.equals("token.json") && !name.equals("token.json.tmp")) leftovers.add(name);
    }
    assertThat(leftovers).isEmpty();

    String row = KillLoop.row("`FileTokenStore` (sdk-core): temporary file, fsync, rename", result);
    System.out.println("crash safety: " + row);
    if (KillLoop.isDefaultRun()) {
      DocSection.check("reliability.md", "crash-file-store", row);
    }
  }
}
