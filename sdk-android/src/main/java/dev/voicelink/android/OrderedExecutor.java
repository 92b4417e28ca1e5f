package dev.voicelink.android;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks one at a time in submission order on any executor, so events keep their order even when
 * the app hands the agent a thread pool.
 */
final class OrderedExecutor implements Executor {
  private final Executor delegate;
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  private boolean running;

  OrderedExecutor(Executor delegate) {
    this.delegate = delegate;
  }

  @Override public void execute(Runnable task) {
    synchronized (this) {
      queue.add(task);
      if (running) return;
      running = true;
    }
    delegate.execute(new Runnable() {
      @Override public void run() {
        drain();
      }
    });
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (this) {
        next = queue.poll();
        if (next == null) {
          running = false;
          return;
        }
      }
      next.run();
    }
  }
}
