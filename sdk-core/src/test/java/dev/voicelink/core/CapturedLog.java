package dev.voicelink.core;

import org.jspecify.annotations.Nullable;

/**
 * A log sink for fuzz tests: keeps what one input made the SDK log (instead of printing it a million
 * times), so the test can check it for secrets.
 */
public final class CapturedLog implements VoiceLinkLog.Sink {
  private final StringBuilder text = new StringBuilder();

  /** Installs a fresh sink and returns it. */
  public static CapturedLog install() {
    CapturedLog log = new CapturedLog();
    VoiceLinkLog.setSink(log);
    return log;
  }

  @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
    return true; // the finest level too: a secret must not show at any level
  }

  @Override public synchronized void log(VoiceLinkLog.Level level, String tag, String message,
      @Nullable Throwable error) {
    text.append(level).append(' ').append(tag).append(": ").append(message).append('\n');
    for (Throwable t = error; t != null; t = t.getCause()) text.append("  ").append(t).append('\n');
  }

  public synchronized String text() {
    return text.toString();
  }
}
