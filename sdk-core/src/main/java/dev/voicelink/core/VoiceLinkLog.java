package dev.voicelink.core;

import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's logging hook. By default the SDK logs through {@code java.util.logging} under logger
 * names starting with {@code dev.voicelink}. An app may install its own sink to route SDK logs
 * anywhere (on Android, one that writes to {@code android.util.Log}). HTTP traffic is logged only when
 * {@link VoiceLinkClient.Builder#httpLogging(HttpLogLevel)} asks for it.
 *
 * <p>The SDK never writes a secret (account key, tokens, client secret, device code) to a log: where
 * one must be identified it appears as a short fingerprint such as {@code ‹secret 1a2b3c4d›}.
 *
 * <p>Thread-safe. The sink is called on whichever thread logs and must not block.
 */
public final class VoiceLinkLog {
  /** Severity of a log line, from most to least verbose. */
  public enum Level {
    VERBOSE, DEBUG, INFO, WARN, ERROR
  }

  /**
   * Receives the SDK's log lines. Implementations must be thread-safe and must not block. Only
   * {@link #log} is abstract, so a lambda will do.
   */
  public interface Sink {
    /** Writes one line. {@code error} is null when there is no exception to report. */
    void log(Level level, String tag, String message, @Nullable Throwable error);

    /**
     * Whether lines of {@code level} for {@code tag} are wanted; lets the SDK skip building them.
     * Every line is wanted unless overridden.
     */
    default boolean isLoggable(Level level, String tag) {
      return true;
    }
  }

  private static volatile Sink sink = javaUtilLogging();

  private VoiceLinkLog() {
  }

  /** Routes all SDK logging to {@code sink} from now on. */
  public static void setSink(Sink sink) {
    if (sink == null) throw new IllegalArgumentException("sink must not be null");
    VoiceLinkLog.sink = sink;
  }

  /** The sink in use. */
  public static Sink sink() {
    return sink;
  }

  /** A sink that writes to {@code java.util.logging}, logger {@code dev.voicelink.<tag>}. */
  public static Sink javaUtilLogging() {
    return JulSink.INSTANCE;
  }

  private enum JulSink implements Sink {
    INSTANCE;

    @Override public boolean isLoggable(Level level, String tag) {
      return logger(tag).isLoggable(julLevel(level));
    }

    @Override public void log(Level level, String tag, String message, @Nullable Throwable error) {
      logger(tag).log(julLevel(level), message, error);
    }

    private static Logger logger(String tag) {
      return Logger.getLogger("dev.voicelink." + tag);
    }

    private static java.util.logging.Level julLevel(Level level) {
      switch (level) {
        case VERBOSE: return java.util.logging.Level.FINEST;
        case DEBUG: return java.util.logging.Level.FINE;
        case INFO: return java.util.logging.Level.INFO;
        case WARN: return java.util.logging.Level.WARNING;
        default: return java.util.logging.Level.SEVERE;
      }
    }
  }
}
