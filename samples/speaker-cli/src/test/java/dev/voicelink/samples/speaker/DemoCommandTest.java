package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir File dir;

  @Test void wholeSessionBehavesAsTheSpecSaysAndPrintsNoSecret() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    File tokenFile = new File(dir, "token.json");

    int exit = SpeakerCli.run(new PrintWriter(out, true), new PrintWriter(err, true),
        "demo", "--json", "--speed", "100", "--token-file", tokenFile.getPath());

    assertThat(err.toString()).isEmpty();
    assertThat(exit).as(out.toString()).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines[lines.length - 1]).isEqualTo("{\"status\":\"ok\"}");
    assertThat(out.toString())
        .contains("\"title\":\"Device authorization (OAuth device flow)\"")
        .contains("\"status\":\"authorized\"")
        .contains("\"title\":\"Check the upload, no earlier than 10 s after it\"")
        .contains("\"with\":\"no pers_param\",\"text\":\"call Xiao Zhang\",\"entities\":\"[]\"")
        .doesNotContain(DefaultConsole.ACCOUNT_KEY)
        .doesNotContain(DefaultConsole.CLIENT_SECRET);
    assertThat(tokenFile).exists();
    // What the demo made ends with it, the scheduler it gave the SDK included.
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals("demo-scheduler")) {
        joinQuietly(thread);
        assertThat(thread.isAlive()).as("demo-scheduler ended").isFalse();
      }
    }
  }

  private static void joinQuietly(Thread thread) {
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test void speedOutOfRangeIsInvalidInput() {
    StringWriter err = new StringWriter();
    int exit = SpeakerCli.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
        "demo", "--speed", "0.5");
    assertThat(exit).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).isEqualTo("speaker-cli: --speed must be between 1 and 1000; was: 0.5\n");
  }

  @Test void aPersonHasTheCodesUsualLifetimesInRealTimeWhateverTheSpeed() {
    Console usual = Console.defaults();
    Console demo = DemoSetup.console(1000);
    assertThat(demo.getUserCodeLifetimeSeconds()).isEqualTo(usual.getUserCodeLifetimeSeconds() * 1000);
    assertThat(demo.getSmsCodeLifetimeSeconds()).isEqualTo(usual.getSmsCodeLifetimeSeconds() * 1000);
  }

  /** The person reads the user code and the SMS code from the JSON lines, as a script would. */
  @Test void anInteractiveJsonDemoGivesThePersonTheSmsCode() throws Exception {
    JsonLines lines = new JsonLines();
    AtomicInteger exit = new AtomicInteger(-1);
    Thread demo = new Thread(() -> exit.set(SpeakerCli.run(new PrintWriter(lines, true),
        new PrintWriter(new StringWriter(), true), "demo", "--interactive", "--json", "--speed", "100",
        "--token-file", new File(dir, "token.json").getPath())), "interactive-demo");
    demo.start();
    try {
      Map<String, Object> issued = lines.next("user_code");
      Map<String, Object> hint = lines.next("log_in");
      assertThat(hint.get("phone")).isEqualTo(DefaultConsole.TESTER_PHONE);
      new SimulatedTester((String) issued.get("verification_uri"), DefaultConsole.TESTER_PHONE,
          phone -> (String) lines.next("sms_code").get("code"))
          .approve((String) issued.get("user_code"));
      demo.join(60_000);
      assertThat(exit.get()).isZero();
      assertThat(lines.last()).isEqualTo("{\"status\":\"ok\"}");
    } finally {
      demo.interrupt();
    }
  }

  /** The demo's stdout as JSON lines, handed over one at a time: a barrier, not a poll. */
  private static final class JsonLines extends Writer {
    private final StringBuilder pending = new StringBuilder();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private volatile String last = "";

    @Override public synchronized void write(char[] chars, int offset, int length) {
      for (int i = offset; i < offset + length; i++) {
        if (chars[i] == '\n') {
          last = pending.toString();
          lines.add(last);
          pending.setLength(0);
        } else {
          pending.append(chars[i]);
        }
      }
    }

    /** The next line with {@code "event"} equal to {@code event}; waits at most 60 s for it. */
    Map<String, Object> next(String event) {
      try {
        for (String line; (line = lines.poll(60, TimeUnit.SECONDS)) != null; ) {
          Map<String, Object> fields = parse(line);
          if (fields != null && event.equals(fields.get("event"))) return fields;
        }
      } catch (InterruptedException | IOException e) {
        throw new AssertionError(e);
      }
      throw new AssertionError("no " + event + " line within 60 s");
    }

    String last() {
      return last;
    }

    private static @Nullable Map<String, Object> parse(String line) throws IOException {
      return new Moshi.Builder().build().<Map<String, Object>>adapter(
          Types.newParameterizedType(Map.class, String.class, Object.class)).fromJson(line);
    }

    @Override public void flush() {
    }

    @Override public void close() {
    }
  }
}
