package dev.voicelink.auth;

import java.io.File;
import java.io.IOException;

/**
 * A token file exists but cannot be read as a token record. The file is left untouched so that it
 * can be inspected; delete it (or save a new record over it) to recover, which means authorizing the
 * device again.
 *
 * <p>Thrown by {@link FileTokenStore#load()} on the caller's thread; immutable, and its message names
 * the file and the problem, never the file's content.
 */
public final class CorruptTokenFileException extends IOException {
  private static final long serialVersionUID = 1L;

  private final File file;

  CorruptTokenFileException(File file, String reason) {
    super("token file " + file + " is corrupt (" + reason + "); it was kept for inspection:"
        + " delete it and authorize again");
    this.file = file;
  }

  /** The file that could not be read. */
  public File file() {
    return file;
  }
}
