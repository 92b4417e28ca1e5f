package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sync}'s progress bar, drawn on a fake terminal, against the reference server. */
class SyncProgressTest {
  static final String CLEAR_LINE = "\r\u001b[2K";
  private static final Pattern FRAME = Pattern.compile("\\[[#-]{24}] +(\\d{1,3})%  (\\S+ [kMG]?B) of"
      + " (\\S+ [kMG]?B)(  \\S+ [kMG]?B/s  \\d+ (s|min \\d\\d s) left)?");

  @TempDir File dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private ReferenceServer server;
  private File records;

  @BeforeEach void setUp() throws IOException {
    server = ReferenceServer.builder().build().start();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 40_000; i++) {
      text.append("{\"name\":\"联系人").append(i).append("\",\"alias\":\"c").append(i).append("\"}\n");
    }
    records = new File(dir, "contacts.jsonl");
    Files.write(records.toPath(), text.toString().getBytes(StandardCharsets.UTF_8));
  }

  @AfterEach void tearDown() throws IOException {
    server.close();
  }

  private int sync(boolean terminal, String... more) throws IOException {
    File key = new File(dir, "key");
    Files.write(key.toPath(), DefaultConsole.ACCOUNT_KEY.getBytes(StandardCharsets.UTF_8));
    SpeakerCli cli = new SpeakerCli();
    cli.terminal = terminal;
    cli.clock = new TickingClock(TimeUnit.MILLISECONDS.toNanos(20));
    List<String> args = new java.util.ArrayList<>(Arrays.asList("sync",
        "--base-url", server.baseUrl(), "--namespace", "OS123", "--appid", DefaultConsole.APPID,
        "--res-name", "OS123.contacts", "--fields", "name,alias", "--level", "user",
        "--auth-id", EntityCommandsTest.AUTH_ID, "--account-key-file", key.getPath(),
        "--file", records.getPath()));
    args.addAll(Arrays.asList(more));
    return SpeakerCli.run(cli, new PrintWriter(out, true), new PrintWriter(err, true),
        args.toArray(new String[0]));
  }

  private long bodyBytes() {
    return Long.parseLong(server.journal().calls("/upload-resource").get(0).header("Content-Length"));
  }

  @Test void onATerminalTheBarGrowsToTheWholeBodyThenASummaryTakesItsPlace() throws Exception {
    assertThat(sync(true)).as(err.toString()).isZero();

    String[] parts = out.toString().split(Pattern.quote(CLEAR_LINE), -1);
    assertThat(parts[0]).isEmpty();
    String total = TransferBar.size(bodyBytes());
    int previous = -1;
    for (int i = 1; i < parts.length - 1; i++) {
      Matcher frame = FRAME.matcher(parts[i]);
      assertThat(frame.matches()).as(parts[i]).isTrue();
      assertThat(frame.group(3)).isEqualTo(total);
      int percent = Integer.parseInt(frame.group(1));
      assertThat(percent).isGreaterThanOrEqualTo(previous);
      previous = percent;
    }
    assertThat(parts.length - 2).as("frames").isGreaterThan(2);
    assertEndsWithTheWholeBodyThenTheSummary(parts, total, "psn\\S+");
  }

  /** The last frame of the bar (split at its line clearing) is the whole body; the summary replaces it. */
  static void assertEndsWithTheWholeBodyThenTheSummary(String[] parts, String total, String sidPattern) {
    assertThat(parts[parts.length - 2]).startsWith("[########################] 100%  " + total + " of "
        + total + "  ");
    assertThat(parts[parts.length - 1]).matches("sent " + Pattern.quote(total)
        + " in \\d+\\.\\d s \\(\\S+ [kM]B/s\\)\\R"
        + "uploaded OS123\\.contacts: sid " + sidPattern + " \\(in effect at \\S+Z\\)\\R");
  }

  @Test void jsonOnATerminalStaysOneJsonObjectPerLine() throws Exception {
    assertThat(sync(true, "--json")).isZero();
    assertThat(out.toString()).matches("\\{\"sid\":\"psn[^\"]+\",\"csid\":\"[^\"]+\"}\\R");
  }

  @Test void noProgressOnATerminalDrawsNothing() throws Exception {
    assertThat(sync(true, "--no-progress")).isZero();
    assertThat(out.toString()).matches("uploaded OS123\\.contacts: sid psn\\S+ \\(in effect at \\S+Z\\)\\R");
  }

  @Test void progressDrawsEvenWhenStdoutIsNoTerminal() throws Exception {
    assertThat(sync(false, "--progress")).isZero();
    assertThat(out.toString()).startsWith(CLEAR_LINE + "[").contains(" 100%  ");
  }

  @Test void withoutATerminalNothingIsDrawn() throws Exception {
    assertThat(sync(false)).isZero();
    assertThat(out.toString()).doesNotContain("\r");
  }

  @Test void progressWithJsonIsInvalidAndNothingIsSent() throws Exception {
    assertThat(sync(true, "--json", "--progress")).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).isEqualTo("speaker-cli: invalid input, nothing was sent: --progress and"
        + " --json do not go together: --json keeps stdout for JSON lines" + System.lineSeparator());
    assertThat(server.journal()).isEmpty();
  }
}
