package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import com.squareup.moshi.Moshi;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.ReferenceServerMain;
import dev.voicelink.testing.SimulatedTester;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's {@code login}, {@code refresh} (twice), {@code sync}, {@code check} and {@code
 * upload-entities} against the standalone reference server run as its own process with each
 * {@code --variant}, with none and with all at once: every command succeeds. Two rows run at a time,
 * each with its own server process.
 */
class CliVariantMatrixTest {
  private static final Pattern ADDRESS = Pattern.compile("  (auth_url|platform_url|base_url|verification)"
      + " +(\\S+)");
  private static final Pattern SMS = Pattern.compile("SMS to (\\S+): verification code (\\S+)");
  private static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";

  @TempDir File dir;

  @Test void everyCommandSucceedsAgainstEveryVariant() throws Exception {
    Map<String, Set<PlatformVariant>> rows = new LinkedHashMap<>();
    rows.put("reference", EnumSet.noneOf(PlatformVariant.class));
    for (PlatformVariant variant : PlatformVariant.values()) rows.put(variant.flag(), EnumSet.of(variant));
    // All at once, but for the variants that leave a field out or zero it (each covered alone): they
    // would hide the forms of that field. Twice: where one variant wins over another, the first row has
    // the winner (milliseconds, no token_type, a numeric success code, statuses by kind) and the second
    // the other (seconds with fractions, "Bearer", "0", HTTP 400); each has its own status of
    // authorization errors.
    EnumSet<PlatformVariant> all = EnumSet.allOf(PlatformVariant.class);
    all.removeAll(EnumSet.of(PlatformVariant.AUTH_ERRORS_HTTP_200, PlatformVariant.AUTH_ERRORS_HTTP_503,
        PlatformVariant.NO_INTERVAL, PlatformVariant.ZERO_INTERVAL, PlatformVariant.NO_EXPIRES_IN));
    rows.put("all", all);
    EnumSet<PlatformVariant> others = EnumSet.copyOf(all);
    others.removeAll(EnumSet.of(PlatformVariant.INTERVAL_MILLIS, PlatformVariant.HUGE_EXPIRES_IN,
        PlatformVariant.CREATED_AT_MILLIS, PlatformVariant.NO_TOKEN_TYPE, PlatformVariant.SUCCESS_CODE_NUMERIC,
        PlatformVariant.WEB_API_REFUSALS_BY_KIND, PlatformVariant.AUTH_ERRORS_HTTP_401));
    others.add(PlatformVariant.AUTH_ERRORS_HTTP_503);
    rows.put("all-others", others);
    File console = file("console.json", consoleJson());
    // Two rows at a time: most of a row is waiting, for a JVM to start or for the poll interval.
    ExecutorService workers = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (Map.Entry<String, Set<PlatformVariant>> row : rows.entrySet()) {
        done.add(workers.submit(() -> {
          Standalone server = Standalone.start(console, flags(row.getValue()));
          try {
            server.awaitServing();
            runEveryCommand(server, row.getKey(), row.getValue());
          } finally {
            server.stop();
          }
          return null;
        }));
      }
      for (Future<?> row : done) row.get(2, TimeUnit.MINUTES);
    } finally {
      workers.shutdownNow();
      assertThat(workers.awaitTermination(30, TimeUnit.SECONDS)).as("rows stopped").isTrue();
    }
  }

  /** The {@code --variant} value naming {@code variants}; empty for none. */
  private static String flags(Set<PlatformVariant> variants) {
    StringBuilder flags = new StringBuilder();
    for (PlatformVariant variant : variants) {
      flags.append(flags.length() == 0 ? "" : ",").append(variant.flag());
    }
    return flags.toString();
  }

  /** The token lifetime the SDK reads from the variant's answers. */
  private static long lifetimeRead(Set<PlatformVariant> variants) {
    // without expires_in, the SDK's default lifetime until the server says otherwise
    if (variants.contains(PlatformVariant.NO_EXPIRES_IN)) return 3600;
    if (variants.contains(PlatformVariant.HUGE_EXPIRES_IN)) return 8_640_000;
    return variants.contains(PlatformVariant.FRACTIONAL_EXPIRES_IN) ? 8_639_999 : 8_640_000;
  }

  private void runEveryCommand(Standalone server, String row, Set<PlatformVariant> variants)
      throws Exception {
    File tokenFile = new File(dir, row + "-token.json");
    String auth = server.address("auth_url");

    assertThat(login(server, tokenFile)).as(row + ": login").isEqualTo(ExitCodes.SUCCESS);
    TokenRecord authorized = new FileTokenStore(tokenFile).load();
    assertThat(authorized.expiresInSeconds()).as(row).isEqualTo(lifetimeRead(variants));
    for (int i = 1; i <= 2; i++) {
      Cli refresh = Cli.run("refresh", "--auth-url", auth, "--token-file", tokenFile.getPath(),
          "--json");
      assertThat(refresh.exit).as(row + ": refresh " + i + ": " + refresh.err).isZero();
      assertThat(refresh.lastJson().get("status")).isEqualTo("refreshed");
    }
    assertThat(new FileTokenStore(tokenFile).load().accessToken()).as(row)
        .isNotEqualTo(authorized.accessToken());

    File key = file(row + "-key", DefaultConsole.ACCOUNT_KEY);
    Cli sync = Cli.run("sync", "--base-url", server.address("base_url"), "--namespace",
        DefaultConsole.NAMESPACE, "--appid", DefaultConsole.APPID, "--res-name",
        DefaultConsole.CONTACTS, "--fields", "name,alias", "--level", "user", "--auth-id", AUTH_ID,
        "--account-key-file", key.getPath(), "--file",
        file(row + "-contacts.jsonl", "{\"name\":\"张三\",\"alias\":\"小张\"}").getPath(), "--json");
    assertThat(sync.exit).as(row + ": sync: " + sync.err).isZero();
    String sid = (String) sync.lastJson().get("sid");
    assertThat(sid).startsWith("psn");

    Cli check = Cli.run("check", "--base-url", server.address("base_url"), "--namespace",
        DefaultConsole.NAMESPACE, "--sid", sid, "--account-key-file", key.getPath(), "--json");
    assertThat(check.exit).as(row + ": check: " + check.err).isZero();
    assertThat(check.lastJson().get("sid")).isEqualTo(sid);

    Cli upload = Cli.run("upload-entities", "--platform-url", server.address("platform_url"),
        "--type", "user", "--resource-name", DefaultConsole.CONTACTS, "--token-file",
        tokenFile.getPath(), "--file", file(row + "-more.jsonl",
            "{\"name\":\"Li Lei\",\"alias\":\"\"}").getPath(), "--json");
    assertThat(upload.exit).as(row + ": upload-entities: " + upload.err).isZero();
    assertThat((String) upload.lastJson().get("sid")).startsWith("psn");
  }

  /** Runs login; once the user code is out, the tester approves it on the server's page. */
  private static int login(Standalone server, File tokenFile) throws Exception {
    PrintedText out = new PrintedText();
    StringWriter err = new StringWriter();
    AtomicInteger exit = new AtomicInteger(-1);
    Thread cli = new Thread(() -> exit.set(SpeakerCli.run(new PrintWriter(out, true),
        new PrintWriter(err, true), "login", "--auth-url", server.address("auth_url"),
        "--client-id", DefaultConsole.CLIENT_ID, "--device-id", DefaultConsole.DEVICE_ID,
        "--token-file", tokenFile.getPath(), "--json")));
    cli.start();
    String userCode = out.await(Pattern.compile("\"user_code\":\"([^\"]+)\""), 10, TimeUnit.SECONDS);
    assertThat(userCode).as("a user code within 10 s; " + out + err).isNotNull();
    assertThat(cli.isAlive()).as("login waits for the user; " + out + err).isTrue();
    new SimulatedTester(server.address("verification"), DefaultConsole.TESTER_PHONE, server::sms)
        .approve(userCode);
    cli.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(cli.isAlive()).as("login ended").isFalse();
    return exit.get();
  }

  private File file(String name, String text) throws IOException {
    File file = new File(dir, name);
    Files.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
    return file;
  }

  /** The default console with a one-second poll interval, so that login takes a second. */
  private static String consoleJson() {
    return "{\"clients\":[{\"client_id\":\"" + DefaultConsole.CLIENT_ID + "\",\"client_secret\":\""
        + DefaultConsole.CLIENT_SECRET + "\",\"name\":\"" + DefaultConsole.CLIENT_NAME + "\",\"appid\":\""
        + DefaultConsole.APPID + "\",\"device_ids\":[\"" + DefaultConsole.DEVICE_ID + "\"]}],"
        + "\"tester_phones\":[\"" + DefaultConsole.TESTER_PHONE + "\"],"
        + "\"accounts\":[{\"namespace\":\"" + DefaultConsole.NAMESPACE + "\",\"account_key\":\""
        + DefaultConsole.ACCOUNT_KEY + "\",\"appid\":\"" + DefaultConsole.APPID + "\"}],"
        + "\"entities\":[{\"res_name\":\"" + DefaultConsole.CONTACTS + "\",\"main_field\":\"name\","
        + "\"secondary_fields\":[\"alias\"],\"dimension\":\"os_user_id\"}],"
        + "\"lifetimes\":{\"poll_interval_seconds\":1}}";
  }

  /** One CLI run in this process, with its output. */
  private static final class Cli {
    final int exit;
    final String out;
    final String err;

    private Cli(int exit, String out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }

    static Cli run(String... args) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int exit = SpeakerCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
      return new Cli(exit, out.toString(), err.toString());
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> lastJson() throws IOException {
      String[] lines = out.split("\\R");
      return (Map<String, Object>) new Moshi.Builder().build().adapter(Map.class)
          .fromJson(lines[lines.length - 1]);
    }
  }

  /** {@link ReferenceServerMain} in a process of its own, its printed addresses and SMS codes. */
  private static final class Standalone {
    final Process process;
    final Map<String, String> addresses = new ConcurrentHashMap<>();
    /** The last SMS code printed for each phone; guarded by this, which is notified on each new one. */
    private final Map<String, String> codes = new HashMap<>();
    final BlockingQueue<String> serving = new LinkedBlockingQueue<>();
    final StringBuffer printed = new StringBuffer();

    private Standalone(Process process) {
      this.process = process;
      Thread reader = new Thread(this::read, "standalone-server-output");
      reader.setDaemon(true);
      reader.start();
    }

    static Standalone start(File console, String variant) throws IOException {
      List<String> command = new ArrayList<>();
      command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(ReferenceServerMain.class.getName());
      command.add("--port");
      command.add("0");
      command.add("--console");
      command.add(console.getPath());
      if (!variant.isEmpty()) {
        command.add("--variant");
        command.add(variant);
      }
      return new Standalone(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    private void read() {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = lines.readLine()) != null; ) {
          printed.append(line).append('\n');
          Matcher address = ADDRESS.matcher(line);
          if (address.matches()) addresses.put(address.group(1), address.group(2));
          Matcher code = SMS.matcher(line);
          if (code.matches()) smsPrinted(code.group(1), code.group(2));
          if (line.startsWith("Serving until stopped")) serving.add(line);
        }
      } catch (IOException ignored) {
        // the process ended
      }
    }

    void awaitServing() throws InterruptedException {
      assertThat(serving.poll(30, TimeUnit.SECONDS)).as("the server serves; it printed:\n%s", printed)
          .isNotNull();
    }

    /** The code printed for {@code phone}: the page sends it before it answers, printing may lag. */
    synchronized String sms(String phone) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      try {
        for (long left; !codes.containsKey(phone) && (left = deadline - System.nanoTime()) > 0; ) {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return codes.get(phone);
    }

    private synchronized void smsPrinted(String phone, String code) {
      codes.put(phone, code);
      notifyAll();
    }

    String address(String name) {
      return addresses.get(name);
    }

    void stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
    }
  }
}
