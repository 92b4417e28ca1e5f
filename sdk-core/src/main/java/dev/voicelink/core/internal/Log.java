package dev.voicelink.core.internal;

import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.core.VoiceLinkLog.Level;
import org.jspecify.annotations.Nullable;

/** What SDK code calls to log. Messages must already have their secrets redacted ({@link Redact}). */
public final class Log {
  private Log() {
  }

  public static boolean isLoggable(Level level, String tag) {
    return VoiceLinkLog.sink().isLoggable(level, tag);
  }

  public static void verbose(String tag, String message) {
    log(Level.VERBOSE, tag, message, null);
  }

  public static void debug(String tag, String message) {
    log(Level.DEBUG, tag, message, null);
  }

  public static void info(String tag, String message) {
    log(Level.INFO, tag, message, null);
  }

  public static void warn(String tag, String message, @Nullable Throwable error) {
    log(Level.WARN, tag, message, error);
  }

  public static void error(String tag, String message, @Nullable Throwable error) {
    log(Level.ERROR, tag, message, error);
  }

  private static void log(Level level, String tag, String message, @Nullable Throwable error) {
    VoiceLinkLog.Sink sink = VoiceLinkLog.sink();
    if (sink.isLoggable(level, tag)) {
      sink.log(level, tag, message, error);
    }
  }
}
