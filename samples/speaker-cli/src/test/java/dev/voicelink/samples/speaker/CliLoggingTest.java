package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VoiceLinkLog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.logging.Handler;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Log lines while a command runs: on its stderr with --verbose, nowhere without; then as before. */
class CliLoggingTest {
  private static final Logger LIBRARY = Logger.getLogger("okhttp3.OkHttpClient");

  @Test void verboseWritesJavaUtilLoggingAndSdkLinesToTheCommandsStderr() {
    StringWriter err = new StringWriter();
    try (CliLogging routed = CliLogging.route(true, new PrintWriter(err, true))) {
      LIBRARY.warning("A connection to http://127.0.0.1/ was leaked");
      LIBRARY.log(java.util.logging.Level.INFO, "pool of {0} connections", 5);
      VoiceLinkLog.sink().log(VoiceLinkLog.Level.DEBUG, "auth", "refreshing", null);
    }
    assertThat(err.toString()).isEqualTo(
        "W/okhttp3.OkHttpClient: A connection to http://127.0.0.1/ was leaked\n"
            + "I/okhttp3.OkHttpClient: pool of 5 connections\n"
            + "D/auth: refreshing\n");
  }

  @Test void withoutVerboseNothingIsWrittenAndTheRootHandlersComeBack() {
    Handler[] before = Logger.getLogger("").getHandlers();
    VoiceLinkLog.Sink sinkBefore = VoiceLinkLog.sink();
    StringWriter err = new StringWriter();
    try (CliLogging routed = CliLogging.route(false, new PrintWriter(err, true))) {
      Handler[] during = Logger.getLogger("").getHandlers();
      assertThat(during).hasSize(1); // the router's own, in place of the console handler
      assertThat(Arrays.asList(before)).doesNotContain(during[0]);
      LIBRARY.severe("nobody should see this");
      assertThat(VoiceLinkLog.sink().isLoggable(VoiceLinkLog.Level.ERROR, "auth")).isFalse();
    }
    assertThat(err.toString()).isEmpty();
    assertThat(Arrays.asList(Logger.getLogger("").getHandlers())).containsExactly(before);
    assertThat(VoiceLinkLog.sink()).isSameAs(sinkBefore);
  }
}
