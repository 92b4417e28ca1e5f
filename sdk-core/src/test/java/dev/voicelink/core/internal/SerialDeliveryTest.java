package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.KotlinThrows;
import dev.voicelink.core.VoiceLinkLog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SerialDeliveryTest {
  /** An executor that runs nothing until the test says so, so every interleaving is explicit. */
  static final class StepExecutor implements Executor {
    final ArrayDeque<Runnable> submitted = new ArrayDeque<>();

    @Override public synchronized void execute(Runnable command) {
      submitted.add(command);
    }

    synchronized int size() {
      return submitted.size();
    }

    void runNext() {
      Runnable next;
      synchronized (this) {
        next = submitted.poll();
      }
      assertThat(next).as("a submitted runnable").isNotNull();
      next.run();
    }
  }

  private final List<String> log = Collections.synchronizedList(new ArrayList<>());

  @AfterEach void restoreLog() {
    VoiceLinkLog.setSink(VoiceLinkLog.defaultSink());
  }

  @Test void enqueueRunsNothingUntilFlushed() {
    SerialDelivery delivery = new SerialDelivery(Runnable::run, "test");
    delivery.enqueue(() -> log.add("a"));
    delivery.enqueue(() -> log.add("b"));
    assertThat(log).isEmpty();

    delivery.flush();

    assertThat(log).containsExactly("a", "b");
  }

  @Test void inlineStepRunsOnTheFlushingThreadAfterEarlierTasksWereHandedOver() {
    StepExecutor executor = new StepExecutor();
    SerialDelivery delivery = new SerialDelivery(executor, "test");
    AtomicReference<Thread> inlineThread = new AtomicReference<>();
    delivery.enqueue(() -> log.add("listener"));
    delivery.enqueueInline(() -> {
      inlineThread.set(Thread.currentThread());
      log.add("inline, " + executor.size() + " submitted");
    });

    delivery.flush();

    assertThat(inlineThread.get()).isSameAs(Thread.currentThread());
    assertThat(log).containsExactly("inline, 1 submitted");
    executor.runNext();
    assertThat(log).containsExactly("inline, 1 submitted", "listener");
  }

  @Test void tasksQueuedByManyThreadsRunOneAtATimeInEachThreadsOrder() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    ExecutorService producers = Executors.newFixedThreadPool(4);
    try {
      SerialDelivery delivery = new SerialDelivery(pool, "test");
      AtomicInteger running = new AtomicInteger();
      AtomicInteger overlaps = new AtomicInteger();
      int[] lastSeen = {-1, -1, -1, -1};
      List<String> outOfOrder = Collections.synchronizedList(new ArrayList<>());
      CyclicBarrier start = new CyclicBarrier(4);
      CountDownLatch queued = new CountDownLatch(4);
      for (int p = 0; p < 4; p++) {
        final int producer = p;
        producers.execute(() -> {
          try {
            start.await();
          } catch (Exception e) {
            throw new AssertionError(e);
          }
          for (int i = 0; i < 2_000; i++) {
            final int sequence = i;
            delivery.execute(() -> {
              if (running.incrementAndGet() != 1) overlaps.incrementAndGet();
              // Unsynchronized on purpose: delivery must make each task see the one before it.
              if (lastSeen[producer] != sequence - 1) outOfOrder.add(producer + ":" + sequence);
              lastSeen[producer] = sequence;
              running.decrementAndGet();
            });
          }
          queued.countDown();
        });
      }
      assertThat(queued.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(delivery.awaitIdle(30, TimeUnit.SECONDS)).isTrue();

      assertThat(overlaps.get()).isZero();
      assertThat(outOfOrder).isEmpty();
      assertThat(lastSeen).containsExactly(1_999, 1_999, 1_999, 1_999);
    } finally {
      producers.shutdownNow();
      pool.shutdownNow();
    }
  }

  @Test void aTaskThatThrowsIsLoggedAndTheRestStillRun() {
    VoiceLinkLog.setSink((level, tag, message, error) ->
        log.add(level + " " + tag + ": " + message + " (" + (error == null ? "" : error.getMessage())
            + ")"));
    SerialDelivery delivery = new SerialDelivery(Runnable::run, "agent");
    delivery.enqueue(() -> {
      throw new IllegalStateException("app bug");
    });
    delivery.enqueue(() -> log.add("next"));

    delivery.flush();

    assertThat(log).containsExactly("WARN agent: a listener threw; ignored (app bug)", "next");
  }

  @Test void aLongQueueGivesTheExecutorBackAfterEachTurn() {
    StepExecutor executor = new StepExecutor();
    SerialDelivery delivery = new SerialDelivery(executor, "test");
    AtomicInteger ran = new AtomicInteger();
    for (int i = 0; i < SerialDelivery.MAX_TASKS_PER_TURN + 1; i++) {
      delivery.execute(ran::incrementAndGet);
    }
    assertThat(executor.size()).isEqualTo(1);

    executor.runNext();

    assertThat(ran.get()).isEqualTo(SerialDelivery.MAX_TASKS_PER_TURN);
    assertThat(executor.size()).as("the rest resubmitted").isEqualTo(1);
    executor.runNext();
    assertThat(ran.get()).isEqualTo(SerialDelivery.MAX_TASKS_PER_TURN + 1);
    assertThat(executor.size()).isZero();
  }

  @Test void awaitIdleWaitsForTheTasksToRun() throws Exception {
    StepExecutor executor = new StepExecutor();
    SerialDelivery delivery = new SerialDelivery(executor, "test");
    assertThat(delivery.awaitIdle(0, TimeUnit.SECONDS)).isTrue();
    delivery.execute(() -> log.add("a"));

    assertThat(delivery.awaitIdle(0, TimeUnit.SECONDS)).isFalse();
    executor.runNext();

    assertThat(delivery.awaitIdle(0, TimeUnit.SECONDS)).isTrue();
    assertThat(log).containsExactly("a");
  }

  @Test void awaitIdleFromOneOfItsOwnTasksIsRefused() {
    SerialDelivery delivery = new SerialDelivery(Runnable::run, "test");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    delivery.execute(() -> {
      try {
        delivery.awaitIdle(1, TimeUnit.SECONDS);
      } catch (Throwable e) {
        thrown.set(e);
      }
    });

    assertThat(thrown.get()).isInstanceOf(IllegalStateException.class)
        .hasMessage("awaitIdle called from a task it would wait for");
  }

  @Test void aTaskQueuedFromATaskOnADirectExecutorRunsAfterItNotInsideIt() {
    SerialDelivery delivery = new SerialDelivery(Runnable::run, "test");
    delivery.execute(() -> {
      log.add("outer start");
      delivery.execute(() -> log.add("inner"));
      log.add("outer end");
    });

    assertThat(log).containsExactly("outer start", "outer end", "inner");
  }

  @Test void aTaskOnADirectExecutorMayWaitForAnotherThreadThatFlushes() throws Exception {
    SerialDelivery delivery = new SerialDelivery(Runnable::run, "test");
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      delivery.execute(() -> {
        log.add("task start");
        // A listener that waits for work on another thread, and that work tells a listener too.
        Future<?> queued = other.submit(() -> delivery.execute(() -> log.add("queued by the other")));
        try {
          queued.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          throw new AssertionError("the other thread waited for this task's delivery", e);
        }
        log.add("task end");
      });
    } finally {
      other.shutdownNow();
    }

    assertThat(log).containsExactly("task start", "task end", "queued by the other");
    assertThat(delivery.awaitIdle(0, TimeUnit.SECONDS)).isTrue();
  }

  @Test void aFlushFromAnInlineTaskHandsOverWhatItQueuedBeforeTheTaskEnds() {
    StepExecutor executor = new StepExecutor();
    SerialDelivery delivery = new SerialDelivery(executor, "test");
    delivery.enqueueInline(() -> {
      delivery.execute(() -> log.add("callback")); // a call completed by the inline step
      log.add("inline end, " + executor.size() + " submitted");
    });

    delivery.flush();

    assertThat(log).containsExactly("inline end, 1 submitted");
    executor.runNext();
    assertThat(log).containsExactly("inline end, 1 submitted", "callback");
  }

  @Test void anErrorFromATaskOnADirectExecutorStrandsNothingQueuedBehindIt() throws Exception {
    SerialDelivery delivery = new SerialDelivery(Runnable::run, "test");
    delivery.enqueue(() -> {
      throw new AssertionError("fatal");
    });
    delivery.enqueue(() -> log.add("behind"));

    assertThatThrownBy(delivery::flush).isInstanceOf(AssertionError.class).hasMessage("fatal");

    assertThat(log).containsExactly("behind");
    assertThat(delivery.awaitIdle(0, TimeUnit.SECONDS)).isTrue();
  }

  @Test void aCheckedExceptionThrownAsKotlinDoesIsLoggedAndTheRestStillRun() {
    VoiceLinkLog.setSink((level, tag, message, error) -> log.add(level + " " + tag + ": " + message
        + " (" + error + ")"));
    SerialDelivery delivery = new SerialDelivery(Runnable::run, "test");
    delivery.enqueue(() -> {
      throw KotlinThrows.checked(new java.io.IOException("from Kotlin"));
    });
    delivery.enqueue(() -> log.add("behind"));

    delivery.flush();

    assertThat(log).containsExactly(
        "WARN test: a listener threw; ignored (java.io.IOException: from Kotlin)", "behind");
  }


  @Test void anExecutorThatRefusesDropsWhatWasQueuedAndSaysSo() throws Exception {
    VoiceLinkLog.setSink((level, tag, message, error) -> log.add(level + " " + tag + ": " + message));
    AtomicInteger refusals = new AtomicInteger();
    SerialDelivery delivery = new SerialDelivery(command -> {
      if (refusals.getAndIncrement() == 0) throw new RejectedExecutionException("shut down");
      command.run();
    }, "test");

    delivery.execute(() -> log.add("lost"));
    assertThat(delivery.awaitIdle(0, TimeUnit.SECONDS)).isTrue();
    delivery.execute(() -> log.add("delivered"));

    assertThat(log).containsExactly("WARN test: the executor refused delivery; 1 calls dropped",
        "delivered");
  }

  @Test void anErrorThrownByATaskDoesNotStrandTheTasksBehindIt() {
    StepExecutor executor = new StepExecutor();
    SerialDelivery delivery = new SerialDelivery(executor, "test");
    delivery.execute(() -> {
      throw new AssertionError("fatal");
    });
    delivery.execute(() -> log.add("behind"));

    assertThatThrownBy(executor::runNext).isInstanceOf(AssertionError.class).hasMessage("fatal");

    assertThat(executor.size()).isEqualTo(1);
    executor.runNext();
    assertThat(log).containsExactly("behind");
  }
}
