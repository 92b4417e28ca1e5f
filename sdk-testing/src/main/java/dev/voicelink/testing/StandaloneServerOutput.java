package dev.voicelink.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a reference server started standalone, in another process, prints on its standard output,
 * read line by line: the addresses of its banner, the moment it serves, and the SMS codes of its
 * verification page. It is the {@linkplain SimulatedTester.SmsInbox SMS inbox} of a {@link
 * SimulatedTester} that approves codes on that server, so that a test script needs no browser:
 *
 * <pre>{@code
 * Process process = new ProcessBuilder("java", "-jar", "voicelink-reference-server.jar", "--port", "0")
 *     .redirectError(ProcessBuilder.Redirect.INHERIT).start();
 * StandaloneServerOutput server = new StandaloneServerOutput();
 * server.readFrom(process.getInputStream(), System.out);
 * server.awaitServing(30, TimeUnit.SECONDS);
 * new SimulatedTester(server.address("verification"), DefaultConsole.TESTER_PHONE, server)
 *     .approve(userCode);
 * }</pre>
 *
 * <p>The lines it reads, stable from one version to the next: the banner's address lines ({@code
 * "  auth_url      http://127.0.0.1:8080/auth"}, also {@code platform_url}, {@code base_url} and
 * {@code verification}), {@code "Serving until stopped (Ctrl-C)."}, and each SMS code, printed once as
 * {@code "SMS to 13800000000: verification code 123456"}. Other lines are ignored.
 *
 * <p>Thread-safe: one thread feeds it lines while others wait on it.
 */
public final class StandaloneServerOutput implements SimulatedTester.SmsInbox {
  private static final Pattern ADDRESS =
      Pattern.compile(" {2}(auth_url|platform_url|base_url|verification) +(\\S+)");
  private static final Pattern SMS = Pattern.compile("SMS to (\\S+): verification code (\\d+)");
  private static final String SERVING = "Serving until stopped";

  private final long smsWaitNanos;
  private final Map<String, String> addresses = new HashMap<>();
  /** The newest code printed for each phone that {@link #lastSmsCode} has not handed out yet. */
  private final Map<String, String> unread = new HashMap<>();
  private boolean serving;
  private boolean ended;

  /** Output whose SMS codes are waited for up to 10 seconds (see {@link #lastSmsCode}). */
  public StandaloneServerOutput() {
    this(10, TimeUnit.SECONDS);
  }

  /**
   * Output whose SMS codes are waited for up to {@code smsWait}.
   *
   * @throws IllegalArgumentException if {@code smsWait} is negative
   */
  public StandaloneServerOutput(long smsWait, TimeUnit unit) {
    if (unit == null) throw new IllegalArgumentException("unit must not be null");
    if (smsWait < 0) throw new IllegalArgumentException("smsWait must not be negative; was: " + smsWait);
    this.smsWaitNanos = unit.toNanos(smsWait);
  }

  /**
   * Reads {@code stdout}, the server's standard output as UTF-8, on a daemon thread until it ends,
   * copying each line to {@code echo} (unless null) as it goes. Returns the thread, already started.
   */
  public Thread readFrom(final InputStream stdout, final @Nullable PrintStream echo) {
    if (stdout == null) throw new IllegalArgumentException("stdout must not be null");
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(stdout,
          StandardCharsets.UTF_8))) {
        for (String line; (line = lines.readLine()) != null; ) {
          if (echo != null) echo.println(line);
          accept(line);
        }
      } catch (IOException ended) {
        // the process ended, or its stream was closed
      } finally {
        end();
      }
    }, "reference-server-output");
    reader.setDaemon(true);
    reader.start();
    return reader;
  }

  /** Takes one line the server printed, for output read some other way; a line of no interest is ignored. */
  public synchronized void accept(String line) {
    if (line == null) return;
    Matcher address = ADDRESS.matcher(line);
    Matcher sms = SMS.matcher(line);
    if (address.matches()) {
      addresses.put(address.group(1), address.group(2));
    } else if (sms.matches()) {
      unread.put(sms.group(1), sms.group(2));
    } else if (line.startsWith(SERVING)) {
      serving = true;
    } else {
      return;
    }
    notifyAll();
  }

  /** The server's output ended (its process stopped): waits end at once. */
  public synchronized void end() {
    ended = true;
    notifyAll();
  }

  /**
   * Waits until the server says it serves ({@code Serving until stopped}); false if {@code timeout}
   * passed or the output ended first (the server could not start: its standard error says why).
   */
  public synchronized boolean awaitServing(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    for (long left; !serving && !ended && (left = deadline - System.nanoTime()) > 0; ) {
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return serving;
  }

  /**
   * An address of the banner: {@code auth_url}, {@code platform_url}, {@code base_url} or {@code
   * verification} (the verification URI a {@link SimulatedTester} needs).
   *
   * @throws IllegalStateException if the server has not printed it (yet): call {@link #awaitServing} first
   */
  public synchronized String address(String name) {
    String address = addresses.get(name);
    if (address == null) {
      throw new IllegalStateException("the server has not printed its " + name + " address"
          + (serving ? "" : " (yet: wait with awaitServing)"));
    }
    return address;
  }

  /**
   * The code the server printed for {@code phone} since this inbox last handed one out for it. The
   * server prints it before its page answers, but the line may reach this reader a moment later: so
   * this waits for it, up to the wait given at construction, and returns null if none came (or the
   * output ended). A code is handed out once: a second login on the same phone waits for its own.
   */
  @Override public synchronized @Nullable String lastSmsCode(String phone) {
    long deadline = System.nanoTime() + smsWaitNanos;
    try {
      for (long left; !unread.containsKey(phone) && !ended
          && (left = deadline - System.nanoTime()) > 0; ) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
    return unread.remove(phone);
  }

  /** Shows the addresses read and whether the server serves; never a code. */
  @Override public synchronized String toString() {
    return "StandaloneServerOutput{" + (serving ? "serving" : ended ? "ended" : "starting")
        + ", " + addresses + "}";
  }
}
