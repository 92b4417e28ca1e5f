package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the progress bar draws, frame by frame, on a fake terminal. */
class TransferBarTest {
  static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  @Test void framesShowShareSizesThroughputAndTimeLeft() {
    assertThat(TransferBar.render(0, 66_700_000, 0))
        .isEqualTo("[------------------------]   0%  0 B of 66.7 MB");
    assertThat(TransferBar.render(28_000_000, 66_700_000, 3 * SECOND))
        .isEqualTo("[##########--------------]  41%  28.0 MB of 66.7 MB  9.3 MB/s  5 s left");
    assertThat(TransferBar.render(1_000_000, 66_700_000, 2 * SECOND))
        .isEqualTo("[------------------------]   1%  1.0 MB of 66.7 MB  500.0 kB/s  2 min 12 s left");
    assertThat(TransferBar.render(10_000, 4_000_000_000L, SECOND))
        .isEqualTo("[------------------------]   0%  10.0 kB of 4.00 GB  10.0 kB/s  111 h 06 min left");
    assertThat(TransferBar.render(66_700_000, 66_700_000, 7 * SECOND))
        .isEqualTo("[########################] 100%  66.7 MB of 66.7 MB  9.5 MB/s  0 s left");
    assertThat(TransferBar.render(0, 0, SECOND))
        .isEqualTo("[########################] 100%  0 B of 0 B");
  }

  @Test void theBarRedrawsOneLineAndEndsWithASummary() {
    StringWriter terminal = new StringWriter();
    Output out = new Output(new PrintWriter(terminal), new PrintWriter(new StringWriter()), false);
    TickingClock clock = new TickingClock(0);
    TransferBar bar = new TransferBar(out, clock);
    clock.tick = SECOND / 2;

    bar.onProgress(500, 1_500);
    bar.onProgress(1_500, 1_500);
    bar.finish(true);

    assertThat(terminal.toString()).isEqualTo(
        "\r\u001b[2K[########----------------]  33%  500 B of 1.5 kB  1.0 kB/s  1 s left"
            + "\r\u001b[2K[########################] 100%  1.5 kB of 1.5 kB  1.5 kB/s  0 s left"
            + "\r\u001b[2K"
            + "sent 1.5 kB in 1.0 s (1.5 kB/s)" + System.lineSeparator());
  }

  @Test void aFailedUploadOnlyClearsTheBar() {
    StringWriter terminal = new StringWriter();
    Output out = new Output(new PrintWriter(terminal), new PrintWriter(new StringWriter()), false);
    TickingClock clock = new TickingClock(SECOND);
    TransferBar bar = new TransferBar(out, clock);

    bar.onProgress(500, 1_500);
    bar.finish(false);

    assertThat(terminal.toString()).isEqualTo(
        "\r\u001b[2K[########----------------]  33%  500 B of 1.5 kB  500 B/s  2 s left\r\u001b[2K");
  }
}
