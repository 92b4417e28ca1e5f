package dev.voicelink.android;

import android.content.Context;
import android.content.ContextWrapper;
import android.content.SharedPreferences;
import java.io.File;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An application context that notes each call that reads or makes its private directories, with
 * the thread that made it: the calls StrictMode reports as disk reads on the main thread.
 */
final class DiskWatchingContext extends ContextWrapper {
  private final List<String> diskCalls = new CopyOnWriteArrayList<>();

  DiskWatchingContext(Context base) {
    super(base);
  }

  /** Each call as {@code "method on thread"}. */
  List<String> diskCalls() {
    return diskCalls;
  }

  @Override public Context getApplicationContext() {
    return this;
  }

  @Override public File getNoBackupFilesDir() {
    diskCalls.add("getNoBackupFilesDir on " + Thread.currentThread().getName());
    return super.getNoBackupFilesDir();
  }

  @Override public File getFilesDir() {
    diskCalls.add("getFilesDir on " + Thread.currentThread().getName());
    return super.getFilesDir();
  }

  @Override public SharedPreferences getSharedPreferences(String name, int mode) {
    diskCalls.add("getSharedPreferences on " + Thread.currentThread().getName());
    return super.getSharedPreferences(name, mode);
  }
}
