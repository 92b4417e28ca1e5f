package dev.voicelink.auth;

import dev.voicelink.core.internal.Log;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/** Runs tasks one at a time, in submission order, on a caller's executor (which may be a pool). */
final class SerialExecutor implements Executor {
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
  private final Executor executor;
  private @Nullable Runnable active;

  SerialExecutor(Executor executor) {
    this.executor = executor;
  }

  @Override public synchronized void execute(final Runnable task) {
    tasks.add(() -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        Log.warn("auth", "a listener threw; ignored", e);
      } finally {
        scheduleNext();
      }
    });
    if (active == null) scheduleNext();
  }

  private synchronized void scheduleNext() {
    active = tasks.poll();
    if (active != null) executor.execute(active);
  }
}
