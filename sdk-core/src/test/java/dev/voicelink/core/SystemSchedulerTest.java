package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SystemSchedulerTest {
  @Test void runsOnANamedDaemonThread() throws Exception {
    SystemScheduler scheduler = new SystemScheduler("voicelink-test");
    AtomicReference<Thread> thread = new AtomicReference<>();
    CountDownLatch ran = new CountDownLatch(1);
    scheduler.schedule(() -> {
      thread.set(Thread.currentThread());
      ran.countDown();
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(thread.get().getName()).isEqualTo("voicelink-test");
    assertThat(thread.get().isDaemon()).isTrue();
  }

  @Test void cancelledTaskNeverRuns() throws Exception {
    VirtualTime time = new VirtualTime();
    CountDownLatch ran = new CountDownLatch(1);
    Cancellable task = time.schedule(ran::countDown, 5, TimeUnit.SECONDS);
    task.cancel();
    time.advance(10, TimeUnit.SECONDS);
    assertThat(task.isCancelled()).isTrue();
    assertThat(ran.getCount()).isEqualTo(1);
  }
}
