package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
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

  @Test void aWriteThatFailsRemovesItsTemporaryFileAndKeepsTheOldContent() throws IOException {
    File target = new File(dir, "tokens.json");
    AtomicFiles.replace(target, bytes("old"));
    // Bytes that cannot be written fail the write once the temporary file exists, as a full disk
    // or a failing device does (a directory that refuses new files does not stop root, who runs CI).
    byte[] unwritable = null;

    assertThatThrownBy(() -> AtomicFiles.replace(target, unwritable, forced -> true))
        .isInstanceOf(NullPointerException.class);

    assertThat(AtomicFiles.temporaryFileOf(target)).as("the record's copy nobody would read").doesNotExist();
    assertThat(read(target)).isEqualTo("old");
  }

  @Test void deleteRemovesTheRecordAndALeftTemporaryFileThenForcesTheDirectory() throws IOException {
    File target = new File(dir, "tokens.json");
    AtomicFiles.replace(target, bytes("old"));
    File temp = AtomicFiles.temporaryFileOf(target);
    Files.write(temp.toPath(), bytes("half-written by a process that died"));
    List<String> seen = new ArrayList<>();

    assertThat(AtomicFiles.delete(target, forced -> {
      seen.add(forced + " forced; record left: " + target.exists() + ", temporary file left: "
          + temp.exists());
      return true;
    })).isTrue();

    assertThat(seen).containsExactly(dir + " forced; record left: false, temporary file left: false");
    assertThat(AtomicFiles.delete(target)).as("nothing to delete").isTrue();
  }

  /**
   * The temporary file holds the record before its rename: no other user may open it at any moment,
   * and an open file stays readable after a chmod, so it is created owner-only, not with the
   * process's umask (often {@code rw-r--r--}) and narrowed afterwards.
   */
  @Test void theTemporaryFileIsOwnerOnlyFromTheMomentItExists() throws IOException {
    File temp = AtomicFiles.temporaryFileOf(new File(dir, "tokens.json"));

    assertThat(NioFiles.createOwnerOnly(temp)).isTrue();

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(temp.toPath())))
        .isEqualTo("rw-------");
    assertThatThrownBy(() -> NioFiles.createOwnerOnly(temp))
        .isInstanceOf(FileAlreadyExistsException.class);
  }

  @Test void theReplacedFileIsOwnerOnly() throws IOException {
    File target = new File(dir, "tokens.json");
    AtomicFiles.replace(target, bytes("new"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target.toPath())))
        .isEqualTo("rw-------");
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
