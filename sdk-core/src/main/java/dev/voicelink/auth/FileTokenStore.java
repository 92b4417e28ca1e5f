package dev.voicelink.auth;

import dev.voicelink.core.internal.AtomicFiles;
import dev.voicelink.core.internal.Log;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import okio.BufferedSource;
import okio.Okio;

/**
 * A {@link TokenStore} in one JSON file, for embedded JVMs.
 *
 * <p>Crash safety: {@link #save} writes a sibling temporary file, forces it to the storage device,
 * then renames it over the token file. A rename within a directory is atomic on POSIX file systems, so
 * a process killed at any moment leaves the old record or the new one. The directory is forced to the
 * device too, so that the rename survives a power cut, where the platform can open a directory
 * (Linux, macOS; not Windows). The file is made readable and writable by its owner only where the
 * file system supports it.
 *
 * <p>Format (version 1), one JSON object; the client secret of a cloud credential is never stored:
 *
 * <pre>{@code
 * {"version":1,"grant":"device","client_id":"vl-speaker-01","token_type":"bearer",
 *  "access_token":"...","refresh_token":"...","expires_in":8640000,"created_at":1763712000,
 *  "received_at_ms":1763712000123}
 * }</pre>
 *
 * <p>A file that exists but cannot be read as such a record makes {@link #load} throw {@link
 * CorruptTokenFileException}; the file is kept for inspection.
 *
 * <p>Thread-safe within one process, also across instances on the same file (they take turns). Two
 * processes must not write the same file at once. Instances on the same file are {@linkplain
 * #equals equal}: their token managers in one process hear each other's sign-ins, sign-outs and
 * refreshes (see {@link TokenStore}). It holds no open file between calls and needs no closing: keep
 * one per credential for as long as its token manager.
 */
public final class FileTokenStore implements TokenStore {
  private static final long MAX_FILE_BYTES = 64 * 1024;

  private final File file;
  /** Shared with every other store instance on the same file in this process. */
  private final Object lock;

  public FileTokenStore(File file) {
    if (file == null) throw new IllegalArgumentException("file must not be null");
    if (file.isDirectory()) {
      throw new IllegalArgumentException("token file must be a file, not a directory: " + file);
    }
    this.file = file;
    this.lock = AtomicFiles.lockFor(file);
  }

  /** The token file. */
  public File file() {
    return file;
  }

  @Override public @Nullable TokenRecord load() throws IOException {
    synchronized (lock) {
      return loadLocked();
    }
  }

  private @Nullable TokenRecord loadLocked() throws IOException {
    if (!file.exists()) return null;
    if (file.length() > MAX_FILE_BYTES) {
      throw new CorruptTokenFileException(file, "larger than " + MAX_FILE_BYTES + " bytes");
    }
    String text;
    try (BufferedSource source = Okio.buffer(Okio.source(file))) {
      text = source.readUtf8();
    }
    return decode(text);
  }

  @Override public void save(TokenRecord record) throws IOException {
    synchronized (lock) {
      saveLocked(record);
    }
  }

  private void saveLocked(TokenRecord record) throws IOException {
    if (record == null) throw new IllegalArgumentException("record must not be null");
    File target = file.getAbsoluteFile();
    try {
      AtomicFiles.replace(target, (record.toStorageJson() + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IOException("cannot save the token file: " + e.getMessage(), e);
    }
    Log.debug("auth", "saved token record to " + target + ": " + record);
  }

  @Override public void clear() throws IOException {
    synchronized (lock) {
      clearLocked();
    }
  }

  private void clearLocked() throws IOException {
    if (!AtomicFiles.delete(file)) {
      throw new IOException("cannot delete the token file " + file);
    }
  }

  private TokenRecord decode(String text) throws CorruptTokenFileException {
    try {
      return TokenRecord.fromStorageJson(text);
    } catch (IOException e) {
      throw new CorruptTokenFileException(file, e.getMessage());
    }
  }

  /** Whether {@code other} is a store on the same file ("." and ".." resolved, links not followed). */
  @Override public boolean equals(@Nullable Object other) {
    return other instanceof FileTokenStore && ((FileTokenStore) other).lock == lock;
  }

  @Override public int hashCode() {
    return lock.hashCode();
  }

  @Override public String toString() {
    return "FileTokenStore{" + file + "}";
  }
}
