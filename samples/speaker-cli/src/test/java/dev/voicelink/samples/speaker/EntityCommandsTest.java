package dev.voicelink.samples.speaker;

import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VirtualTime;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.Account;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntityCommandsTest {
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir File dir;
  ReferenceServer server;
  private static final long START = 1_763_712_000_000L;
  private final VirtualTime time = new VirtualTime(START);

  @AfterEach void tearDown() throws IOException {
    if (server != null) server.close();
  }

  private int run(String... args) {
    return SpeakerCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private ReferenceServer start(ServerClock clock) throws IOException {
    server = ReferenceServer.builder().console(Console.defaults()).clock(clock).build().start();
    return server;
  }

  private File file(String name, String text) throws IOException {
    File file = new File(dir, name);
    Files.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
    return file;
  }

  private String[] sync(String records, String... more) throws IOException {
    String[] base = {"sync", "--base-url", server.baseUrl(), "--namespace", "OS123",
        "--appid", DefaultConsole.APPID, "--res-name", "OS123.contacts", "--fields", "name,alias",
        "--level", "user", "--auth-id", AUTH_ID,
        "--account-key-file", file("key", DefaultConsole.ACCOUNT_KEY + "\n").getPath(),
        "--file", file("contacts.jsonl", records).getPath()};
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test void syncPrintsTheSidAsJson() throws Exception {
    start(ServerClock.system());
    assertThat(run(sync("\uFEFF{\"name\":\"张三\",\"alias\":\"\"}\n", "--json"))).isZero();
    assertThat(out.toString()).matches("\\{\"sid\":\"psn[^\"]+\",\"csid\":\"[^\"]+\"}\\R");
    assertThat(server.journal().calls("/upload-resource").get(0).responseBody())
        .contains("\"code\":\"00000\"");
    assertThat(out.toString() + err).doesNotContain(DefaultConsole.ACCOUNT_KEY);
  }

  @Test void syncWaitChecksFromTenSecondsAfterTheUploadUntilItIsInEffect() throws Exception {
    List<Long> waits = new ArrayList<>();
    int exit = syncOnVirtualTime(waits, "--json", "--wait");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(waits.get(0)).as("the first check, by the 10-second rule").isEqualTo(SECONDS.toNanos(10));
    List<Long> checkedAt = new ArrayList<>();
    long waited = 0;
    for (long wait : waits) checkedAt.add(waited += wait);
    assertThat(checkedAt.subList(0, checkedAt.size() - 1)).as("checks before the upload takes effect")
        .allMatch(at -> at < MINUTES.toNanos(5));
    assertThat(waited).as("the last check, the first once the upload is 5 minutes old")
        .isGreaterThanOrEqualTo(MINUTES.toNanos(5));
    List<RecordedCall> checks = server.journal().calls("/check-resource");
    assertThat(checks).hasSize(waits.size());
    String[] lines = out.toString().split("\\R");
    assertThat(lines).hasSize(2);
    String sid = lines[0].replaceAll("\\{\"sid\":\"(psn[^\"]+)\".*", "$1");
    assertThat(lines[0]).matches("\\{\"sid\":\"psn[^\"]+\",\"csid\":\"[^\"]+\"}");
    assertThat(lines[1]).matches("\\{\"sid\":\"" + sid + "\",\"error\":0,\"reply\":\"in effect since"
        + " [^\"]+\",\"in_effect_at\":\"" + Pattern.quote(EntityCommands.iso(START + 300_000)) + "\"}");
  }

  @Test void syncWaitThatTimesOutSaysSoOnStderrAndInItsLastJsonLine() throws Exception {
    List<Long> waits = new ArrayList<>();
    int exit = syncOnVirtualTime(waits, "--json", "--wait", "--timeout", "10");

    assertThat(exit).isEqualTo(ExitCodes.FAILURE);
    assertThat(waits).as("one check, 10 s after the upload, finds it still processing")
        .containsExactly(SECONDS.toNanos(10));
    assertThat(server.journal().calls("/check-resource")).hasSize(1);
    String[] lines = out.toString().split("\\R");
    assertThat(lines).hasSize(3);
    String sid = lines[0].replaceAll("\\{\"sid\":\"(psn[^\"]+)\".*", "$1");
    assertThat(lines[1]).startsWith("{\"sid\":\"" + sid + "\",\"error\":");
    String why = "not processed within --timeout 10 s (error "
        + lines[1].replaceAll(".*\"error\":(\\d+).*", "$1") + "); check later with 'speaker-cli check"
        + " --sid " + sid + "'";
    assertThat(lines[2]).isEqualTo("{\"status\":\"failed\",\"message\":\"" + why + "\"}");
    assertThat(err.toString()).isEqualTo("speaker-cli: " + why + System.lineSeparator());
  }

  /**
   * Runs {@code sync} with {@code more} on virtual time shared by the device and the server; each
   * wait goes to {@code waits}. The server's clock moves first: the check runs within the device's step.
   */
  private int syncOnVirtualTime(List<Long> waits, String... more) throws Exception {
    start(ServerClock.manual(START));
    return SteppedRun.run(new SpeakerCli(), time, waits, elapsedNanos -> {
      long serverNow = START + TimeUnit.NANOSECONDS.toMillis(elapsedNanos);
      server.clock().advance(serverNow - server.clock().nowMillis(), TimeUnit.MILLISECONDS);
    }, new PrintWriter(out, true), new PrintWriter(err, true),
        sync("{\"name\":\"张三\",\"alias\":\"\"}", more));
  }

  @Test void missingFieldIsInvalidInputAndNothingIsSent() throws Exception {
    start(ServerClock.system());
    assertThat(run(sync("{\"name\":\"张三\"}"))).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).isEqualTo("speaker-cli: invalid resource, nothing was sent: record 1 of"
        + " OS123.contacts lacks the field alias; every record needs name (non-empty) and alias"
        + System.lineSeparator());
    assertThat(server.journal()).isEmpty();
  }

  @Test void missingNamespacePrefixIsInvalidInput() throws Exception {
    start(ServerClock.system());
    String[] args = sync("{\"name\":\"a\",\"alias\":\"\"}");
    args[8] = "contacts";
    assertThat(run(args)).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).contains("res_name must be <namespace>.<name>, e.g. OS123.contacts;"
        + " was: contacts (the namespace prefix is missing");
    assertThat(server.journal()).isEmpty();
  }

  @Test void ipWhitelistRefusalSaysSoPlainly() throws Exception {
    start(ServerClock.system());
    server.console().putAccount(Account.create(DefaultConsole.NAMESPACE,
        DefaultConsole.ACCOUNT_KEY, DefaultConsole.APPID)
        .withIpWhitelist(true, Collections.singletonList("203.0.113.7")));
    assertThat(run(sync("{\"name\":\"a\",\"alias\":\"\"}"))).isEqualTo(ExitCodes.SERVER_REFUSED);
    assertThat(err.toString()).startsWith("speaker-cli: IP not in whitelist: this device's public IP"
        + " address is not on the account's IP whitelist; add it to the whitelist in the console or"
        + " turn the whitelist off (20004: ");
  }

  @Test void aRefusedSyncWithJsonEndsStdoutWithItsStatus() throws Exception {
    start(ServerClock.system());
    assertThat(run(CliBadInputTest.args(sync("{\"name\":\"a\",\"alias\":\"\"}", "--json"),
        "--account-key-file", file("wrong-key", "not-the-account-key").getPath())))
        .isEqualTo(ExitCodes.SERVER_REFUSED);
    String[] lines = out.toString().split("\n");
    assertThat(lines[lines.length - 1]).startsWith("{\"status\":\"refused\",\"error\":\"10105\",\"message\":");
    assertThat(err.toString()).startsWith("speaker-cli: the server refused: 10105: ");
  }

  @Test void checkOfAnUnknownSidShowsTheServersCode() throws Exception {
    start(ServerClock.system());
    assertThat(run("check", "--base-url", server.baseUrl(), "--namespace", "OS123",
        "--sid", "psn000000000000", "--account-key-file",
        file("key", DefaultConsole.ACCOUNT_KEY).getPath())).isEqualTo(ExitCodes.SERVER_REFUSED);
    assertThat(err.toString()).startsWith("speaker-cli: the server refused: 31405: no upload with sid"
        + " psn000000000000");
  }

  @Test void checkAfterSyncAsJson() throws Exception {
    start(ServerClock.system());
    assertThat(run(sync("{\"name\":\"a\",\"alias\":\"\"}", "--json"))).isZero();
    String sid = out.toString().replaceAll("(?s).*\"sid\":\"([^\"]+)\".*", "$1");
    out.getBuffer().setLength(0);
    assertThat(run("check", "--base-url", server.baseUrl(), "--namespace", "OS123", "--sid", sid,
        "--json", "--account-key-file", file("key", DefaultConsole.ACCOUNT_KEY).getPath())).isZero();
    assertThat(out.toString()).startsWith("{\"sid\":\"" + sid + "\",\"csid\":")
        .contains("\"error\":1,").contains("\"processed\":false}");
  }

  @Test void accountKeyIsNeverAnArgument() throws Exception {
    start(ServerClock.system());
    // Every option sync needs is there: the refusal is for --account-key alone.
    assertThat(run(sync("{\"name\":\"a\",\"alias\":\"\"}", "--account-key", "k3y-s3cr3t")))
        .isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).startsWith("speaker-cli: Unknown option: '--account-key' (secrets are"
        + " never command-line arguments");
    assertThat(out.toString() + err.toString()).doesNotContain("k3y-s3cr3t");
    assertThat(server.journal()).isEmpty();
  }

  @Test void uploadEntitiesWithAWrongKindOfTokenIsRefused() throws Exception {
    start(ServerClock.system());
    assertThat(run("upload-entities", "--platform-url", server.platformUrl(), "--type", "user",
        "--resource-name", "OS123.contacts", "--file", file("c.jsonl", "{\"name\":\"a\",\"alias\":\"\"}")
            .getPath(), "--token-file", file("token.json", "{\"version\":1,\"grant\":\"device\",\"client_id\":\"vl-speaker-01\","
                + "\"token_type\":\"bearer\",\"access_token\":\"not-a-token\",\"refresh_token\":\"r\","
                + "\"expires_in\":8640000,\"created_at\":1763712000,\"received_at_ms\":1763712000123}")
            .getPath())).isEqualTo(ExitCodes.SERVER_REFUSED);
    assertThat(err.toString()).startsWith("speaker-cli: the server refused: 40103: the token is unknown"
        + " or has expired");
    assertThat(server.journal().calls("/upload_entities").get(0).header("Authorization"))
        .isEqualTo("not-a-token");
  }

  @Test void uploadEntitiesRejectsACustomType() throws Exception {
    assertThat(run("upload-entities", "--platform-url", "http://127.0.0.1:9", "--type", "family",
        "--resource-name", "OS123.contacts", "--file", file("c.jsonl", "{}").getPath(),
        "--token-file", file("t", "tok").getPath())).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).contains("--type must be user, client or device; was: family");
  }
}
