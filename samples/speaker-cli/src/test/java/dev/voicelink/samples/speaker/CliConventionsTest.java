package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command-line conventions every subcommand keeps, as users of gh or kubectl expect them: results
 * on stdout and problems on stderr; {@code -} as a secret file reads stdin; no log line on stderr
 * without {@code --verbose}; help that names every option's value and lists the exit codes; the
 * addresses from {@code VOICELINK_AUTH_URL}, {@code VOICELINK_BASE_URL} and {@code
 * VOICELINK_PLATFORM_URL}. Where the process's own streams matter (stdin, and the log lines that
 * java.util.logging would print on the real stderr) the CLI runs as a process of its own.
 */
class CliConventionsTest {
  /** Written out here, not read from ExitCodes: the help must say exactly this. */
  static final String EXIT_CODES = "\nExit codes:\n"
      + "  0   success\n"
      + "  1   anything else (for example unreachable after retries)\n"
      + "  2   invalid input or configuration (nothing was sent)\n"
      + "  3   access denied by the user\n"
      + "  4   the user code expired\n"
      + "  5   re-authorization required\n"
      + "  6   the server refused the request (its code and message are printed)\n";
  static final String REFRESH_TOKEN = "rt-0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d";

  static ReferenceServer server;
  @TempDir File dir;
  private final Map<String, String> env = new HashMap<>();
  private StringWriter out;
  private StringWriter err;

  @BeforeAll static void start() throws IOException {
    server = ReferenceServer.builder().console(Console.defaults()).build().start();
  }

  @AfterAll static void stop() throws IOException {
    server.close();
  }

  @BeforeEach void clearJournal() {
    server.journal().clear();
  }

  private int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    SpeakerCli cli = new SpeakerCli();
    cli.env = env;
    cli.terminal = false;
    return SpeakerCli.run(cli, new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private static List<String> subcommands() {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, CommandLine> sub : new CommandLine(new SpeakerCli()).getSubcommands()
        .entrySet()) {
      if (!(sub.getValue().getCommand() instanceof CommandLine.HelpCommand)) names.add(sub.getKey());
    }
    return names;
  }

  // ---- help

  @Test void everyOptionValueHasANameInHelp() {
    assertThat(subcommands()).containsExactly("login", "refresh", "cloud-token", "demo", "sync",
        "check", "upload-entities");
    for (String name : subcommands()) {
      assertThat(run(name, "--help")).isZero();
      String help = out.toString();
      assertThat(help).as(name).doesNotContain("=<").startsWith("Usage: speaker-cli " + name + " ");
      CommandLine sub = new CommandLine(new SpeakerCli()).getSubcommands().get(name);
      for (OptionSpec option : sub.getCommandSpec().options()) {
        if (option.arity().max() == 0) continue; // a flag
        assertThat(option.paramLabel()).as(name + " " + option.longestName())
            .matches("[A-Z][A-Z_]*");
        assertThat(help).as(name).contains(option.longestName() + "=" + option.paramLabel());
      }
      assertThat(err.toString()).isEmpty();
    }
  }

  @Test void helpSnippets() {
    run("sync", "--help");
    assertThat(out.toString())
        .contains("\n      --account-key-file=FILE\n"
            + "                          file holding the account key; - reads it from stdin\n")
        .contains("\n      --base-url=URL      web API address (base_url; default:\n"
            + "                            $VOICELINK_BASE_URL)\n")
        .contains("\n      --fields=FIELD[,FIELD...]\n")
        .contains("\n      --timeout=SECONDS   seconds to wait with --wait (default 600); the first\n"
            + "                            check is 10 s after the upload, and it is processed\n"
            + "                            5 to 5.5 minutes after it: give 360 or more\n")
        .contains("\n      --verbose           Write every log line (the SDK's, and the HTTP traffic\n"
            + "                            with secrets redacted) to stderr\n");
    run("check", "--help");
    assertThat(out.toString()).contains("--base-url=URL --namespace=NAMESPACE --sid=SID");
    run("upload-entities", "--help");
    assertThat(out.toString())
        .contains("\n      --platform-url=URL     platform tools address (default:\n"
            + "                               $VOICELINK_PLATFORM_URL)\n")
        .contains("\n      --auth-url=URL         authorization service address, to refresh the\n"
            + "                               token of --token-file (default:\n"
            + "                               $VOICELINK_AUTH_URL)\n");
    run("login", "--help");
    assertThat(out.toString()).contains("\n      --client-id=ID").contains("\n      --device-id=ID")
        // where login's columns break depends on its longest option: compared with spaces folded
        .satisfies(help -> assertThat(help.replaceAll("\\s+", " ")).contains("--auth-url=URL Address"
            + " of the authorization service (default: $VOICELINK_AUTH_URL) "));
    run("cloud-token", "--help");
    assertThat(out.toString().replaceAll("\\s+", " ")).contains("--client-secret-file=FILE File"
        + " holding the client secret, - for stdin (else $VOICELINK_CLIENT_SECRET)");
  }

  @Test void everyHelpEndsWithTheExitCodes() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).endsWith(EXIT_CODES);
    for (String name : subcommands()) {
      assertThat(run(name, "--help")).isZero();
      assertThat(out.toString()).as(name).endsWith(EXIT_CODES);
      assertThat(run("help", name)).isZero();
      assertThat(out.toString()).as("help " + name).endsWith(EXIT_CODES);
    }
  }

  // ---- stdout and stderr

  @Test void aResultGoesToStdoutAndNothingToStderr() throws IOException {
    env.put("VOICELINK_CLIENT_SECRET", DefaultConsole.CLIENT_SECRET);
    File tokens = new File(dir, "cloud.json");
    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--token-file", tokens.getPath())).isZero();
    TokenRecord record = new FileTokenStore(tokens).load();
    assertThat(out.toString()).isEqualTo("Cloud token: access token "
        + AuthCommand.fingerprint(record.accessToken()) + ", refresh token "
        + AuthCommand.fingerprint(record.refreshToken()) + ", valid "
        + record.expiresInSeconds() + " s; saved to " + tokens.getPath() + "\n");
    assertThat(err.toString()).isEmpty();
  }

  @Test void aRefusalGoesToStderrAndWithJsonItsRecordAlsoToStdout() {
    env.put("VOICELINK_CLIENT_SECRET", "wrong-secret");
    String[] args = {"cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--token-file", new File(dir, "t.json").getPath()};
    String problem = "speaker-cli: the server refused: invalid_client: client_id or client_secret"
        + " is wrong\n";

    assertThat(run(args)).isEqualTo(ExitCodes.SERVER_REFUSED);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).isEqualTo(problem);

    assertThat(run(CliBadInputTest.plus(args, "--json"))).isEqualTo(ExitCodes.SERVER_REFUSED);
    assertThat(out.toString()).isEqualTo("{\"status\":\"refused\",\"error\":\"invalid_client\","
        + "\"message\":\"client_id or client_secret is wrong\"}\n");
    assertThat(err.toString()).isEqualTo(problem);
  }

  // ---- addresses from the environment

  @Test void addressesComeFromTheEnvironment() throws IOException {
    env.put("VOICELINK_AUTH_URL", server.authUrl());
    env.put("VOICELINK_BASE_URL", server.baseUrl());
    env.put("VOICELINK_PLATFORM_URL", server.platformUrl());
    env.put("VOICELINK_CLIENT_SECRET", DefaultConsole.CLIENT_SECRET);
    env.put("VOICELINK_ACCOUNT_KEY", DefaultConsole.ACCOUNT_KEY);
    File tokens = new File(dir, "cloud.json");
    File records = file("songs.jsonl", "{\"name\":\"Blue Lotus\",\"alias\":\"Lotus\"}");

    assertThat(run("cloud-token", "--client-id", DefaultConsole.CLIENT_ID, "--token-file",
        tokens.getPath())).as(err.toString()).isZero();
    assertThat(run("refresh", "--token-file", tokens.getPath())).as(err.toString()).isZero();
    assertThat(run("sync", "--namespace", DefaultConsole.NAMESPACE, "--appid", DefaultConsole.APPID,
        "--res-name", DefaultConsole.NAMESPACE + ".songs", "--fields", "name,alias", "--level", "app",
        "--file", records.getPath(), "--json")).as(err.toString()).isZero();
    String sid = out.toString().split("\"sid\":\"")[1].split("\"")[0];
    assertThat(run("check", "--namespace", DefaultConsole.NAMESPACE, "--sid", sid))
        .as(err.toString()).isZero();
    assertThat(run("upload-entities", "--type", "client", "--resource-name",
        DefaultConsole.NAMESPACE + ".songs", "--file", records.getPath(), "--token-file",
        tokens.getPath())).as(err.toString()).isZero();

    List<String> urls = new ArrayList<>();
    server.journal().snapshot().forEach(call -> urls.add(call.path()));
    String auth = path(server.authUrl());
    String base = path(server.baseUrl());
    assertThat(urls).hasSize(5);
    assertThat(urls.get(0)).isEqualTo(auth + "/oauth/token");
    assertThat(urls.get(1)).isEqualTo(auth + "/oauth/token");
    assertThat(urls.get(2)).startsWith(base).endsWith("/entity/upload-resource");
    assertThat(urls.get(3)).startsWith(base).endsWith("/entity/check-resource");
    assertThat(urls.get(4)).startsWith(path(server.platformUrl())).endsWith("/upload_entities");
  }

  @Test void theCommandLineWinsOverTheEnvironment() throws IOException {
    String nowhere = "http://127.0.0.1:" + freePort();
    env.put("VOICELINK_AUTH_URL", nowhere);
    env.put("VOICELINK_CLIENT_SECRET", DefaultConsole.CLIENT_SECRET);
    assertThat(run("cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--token-file", new File(dir, "t.json").getPath()))
        .as(err.toString()).isZero();
    assertThat(server.journal().calls("/oauth/token")).hasSize(1);
  }

  @Test void aMissingAddressNamesItsVariable() {
    assertThat(run("upload-entities", "--type", "client", "--resource-name", "OS123.songs",
        "--file", "f", "--token-file", "t")).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).isEqualTo("speaker-cli: Missing required option:"
        + " '--platform-url=URL' (or set VOICELINK_PLATFORM_URL)\n"
        + "Try 'speaker-cli upload-entities --help' for usage.\n");
    assertThat(run("check", "--namespace", "OS123", "--sid", "s"))
        .isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).startsWith("speaker-cli: Missing required option:"
        + " '--base-url=URL' (or set VOICELINK_BASE_URL)\n");
    assertThat(run("refresh")).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(err.toString()).startsWith("speaker-cli: Missing required option:"
        + " '--auth-url=URL' (or set VOICELINK_AUTH_URL), or '--issuer=URL' for a standard OAuth 2.0"
        + " server (or set VOICELINK_ISSUER)\n");
    assertThat(out.toString()).isEmpty();
    assertThat(server.journal()).isEmpty();
  }

  // ---- the CLI as a process: stdin, and the real stderr

  @Test void dashAsTheSecretFileReadsStdin() throws Exception {
    File tokens = new File(dir, "cloud.json");
    Ran ran = Ran.process(DefaultConsole.CLIENT_SECRET + "\n", "cloud-token", "--auth-url",
        server.authUrl(), "--client-id", DefaultConsole.CLIENT_ID, "--client-secret-file", "-",
        "--token-file", tokens.getPath());
    assertThat(ran.exit).as(ran.err).isZero();
    assertThat(ran.out).startsWith("Cloud token: access token ");
    assertThat(ran.err).isEmpty();
    assertThat(new FileTokenStore(tokens).load().grant()).isEqualTo(TokenRecord.Grant.CLOUD);
    assertThat(server.journal().calls("/oauth/token").get(0).body())
        .contains("\"client_secret\":\"" + DefaultConsole.CLIENT_SECRET + "\"");

    Ran empty = Ran.process("\n", "cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--client-secret-file", "-", "--token-file", tokens.getPath());
    assertThat(empty.exit).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(empty.out).isEmpty();
    assertThat(empty.err)
        .isEqualTo("speaker-cli: --client-secret-file - (standard input) is empty\n");
    assertThat(server.journal().calls("/oauth/token")).hasSize(1);
  }

  /** A token file of {@code grant} whose refresh token the server does not know. */
  private File recordWithAnUnknownRefreshToken(String grant) throws IOException {
    File tokens = new File(dir, grant + ".json");
    Files.write(tokens.toPath(), ("{\"version\":1,\"grant\":\"" + grant + "\",\"client_id\":\""
        + DefaultConsole.CLIENT_ID + "\",\"token_type\":\"bearer\",\"access_token\":\"at-1\","
        + "\"refresh_token\":\"" + REFRESH_TOKEN + "\",\"expires_in\":8640000,"
        + "\"created_at\":1763712000,\"received_at_ms\":1763712000123}")
        .getBytes(StandardCharsets.UTF_8));
    return tokens;
  }

  /** A cloud record is got anew with cloud-token: login would replace it with a device sign-in. */
  @Test void aRefusedCloudRefreshTokenPointsAtCloudToken() throws Exception {
    File tokens = recordWithAnUnknownRefreshToken("cloud");

    Ran refused = Ran.process("", "refresh", "--auth-url", server.authUrl(), "--token-file",
        tokens.getPath());

    assertThat(refused.exit).isEqualTo(ExitCodes.REAUTHORIZATION_REQUIRED);
    assertThat(refused.err).isEqualTo("speaker-cli: re-authorization required: invalid_refresh_token:"
        + " refresh_token is unknown or was already used; run 'speaker-cli cloud-token' again\n");
  }

  @Test void noLogLineReachesStderrWithoutVerbose() throws Exception {
    // A refresh token the server does not know: the SDK logs a warning as it gives up.
    File tokens = recordWithAnUnknownRefreshToken("device");
    String problem = "speaker-cli: re-authorization required: invalid_refresh_token: refresh_token"
        + " is unknown or was already used; run 'speaker-cli login' again\n";

    Ran quiet = Ran.process("", "refresh", "--auth-url", server.authUrl(), "--token-file",
        tokens.getPath());
    assertThat(quiet.exit).isEqualTo(ExitCodes.REAUTHORIZATION_REQUIRED);
    assertThat(quiet.out).isEmpty();
    assertThat(quiet.err).isEqualTo(problem);
    // the same in-process, where the command's stderr is a writer of its own
    assertThat(run("refresh", "--auth-url", server.authUrl(), "--token-file", tokens.getPath()))
        .isEqualTo(ExitCodes.REAUTHORIZATION_REQUIRED);
    assertThat(err.toString()).isEqualTo(problem);

    Ran verbose = Ran.process("", "refresh", "--verbose", "--auth-url", server.authUrl(),
        "--token-file", tokens.getPath());
    assertThat(verbose.exit).isEqualTo(ExitCodes.REAUTHORIZATION_REQUIRED);
    assertThat(verbose.out).isEmpty();
    assertThat(verbose.err).contains("\nW/auth: refresh token refused (invalid_refresh_token: ")
        .contains("D/http: --> POST " + server.authUrl() + "/oauth/ivs/token")
        .doesNotContain(REFRESH_TOKEN).doesNotContain("WARNING").endsWith("\n" + problem);
  }

  private File file(String name, String text) throws IOException {
    File file = new File(dir, name);
    Files.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
    return file;
  }

  /** The path of an address: the journal records paths. */
  private static String path(String url) {
    return java.net.URI.create(url).getPath().replaceAll("/$", "");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** speaker-cli run as a process of its own, with no VOICELINK_ variable in its environment. */
  static final class Ran {
    final int exit;
    final String out;
    final String err;

    private Ran(int exit, String out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }

    static Ran process(String stdin, String... args) throws Exception {
      List<String> command = new ArrayList<>(Arrays.asList(
          new File(System.getProperty("java.home"), "bin/java").getPath(),
          "-cp", System.getProperty("java.class.path"), SpeakerCli.class.getName()));
      command.addAll(Arrays.asList(args));
      File outFile = File.createTempFile("speaker-cli-out", ".txt");
      File errFile = File.createTempFile("speaker-cli-err", ".txt");
      try {
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(outFile)
            .redirectError(errFile);
        builder.environment().keySet().removeIf(name -> name.startsWith("VOICELINK_"));
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new AssertionError("speaker-cli " + args[0] + " did not end within 60 s");
        }
        return new Ran(process.exitValue(),
            new String(Files.readAllBytes(outFile.toPath()), StandardCharsets.UTF_8),
            new String(Files.readAllBytes(errFile.toPath()), StandardCharsets.UTF_8));
      } finally {
        Files.delete(outFile.toPath());
        Files.delete(errFile.toPath());
      }
    }
  }
}
