package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class SpeakerCliTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return SpeakerCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @Test void helpListsExitCodes() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString())
        .contains("Usage: speaker-cli")
        .contains("2   invalid input or configuration (nothing was sent)")
        .contains("6   the server refused the request");
  }

  @Test void versionComesFromTheBuild() {
    assertThat(run("--version")).isZero();
    assertThat(out.toString().trim()).matches("speaker-cli \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
  }

  @Test void unknownOptionIsInvalidInput() {
    assertThat(run("--no-such-option")).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).startsWith("speaker-cli: Unknown option: '--no-such-option'");
  }
}
