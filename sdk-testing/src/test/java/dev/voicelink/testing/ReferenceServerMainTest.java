package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceServerMainTest {
  @TempDir File dir;

  @Test void printsAddressesAndCredentialsButNoSecrets() throws IOException {
    try (ReferenceServer server = ReferenceServerMain.fromArgs(new String[0]).start()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      ReferenceServerMain.describe(server, new PrintStream(bytes, true, "UTF-8"));
      String out = new String(bytes.toByteArray(), StandardCharsets.UTF_8);
      assertThat(out).contains("auth_url      " + server.authUrl(), "platform_url  " + server.platformUrl(),
          "base_url      " + server.baseUrl(), DefaultConsole.CLIENT_ID, DefaultConsole.DEVICE_ID,
          DefaultConsole.TESTER_PHONE, "namespace OS123, appid 5f1a2b3c, account key #");
      assertThat(out).doesNotContain(DefaultConsole.ACCOUNT_KEY, DefaultConsole.CLIENT_SECRET);
    }
  }

  @Test void theBannerShowsTheClockAndTheLifetimesOfTheDefaultConsole() throws IOException {
    try (ReferenceServer server = ReferenceServerMain.fromArgs(new String[0]).start()) {
      assertThat(banner(server)).containsSubsequence(
          "  verification  " + server.verificationUri(),
          "  clock         --clock-scale 1: real time; an upload takes effect 300 s after it",
          "  device flow   user code 120 s, SMS code 300 s, poll interval 2 s, slow_down off",
          "  tokens        access token 8640000 s, refresh token without time limit",
          "  client        vl-speaker-01 (VoiceLink Demo Speaker), client secret #"
              + Ids.fingerprint(DefaultConsole.CLIENT_SECRET) + ", devices [SN-0001-DEMO]");
    }
  }

  @Test void theBannerShowsTheLifetimesOfAConsoleFileInServerAndRealTime() throws IOException {
    File console = new File(dir, "console.json");
    Files.write(console.toPath(), ("{\"lifetimes\":{\"user_code_seconds\":600,\"sms_code_seconds\":900,"
        + "\"poll_interval_seconds\":1,\"access_token_seconds\":3600,\"refresh_token_seconds\":86400,"
        + "\"slow_down\":true}}").getBytes(StandardCharsets.UTF_8));
    try (ReferenceServer server = ReferenceServerMain.fromArgs(new String[] {"--console", console.getPath(),
        "--clock-scale", "10"}).start()) {
      assertThat(banner(server)).containsSubsequence(
          "  verification  " + server.verificationUri(),
          "  clock         --clock-scale 10: server time runs 10 times as fast as real time; an upload"
              + " takes effect 30 s after it",
          "  device flow   user code 600 s (60 s real), SMS code 900 s (90 s real), poll interval 1 s,"
              + " slow_down on",
          "  tokens        access token 3600 s (360 s real), refresh token 86400 s (8640 s real)",
          "  tester phones []");
    }
    try (ReferenceServer server = ReferenceServerMain.fromArgs(new String[] {"--clock-scale", "7"}).start()) {
      assertThat(banner(server)).contains(
          "  clock         --clock-scale 7: server time runs 7 times as fast as real time; an upload"
              + " takes effect 42.9 s after it",
          "  device flow   user code 120 s (17.1 s real), SMS code 300 s (42.9 s real), poll interval 2 s,"
              + " slow_down off",
          "  tokens        access token 8640000 s (1234285.7 s real), refresh token without time limit");
    }
    try (ReferenceServer server = ReferenceServerMain.fromArgs(new String[] {"--clock-scale", "0.5"}).start()) {
      assertThat(banner(server)).contains(
          "  clock         --clock-scale 0.5: server time runs 0.5 times as fast as real time; an upload"
              + " takes effect 600 s after it",
          "  device flow   user code 120 s (240 s real), SMS code 300 s (600 s real), poll interval 2 s,"
              + " slow_down off");
    }
  }

  @Test void aManualClockIsNamedAsSuch() throws IOException {
    try (ReferenceServer server = ReferenceServer.builder().clock(ServerClock.manual(AuthFlowTest.T0)).build()
        .start()) {
      assertThat(banner(server)).contains("  clock         manual: server time moves only when advanced",
          "  device flow   user code 120 s, SMS code 300 s, poll interval 2 s, slow_down off");
    }
  }

  @Test void numbersAreWholeOrToOneDecimalOrThreeDigitsWhenSmall() {
    assertThat(ReferenceServerMain.number(12)).isEqualTo("12");
    assertThat(ReferenceServerMain.number(300 / 7.0)).isEqualTo("42.9");
    assertThat(ReferenceServerMain.number(2.5)).isEqualTo("2.5");
    assertThat(ReferenceServerMain.number(2.04)).isEqualTo("2");
    assertThat(ReferenceServerMain.number(0.012345)).isEqualTo("0.0123");
  }

  /** The lines {@link ReferenceServerMain#describe} prints for {@code server}. */
  private static java.util.List<String> banner(ReferenceServer server) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ReferenceServerMain.describe(server, new PrintStream(bytes, true, "UTF-8"));
    return java.util.Arrays.asList(new String(bytes.toByteArray(), StandardCharsets.UTF_8).split("\\R"));
  }

  @Test void readsAConsoleFileAndAPort() throws IOException {
    File console = new File(dir, "console.json");
    Files.write(console.toPath(), ("{\"clients\":[{\"client_id\":\"c1\",\"client_secret\":\"s1\",\"name\":\"Box\","
        + "\"device_ids\":[\"D1\"]}],\"tester_phones\":[\"13700000000\"],\"accounts\":[{\"namespace\":\"NS9\","
        + "\"account_key\":\"k9\",\"appid\":\"a9\",\"dynamic_entity_permission\":false,\"ip_whitelist_enabled\":true,"
        + "\"ip_whitelist\":[\"127.0.0.1\"]}],\"entities\":[{\"res_name\":\"NS9.rooms\",\"main_field\":\"room\","
        + "\"secondary_fields\":[],\"dimension\":\"house\"}],\"lifetimes\":{\"user_code_seconds\":60,"
        + "\"sms_code_seconds\":90,\"poll_interval_seconds\":5,\"access_token_seconds\":3600,\"slow_down\":true}}").getBytes(StandardCharsets.UTF_8));
    try (ReferenceServer server = ReferenceServerMain.fromArgs(new String[] {"--console", console.getPath()}).start()) {
      Console c = server.console();
      assertThat(c.getDeviceIds("c1")).containsExactly("D1");
      assertThat(c.getTesterPhones()).containsExactly("13700000000");
      assertThat(c.getAccounts().get(0).dynamicEntityPermission()).isFalse();
      assertThat(c.getAccounts().get(0).ipWhitelist()).containsExactly("127.0.0.1");
      assertThat(c.getEntities().get(0).dimension()).isEqualTo("house");
      assertThat(c.getSmsCodeLifetimeSeconds()).isEqualTo(90);
      assertThat(c.getUserCodeLifetimeSeconds()).isEqualTo(60);
      assertThat(c.getPollIntervalSeconds()).isEqualTo(5);
      assertThat(c.isSlowDown()).isTrue();
    }
  }

  @Test void badArgumentsAreNamed() {
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--port", "x"}))
        .hasMessage("--port must be a number 0..65535; was: x");
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--port"})).hasMessage("--port needs a value");
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--colour", "red"}))
        .hasMessage("unknown option --colour");
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--console", "/nonexistent.json"}))
        .hasMessage("--console file not found: /nonexistent.json");
    assertThatThrownBy(() -> Console.fromJson("{\"clients\":[{\"client_id\":1}]}"))
        .hasMessage("$.clients[].client_id must be a string");
    assertThatThrownBy(() -> Console.fromJson("{\"clients\":[{\"client_id\":\"c\",\"client_secret\":\"s\","
        + "\"name\":\"n\",\"device_id\":\"D1\"}]}"))
        .hasMessage("$.clients[].device_id is not a console setting; $.clients[] takes client_id, client_secret,"
            + " name, appid, device_ids");
    assertThatThrownBy(() -> Console.fromJson("{\"tester_phone\":[\"13700000000\"]}"))
        .hasMessage("$.tester_phone is not a console setting; $ takes clients, tester_phones, accounts, entities,"
            + " lifetimes");
  }

  @Test void anUnknownOptionIsNamedEvenWithoutAValue() {
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--colour"}))
        .hasMessage("unknown option --colour");
  }

  @Test void helpPrintsTheUsageToStdoutAndStartsNothing() throws IOException {
    Streams streams = new Streams();
    assertThat(ReferenceServerMain.start(new String[] {"--port", "0", "--help"}, streams.out, streams.err)).isNull();
    assertThat(streams.out()).isEqualTo(ReferenceServerMain.usage() + "\n");
    assertThat(streams.err()).isEmpty();
  }

  @Test void aPortInUseIsOneErrorLineAndTheUsageNotAStackTrace() throws IOException {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("127.0.0.1"))) {
      Streams streams = new Streams();
      assertThat(ReferenceServerMain.start(new String[] {"--bind", "127.0.0.1", "--port",
          String.valueOf(taken.getLocalPort())}, streams.out, streams.err)).isNull();
      assertThat(streams.err()).startsWith("error: the server cannot listen there: ")
          .contains("(is the port in use, or the --bind address not one of this machine's?)\n"
              + ReferenceServerMain.usage() + "\n");
      assertThat(streams.err().split("\n")).hasSize(3); // the error, and the usage's two lines
      assertThat(streams.out()).isEmpty();
    }
  }

  @Test void aBadBindAddressOrConsoleIsNamed() throws IOException {
    Streams streams = new Streams();
    assertThat(ReferenceServerMain.start(new String[] {"--bind", "no-such-host.invalid"}, streams.out,
        streams.err)).isNull();
    assertThat(streams.err()).startsWith("error: --bind must be an address or a known host name; was:"
        + " no-such-host.invalid\n");
    File console = new File(dir, "entity-without-account.json");
    Files.write(console.toPath(), ("{\"entities\":[{\"res_name\":\"NS9.rooms\",\"main_field\":\"room\","
        + "\"secondary_fields\":[],\"dimension\":\"house\"}]}").getBytes(StandardCharsets.UTF_8));
    Streams second = new Streams();
    assertThat(ReferenceServerMain.start(new String[] {"--console", console.getPath()}, second.out,
        second.err)).isNull();
    assertThat(second.err()).startsWith("error: ").doesNotContain("Exception").doesNotContain("\tat ");
  }

  /** Two PrintStreams whose text the test reads. */
  static final class Streams {
    final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(outBytes, true);
    final PrintStream err = new PrintStream(errBytes, true);

    String out() {
      return new String(outBytes.toByteArray(), StandardCharsets.UTF_8);
    }

    String err() {
      return new String(errBytes.toByteArray(), StandardCharsets.UTF_8);
    }
  }

  @Test void secretsStayOutOfToString() {
    Console c = Console.defaults();
    assertThat(c.getClients().get(0).toString()).doesNotContain(DefaultConsole.CLIENT_SECRET);
    assertThat(c.getAccounts().get(0).toString()).doesNotContain(DefaultConsole.ACCOUNT_KEY);
    assertThat(c.toString()).doesNotContain(DefaultConsole.CLIENT_SECRET).doesNotContain(DefaultConsole.ACCOUNT_KEY);
  }
}
