package dev.voicelink.samples.speaker;

import dev.voicelink.core.VoiceLinkLog;
import java.io.PrintWriter;

/**
 * {@code --verbose}: every SDK log line, at every level, on stderr, so that stdout stays the
 * command's report. The SDK has already redacted secrets from what it logs.
 */
final class StderrLog implements VoiceLinkLog.Sink {
  private final PrintWriter err;

  StderrLog(PrintWriter err) {
    this.err = err;
  }

  @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
    return true;
  }

  @Override public void log(VoiceLinkLog.Level level, String tag, String message,
      Throwable error) {
    synchronized (err) {
      err.println(level.name().charAt(0) + "/" + tag + ": " + message);
      if (error != null) error.printStackTrace(err);
      err.flush();
    }
  }
}
