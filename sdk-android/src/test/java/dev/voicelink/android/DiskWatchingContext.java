package dev.voicelink.android;

import android.content.Context;
import android.content.ContextWrapper;
import android.content.SharedPreferences;
import java.io.File;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An application context that notes each call that reads or makes its private directories, with
 * the thread that made it: the calls StrictMode reports as disk reads on the main thread.
 */
final class DiskWatchingContext extends ContextWrapper {
  private final List<String> diskCalls = new CopyOnWriteArrayList<>();
  private final CountDownLatch firstCall = new CountDownLatch(1);

  DiskWatchingContext(Context base) {
    super(base);
  }

  /** Each call as {@code "method on thread"}. */
  List<String> diskCalls() {
    return diskCalls;
  }

  /** Waits for the first call: the store is read on an SDK thread, at a moment of its own. */
  boolean awaitDiskCall(long timeout, TimeUnit unit) throws InterruptedException {
    return firstCall.await(timeout, unit);
  }

  private void noted(String method) {
    diskCalls.add(method + " on " + Thread.currentThread().getName());
    firstCall.countDown();
  }

  @Override public Context getApplicationContext() {
    return this;
  }

  @Override public File getNoBackupFilesDir() {
    noted("getNoBackupFilesDir");
    return super.getNoBackupFilesDir();
  }

  @Override public File getFilesDir() {
    noted("getFilesDir");
    return super.getFilesDir();
  }

  @Override public SharedPreferences getSharedPreferences(String name, int mode) {
    noted("getSharedPreferences");
    return super.getSharedPreferences(name, mode);
  }
}
