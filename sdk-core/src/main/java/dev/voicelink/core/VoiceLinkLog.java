package dev.voicelink.core;

import java.io.PrintStream;
import java.util.Calendar;
import java.util.Iterator;
import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TimeZone;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's logging hook. Until an app installs a sink of its own, the SDK logs to the {@linkplain
 * #defaultSink() platform's log}: Logcat (tag {@code VoiceLink}) when the Android library is part of
 * the app, {@code java.util.logging} (loggers {@code dev.voicelink.<tag>}) elsewhere. An app may
 * {@linkplain #setSink(Sink) install its own sink} to route SDK logs anywhere, or {@linkplain
 * #silent() silence} them. HTTP traffic is logged only when {@link
 * VoiceLinkClient.Builder#httpLogging(HttpLogLevel)} asks for it.
 *
 * <pre>{@code
 * VoiceLinkLog.setSink(VoiceLinkLog.printTo(System.err, VoiceLinkLog.Level.INFO)); // one line each
 * VoiceLinkLog.setSink(VoiceLinkLog.silent());        // nothing from the SDK, anywhere
 * VoiceLinkLog.setSink(VoiceLinkLog.defaultSink());   // back to Logcat (Android) or java.util.logging
 * }</pre>
 *
 * <p>{@code java.util.logging} writes each record in the format of the app's configuration: by
 * default in two lines, the time and the record's source, then the level and the message. The SDK
 * names its logger ({@code dev.voicelink.<tag>}) as the source of each record, and never changes the
 * app's logging configuration; {@link #printTo} prints one line per entry without it.
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

  /** The sink the app installed; null until it installs one, and the default sink is used. */
  private static volatile @Nullable Sink sink;

  private VoiceLinkLog() {
  }

  /** Routes all SDK logging to {@code sink} from now on, in place of the default sink. */
  public static void setSink(Sink sink) {
    if (sink == null) throw new IllegalArgumentException("sink must not be null");
    VoiceLinkLog.sink = sink;
  }

  /** The sink in use: the one last {@linkplain #setSink installed}, else the {@link #defaultSink()}. */
  public static Sink sink() {
    Sink installed = sink;
    return installed != null ? installed : PlatformDefault.SINK;
  }

  /**
   * The sink the SDK logs to until {@link #setSink} is called. On Android, with the Android library
   * ({@code voicelink-android}) in the app, it is that library's Logcat sink, {@code
   * dev.voicelink.android.LogcatSink}; anywhere else, {@link #javaUtilLogging()}. It is chosen once,
   * the first time the SDK logs or this method is called: nothing runs at app start.
   */
  public static Sink defaultSink() {
    return PlatformDefault.SINK;
  }

  /**
   * A sink that writes to {@code java.util.logging}, logger {@code dev.voicelink.<tag>}, which is also
   * each record's source (source class; no source method): levels {@code VERBOSE} and {@code DEBUG}
   * are {@code FINEST} and {@code FINE}, {@code WARN} is {@code WARNING}, {@code ERROR} is {@code
   * SEVERE}.
   */
  public static Sink javaUtilLogging() {
    return JulSink.INSTANCE;
  }

  /**
   * A sink that prints each line of level {@code minimum} and above to {@code out}, one line per
   * entry, in the local time zone:
   *
   * <pre>{@code
   * 2025-11-21 12:00:05.250 W/entity: check-resource psn… failed (check 3): java.net.SocketTimeoutException: timeout
   * }</pre>
   *
   * <p>The level's first letter ({@code V}, {@code D}, {@code I}, {@code W}, {@code E}) and the tag,
   * as in Logcat; an exception as its {@code toString()}, then each cause's after {@code "; caused
   * by: "}, with no stack trace. A line break inside a message or an exception's text is written as
   * {@code \n}, so that every entry stays on one line. It does not touch {@code java.util.logging}.
   */
  public static Sink printTo(PrintStream out, Level minimum) {
    return printTo(out, minimum, Clock.system(), TimeZone.getDefault());
  }

  /** {@link #printTo(PrintStream, Level)} with the time of {@code clock} in {@code zone}, for tests. */
  static Sink printTo(PrintStream out, Level minimum, Clock clock, TimeZone zone) {
    if (out == null) throw new IllegalArgumentException("out must not be null");
    if (minimum == null) throw new IllegalArgumentException("minimum must not be null");
    return new PrintSink(out, minimum, clock, zone);
  }

  /** A sink that drops every line (and lets the SDK skip building them). */
  public static Sink silent() {
    return SilentSink.INSTANCE;
  }

  /**
   * Chooses the default sink when first used (class initialization runs once, thread-safely).
   *
   * <p>sdk-core cannot depend on the Android library, so it finds the library's Logcat sink as a
   * service, not by a class name of its own: sdk-android lists {@code LogcatSink} in its {@code
   * META-INF/services/dev.voicelink.core.VoiceLinkLog$Sink}, next to the class, and its build fails
   * (LogcatSinkJvmTest) when that entry or the file's name no longer names the two classes. R8 reads
   * the entry too: it keeps the class it names, renames it there along with the class, and may turn
   * this lookup into a plain {@code new}.
   */
  private static final class PlatformDefault {
    static final Sink SINK = find();

    private static Sink find() {
      try {
        // The loader that has sdk-core has the Android library too, when the app includes it; the
        // thread's context loader may be another one (a test runner's).
        Iterator<Sink> found = ServiceLoader.load(Sink.class, Sink.class.getClassLoader()).iterator();
        while (found.hasNext()) {
          try {
            return found.next();
          } catch (ServiceConfigurationError | RuntimeException | LinkageError notAndroid) {
            // LogcatSink's constructor calls into android.util.Log: on a JVM, where the class path
            // may still hold the Android library or a framework stub, that fails.
          }
        }
      } catch (ServiceConfigurationError | RuntimeException | LinkageError unreadable) {
        // a services file that cannot be read: as without one
      }
      return JulSink.INSTANCE;
    }
  }

  private enum SilentSink implements Sink {
    INSTANCE;

    @Override public boolean isLoggable(Level level, String tag) {
      return false;
    }

    @Override public void log(Level level, String tag, String message, @Nullable Throwable error) {
    }

    @Override public String toString() {
      return "VoiceLinkLog.silent()";
    }
  }

  private static final class PrintSink implements Sink {
    /** At most this many exceptions of a chain, the first and its causes: a chain may loop. */
    private static final int MAX_CAUSES = 10;
    private final PrintStream out;
    private final Level minimum;
    private final Clock clock;
    private final TimeZone zone;

    PrintSink(PrintStream out, Level minimum, Clock clock, TimeZone zone) {
      this.out = out;
      this.minimum = minimum;
      this.clock = clock;
      this.zone = zone;
    }

    @Override public boolean isLoggable(Level level, String tag) {
      return level.compareTo(minimum) >= 0;
    }

    @Override public void log(Level level, String tag, String message, @Nullable Throwable error) {
      if (!isLoggable(level, tag)) return;
      Calendar now = Calendar.getInstance(zone, Locale.ROOT);
      now.setTimeInMillis(clock.wallMillis());
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%tF %<tT.%<tL", now))
          .append(' ').append(level.name().charAt(0)).append('/').append(tag).append(": ")
          .append(oneLine(message));
      Throwable t = error;
      for (int depth = 0; t != null && depth < MAX_CAUSES; depth++, t = t.getCause()) {
        line.append(depth == 0 ? ": " : "; caused by: ").append(oneLine(String.valueOf(t)));
      }
      if (t != null) line.append("; …"); // a longer chain, or one that loops
      out.println(line); // one call: lines of several threads never interleave
    }

    private static String oneLine(String text) {
      return text.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
    }

    @Override public String toString() {
      return "VoiceLinkLog.printTo(" + out + ", " + minimum + ")";
    }
  }

  private enum JulSink implements Sink {
    INSTANCE;

    @Override public boolean isLoggable(Level level, String tag) {
      return logger(tag).isLoggable(julLevel(level));
    }

    @Override public void log(Level level, String tag, String message, @Nullable Throwable error) {
      // The source is named, else java.util.logging takes this method for it from the stack
      Logger logger = logger(tag);
      logger.logp(julLevel(level), logger.getName(), null, message, error);
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
