package dev.voicelink.docs;

import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.core.VoiceLinkLog;
import java.io.PrintStream;

/** The code of docs/configuration.md#logging and docs/security.md; {@code LoggingSnippetsTest} runs it. */
final class LoggingSnippets {
  private LoggingSnippets() {
  }

  static VoiceLinkConfig debugConfig(String authUrl, String baseUrl, boolean debugBuild,
      PrintStream console) {
    // snippet:http-logging
    if (debugBuild) {
      VoiceLinkLog.setSink(new VoiceLinkLog.Sink() {
        @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
          return true; // HTTP lines are DEBUG, interaction frames VERBOSE
        }

        @Override public void log(VoiceLinkLog.Level level, String tag, String message,
            Throwable error) {
          console.println(level + " " + tag + ": " + message);
        }
      });
    }
    VoiceLinkConfig config = VoiceLinkConfig.builder()
        .authUrl(authUrl)
        .baseUrl(baseUrl)
        .httpLogging(debugBuild ? HttpLogLevel.BODY : HttpLogLevel.NONE) // default NONE
        .build();
    // end-snippet
    return config;
  }
}
