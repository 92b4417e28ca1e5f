package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
  @TempDir File dir;

  @Test void theDirectoryIsForcedOnceTheNewContentHasItsName() throws IOException {
    File target = new File(dir, "tokens.json");
    AtomicFiles.replace(target, bytes("old"));
    List<String> seen = new ArrayList<>();
    AtomicFiles.replace(target, bytes("new"), forced -> {
      try {
        seen.add(forced + " holds " + read(target) + ", temporary file left: "
            + AtomicFiles.temporaryFileOf(target).exists());
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      return true;
    });
    assertThat(seen).containsExactly(dir + " holds new, temporary file left: false");
  }

  @Test void aDirectoryThatCannotBeForcedStillGetsTheNewContent() throws IOException {
    File target = new File(dir, "tokens.json");
    AtomicFiles.replace(target, bytes("new"), forced -> false);
    assertThat(read(target)).isEqualTo("new");
  }

  /** CI runs on Linux, where a directory opens read-only and forces; the SDK's speakers run Linux. */
  @Test void theJvmForcesARealDirectory() {
    assertThat(DirectorySync.DEFAULT.sync(dir)).isTrue();
  }

  @Test void aDirectoryThatIsNotThereIsNotForcedAndNothingIsThrown() {
    assertThat(DirectorySync.DEFAULT.sync(new File(dir, "missing"))).isFalse();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String read(File file) throws IOException {
    return new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8);
  }
}
