package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Threads a test starts, and a barrier that opens once enough of them are parked inside the SDK's
 * auth code: the proof that concurrent callers joined one refresh rather than arriving after it.
 * Closing it interrupts the callers still running.
 */
final class ParkedThreads implements ThreadFactory, AutoCloseable {
  private final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
  private final List<ExecutorService> pools = Collections.synchronizedList(new ArrayList<>());

  /** Starts {@code count} callers of {@code call}, released together once all are submitted. */
  <T> List<Future<T>> callTogether(int count, Callable<T> call) {
    ExecutorService pool = Executors.newFixedThreadPool(count, this);
    pools.add(pool);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<T>> results = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      results.add(pool.submit(() -> {
        go.await();
        return call.call();
      }));
    }
    go.countDown();
    return results;
  }

  @Override public void close() {
    synchronized (pools) {
      for (ExecutorService pool : pools) pool.shutdownNow();
    }
  }

  @Override public Thread newThread(Runnable runnable) {
    Thread thread = new Thread(runnable, "token-caller");
    threads.add(thread);
    return thread;
  }

  /** Returns once {@code count} of the threads wait in {@code dev.voicelink.auth}; fails after 10 s. */
  void awaitParkedInTheSdk(int count) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      int parked = 0;
      synchronized (threads) {
        for (Thread thread : threads) {
          Thread.State state = thread.getState();
          if ((state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
              && inAuthCode(thread.getStackTrace())) {
            parked++;
          }
        }
      }
      if (parked >= count) return;
      assertThat(System.nanoTime() - deadline).as(parked + " of " + count + " callers wait in the SDK")
          .isNegative();
      Thread.yield();
    }
  }

  private static boolean inAuthCode(StackTraceElement[] stack) {
    for (StackTraceElement frame : stack) {
      // SDK code only: a caller still parked in the test's own start barrier (a lambda of a test
      // class in the same package) has not reached the manager yet.
      String name = frame.getClassName();
      if (name.startsWith("dev.voicelink.auth.") && !name.contains("Test")) return true;
    }
    return false;
  }
}
