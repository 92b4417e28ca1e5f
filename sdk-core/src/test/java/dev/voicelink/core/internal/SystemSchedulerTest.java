package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.LogCapture;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SystemSchedulerTest {
  final ExecutorService workers = Executors.newCachedThreadPool(new NamedThreads("test-worker"));
  final SystemScheduler scheduler = new SystemScheduler("voicelink-test", workers);

  @AfterEach void tearDown() {
    scheduler.shutdown();
    workers.shutdownNow();
  }

  @Test void keepsTimeOnANamedDaemonThreadAndRunsTasksOnTheRunner() throws Exception {
    AtomicReference<Thread> thread = new AtomicReference<>();
    CountDownLatch ran = new CountDownLatch(1);
    scheduler.schedule(() -> {
      thread.set(Thread.currentThread());
      ran.countDown();
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(thread.get().getName()).startsWith("test-worker");

    AtomicReference<Thread> timing = new AtomicReference<>();
    CountDownLatch timed = new CountDownLatch(1);
    scheduler.timer().execute(() -> {
      timing.set(Thread.currentThread());
      timed.countDown();
    });
    assertThat(timed.await(5, TimeUnit.SECONDS)).isTrue();
    scheduler.shutdown();
    assertThat(scheduler.timer().awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    assertThat(timing.get().getName()).isEqualTo("voicelink-test");
    assertThat(timing.get().isDaemon()).isTrue();
  }

  @Test void aTaskThatBlocksDoesNotHoldUpTheNext() throws Exception {
    CountDownLatch firstRunning = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch secondRan = new CountDownLatch(1);
    scheduler.schedule(() -> {
      firstRunning.countDown();
      try {
        release.await(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(firstRunning.await(5, TimeUnit.SECONDS)).isTrue();
    scheduler.schedule(secondRan::countDown, 0, TimeUnit.MILLISECONDS);
    try {
      assertThat(secondRan.await(5, TimeUnit.SECONDS)).isTrue();
    } finally {
      release.countDown();
    }
  }

  @Test void shutdownDropsWaitingTasksLetsARunningOneFinishAndRefusesNewOnes() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Boolean> interrupted = new AtomicReference<>();
    CountDownLatch finished = new CountDownLatch(1);
    scheduler.schedule(() -> {
      running.countDown();
      try {
        release.await(1, TimeUnit.MINUTES);
        interrupted.set(false);
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      finished.countDown();
    }, 0, TimeUnit.MILLISECONDS);
    scheduler.schedule(() -> { }, 1, TimeUnit.HOURS);
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

    scheduler.shutdown();
    assertThat(scheduler.timer().awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    assertThat(scheduler.timer().getQueue()).isEmpty();
    release.countDown();
    assertThat(finished.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(interrupted.get()).isFalse();
    assertThatThrownBy(() -> scheduler.schedule(() -> { }, 0, TimeUnit.MILLISECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the VoiceLinkClient was closed; its scheduler takes no more waits");
  }

  @Test void aTaskFallingDueAfterTheRunnerClosedIsDropped() throws Exception {
    workers.shutdown();
    CountDownLatch ran = new CountDownLatch(1);
    scheduler.schedule(ran::countDown, 0, TimeUnit.MILLISECONDS);
    CountDownLatch timerIdle = new CountDownLatch(1);
    scheduler.timer().execute(timerIdle::countDown);
    assertThat(timerIdle.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(ran.getCount()).isEqualTo(1);
  }

  @Test void aWaitCancelledAfterItFellDueButBeforeItRanNeverRuns() throws Exception {
    BlockingQueue<Runnable> handedOver = new LinkedBlockingQueue<>();
    SystemScheduler held = new SystemScheduler("voicelink-held", handedOver::add);
    try {
      CountDownLatch ran = new CountDownLatch(1);
      Cancellable wait = held.schedule(ran::countDown, 0, TimeUnit.MILLISECONDS);
      Runnable due = handedOver.poll(5, TimeUnit.SECONDS);
      assertThat(due).as("the wait fell due and was handed over").isNotNull();

      wait.cancel();
      due.run();
      assertThat(ran.getCount()).isEqualTo(1);
      assertThat(wait.isCancelled()).isTrue();
    } finally {
      held.shutdown();
    }
  }

  @Test void aTaskThatThrowsIsLoggedAndTheWorkerGoesOn() throws Exception {
    BlockingQueue<Runnable> handedOver = new LinkedBlockingQueue<>();
    SystemScheduler held = new SystemScheduler("voicelink-held", handedOver::add);
    try (LogCapture log = LogCapture.install()) {
      held.schedule(() -> {
        throw new IllegalStateException("boom");
      }, 0, TimeUnit.MILLISECONDS);
      Runnable due = handedOver.poll(5, TimeUnit.SECONDS);
      assertThat(due).isNotNull();
      due.run(); // does not throw into the worker
      assertThat(log.lines()).anySatisfy(line -> assertThat(line)
          .startsWith("ERROR core a scheduled task failed\njava.lang.IllegalStateException: boom"));
    } finally {
      held.shutdown();
    }
  }

  @Test void aCancelledWaitLeavesTheTimerAndNeverRuns() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    Cancellable wait = scheduler.schedule(ran::countDown, 1, TimeUnit.HOURS);
    wait.cancel();
    assertThat(wait.isCancelled()).isTrue();
    assertThat(scheduler.timer().getQueue()).isEmpty();
    assertThat(ran.getCount()).isEqualTo(1);
  }
}
