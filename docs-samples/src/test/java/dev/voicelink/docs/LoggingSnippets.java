package dev.voicelink.docs;

import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import java.io.PrintStream;

/** The code of docs/configuration.md#logging and docs/security.md; {@code LoggingSnippetsTest} runs it. */
final class LoggingSnippets {
  private LoggingSnippets() {
  }

  static VoiceLinkClient debugClient(String authUrl, String baseUrl, boolean debugBuild,
      PrintStream console) {
    // snippet:http-logging
    if (debugBuild) {
      // every level: HTTP lines are DEBUG, interaction frames VERBOSE
      VoiceLinkLog.setSink((level, tag, message, error) ->
          console.println(level + " " + tag + ": " + message));
    }
    VoiceLinkClient client = VoiceLinkClient.builder()
        .authUrl(authUrl)
        .baseUrl(baseUrl)
        .httpLogging(debugBuild ? HttpLogLevel.BODY : HttpLogLevel.NONE) // default NONE
        .build();
    // end-snippet
    return client;
  }

  static void oneLinePerEntry() {
    // snippet:logging-one-line
    VoiceLinkLog.setSink(VoiceLinkLog.printTo(System.err, VoiceLinkLog.Level.INFO));
    // 2025-11-21 12:00:05.250 W/entity: check-resource psn… failed (check 3): java.net.SocketTimeoutException: timeout
    // end-snippet
  }
}
