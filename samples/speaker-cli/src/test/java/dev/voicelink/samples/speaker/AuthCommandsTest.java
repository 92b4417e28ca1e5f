package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** login, refresh and cloud-token run end to end against the reference server. */
class AuthCommandsTest {
  @TempDir File dir;
  private ReferenceServer server;
  private File tokenFile;
  private final PrintedText out = new PrintedText();
  private final StringWriter err = new StringWriter();
  private final Map<String, String> env = new HashMap<>();
  private boolean terminal;

  @BeforeEach void setUp() throws Exception {
    server = ReferenceServer.builder().build().start();
    server.console().setPollIntervalSeconds(1);
    tokenFile = new File(dir, "token.json");
  }

  @AfterEach void tearDown() throws Exception {
    server.close();
  }

  private int run(String... args) {
    SpeakerCli cli = new SpeakerCli();
    cli.env = env;
    cli.terminal = terminal;
    return SpeakerCli.run(cli, new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private String[] login(String... extra) {
    List<String> args = new java.util.ArrayList<>(Arrays.asList("login",
        "--auth-url", server.authUrl(), "--client-id", DefaultConsole.CLIENT_ID,
        "--device-id", DefaultConsole.DEVICE_ID, "--token-file", tokenFile.getPath()));
    args.addAll(Arrays.asList(extra));
    return args.toArray(new String[0]);
  }

  /** Every secret the server issued or holds, looked for in all the CLI printed, on both streams. */
  private void assertNoSecretPrinted() {
    LeakScan.of(server).scan("stdout", out.toString()).scan("stderr", err.toString()).assertNoLeak();
  }

  private List<String> lines() {
    return Arrays.asList(out.toString().split("\n"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> json(String line) throws Exception {
    return (Map<String, Object>) new Moshi.Builder().build()
        .adapter(Types.newParameterizedType(Map.class, String.class, Object.class)).fromJson(line);
  }

  /** Runs login in the background, and once the user code is out, lets the tester decide. */
  private int loginWhile(boolean approve, String... extra) throws Exception {
    AtomicInteger exit = new AtomicInteger(-1);
    Thread cli = new Thread(() -> exit.set(run(login(extra))));
    cli.start();
    // the human line or the first JSON line, whichever this run prints
    String userCode = out.await(Pattern.compile(
        "(?:confirm the code |^\\{\"event\":\"user_code\",\"user_code\":\")([^\" ]+)"), 10, TimeUnit.SECONDS);
    if (approve) {
      new SimulatedTester(server).approve(userCode);
    } else {
      new SimulatedTester(server).refuse(userCode);
    }
    cli.join(20_000);
    return exit.get();
  }

  @Test void loginPrintsTheCodeWaitsForTheTesterAndSavesTheRecord() throws Exception {
    assertThat(loginWhile(true, "--json")).isEqualTo(ExitCodes.SUCCESS);

    Map<String, Object> first = json(lines().get(0));
    assertThat(first.keySet()).containsExactly("event", "user_code", "verification_uri", "link",
        "expires_in", "interval");
    assertThat(first.get("event")).isEqualTo("user_code");
    assertThat(first.get("verification_uri")).isEqualTo(server.verificationUri());
    assertThat(first.get("link"))
        .isEqualTo(server.verificationUri() + "?user_code=" + first.get("user_code"));
    assertThat(first.get("expires_in")).isEqualTo(120.0);
    assertThat(first.get("interval")).isEqualTo(1.0);

    Map<String, Object> last = json(lines().get(lines().size() - 1));
    assertThat(last.get("status")).isEqualTo("authorized");
    TokenRecord saved = new FileTokenStore(tokenFile).load();
    assertThat(saved.grant()).isEqualTo(TokenRecord.Grant.DEVICE);
    assertThat(last.get("access_token_fingerprint"))
        .isEqualTo(AuthCommand.fingerprint(saved.accessToken()));
    assertThat(out.toString()).doesNotContain(saved.accessToken())
        .doesNotContain(saved.refreshToken());
    for (String line : lines()) assertThat(json(line)).isNotNull();
    assertNoSecretPrinted();
  }

  @Test void fingerprintsAreTheSdksOwnSoThatCliOutputMatchesItsLogs() {
    // Redact.fingerprint's vector: the first 8 hex digits of SHA-256, never a part of the secret.
    assertThat(AuthCommand.fingerprint("rt-1f7d0c3a9b8e4d2f")).isEqualTo("7c128ab8");
    // As Redact.secret: a short secret's fingerprint ("abc": ba7816bf) could be reversed.
    assertThat(AuthCommand.fingerprint("0123456789abcde")).isEqualTo("(short: not shown)");
    assertThat(AuthCommand.fingerprint("0123456789abcdef")).isEqualTo("9f9f5111");
  }

  @Test void refusalExitsWithThree() throws Exception {
    assertThat(loginWhile(false, "--json")).isEqualTo(ExitCodes.ACCESS_DENIED);
    assertThat(lines().get(lines().size() - 1)).isEqualTo("{\"status\":\"denied\"}");
    assertThat(err.toString()).isEqualTo("speaker-cli: the user refused to authorize this device\n");
    assertThat(tokenFile).doesNotExist();
  }

  @Test void expiryExitsWithFour() throws Exception {
    server.console().setUserCodeLifetimeSeconds(1);
    assertThat(run(login("--json"))).isEqualTo(ExitCodes.CODE_EXPIRED);
    assertThat(lines().get(lines().size() - 1)).isEqualTo("{\"status\":\"expired\"}");
    assertThat(err.toString())
        .isEqualTo("speaker-cli: the code expired before anyone authorized it; run login again\n");
  }

  @Test void expiryWhileThePollsFailNamesTheLastFailure() throws Exception {
    // Polls one second apart fail until the code runs out at two: none of them ends the login.
    server.console().setUserCodeLifetimeSeconds(2);
    server.faults().on(Endpoint.TOKEN, Fault.emptyBody());
    assertThat(run(login("--json"))).isEqualTo(ExitCodes.CODE_EXPIRED);
    assertThat(lines().get(lines().size() - 1))
        .isEqualTo("{\"status\":\"expired\",\"message\":\"HTTP 200 with an empty body\"}");
    assertThat(err.toString()).isEqualTo("speaker-cli: the code expired while the polls were failing"
        + " (HTTP 200 with an empty body); check the network and the server, then run login again\n");
    assertThat(server.journal().count("/oauth/ivs/token")).as("polls made").isGreaterThan(0);
    assertThat(tokenFile).doesNotExist();
  }

  @Test void humanOutputDrawsAQrCodeOnATerminal() throws Exception {
    terminal = true;
    assertThat(loginWhile(true)).isEqualTo(ExitCodes.SUCCESS);
    assertThat(out.toString()).contains("To sign this speaker in, open")
        .contains("\u2588\u2588\u2588").contains("Authorized: access token ");
  }

  @Test void intervalUnitReadsAPlatformsMillisecondsThatWouldPassForSeconds() throws Exception {
    // "interval": 1000 with an hour to go would read as 1000 s; the option says it is 1 s.
    server.console().setVariant(PlatformVariant.INTERVAL_MILLIS, true);
    server.console().setUserCodeLifetimeSeconds(3600);
    assertThat(loginWhile(true, "--json", "--interval-unit", "milliseconds"))
        .isEqualTo(ExitCodes.SUCCESS);
    Map<String, Object> first = json(lines().get(0));
    assertThat(first.get("interval")).isEqualTo(1.0);
    assertThat(json(lines().get(lines().size() - 1)).get("status")).isEqualTo("authorized");
  }

  @Test void anUnknownIntervalUnitExitsWithTwoAndSendsNothing() {
    assertThat(run(login("--interval-unit", "minutes"))).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString())
        .contains("--interval-unit must be seconds or milliseconds; was: minutes");
    assertThat(server.journal()).isEmpty();
  }

  @Test void invalidInputExitsWithTwoAndSendsNothing() {
    assertThat(run("login", "--auth-url", "ftp://auth.example.com", "--client-id", "c",
        "--device-id", "d")).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).contains("--auth-url must be an http or https address");
    assertThat(run(login()[0], "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--device-id", "SN 1")).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).contains("device_id must not contain spaces or control characters");
    assertThat(run("login", "--auth-url", server.authUrl())).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(server.journal()).isEmpty();
  }

  @Test void serverRefusalExitsWithSixAndShowsItsWords() throws Exception {
    assertThat(run("login", "--auth-url", server.authUrl(), "--client-id", DefaultConsole.CLIENT_ID,
        "--device-id", "SN-NOT-IMPORTED", "--json")).isEqualTo(ExitCodes.SERVER_REFUSED);
    Map<String, Object> last = json(lines().get(lines().size() - 1));
    assertThat(last.get("status")).isEqualTo("refused");
    assertThat(last.get("error")).isEqualTo("invalid_device");
    assertThat((String) last.get("message")).contains("SN-NOT-IMPORTED is not imported");
  }

  @Test void unreachableServerExitsWithOneAfterItsBoundedRetries() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    SpeakerCli cli = new SpeakerCli();
    cli.env = env;
    cli.terminal = terminal;
    List<Long> waits = new ArrayList<>();
    assertThat(SteppedRun.run(cli, new VirtualTime(), waits, elapsedNanos -> { },
        new PrintWriter(out, true), new PrintWriter(err, true), "login",
        "--auth-url", "http://127.0.0.1:" + port, "--client-id", "c", "--device-id", "d"))
        .isEqualTo(ExitCodes.FAILURE);
    // the device flow's retries of a transient failure: full jitter under 1, 2, 4 ... 60 s
    assertThat(waits).hasSize(8);
    long[] ceilings = {1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000};
    for (int i = 0; i < ceilings.length; i++) {
      assertThat(waits.get(i)).as("wait before retry %s", i + 1)
          .isBetween(0L, TimeUnit.MILLISECONDS.toNanos(ceilings[i]));
    }
    // a failure is a problem, on stderr; stdout, where results go, stays empty
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .isEqualTo("speaker-cli: failed: Failed to connect to /127.0.0.1:" + port + "\n");
  }

  @Test void refreshRotatesTheSavedRecordAndTheOldOneStopsWorking() throws Exception {
    assertThat(loginWhile(true, "--json")).isEqualTo(ExitCodes.SUCCESS);
    File old = new File(dir, "old.json");
    Files.copy(tokenFile.toPath(), old.toPath());
    TokenRecord before = new FileTokenStore(tokenFile).load();

    assertThat(run("refresh", "--auth-url", server.authUrl(), "--token-file", tokenFile.getPath(),
        "--json")).isEqualTo(ExitCodes.SUCCESS);
    TokenRecord after = new FileTokenStore(tokenFile).load();
    assertThat(after.refreshToken()).isNotEqualTo(before.refreshToken());
    assertThat(json(lines().get(lines().size() - 1)).get("status")).isEqualTo("refreshed");

    assertThat(run("refresh", "--auth-url", server.authUrl(), "--token-file", old.getPath(),
        "--json")).isEqualTo(ExitCodes.REAUTHORIZATION_REQUIRED);
    Map<String, Object> last = json(lines().get(lines().size() - 1));
    assertThat(last.get("status")).isEqualTo("reauthorization_required");
    assertThat(last.get("error")).isEqualTo("invalid_refresh_token");
    assertThat(new FileTokenStore(old).load()).isEqualTo(before); // kept for the app to decide
    assertNoSecretPrinted();
  }

  @Test void refreshWithoutOrWithACorruptFileIsInvalidInput() throws Exception {
    assertThat(run("refresh", "--auth-url", server.authUrl(), "--token-file", tokenFile.getPath()))
        .isEqualTo(ExitCodes.INVALID_INPUT);
    // The path typed names nothing, so it is not repeated: it might be a token typed in its place.
    assertThat(err.toString()).contains("no token record: --token-file names no file (the path given"
        + " is not repeated, in case it is the secret itself): run 'speaker-cli login' first");
    assertThat(err.toString()).doesNotContain(tokenFile.getName());
    Files.write(tokenFile.toPath(), "{not json".getBytes(StandardCharsets.UTF_8));
    assertThat(run("refresh", "--auth-url", server.authUrl(), "--token-file", tokenFile.getPath()))
        .isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).contains("is corrupt (not a JSON object)");
    assertThat(server.journal()).isEmpty();
  }

  @Test void cloudTokenFromTheEnvironmentThenItsRefresh() throws Exception {
    env.put("VOICELINK_CLIENT_SECRET", DefaultConsole.CLIENT_SECRET);
    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--token-file", tokenFile.getPath(), "--json"))
        .isEqualTo(ExitCodes.SUCCESS);
    TokenRecord first = new FileTokenStore(tokenFile).load();
    assertThat(first.grant()).isEqualTo(TokenRecord.Grant.CLOUD);
    assertThat(json(lines().get(0)).get("status")).isEqualTo("issued");

    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--token-file", tokenFile.getPath(), "--refresh", "--json"))
        .isEqualTo(ExitCodes.SUCCESS);
    TokenRecord second = new FileTokenStore(tokenFile).load();
    assertThat(second.refreshToken()).isNotEqualTo(first.refreshToken());
    assertThat(server.journal().calls("/oauth/token").get(1).body())
        .contains("\"grant_type\":\"refresh_token\"");
    assertThat(out.toString()).doesNotContain(DefaultConsole.CLIENT_SECRET)
        .doesNotContain(second.accessToken());
    assertNoSecretPrinted();
  }

  @Test void cloudTokenSecretFromAFile() throws Exception {
    File secret = new File(dir, "secret");
    Files.write(secret.toPath(), (DefaultConsole.CLIENT_SECRET + "\n")
        .getBytes(StandardCharsets.UTF_8));
    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--client-secret-file", secret.getPath(),
        "--token-file", tokenFile.getPath())).isEqualTo(ExitCodes.SUCCESS);
    assertThat(out.toString()).startsWith("Cloud token: access token ");
  }

  @Test void cloudTokenWithoutASecretOrWithAWrongOne() throws Exception {
    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID)).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).contains("the secret is missing: give --client-secret-file FILE or"
        + " set the environment variable VOICELINK_CLIENT_SECRET");
    assertThat(server.journal()).isEmpty();

    env.putAll(Collections.singletonMap("VOICELINK_CLIENT_SECRET", "wrong-secret"));
    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--token-file", tokenFile.getPath(), "--json"))
        .isEqualTo(ExitCodes.SERVER_REFUSED);
    assertThat(lines().get(lines().size() - 1)).isEqualTo("{\"status\":\"refused\","
        + "\"error\":\"invalid_client\",\"message\":\"client_id or client_secret is wrong\"}");
    assertThat(tokenFile).doesNotExist();
  }

  @Test void secretIsNeverAnArgument() {
    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id", "c",
        "--client-secret", "cl13nt-s3cr3t")).isEqualTo(ExitCodes.INVALID_INPUT);
    // the word after an unknown option may be the secret itself: it is not echoed
    assertThat(err.toString()).startsWith("speaker-cli: Unknown option: '--client-secret' (secrets are"
        + " never command-line arguments");
    assertThat(out.toString() + err.toString()).doesNotContain("cl13nt-s3cr3t");
    assertThat(server.journal()).isEmpty();
  }
}
