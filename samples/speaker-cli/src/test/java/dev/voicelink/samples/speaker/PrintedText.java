package dev.voicelink.samples.speaker;

import java.io.StringWriter;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the CLI printed, for a test that waits for a line while the CLI runs on another thread: it wakes
 * on each write, not on a timer.
 */
final class PrintedText extends StringWriter {
  private final Semaphore written = new Semaphore(0);

  @Override public void write(int c) {
    super.write(c);
    written.release();
  }

  @Override public void write(char[] chars, int off, int len) {
    super.write(chars, off, len);
    written.release();
  }

  @Override public void write(String text) {
    super.write(text);
    written.release();
  }

  @Override public void write(String text, int off, int len) {
    super.write(text, off, len);
    written.release();
  }

  /**
   * Group 1 of the first match of {@code pattern} in the text, waiting for writes until it appears or
   * {@code timeout} has passed (then null).
   */
  @Nullable String await(Pattern pattern, long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    do {
      Matcher match = pattern.matcher(toString());
      if (match.find()) return match.group(1);
    } while (written.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS));
    return null;
  }
}
