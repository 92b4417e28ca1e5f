package dev.voicelink.samples.speaker;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits with a visible sign of life: on a terminal a spinner with the elapsed time on one line,
 * elsewhere (a log, a pipe, {@code --json}) nothing, so captured output stays clean.
 */
final class Progress {
  private static final long TICK_MILLIS = 200;
  private static final char[] SPINNER = {'|', '/', '-', '\\'};

  private Progress() {
  }

  /** Takes the next item of {@code queue}, waiting at most {@code timeoutMillis} real time. */
  static <T> T await(Output out, BlockingQueue<T> queue, String label, long timeoutMillis)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    int tick = 0;
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return null;
        T item = queue.poll(Math.min(TICK_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1),
            TimeUnit.MILLISECONDS);
        if (item != null) return item;
        show(out, label, start, tick++);
      }
    } finally {
      clear(out);
    }
  }

  /** Runs {@code work} on another thread and shows progress until it returns. */
  static <T> T call(Output out, String label, Callable<T> work) throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "demo-work");
      thread.setDaemon(true);
      return thread;
    });
    try {
      Future<T> future = executor.submit(work);
      long start = System.nanoTime();
      int tick = 0;
      while (true) {
        try {
          return future.get(TICK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillRunning) {
          show(out, label, start, tick++);
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof Exception) throw (Exception) cause;
          throw e;
        }
      }
    } finally {
      clear(out);
      executor.shutdownNow();
    }
  }

  /** Sleeps {@code millis} real time, showing progress. */
  static void sleep(Output out, String label, long millis) throws InterruptedException {
    long start = System.nanoTime();
    long end = start + TimeUnit.MILLISECONDS.toNanos(millis);
    int tick = 0;
    try {
      while (true) {
        long left = end - System.nanoTime();
        if (left <= 0) return;
        TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS)));
        show(out, label, start, tick++);
      }
    } finally {
      clear(out);
    }
  }

  private static void show(Output out, String label, long startNanos, int tick) {
    if (!out.interactiveTerminal()) return;
    long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    out.overwrite("  " + SPINNER[tick % SPINNER.length] + " " + label + " "
        + DemoSession.seconds(elapsed));
  }

  private static void clear(Output out) {
    if (out.interactiveTerminal()) out.overwrite("");
  }
}
