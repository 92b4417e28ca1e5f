package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.reliability.DocSection;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Bad arguments, options and files given to speaker-cli: each ends with exit code 2 and one message on
 * stderr that names the problem, prints no secret, and sends nothing (the reference server on loopback
 * that every address points to receives no request). The rows are published in docs/reliability.md.
 */
class CliBadInputTest {
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";
  static final String ACCESS_TOKEN = "at-7f3e1c9a5b2d4e6f8a0b1c2d3e4f5a6b";
  static final String REFRESH_TOKEN = "rt-0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d";
  /** A refresh token with a slash, as Base64 ones have: typed as a path, it names a folder. */
  static final String SLASHED_TOKEN = "rt-0a9b/8c7d6e5f4a3b2c1d0e9f8a7b6c5d";
  static final List<String> SECRETS = Arrays.asList(DefaultConsole.ACCOUNT_KEY,
      DefaultConsole.CLIENT_SECRET, ACCESS_TOKEN, REFRESH_TOKEN, SLASHED_TOKEN);
  static final String CONTACT = "{\"name\":\"Li Lei\",\"alias\":\"\"}";

  static ReferenceServer server;
  /** A fixed place, so that file names in messages are the same on every run. */
  static final File dir = new File("target/cli-bad-input");
  static final Map<String, String> table = new LinkedHashMap<>();

  interface Args {
    String[] get() throws IOException;
  }

  static final class Case {
    final Args args;
    final Map<String, String> env;

    Case(Args args, Map<String, String> env) {
      this.args = args;
      this.env = env;
    }
  }

  @BeforeAll static void start() throws IOException {
    server = ReferenceServer.builder().console(Console.defaults()).build().start();
    dir.mkdirs();
  }

  @AfterAll static void publish() throws IOException {
    server.close();
    assertThat(table).as("distinct bad inputs").hasSizeGreaterThanOrEqualTo(25);
    StringBuilder md = new StringBuilder(
        "| # | Command and bad input | Exit | stderr |\n|---|---|---|---|\n");
    int n = 0;
    for (Map.Entry<String, String> row : table.entrySet()) {
      md.append("| ").append(++n).append(" | ").append(DocSection.cell(row.getKey()))
          .append(" | ").append(row.getValue()).append(" |\n");
    }
    DocSection.check("reliability.md", "bad-input-cli", md.toString());
  }

  static String file(String name, String text) throws IOException {
    return file(name, text.getBytes(StandardCharsets.UTF_8));
  }

  static String file(String name, byte[] bytes) throws IOException {
    File file = new File(dir, name);
    Files.write(file.toPath(), bytes);
    return file.getPath();
  }

  static String tokenFile(String name, String grant) throws IOException {
    return file(name, "{\"version\":1,\"grant\":\"" + grant + "\",\"client_id\":\"vl-speaker-01\","
        + "\"token_type\":\"bearer\",\"access_token\":\"" + ACCESS_TOKEN + "\",\"refresh_token\":\""
        + REFRESH_TOKEN + "\",\"expires_in\":8640000,\"created_at\":1763712000,"
        + "\"received_at_ms\":1763712000123}");
  }

  /**
   * {@code base} with each option of {@code pairs} (name, value) replacing the same option, or added
   * when {@code base} lacks it; a null value removes the option.
   */
  static String[] args(String[] base, String... pairs) {
    List<String> all = new ArrayList<>(Arrays.asList(base));
    for (int i = 0; i < pairs.length; i += 2) {
      int at = all.indexOf(pairs[i]);
      if (at >= 0) {
        all.remove(at + 1);
        all.remove(at);
      }
      if (pairs[i + 1] != null) {
        all.add(pairs[i]);
        all.add(pairs[i + 1]);
      }
    }
    return all.toArray(new String[0]);
  }

  /** {@code base} followed by {@code words} as they are. */
  static String[] plus(String[] base, String... words) {
    List<String> all = new ArrayList<>(Arrays.asList(base));
    all.addAll(Arrays.asList(words));
    return all.toArray(new String[0]);
  }

  /** A sync of a good contacts file for a user; {@code pairs} replace, add or remove options. */
  static String[] sync(String... pairs) throws IOException {
    return args(new String[] {"sync", "--base-url", server.baseUrl(), "--namespace", "OS123",
        "--appid", DefaultConsole.APPID, "--res-name", "OS123.contacts", "--fields", "name,alias",
        "--level", "user", "--auth-id", AUTH_ID,
        "--account-key-file", file("account-key", DefaultConsole.ACCOUNT_KEY + "\n"),
        "--file", file("contacts.jsonl", CONTACT)}, pairs);
  }

  static String[] uploadEntities(String... more) throws IOException {
    return args(new String[] {"upload-entities", "--platform-url", server.platformUrl(), "--type", "user",
        "--resource-name", "OS123.contacts", "--file", file("contacts.jsonl", CONTACT),
        "--token-file", tokenFile("user-token.json", "device")}, more);
  }

  static String[] login(String... more) {
    return args(new String[] {"login", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--device-id", DefaultConsole.DEVICE_ID, "--token-file",
        new File(dir, "login-token.json").getPath()}, more);
  }

  static String[] cloudToken(String... more) {
    return args(new String[] {"cloud-token", "--auth-url", server.authUrl(), "--client-id",
        DefaultConsole.CLIENT_ID, "--token-file", new File(dir, "cloud-token.json").getPath()}, more);
  }

  static String[] check(String... more) throws IOException {
    return args(new String[] {"check", "--base-url", server.baseUrl(), "--namespace", "OS123",
        "--account-key-file", file("account-key", DefaultConsole.ACCOUNT_KEY)}, more);
  }

  static String repeat(char c, int n) {
    char[] chars = new char[n];
    Arrays.fill(chars, c);
    return new String(chars);
  }

  static Map<String, Case> cases() {
    Map<String, String> noEnv = Collections.emptyMap();
    Map<String, String> secretEnv = Collections.singletonMap(CloudTokenCommand.SECRET_ENV,
        DefaultConsole.CLIENT_SECRET);
    Map<String, Case> c = new LinkedHashMap<>();
    // The command line itself
    c.put("unknown command: speaker-cli fly", new Case(() -> new String[] {"fly"}, noEnv));
    c.put("login without --client-id", new Case(() -> new String[] {"login", "--auth-url",
        server.authUrl(), "--device-id", DefaultConsole.DEVICE_ID}, noEnv));
    c.put("login with an extra argument", new Case(() -> plus(login(), "now"), noEnv));
    c.put("cloud-token with the secret as an argument (--client-secret)", new Case(
        () -> plus(cloudToken(), "--client-secret", DefaultConsole.CLIENT_SECRET), noEnv));
    c.put("cloud-token with the secret as an argument (--client-secret=SECRET)", new Case(
        () -> plus(cloudToken(), "--client-secret=" + DefaultConsole.CLIENT_SECRET), noEnv));
    c.put("sync with the account key as an argument (--account-key)", new Case(
        () -> plus(sync(), "--account-key", DefaultConsole.ACCOUNT_KEY), noEnv));
    c.put("demo --speed abc", new Case(() -> new String[] {"demo", "--speed", "abc"}, noEnv));
    c.put("demo --speed 0", new Case(() -> new String[] {"demo", "--speed", "0"}, noEnv));
    // Sign-in
    c.put("login --auth-url without a scheme", new Case(() -> args(login(), "--auth-url",
        "auth.example.com"), noEnv));
    c.put("login --client-id ending with a space", new Case(() -> args(login(), "--client-id",
        "vl-speaker-01 "), noEnv));
    c.put("login --device-id with a space", new Case(() -> args(login(), "--device-id", "SN 0001"),
        noEnv));
    c.put("login --device-id of 300 characters", new Case(() -> args(login(), "--device-id",
        repeat('7', 300)), noEnv));
    c.put("login with both --auth-url and --issuer", new Case(() -> plus(login(), "--issuer",
        "https://login.example.com"), noEnv));
    c.put("login with VOICELINK_AUTH_URL and VOICELINK_ISSUER both set", new Case(() -> args(login(),
        "--auth-url", null), bothServers()));
    c.put("login --auth-url without --device-id", new Case(() -> args(login(), "--device-id", null),
        noEnv));
    c.put("login --issuer with --device-id", new Case(() -> args(login(), "--auth-url", null,
        "--issuer", "https://login.example.com"), noEnv));
    c.put("login --issuer with a query", new Case(() -> args(login(), "--auth-url", null,
        "--device-id", null, "--issuer", "https://login.example.com?realm=x"), noEnv));
    c.put("login --issuer over plain http", new Case(() -> args(login(), "--auth-url", null,
        "--device-id", null, "--issuer", "http://login.example.com"), noEnv));
    c.put("login --scope with --auth-url", new Case(() -> args(login(), "--scope", "openid"), noEnv));
    c.put("refresh without --auth-url or --issuer", new Case(() -> new String[] {"refresh"}, noEnv));
    c.put("refresh without a token file", new Case(() -> new String[] {"refresh", "--auth-url",
        server.authUrl(), "--token-file", new File(dir, "absent-token.json").getPath()}, noEnv));
    c.put("refresh with a token file that is not JSON", new Case(() -> new String[] {"refresh",
        "--auth-url", server.authUrl(), "--token-file", file("garbage-token.json",
        "access_token=" + ACCESS_TOKEN)}, noEnv));
    c.put("cloud-token without a client secret", new Case(() -> cloudToken(), noEnv));
    c.put("cloud-token --client-secret-file holding only a BOM and a line break", new Case(
        () -> cloudToken("--client-secret-file", file("secret-bom", "\uFEFF\n")), noEnv));
    c.put("cloud-token --refresh of a device token file", new Case(() -> args(plus(cloudToken(), "--refresh"),
        "--token-file", tokenFile("device-token.json", "device")), secretEnv));
    c.put("cloud-token over a device token file", new Case(() -> args(cloudToken(),
        "--token-file", tokenFile("device-token.json", "device")), secretEnv));
    c.put("cloud-token --client-secret-file that does not exist", new Case(
        () -> cloudToken("--client-secret-file", new File(dir, "absent-secret").getPath()), noEnv));
    c.put("cloud-token --client-secret-file given the secret itself", new Case(
        () -> cloudToken("--client-secret-file", DefaultConsole.CLIENT_SECRET), noEnv));
    c.put("cloud-token --client-secret-file that is a folder", new Case(
        () -> cloudToken("--client-secret-file", dir.getPath()), noEnv));
    c.put("cloud-token --issuer without a client secret (no discovery either)", new Case(
        () -> cloudToken("--auth-url", null, "--issuer", server.authUrl()), noEnv));
    c.put("refresh --issuer without a token file (no discovery either)", new Case(() -> new String[] {
        "refresh", "--issuer", server.authUrl(), "--token-file",
        new File(dir, "absent-token.json").getPath()}, noEnv));
    c.put("refresh --issuer of a platform token file (no discovery either)", new Case(() -> new String[] {
        "refresh", "--issuer", server.authUrl(), "--token-file", tokenFile("device-token.json", "device")},
        noEnv));
    c.put("refresh --issuer with --scope (no discovery either)", new Case(() -> new String[] {
        "refresh", "--issuer", server.authUrl(), "--scope", "openid", "--token-file",
        tokenFile("device-token.json", "device")}, noEnv));
    c.put("login --token-file in a folder that does not exist", new Case(() -> args(login(),
        "--token-file", new File(dir, "absent-folder/token.json").getPath()), noEnv));
    c.put("cloud-token --token-file that is a folder", new Case(() -> cloudToken("--token-file",
        dir.getPath()), secretEnv));
    c.put("refresh --token-file in a folder that does not exist", new Case(() -> new String[] {"refresh",
        "--auth-url", server.authUrl(), "--token-file", new File(dir, "absent-folder/token.json").getPath()},
        noEnv));
    c.put("upload-entities --auth-url with a --token-file in a folder that does not exist", new Case(
        () -> uploadEntities("--auth-url", server.authUrl(), "--token-file",
            new File(dir, "absent-folder/user-token.json").getPath()), noEnv));
    c.put("demo --token-file that is a folder", new Case(() -> new String[] {"demo", "--token-file",
        dir.getPath()}, noEnv));
    c.put("demo --token-file that holds a sign-in", new Case(() -> new String[] {"demo", "--token-file",
        tokenFile("device-token.json", "device")}, noEnv));
    c.put("refresh --token-file given a token with a slash (no folder of that name)", new Case(
        () -> new String[] {"refresh", "--auth-url", server.authUrl(), "--token-file",
            SLASHED_TOKEN}, noEnv));
    c.put("sync --token-file with a namespace the web API refuses (the token not used)", new Case(
        () -> sync("--auth-id", null, "--token-file", tokenFile("user-token.json", "device"),
            "--namespace", "OS 123"), noEnv));
    // Entity upload through the web API
    c.put("sync without an account key", new Case(() -> sync("--account-key-file", null), noEnv));
    c.put("sync --account-key-file that does not exist", new Case(() -> sync("--account-key-file",
        new File(dir, "absent-key").getPath()), noEnv));
    c.put("sync --level family", new Case(() -> sync("--level", "family"), noEnv));
    c.put("sync --level user without --auth-id or --token-file", new Case(() -> sync("--auth-id", null),
        noEnv));
    c.put("sync with both --auth-id and --token-file", new Case(() -> sync("--token-file",
        tokenFile("user-token.json", "device")), noEnv));
    c.put("sync --level app with --token-file", new Case(() -> sync("--level", "app", "--auth-id", null,
        "--token-file", tokenFile("user-token.json", "device")), noEnv));
    c.put("sync --token-file with a record that lacks a field", new Case(() -> sync("--auth-id", null,
        "--token-file", tokenFile("user-token.json", "device"),
        "--file", file("no-alias.jsonl", "{\"name\":\"Zhang San\"}\n")), noEnv));
    c.put("sync --token-file that does not exist", new Case(() -> sync("--auth-id", null,
        "--token-file", new File(dir, "absent-token.json").getPath()), noEnv));
    c.put("sync --token-file given the access token itself", new Case(() -> sync("--auth-id", null,
        "--token-file", ACCESS_TOKEN), noEnv));
    c.put("refresh --token-file given the refresh token itself", new Case(() -> new String[] {
        "refresh", "--auth-url", server.authUrl(), "--token-file", REFRESH_TOKEN}, noEnv));
    c.put("sync --auth-id of 31 characters (wrong auth_id)", new Case(
        () -> sync("--auth-id", AUTH_ID.substring(1)), noEnv));
    c.put("sync --auth-id in uppercase", new Case(() -> sync("--auth-id", AUTH_ID.toUpperCase()), noEnv));
    c.put("sync --level app with --auth-id (mismatched dimension)", new Case(
        () -> sync("--level", "app"), noEnv));
    c.put("sync --level custom without --value", new Case(() -> sync("--level", "custom", "--auth-id",
        null, "--dimension", "car_model"), noEnv));
    c.put("sync --level custom --value \"\" (malformed pers_param)", new Case(() -> sync("--level",
        "custom", "--auth-id", null, "--dimension", "car_model", "--value", ""), noEnv));
    c.put("sync --dimension \"car model\"", new Case(() -> sync("--level", "custom", "--auth-id", null,
        "--dimension", "car model", "--value", "sedan"), noEnv));
    c.put("sync --res-name without namespace", new Case(() -> sync("--res-name", "contacts"), noEnv));
    c.put("sync --fields with an empty main field", new Case(() -> sync("--fields", ",alias"), noEnv));
    c.put("sync --file that does not exist", new Case(() -> sync("--file",
        new File(dir, "absent.jsonl").getPath()), noEnv));
    c.put("sync --file with a BOM on the second line", new Case(() -> sync("--file",
        file("bom-line-2.jsonl", CONTACT + "\n\uFEFF" + CONTACT)), noEnv));
    c.put("sync --file with invalid UTF-8", new Case(() -> sync("--file", file("latin1.jsonl",
        "{\"name\":\"Jos\u00e9\",\"alias\":\"\"}".getBytes(StandardCharsets.ISO_8859_1))), noEnv));
    c.put("sync --file over 32 MiB (oversize)", new Case(() -> sync("--file",
        oversizeFile()), noEnv));
    c.put("sync --file with a record missing a field", new Case(() -> sync("--file",
        file("no-alias.jsonl", "{\"name\":\"Li Lei\"}")), noEnv));
    c.put("sync --file that is a JSON array", new Case(() -> sync("--file", file("array.json",
        "[" + CONTACT + "]")), noEnv));
    c.put("sync --wait --timeout 0", new Case(() -> plus(sync("--timeout", "0"), "--wait"), noEnv));
    c.put("sync --timeout of 40 digits", new Case(() -> sync("--timeout", repeat('9', 40)), noEnv));
    c.put("sync --timeout without --wait", new Case(() -> sync("--timeout", "30"), noEnv));
    c.put("sync --auth-url without --token-file", new Case(() -> sync("--auth-url", server.authUrl()),
        noEnv));
    c.put("check --sid \"\"", new Case(() -> check("--sid", ""), noEnv));
    c.put("check --namespace \"OS 123\"", new Case(() -> args(check("--sid", "psn1"), "--namespace",
        "OS 123"), noEnv));
    // Entity upload through the platform tools endpoint
    c.put("upload-entities --type family", new Case(() -> uploadEntities("--type", "family"), noEnv));
    c.put("upload-entities --resource-name without namespace", new Case(
        () -> uploadEntities("--resource-name", "contacts"), noEnv));
    c.put("upload-entities --token-file that does not exist", new Case(() -> uploadEntities(
        "--token-file", new File(dir, "absent-token.json").getPath()), noEnv));
    c.put("upload-entities --token-file cut off mid-record", new Case(() -> uploadEntities(
        "--token-file", file("cut-token.json", "{\"grant\":\"device\",\"access_token\":\""
            + ACCESS_TOKEN)), noEnv));
    c.put("upload-entities --fields name,alias with a record missing alias", new Case(
        () -> uploadEntities("--fields", "name,alias", "--file", file("no-alias.jsonl",
            "{\"name\":\"Li Lei\"}")), noEnv));
    c.put("upload-entities --appid \" \"", new Case(() -> uploadEntities("--appid", " "), noEnv));
    c.put("upload-entities --auth-url without a scheme", new Case(() -> uploadEntities("--auth-url",
        "auth.example.com"), noEnv));
    c.put("upload-entities with VOICELINK_AUTH_URL and a bare token in --token-file", new Case(
        () -> uploadEntities("--token-file", file("bare-token", ACCESS_TOKEN + "\n")),
        Collections.singletonMap("VOICELINK_AUTH_URL", server.authUrl())));
    c.put("sync --progress with --json", new Case(() -> plus(sync(), "--progress", "--json"), noEnv));
    c.put("sync --max-resource-bytes 0", new Case(() -> sync("--max-resource-bytes", "0"), noEnv));
    c.put("upload-entities --file over --max-resource-bytes 16", new Case(
        () -> uploadEntities("--max-resource-bytes", "16"), noEnv));
    c.put("cloud-token --client-auth post without --issuer", new Case(
        () -> cloudToken("--client-auth", "post"), noEnv));
    c.put("cloud-token --issuer --client-auth private_key_jwt", new Case(() -> cloudToken("--auth-url", null,
        "--issuer", "https://login.example.com", "--client-auth", "private_key_jwt"), noEnv));
    c.put("cloud-token with the secret as a bare argument", new Case(
        () -> plus(cloudToken(), DefaultConsole.CLIENT_SECRET), noEnv));
    c.put("check --sid without psn", new Case(() -> check("--sid", "wapi0001"), noEnv));
    return c;
  }

  /** An environment that names both kinds of server. */
  static Map<String, String> bothServers() {
    Map<String, String> env = new HashMap<>();
    env.put("VOICELINK_AUTH_URL", server.authUrl());
    env.put("VOICELINK_ISSUER", "https://login.example.com");
    return env;
  }

  /** Just over the SDK's default resource limit (32 MiB): written once, kept for later runs. */
  static String oversizeFile() throws IOException {
    File file = new File(dir, "oversize.jsonl");
    long limit = dev.voicelink.entity.ResourceEncoder.DEFAULT_MAX_RESOURCE_BYTES;
    if (file.length() <= limit) {
      byte[] line = ("{\"name\":\"" + repeat('x', 1000) + "\",\"alias\":\"\"}\n")
          .getBytes(StandardCharsets.UTF_8);
      try (java.io.OutputStream out = new java.io.BufferedOutputStream(
          new java.io.FileOutputStream(file))) {
        for (long written = 0; written <= limit; written += line.length) out.write(line);
      }
    }
    return file.getPath();
  }

  @TestFactory List<DynamicTest> everyBadInputExitsTwoNamesTheProblemAndSendsNothing() {
    List<DynamicTest> tests = new ArrayList<>();
    for (final Map.Entry<String, Case> entry : cases().entrySet()) {
      tests.add(DynamicTest.dynamicTest(entry.getKey(), () -> {
        String[] args = entry.getValue().args.get();
        int before = server.journal().size();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        SpeakerCli cli = new SpeakerCli();
        cli.env = new HashMap<>(entry.getValue().env);
        cli.terminal = false;
        int exit = SpeakerCli.run(cli, new PrintWriter(out, true), new PrintWriter(err, true), args);

        String stderr = err.toString();
        assertThat(exit).as("exit code; stderr: %s", stderr).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(out.toString()).as("stdout").isEmpty();
        assertThat(stderr).as("stderr").startsWith("speaker-cli: ").endsWith(System.lineSeparator());
        String[] lines = stderr.split("\\R");
        assertThat(lines.length).as("lines on stderr: %s", stderr).isBetween(1, 2);
        if (lines.length == 2) {
          assertThat(lines[1]).as("the usage hint").matches("Try 'speaker-cli( [a-z-]+)? --help' for usage\\.");
        }
        for (String secret : SECRETS) {
          assertThat(stderr).as("no secret on stderr").doesNotContain(secret);
        }
        assertThat(server.journal().size() - before).as("requests that reached the server").isZero();
        synchronized (table) {
          table.put(entry.getKey(), exit + " | " + DocSection.cell(lines[0])
              + (lines.length == 2 ? "<br>" + DocSection.cell(lines[1]) : ""));
        }
      }));
    }
    return tests;
  }
}
