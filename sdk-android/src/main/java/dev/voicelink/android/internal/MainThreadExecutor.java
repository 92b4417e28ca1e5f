package dev.voicelink.android.internal;

import android.os.Handler;
import android.os.Looper;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs tasks on the app's main thread, in the order they were submitted.
 *
 * <p>Every task is posted to the main {@link Looper}, even when {@link #execute} is called on the main
 * thread itself. Running inline in that case would let a task overtake tasks posted earlier from other
 * threads, and events must reach the app in the order they happened.
 *
 * <p>Thread-safe; holds no resources, so there is nothing to close.
 */
public final class MainThreadExecutor implements Executor {
  private final Handler handler;

  public MainThreadExecutor() {
    this.handler = new Handler(Looper.getMainLooper());
  }

  @Override
  public void execute(Runnable command) {
    if (command == null) {
      throw new NullPointerException("command == null");
    }
    if (!handler.post(command)) {
      // post() returns false only when the main looper is quitting: the process is going away and a
      // silently dropped event would be worse than a clear failure for the caller.
      throw new RejectedExecutionException("main looper is exiting");
    }
  }

  @Override
  public String toString() {
    return "MainThreadExecutor";
  }
}
