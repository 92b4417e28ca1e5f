package dev.voicelink.core.internal;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/** The only class that refers to {@code java.nio.file}, which API 21 lacks; see {@link DirectorySync}. */
@GuardedApi
final class NioDirectories {
  private NioDirectories() {
  }

  static boolean force(File dir) {
    try (FileChannel channel = FileChannel.open(dir.toPath(), StandardOpenOption.READ)) {
      channel.force(true);
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }
}
