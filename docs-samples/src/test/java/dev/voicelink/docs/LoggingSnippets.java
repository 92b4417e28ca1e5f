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
}
