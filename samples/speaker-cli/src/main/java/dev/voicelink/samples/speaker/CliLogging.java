package dev.voicelink.samples.speaker;

import dev.voicelink.core.VoiceLinkLog;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Where log lines go while a command runs: without {@code --verbose} nowhere, so that stderr holds
 * only the command's problems; with it every SDK log line (at every level) and every {@code
 * java.util.logging} record (OkHttp's, the embedded reference server's) on the command's stderr, one
 * line each as {@code W/tag: message}. The SDK has already redacted secrets from what it logs.
 *
 * <p>Logging is global to the JVM, so the routing is too: the first command to start installs it,
 * the last to end puts back what was there, and lines go to the stderr of every verbose command
 * running at that moment (several run at once only in tests).
 */
final class CliLogging implements AutoCloseable {
  private static final Object LOCK = new Object();
  private static final List<PrintWriter> VERBOSE = new CopyOnWriteArrayList<>();
  private static final Logger ROOT = Logger.getLogger("");
  /** Only its message formatting (parameters, resource bundles) is used, not its line format. */
  private static final Formatter MESSAGE = new SimpleFormatter();
  private static final Handler TO_STDERR = new Handler() {
    @Override public void publish(LogRecord record) {
      if (!isLoggable(record)) return;
      String tag = record.getLoggerName() == null ? "jul" : record.getLoggerName();
      write(letter(record.getLevel()), tag, MESSAGE.formatMessage(record), record.getThrown());
    }

    @Override public void flush() {
    }

    @Override public void close() {
    }
  };
  private static final VoiceLinkLog.Sink SINK = new VoiceLinkLog.Sink() {
    @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
      return !VERBOSE.isEmpty();
    }

    @Override public void log(VoiceLinkLog.Level level, String tag, String message,
        Throwable error) {
      write(level.name().charAt(0), tag, message, error);
    }
  };

  private static int running;
  private static VoiceLinkLog.Sink savedSink;
  private static Handler[] savedHandlers;

  private final PrintWriter err;
  private final boolean verbose;

  private CliLogging(PrintWriter err, boolean verbose) {
    this.err = err;
    this.verbose = verbose;
  }

  /** Routes log lines for one command until {@link #close}: to {@code err} if verbose, else nowhere. */
  static CliLogging route(boolean verbose, PrintWriter err) {
    synchronized (LOCK) {
      if (running++ == 0) {
        savedSink = VoiceLinkLog.sink();
        savedHandlers = ROOT.getHandlers();
        for (Handler handler : savedHandlers) ROOT.removeHandler(handler);
        ROOT.addHandler(TO_STDERR);
        VoiceLinkLog.setSink(SINK);
      }
      if (verbose) VERBOSE.add(err);
    }
    return new CliLogging(err, verbose);
  }

  @Override public void close() {
    synchronized (LOCK) {
      if (verbose) VERBOSE.remove(err);
      if (--running == 0) {
        ROOT.removeHandler(TO_STDERR);
        for (Handler handler : savedHandlers) ROOT.addHandler(handler);
        VoiceLinkLog.setSink(savedSink);
        savedHandlers = null;
        savedSink = null;
      }
    }
  }

  private static void write(char level, String tag, String message, Throwable error) {
    for (PrintWriter err : VERBOSE) {
      synchronized (err) {
        err.println(level + "/" + tag + ": " + message);
        if (error != null) error.printStackTrace(err);
        err.flush();
      }
    }
  }

  private static char letter(Level level) {
    if (level.intValue() >= Level.SEVERE.intValue()) return 'E';
    if (level.intValue() >= Level.WARNING.intValue()) return 'W';
    if (level.intValue() >= Level.INFO.intValue()) return 'I';
    return 'D';
  }
}
