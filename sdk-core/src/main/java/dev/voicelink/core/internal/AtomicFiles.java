package dev.voicelink.core.internal;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Replacing a small file so that a crash at any moment leaves the old content or the new one: a
 * sibling temporary file, written, forced to the device, renamed over the target (atomic within a
 * directory on POSIX file systems), and the directory forced too, so that the rename survives a power
 * cut. A failed write leaves no temporary file behind, and {@link #delete} forces the directory too,
 * so that a signed-out record does not come back after a power cut. Shared by the file token store
 * and the Android token store.
 */
public final class AtomicFiles {
  /** One monitor per file, shared by every store instance on it; never removed (few files). */
  private static final ConcurrentHashMap<String, Object> LOCKS = new ConcurrentHashMap<>();

  private AtomicFiles() {
  }

  /**
   * The monitor that every reader and writer of {@code file} in this process holds: two store
   * instances on one file (an Agent's and the app's) would otherwise delete each other's temporary
   * file and rename a half-written one over the record.
   */
  public static Object lockFor(File file) {
    String path = normalized(file);
    Object lock = LOCKS.get(path);
    if (lock != null) return lock;
    Object created = new Object();
    lock = LOCKS.putIfAbsent(path, created);
    return lock != null ? lock : created;
  }

  /**
   * The directory entry that {@link #replace} renames over, with "." and ".." resolved: not the
   * target of a link, which the first rename replaces with a file; and without disk access (an app
   * may make its store on the main thread).
   */
  private static String normalized(File file) {
    ArrayDeque<String> names = new ArrayDeque<>();
    for (String name : file.getAbsolutePath().split(Pattern.quote(File.separator))) {
      if (name.isEmpty() || name.equals(".")) continue;
      if (name.equals("..")) {
        names.pollLast();
      } else {
        names.addLast(name);
      }
    }
    StringBuilder path = new StringBuilder();
    for (String name : names) path.append(File.separatorChar).append(name);
    return path.toString();
  }

  /** The temporary file that {@link #replace} writes next to {@code target}. */
  public static File temporaryFileOf(File target) {
    File absolute = target.getAbsoluteFile();
    return new File(absolute.getParentFile(), absolute.getName() + ".tmp");
  }

  /**
   * Replaces the content of {@code target} with {@code bytes}; the file is its owner's only. Holds
   * {@link #lockFor} the target while it does.
   */
  public static void replace(File target, byte[] bytes) throws IOException {
    replace(target, bytes, DirectorySync.DEFAULT);
  }

  static void replace(File target, byte[] bytes, DirectorySync directorySync) throws IOException {
    synchronized (lockFor(target)) {
      replaceLocked(target.getAbsoluteFile(), bytes, directorySync);
    }
  }

  private static void replaceLocked(File absolute, byte[] bytes, DirectorySync directorySync)
      throws IOException {
    File dir = absolute.getParentFile();
    if (dir != null && !dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) {
      throw new IOException("cannot create the directory of " + absolute);
    }
    File temp = temporaryFileOf(absolute);
    if (temp.exists() && !temp.delete()) {
      throw new IOException("cannot remove the stale temporary file " + temp);
    }
    try {
      createOwnerOnly(temp);
      FileOutputStream out = new FileOutputStream(temp);
      try {
        ownerOnly(temp);
        out.write(bytes);
        out.flush();
        out.getFD().sync();
      } finally {
        out.close();
      }
    } catch (IOException | RuntimeException e) {
      // A full disk or a failing device: the record's content must not stay in a file nobody reads,
      // and a sign-out, which deletes the record, would not know to delete it.
      temp.delete();
      throw e;
    }
    try {
      rename(temp, absolute);
    } catch (IOException e) {
      temp.delete();
      throw e;
    }
    forceDirectory(dir, absolute, directorySync);
  }

  /** Renames {@code temp} over {@code target}, replacing it in one step on every platform. */
  private static void rename(File temp, File target) throws IOException {
    try {
      NioFiles.replace(temp, target);
    } catch (LinkageError e) {
      // Android before API 26, whose rename(2) replaces the target as one step.
      if (!temp.renameTo(target)) throw new IOException("cannot replace " + target);
    } catch (IOException e) {
      throw new IOException("cannot replace " + target + ": " + e, e);
    }
  }

  /**
   * Deletes {@code target}, and a temporary file a crashed {@link #replace} left next to it, and
   * forces the directory. Holds {@link #lockFor} the target while it does. Returns false when a file
   * is still there.
   */
  public static boolean delete(File target) {
    return delete(target, DirectorySync.DEFAULT);
  }

  static boolean delete(File target, DirectorySync directorySync) {
    File absolute = target.getAbsoluteFile();
    synchronized (lockFor(absolute)) {
      File temp = temporaryFileOf(absolute);
      boolean deleted = (!temp.exists() || temp.delete()) & (!absolute.exists() || absolute.delete());
      forceDirectory(absolute.getParentFile(), absolute, directorySync);
      return deleted;
    }
  }

  private static void forceDirectory(@Nullable File dir, File changed, DirectorySync directorySync) {
    if (dir != null && dir.isDirectory() && !directorySync.sync(dir)) {
      Log.debug("auth", "the directory of " + changed.getName() + " cannot be forced to the device;"
          + " the change survives a crash, a power cut may undo it");
    }
  }

  /**
   * Creates {@code temp} owner-only from the start where the platform can (a JVM, Android from API
   * 26), so that no other user can open it before {@link #ownerOnly} narrows it: an open file stays
   * readable after that.
   */
  private static void createOwnerOnly(File temp) throws IOException {
    try {
      NioFiles.createOwnerOnly(temp);
    } catch (LinkageError e) {
      // Android before API 26: the file is in the app's own directory, and the Android store's
      // holds only ciphertext under a Keystore key; ownerOnly narrows it before a byte is written.
    }
  }

  private static void ownerOnly(File file) {
    // Each call returns false where the file system has no such permission bits (FAT on an SD card):
    // then there is nothing better to do than to carry on.
    file.setReadable(false, false);
    file.setWritable(false, false);
    file.setExecutable(false, false);
    file.setReadable(true, true);
    file.setWritable(true, true);
  }
}
