package dev.voicelink.core.internal;

import java.io.File;

/**
 * Forces a directory's entries to the storage device (POSIX {@code fsync} of the directory), so that
 * a file renamed into it is still there after a power cut: forcing the file itself makes its bytes
 * durable, not the name that points at them. A speaker is unplugged at any moment; without this, the
 * token file could come back as the old record after the server had already rotated its refresh token.
 */
interface DirectorySync {
  /**
   * Forces {@code dir}; false where the platform cannot open a directory (Windows, Android before
   * API 26, which lacks {@code java.nio.file}) or the file system refuses. Never throws: the rename
   * already happened, and a process crash (not a power cut) keeps it either way.
   */
  boolean sync(File dir);

  /** The JVM's way, through {@code java.nio.file}; also Android's from API 26. */
  DirectorySync DEFAULT = new DirectorySync() {
    @Override public boolean sync(File dir) {
      try {
        return NioFiles.force(dir);
      } catch (LinkageError e) {
        return false; // Android before API 26
      }
    }
  };
}
