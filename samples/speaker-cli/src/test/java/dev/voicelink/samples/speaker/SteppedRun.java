package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VirtualTime;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs one command on virtual time: each wait the command schedules passes as soon as it is
 * scheduled (the earliest first), and its length in nanoseconds goes to the test's list. The test's
 * thread steps the time; the command runs on one of its own. Bounded: 100 waits at most, and 10 real
 * seconds for the command to schedule its next wait or end.
 */
final class SteppedRun {
  /** Runs before each step, with the virtual time the step ends at: a server clock to move, say. */
  interface BeforeStep {
    void at(long elapsedNanos) throws Exception;
  }

  private SteppedRun() {
  }

  static int run(SpeakerCli cli, VirtualTime time, List<Long> waits, BeforeStep beforeStep,
      PrintWriter out, PrintWriter err, String... args) throws Exception {
    cli.clock = time;
    cli.scheduler = time;
    ExecutorService cliThread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> exit = cliThread.submit(() -> {
        try {
          return SpeakerCli.run(cli, out, err, args);
        } finally {
          time.signal();
        }
      });
      long elapsedNanos = 0;
      while (true) {
        assertThat(time.awaitScheduledOr(Integer.MAX_VALUE,
            () -> exit.isDone() || !time.pendingDelaysNanos().isEmpty(), 10, TimeUnit.SECONDS))
            .as("the command schedules a wait or ends").isTrue();
        if (exit.isDone()) break;
        assertThat(waits).as("the waits so far (the SDK bounds them)").hasSizeLessThan(100);
        long wait = time.pendingDelaysNanos().get(0);
        waits.add(wait);
        elapsedNanos += wait;
        beforeStep.at(elapsedNanos);
        time.advance(wait, TimeUnit.NANOSECONDS);
      }
      return exit.get(10, TimeUnit.SECONDS);
    } finally {
      cliThread.shutdownNow();
    }
  }
}
