package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SMS codes of the verification page: printed once by the standalone server, in one wording, and
 * read back by {@link StandaloneServerOutput} for a {@link SimulatedTester}.
 */
class StandaloneServerOutputTest {
  private static final Logger PAGE_LOG = Logger.getLogger(VerificationPage.class.getName());
  private final List<LogRecord> logged = Collections.synchronizedList(new ArrayList<>());
  private final Handler capture = new Handler() {
    @Override public void publish(LogRecord record) {
      logged.add(record);
    }

    @Override public void flush() {
    }

    @Override public void close() {
    }
  };

  @BeforeEach void captureThePagesLog() {
    PAGE_LOG.addHandler(capture);
  }

  @AfterEach void release() {
    PAGE_LOG.removeHandler(capture);
  }

  @Test void theStandaloneServerPrintsEachSmsCodeOnceAndATesterReadsIt() throws Exception {
    StandaloneServerOutput output = new StandaloneServerOutput(0, TimeUnit.SECONDS);
    Lines out = new Lines(output);
    ReferenceServerMainTest.Streams err = new ReferenceServerMainTest.Streams();
    ReferenceServer server = ReferenceServerMain.start(new String[] {"--port", "0"},
        new PrintStream(out, true, "UTF-8"), err.err);
    assertThat(server).isNotNull();
    try {
      assertThat(output.awaitServing(0, TimeUnit.SECONDS)).isTrue();
      assertThat(output.address("verification")).isEqualTo(server.verificationUri());
      assertThat(output.address("auth_url")).isEqualTo(server.authUrl());
      assertThat(output.address("platform_url")).isEqualTo(server.platformUrl());
      assertThat(output.address("base_url")).isEqualTo(server.baseUrl());
      String userCode = userCode(server);

      new SimulatedTester(output.address("verification"), DefaultConsole.TESTER_PHONE, output)
          .approve(userCode);

      String code = server.lastSmsCode(DefaultConsole.TESTER_PHONE);
      List<String> smsLines = new ArrayList<>();
      for (String line : out.lines) {
        if (line.contains(code)) smsLines.add(line);
      }
      assertThat(smsLines).containsExactly("SMS to 13800000000: verification code " + code);
      assertThat(loggedWith(code)).isEmpty();
      assertThat(err.err()).isEmpty();
      assertThat(Wire.postJson(server.authUrl() + "/oauth/ivs/token", "{\"client_id\":\""
          + DefaultConsole.CLIENT_ID + "\",\"grant_type\":\"urn:ietf:params:oauth:grant-type:device_code\","
          + "\"device_code\":\"" + deviceCode + "\"}").status).isEqualTo(200);
    } finally {
      server.close();
    }
  }

  @Test void inProcessTheCodeIsLoggedOnceInTheSameWording() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      new SimulatedTester(server).approve(userCode(server));
      String code = server.lastSmsCode(DefaultConsole.TESTER_PHONE);
      assertThat(loggedWith(code)).containsExactly("SMS to 13800000000: verification code " + code);
    }
  }

  @Test void aCodeIsHandedOutOnceAndASecondLoginGetsItsOwn() {
    StandaloneServerOutput output = new StandaloneServerOutput(0, TimeUnit.SECONDS);
    output.accept("SMS to 13800000000: verification code 123456");
    output.accept("SMS to 13900000000: verification code 222222");
    assertThat(output.lastSmsCode("13800000000")).isEqualTo("123456");
    assertThat(output.lastSmsCode("13800000000")).isNull();
    output.accept("SMS to 13800000000: verification code 654321");
    output.accept("SMS to 13800000000: verification code 765432");
    assertThat(output.lastSmsCode("13800000000")).isEqualTo("765432");
    assertThat(output.lastSmsCode("13900000000")).isEqualTo("222222");
  }

  @Test void aCodeWaitedForArrivesFromAnotherThread() throws Exception {
    StandaloneServerOutput output = new StandaloneServerOutput(1, TimeUnit.MINUTES);
    String[] got = new String[1];
    Thread tester = new Thread(() -> got[0] = output.lastSmsCode("13800000000"));
    tester.start();
    // The code must come while the tester waits for it, not before it asks.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (tester.getState() != Thread.State.TIMED_WAITING) {
      assertThat(System.nanoTime()).as("the tester waits for the code").isLessThan(deadline);
      Thread.yield();
    }
    output.accept("SMS to 13800000000: verification code 123456");
    tester.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(tester.isAlive()).isFalse();
    assertThat(got[0]).isEqualTo("123456");
  }

  @Test void readFromTakesEveryLineEchoesItAndEnds() throws Exception {
    String printed = "VoiceLink reference server\n"
        + "  auth_url      http://127.0.0.1:8080/auth\n"
        + "  verification  http://127.0.0.1:8080/auth/verify\n"
        + "  tester phones [13800000000]\n"
        + "Serving until stopped (Ctrl-C).\n"
        + "SMS to 13800000000: verification code 123456\n";
    ByteArrayOutputStream echoed = new ByteArrayOutputStream();
    StandaloneServerOutput output = new StandaloneServerOutput(1, TimeUnit.MINUTES);
    Thread reader = output.readFrom(new ByteArrayInputStream(printed.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(echoed, true, "UTF-8"));
    reader.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(reader.isAlive()).isFalse();
    assertThat(new String(echoed.toByteArray(), StandardCharsets.UTF_8))
        .isEqualTo(printed.replace("\n", System.lineSeparator()));
    assertThat(output.awaitServing(0, TimeUnit.SECONDS)).isTrue();
    assertThat(output.address("auth_url")).isEqualTo("http://127.0.0.1:8080/auth");
    assertThat(output.address("verification")).isEqualTo("http://127.0.0.1:8080/auth/verify");
    assertThat(output.lastSmsCode("13800000000")).isEqualTo("123456");
    // the output ended: no wait for a code that cannot come
    assertThat(output.lastSmsCode("13800000000")).isNull();
    assertThat(output.toString()).isEqualTo("StandaloneServerOutput{serving, {auth_url="
        + "http://127.0.0.1:8080/auth, verification=http://127.0.0.1:8080/auth/verify}}");
  }

  @Test void aServerThatEndsBeforeServingIsNotWaitedFor() throws Exception {
    StandaloneServerOutput output = new StandaloneServerOutput();
    Thread reader = output.readFrom(new ByteArrayInputStream(
        "error: --port must be a number 0..65535; was: x\n".getBytes(StandardCharsets.UTF_8)), null);
    reader.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(output.awaitServing(1, TimeUnit.MINUTES)).isFalse();
    assertThatThrownBy(() -> output.address("verification")).isInstanceOf(IllegalStateException.class)
        .hasMessage("the server has not printed its verification address (yet: wait with awaitServing)");
    assertThat(output.toString()).isEqualTo("StandaloneServerOutput{ended, {}}");
  }

  @Test void badArgumentsAreRefused() {
    assertThatThrownBy(() -> new StandaloneServerOutput(-1, TimeUnit.SECONDS))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("smsWait must not be negative; was: -1");
    assertThatThrownBy(() -> new StandaloneServerOutput().readFrom(null, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("stdout must not be null");
  }

  private String deviceCode;

  /** The messages the page logged that hold {@code text}. */
  private List<String> loggedWith(String text) {
    List<String> messages = new ArrayList<>();
    synchronized (logged) {
      for (LogRecord record : logged) {
        if (record.getMessage().contains(text)) messages.add(record.getMessage());
      }
    }
    return messages;
  }

  private String userCode(ReferenceServer server) throws IOException {
    Map<String, Object> dc = Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id",
        DefaultConsole.CLIENT_ID, "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).json();
    deviceCode = (String) dc.get("device_code");
    return (String) dc.get("user_code");
  }

  /** A stream whose complete lines are kept and handed to {@code output} as they are printed. */
  private static final class Lines extends OutputStream {
    final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final StandaloneServerOutput output;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    Lines(StandaloneServerOutput output) {
      this.output = output;
    }

    @Override public synchronized void write(int b) {
      if (b == '\n') {
        String text = new String(line.toByteArray(), StandardCharsets.UTF_8);
        line.reset();
        lines.add(text);
        output.accept(text);
      } else if (b != '\r') {
        line.write(b);
      }
    }
  }
}
