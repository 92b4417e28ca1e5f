package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.testing.DefaultConsole;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir File dir;

  @Test void wholeSessionBehavesAsTheSpecSaysAndPrintsNoSecret() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    File tokenFile = new File(dir, "token.json");

    int exit = SpeakerCli.run(new PrintWriter(out, true), new PrintWriter(err, true),
        "demo", "--json", "--speed", "100", "--token-file", tokenFile.getPath());

    assertThat(err.toString()).isEmpty();
    assertThat(exit).as(out.toString()).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines[lines.length - 1]).isEqualTo("{\"status\":\"ok\"}");
    assertThat(out.toString())
        .contains("\"title\":\"Device authorization (OAuth device flow)\"")
        .contains("\"status\":\"authorized\"")
        .contains("\"title\":\"Check the upload, no earlier than 10 s after it\"")
        .contains("\"with\":\"no pers_param\",\"text\":\"call Xiao Zhang\",\"entities\":\"[]\"")
        .doesNotContain(DefaultConsole.ACCOUNT_KEY)
        .doesNotContain(DefaultConsole.CLIENT_SECRET);
    assertThat(tokenFile).exists();
    // What the demo made ends with it, the scheduler it gave the SDK included.
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals("demo-scheduler")) {
        joinQuietly(thread);
        assertThat(thread.isAlive()).as("demo-scheduler ended").isFalse();
      }
    }
  }

  private static void joinQuietly(Thread thread) {
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test void speedOutOfRangeIsInvalidInput() {
    StringWriter err = new StringWriter();
    int exit = SpeakerCli.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
        "demo", "--speed", "0.5");
    assertThat(exit).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).isEqualTo("speaker-cli: --speed must be between 1 and 1000; was: 0.5\n");
  }
}
