package dev.voicelink.core;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A {@link VoiceLinkLog.Sink} that keeps every line at every level, with the full stack trace (every
 * cause's message) of each logged exception. Install with {@link #install()}, undo with {@link
 * #close()}.
 */
public final class LogCapture implements VoiceLinkLog.Sink, AutoCloseable {
  private final List<String> lines = new ArrayList<>();
  private final VoiceLinkLog.Sink previous = VoiceLinkLog.sink();

  public static LogCapture install() {
    LogCapture capture = new LogCapture();
    VoiceLinkLog.setSink(capture);
    return capture;
  }

  @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
    return true;
  }

  @Override public synchronized void log(VoiceLinkLog.Level level, String tag, String message,
      @Nullable Throwable error) {
    StringBuilder line = new StringBuilder(level + " " + tag + " " + message);
    if (error != null) {
      StringWriter trace = new StringWriter();
      error.printStackTrace(new PrintWriter(trace));
      line.append('\n').append(trace);
    }
    lines.add(line.toString());
    notifyAll();
  }

  /**
   * Waits until a line starting with {@code prefix} ({@code "INFO tag message"}) has been logged, by any
   * thread; false if none was within the timeout.
   */
  public synchronized boolean awaitLine(String prefix, long timeout, TimeUnit unit)
      throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    while (true) {
      for (String line : lines) {
        if (line.startsWith(prefix)) return true;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) return false;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  public synchronized List<String> lines() {
    return new ArrayList<>(lines);
  }

  /** The lines logged at WARN, whole ({@code WARN tag message}). */
  public synchronized List<String> warnings() {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("WARN ")) out.add(line);
    }
    return out;
  }

  /** The lines of {@code tag}, messages only. */
  public synchronized List<String> messages(String tag) {
    List<String> out = new ArrayList<>();
    String prefix = " " + tag + " ";
    for (String line : lines) {
      int at = line.indexOf(prefix);
      if (at >= 0 && at == line.indexOf(' ')) out.add(line.substring(at + prefix.length()));
    }
    return out;
  }

  public synchronized String text() {
    return String.join("\n", lines);
  }

  @Override public void close() {
    VoiceLinkLog.setSink(previous);
  }
}
