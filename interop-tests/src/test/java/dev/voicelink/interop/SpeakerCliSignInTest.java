package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.BACKEND_BASIC;
import static dev.voicelink.interop.InteropAccounts.BACKEND_POST;
import static dev.voicelink.interop.InteropAccounts.BACKEND_SCOPE;
import static dev.voicelink.interop.InteropAccounts.BOB;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_SCOPE;
import static org.assertj.core.api.Assertions.assertThat;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * speaker-cli's {@code login}, {@code refresh} and {@code cloud-token} with {@code --issuer}, run as a person runs
 * them ({@code java -jar speaker-cli.jar}) against Spring Authorization Server: the JSON lines, the exit codes, the
 * token file, and what the server received.
 */
class SpeakerCliSignInTest {
  private static final File JAR = new File("../samples/speaker-cli/target/speaker-cli.jar");
  private static final JsonAdapter<Map<String, Object>> JSON = new Moshi.Builder().build()
      .adapter(Types.newParameterizedType(Map.class, String.class, Object.class));

  private static StandardAuthServer server;
  @TempDir Path dir;

  @BeforeAll static void start() {
    assertThat(JAR).as("the speaker CLI is packaged before these tests run").isFile();
    server = StandardAuthServer.builder().interval(Duration.ofSeconds(1)).start();
  }

  @AfterAll static void stop() {
    server.close();
  }

  /** One run of the CLI: its exit code and what it printed, stdout line by line. */
  private record Ran(int exit, List<String> lines, String err) {
    Map<String, Object> line(int index) throws IOException {
      return JSON.fromJson(lines.get(index < 0 ? lines.size() + index : index));
    }
  }

  /** A CLI run in progress; {@link #nextLine()} reads stdout as it is printed. */
  private static final class Cli implements AutoCloseable {
    final Process process;
    final BufferedReader out;
    final List<String> lines = new ArrayList<>();

    Cli(Map<String, String> env, String stdin, String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of(
          new File(System.getProperty("java.home"), "bin/java").getPath(), "-jar", JAR.getPath()));
      command.addAll(List.of(args));
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().keySet().removeIf(name -> name.startsWith("VOICELINK_"));
      builder.environment().putAll(env);
      process = builder.start();
      try (OutputStream in = process.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    Map<String, Object> nextLine() throws IOException {
      String line = out.readLine();
      assertThat(line).as("a line on stdout").isNotNull();
      lines.add(line);
      return JSON.fromJson(line);
    }

    Ran end() throws Exception {
      for (String line; (line = out.readLine()) != null; ) lines.add(line);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the CLI ended").isTrue();
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      return new Ran(process.exitValue(), lines, err);
    }

    @Override public void close() {
      process.destroyForcibly();
    }
  }

  private static Ran run(Map<String, String> env, String... args) throws Exception {
    try (Cli cli = new Cli(env, "", args)) {
      return cli.end();
    }
  }

  private String tokenFile(String name) {
    return dir.resolve(name).toString();
  }

  private Cli login(String tokenFile) throws IOException {
    return new Cli(Map.of(), "", "login", "--issuer", server.issuer(), "--client-id", DEVICE_PUBLIC.id(),
        "--scope", DEVICE_SCOPE, "--json", "--token-file", tokenFile);
  }

  /** Signs in with the CLI, approved by {@code user} on the server's pages. */
  private Ran signIn(String tokenFile) throws Exception {
    try (Cli cli = login(tokenFile)) {
      Map<String, Object> code = cli.nextLine();
      assertThat(Approver.approveAt((String) code.get("link"), ALICE).connected()).isTrue();
      return cli.end();
    }
  }

  @Test void loginPrintsTheCodeFirstAndAuthorizedLastAndSavesAStandardRecord() throws Exception {
    String file = tokenFile("login.json");
    try (Cli cli = login(file)) {
      Map<String, Object> first = cli.nextLine();
      Exchange authorization = server.journal().last(server.deviceAuthorizationEndpointPath());
      assertThat(authorization.parameters()).isEqualTo(Map.of("client_id", List.of(DEVICE_PUBLIC.id()),
          "scope", List.of(DEVICE_SCOPE)));
      Map<String, Object> answer = authorization.responseJson();
      assertThat(first).containsEntry("event", "user_code")
          .containsEntry("user_code", answer.get("user_code"))
          .containsEntry("link", answer.get("verification_uri_complete"));
      assertThat(first.keySet()).startsWith("event", "user_code");

      assertThat(Approver.approveAt((String) first.get("link"), ALICE).connected()).isTrue();
      Ran ran = cli.end();

      assertThat(ran.exit()).as(ran.err()).isZero();
      Map<String, Object> last = ran.line(-1);
      assertThat(last).containsEntry("status", "authorized").containsEntry("grant", "device")
          .containsEntry("client_id", DEVICE_PUBLIC.id()).containsEntry("token_file", file);
      Exchange issued = server.journal().last(server.tokenEndpointPath());
      assertThat(issued.status()).isEqualTo(200);
      String saved = Files.readString(Path.of(file));
      assertThat(saved).contains("\"dialect\":\"standard\"")
          .contains("\"token_endpoint\":\"" + server.tokenEndpoint() + "\"")
          .contains((String) issued.responseJson().get("refresh_token"));
      // the tokens are shown as fingerprints only
      String printed = String.join("\n", ran.lines()) + ran.err();
      assertThat(printed).doesNotContain((String) issued.responseJson().get("access_token"))
          .doesNotContain((String) issued.responseJson().get("refresh_token"))
          .doesNotContain((String) answer.get("device_code"));
    }
  }

  @Test void loginDeniedExitsThree() throws Exception {
    try (Cli cli = login(tokenFile("denied.json"))) {
      Approver.denyAt((String) cli.nextLine().get("link"), BOB);
      Ran ran = cli.end();

      assertThat(ran.exit()).isEqualTo(3);
      assertThat(ran.line(-1)).isEqualTo(Map.of("status", "denied"));
      assertThat(ran.err()).isEqualTo("speaker-cli: the user refused to authorize this device\n");
      assertThat(server.journal().last(server.tokenEndpointPath()).responseJson())
          .containsEntry("error", "access_denied");
      assertThat(new File(tokenFile("denied.json"))).doesNotExist();
    }
  }

  @Test void loginWithAnExpiredCodeExitsFour() throws Exception {
    try (Cli cli = login(tokenFile("expired.json"))) {
      cli.nextLine();
      String deviceCode = (String) server.journal().last(server.deviceAuthorizationEndpointPath())
          .responseJson().get("device_code");
      server.expireDeviceCode(deviceCode);
      Ran ran = cli.end();

      assertThat(ran.exit()).isEqualTo(4);
      assertThat(ran.line(-1)).isEqualTo(Map.of("status", "expired"));
      assertThat(server.journal().last(server.tokenEndpointPath()).responseJson())
          .containsEntry("error", "expired_token");
    }
  }

  @Test void refreshRotatesTheTokenFileAndAReusedRefreshTokenExitsFive() throws Exception {
    String file = tokenFile("refresh.json");
    assertThat(signIn(file).exit()).isZero();
    Path before = dir.resolve("before-refresh.json");
    Files.copy(Path.of(file), before);
    String oldRefreshToken = (String) server.journal().last(server.tokenEndpointPath()).responseJson()
        .get("refresh_token");

    Ran refreshed = run(Map.of(), "refresh", "--issuer", server.issuer(), "--json", "--token-file", file);

    assertThat(refreshed.exit()).as(refreshed.err()).isZero();
    assertThat(refreshed.line(-1)).containsEntry("status", "refreshed");
    Exchange refresh = server.journal().last(server.tokenEndpointPath());
    assertThat(refresh.parameters()).isEqualTo(Map.of("grant_type", List.of("refresh_token"),
        "refresh_token", List.of(oldRefreshToken), "client_id", List.of(DEVICE_PUBLIC.id())));
    assertThat(refresh.status()).isEqualTo(200);
    assertThat(Files.readString(Path.of(file))).contains((String) refresh.responseJson().get("refresh_token"));

    // a second copy of the device that still holds the old record
    Ran reused = run(Map.of(), "refresh", "--issuer", server.issuer(), "--json", "--token-file", before.toString());

    assertThat(reused.exit()).isEqualTo(5);
    assertThat(reused.line(-1)).containsEntry("status", "reauthorization_required")
        .containsEntry("error", "invalid_grant");
    assertThat(server.journal().last(server.tokenEndpointPath()).status()).isEqualTo(400);
  }

  @Test void aTokenFileIsRefreshedOnlyAtTheServerItCameFrom() throws Exception {
    String standard = tokenFile("standard.json");
    assertThat(signIn(standard).exit()).isZero();
    Path platform = dir.resolve("platform.json");
    Files.writeString(platform, "{\"version\":1,\"grant\":\"device\",\"client_id\":\"vl-speaker-01\","
        + "\"token_type\":\"bearer\",\"access_token\":\"platform-access\",\"refresh_token\":\"platform-refresh\","
        + "\"expires_in\":7200,\"created_at\":1763712000,\"received_at_ms\":1763712000123}");
    int tokenRequests = server.journal().at(server.tokenEndpointPath()).size();

    Ran platformAtIssuer = run(Map.of(), "refresh", "--issuer", server.issuer(), "--token-file", platform.toString());
    Ran standardAtAuthUrl = run(Map.of(), "refresh", "--auth-url", "http://127.0.0.1:9/auth", "--token-file", standard);

    assertThat(platformAtIssuer.exit()).isEqualTo(2);
    assertThat(platformAtIssuer.err())
        .isEqualTo("speaker-cli: the token file holds a platform token: use --auth-url, not --issuer\n");
    assertThat(standardAtAuthUrl.exit()).isEqualTo(2);
    assertThat(standardAtAuthUrl.err()).isEqualTo("speaker-cli: the token file holds a token of the standard server "
        + server.tokenEndpoint() + ": use --issuer, not --auth-url\n");
    assertThat(server.journal().at(server.tokenEndpointPath())).as("no refresh was sent").hasSize(tokenRequests);
  }

  @Test void cloudTokenAuthenticatesAsTheServerOffersAndAWrongSecretExitsSix() throws Exception {
    String file = tokenFile("cloud.json");
    Ran issued = run(Map.of("VOICELINK_CLIENT_SECRET", BACKEND_BASIC.secret()), "cloud-token", "--issuer",
        server.issuer(), "--client-id", BACKEND_BASIC.id(), "--scope", BACKEND_SCOPE, "--json", "--token-file", file);

    assertThat(issued.exit()).as(issued.err()).isZero();
    assertThat(issued.line(-1)).containsEntry("status", "issued").containsEntry("grant", "cloud");
    Exchange grant = server.journal().last(server.tokenEndpointPath());
    assertThat(grant.status()).isEqualTo(200);
    assertThat(grant.parameters()).isEqualTo(Map.of("grant_type", List.of("client_credentials"),
        "scope", List.of(BACKEND_SCOPE)));
    // the server offers basic and post: basic wins
    assertThat(grant.authorizationScheme()).isEqualTo("Basic");
    assertThat(grant.basicClientId()).isEqualTo(BACKEND_BASIC.id());
    assertThat(String.join("\n", issued.lines()) + issued.err()).doesNotContain(BACKEND_BASIC.secret())
        .doesNotContain((String) grant.responseJson().get("access_token"));
    assertThat(Files.readString(Path.of(file))).doesNotContain(BACKEND_BASIC.secret());

    Ran refused = run(Map.of("VOICELINK_CLIENT_SECRET", "not-the-secret"), "cloud-token", "--issuer",
        server.issuer(), "--client-id", BACKEND_BASIC.id(), "--json", "--token-file", tokenFile("wrong.json"));

    assertThat(refused.exit()).isEqualTo(6);
    assertThat(refused.line(-1)).containsEntry("status", "refused").containsEntry("error", "invalid_client");
    assertThat(server.journal().last(server.tokenEndpointPath()).status()).isEqualTo(401);
    assertThat(refused.err()).doesNotContain("not-the-secret");
  }

  @Test void aClientRegisteredForPostSaysSoWithClientAuth() throws Exception {
    Ran issued = run(Map.of("VOICELINK_CLIENT_SECRET", BACKEND_POST.secret()), "cloud-token", "--issuer",
        server.issuer(), "--client-id", BACKEND_POST.id(), "--client-auth", "post", "--scope", BACKEND_SCOPE,
        "--json", "--token-file", tokenFile("post.json"));

    assertThat(issued.exit()).as(issued.err()).isZero();
    Exchange grant = server.journal().last(server.tokenEndpointPath());
    assertThat(grant.status()).isEqualTo(200);
    assertThat(grant.authorizationScheme()).isNull();
    assertThat(grant.parameters()).isEqualTo(Map.of("grant_type", List.of("client_credentials"),
        "scope", List.of(BACKEND_SCOPE), "client_id", List.of(BACKEND_POST.id()),
        "client_secret", List.of(BACKEND_POST.secret())));
    assertThat(String.join("\n", issued.lines()) + issued.err()).doesNotContain(BACKEND_POST.secret());

    // without it the CLI sends Basic, which the server refuses for this client
    Ran basic = run(Map.of("VOICELINK_CLIENT_SECRET", BACKEND_POST.secret()), "cloud-token", "--issuer",
        server.issuer(), "--client-id", BACKEND_POST.id(), "--json", "--token-file", tokenFile("basic.json"));
    assertThat(basic.exit()).isEqualTo(6);
    assertThat(basic.line(-1)).containsEntry("error", "invalid_client");
  }

  /**
   * In a C or POSIX locale, a container's default, the JVM's own stdout prints every non-ASCII
   * character as {@code ?}: the CLI writes UTF-8 itself, so the demo's QR code keeps its blocks.
   */
  @Test void outputIsUtf8AlsoInACLocale() throws Exception {
    Ran ran = run(Map.of("LC_ALL", "C", "LANG", "C"), "demo", "--speed", "1000", "--token-file",
        tokenFile("c-locale.json"));
    assertThat(ran.exit()).as(ran.err()).isZero();
    assertThat(ran.lines()).anyMatch(line -> line.contains("\u2588\u2588"));
    assertThat(String.join("\n", ran.lines())).doesNotContain("?\u2588").doesNotContain("??");
  }

  @Test void theSecretCanComeFromStandardInput() throws Exception {
    try (Cli cli = new Cli(Map.of(), BACKEND_BASIC.secret() + "\n", "cloud-token", "--issuer", server.issuer(),
        "--client-id", BACKEND_BASIC.id(), "--client-secret-file", "-", "--json", "--token-file",
        tokenFile("stdin.json"))) {
      Ran ran = cli.end();
      assertThat(ran.exit()).as(ran.err()).isZero();
      assertThat(server.journal().last(server.tokenEndpointPath()).basicClientId()).isEqualTo(BACKEND_BASIC.id());
    }
  }

  /**
   * With stdout redirected ({@code cloud-token ... | jq}) standard input can still be the terminal the secret is
   * typed at, and the terminal must not show it. {@code stty -a} afterwards proves the echo is back on.
   */
  @Test void aSecretTypedAtATerminalIsNotShownWhenStdoutIsRedirected() throws Exception {
    Path stdout = dir.resolve("stdout.json");
    try (Terminal terminal = new Terminal(stdout)) {
      String beforeTyping = terminal.showsPrompt();
      terminal.type(BACKEND_BASIC.secret() + "\n");
      String afterTyping = terminal.showsToTheEnd();

      assertThat(beforeTyping + afterTyping).doesNotContain(BACKEND_BASIC.secret());
      assertThat(afterTyping).startsWith("\r\nexit 0\r\n");
      assertThat(afterTyping.split("\\s+")).as("stty -a after the CLI").contains("echo").doesNotContain("-echo");
      assertThat(JSON.fromJson(Files.readString(stdout))).containsEntry("status", "issued");
      assertThat(server.journal().last(server.tokenEndpointPath()).basicClientId()).isEqualTo(BACKEND_BASIC.id());
    }
  }

  /** A CLI stopped while the user types (Ctrl-C, a kill) leaves the terminal's echo on, as it found it. */
  @Test void aCliStoppedAtThePromptTurnsTheEchoBackOn() throws Exception {
    int tokenRequests = server.journal().at(server.tokenEndpointPath()).size();
    try (Terminal terminal = new Terminal(dir.resolve("stdout.json"))) {
      terminal.showsPrompt();
      terminal.stopTheCli();
      String afterStop = terminal.showsToTheEnd();

      assertThat(afterStop).contains("exit 143\r\n");
      assertThat(afterStop.split("\\s+")).as("stty -a after the CLI").contains("echo").doesNotContain("-echo");
      assertThat(server.journal().at(server.tokenEndpointPath())).hasSize(tokenRequests);
    }
  }

  /**
   * {@code cloud-token --client-secret-file - > stdout} on a terminal of its own ({@code script}), followed by
   * {@code stty -a}; its stdout is everything the terminal shows, its stdin is the keyboard.
   */
  private final class Terminal implements AutoCloseable {
    final Process script;
    final InputStream shown;
    final OutputStream keyboard;
    final Thread watchdog;

    Terminal(Path stdout) throws IOException {
      String cli = shellWords(new File(System.getProperty("java.home"), "bin/java").getPath(), "-jar",
          JAR.getPath(), "cloud-token", "--issuer", server.issuer(), "--client-id", BACKEND_BASIC.id(),
          "--client-secret-file", "-", "--json", "--token-file", tokenFile("typed.json"));
      script = new ProcessBuilder("script", "-q", "-c",
          cli + " > " + shellWords(stdout.toString()) + "; echo \"exit $?\"; stty -a", "/dev/null")
          .redirectErrorStream(true).start();
      shown = script.getInputStream();
      keyboard = script.getOutputStream();
      // A bound for a CLI that never prompts: ending the terminal ends the reads.
      watchdog = new Thread(() -> {
        try {
          if (!script.waitFor(60, TimeUnit.SECONDS)) script.descendants().forEach(ProcessHandle::destroyForcibly);
        } catch (InterruptedException ignored) {
          // the test ended first
        } finally {
          script.destroyForcibly();
        }
      });
      watchdog.start();
    }

    /** What the terminal shows up to the CLI's prompt. */
    String showsPrompt() throws IOException {
      String prompt = "--client-secret-file - (not shown, then Enter): ";
      StringBuilder text = new StringBuilder();
      for (int b; text.indexOf(prompt) < 0 && (b = shown.read()) != -1; ) text.append((char) b);
      assertThat(text.toString()).as("the terminal up to the prompt").endsWith(prompt);
      return text.toString();
    }

    void type(String keys) throws IOException {
      keyboard.write(keys.getBytes(StandardCharsets.UTF_8));
      keyboard.flush();
    }

    /** Stops the CLI as a kill or Ctrl-C does, with SIGTERM (SIGINT would stop the shell too). */
    void stopTheCli() {
      ProcessHandle java = script.descendants()
          .filter(process -> process.info().command().orElse("").endsWith("/bin/java"))
          .findFirst().orElseThrow();
      assertThat(java.destroy()).isTrue();
    }

    String showsToTheEnd() throws IOException {
      return new String(shown.readAllBytes(), StandardCharsets.UTF_8);
    }

    @Override public void close() throws Exception {
      keyboard.close();
      shown.close();
      watchdog.interrupt();
      watchdog.join();
    }
  }

  /** {@code words} as one POSIX shell line, each word quoted. */
  private static String shellWords(String... words) {
    List<String> quoted = new ArrayList<>();
    for (String word : words) quoted.add("'" + word.replace("'", "'\\''") + "'");
    return String.join(" ", quoted);
  }
}
