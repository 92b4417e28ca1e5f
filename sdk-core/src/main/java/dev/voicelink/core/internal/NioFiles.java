package dev.voicelink.core.internal;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The only class that refers to {@code java.nio.file}, which API 21 lacks: reached only behind a
 * {@code LinkageError} guard ({@link DirectorySync}, {@link AtomicFiles}).
 */
@GuardedApi
final class NioFiles {
  private NioFiles() {
  }

  /**
   * Renames {@code from} over {@code to} in one step, replacing it: {@link File#renameTo} refuses an
   * existing target on Windows, so a store there could save only once.
   */
  static void replace(File from, File to) throws IOException {
    Files.move(from.toPath(), to.toPath(), StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  static boolean force(File dir) {
    try (FileChannel channel = FileChannel.open(dir.toPath(), StandardOpenOption.READ)) {
      channel.force(true);
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /**
   * Creates {@code file}, which must not exist, readable and writable by its owner only from the
   * moment it exists: a file created with the process's umask (often {@code rw-r--r--}) and narrowed
   * afterwards can be opened by another user in between, and a file once open stays readable after
   * its permissions change. Returns false, creating nothing, where the file system has no POSIX
   * permissions.
   *
   * @throws IOException if it cannot be created, or exists already
   */
  static boolean createOwnerOnly(File file) throws IOException {
    try {
      Files.createFile(file.toPath(),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }
}
