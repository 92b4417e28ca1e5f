package dev.voicelink.docs;

import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.EntityDefinition;
import dev.voicelink.testing.Account;
import dev.voicelink.testing.RegisteredClient;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import dev.voicelink.testing.StandaloneServerOutput;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The code of docs/reference-server.md; {@code ReferenceServerSnippetsTest} runs it. */
final class ReferenceServerSnippets {
  private ReferenceServerSnippets() {
  }

  /** {@code userCode} comes from a device code the test asked for. */
  static void inTests(UserCodeSource device) throws Exception {
    // snippet:reference-server-in-tests
    ServerClock clock = ServerClock.manual(1_763_712_000_000L);
    try (ReferenceServer server = ReferenceServer.builder().clock(clock).build().start()) {
      server.authUrl();      // http://127.0.0.1:PORT/auth      ({auth_url})
      server.platformUrl();  // http://127.0.0.1:PORT/platform  ({platform_url})
      server.baseUrl();      // http://127.0.0.1:PORT/api       ({base_url}, also the WebSocket)

      // ... the device asks for a device code and shows the user code ...
      String userCode = device.userCode(server);
      new SimulatedTester(server).approve(userCode);   // or .refuse(userCode)

      clock.advance(5, TimeUnit.MINUTES);              // uploads take effect, no sleeping
      server.journal().count("/oauth/ivs/token");      // what the client really sent
      server.faults().on(Endpoint.TOKEN, Fault.status(503).retryAfter(1).times(2));
    }
    // end-snippet
  }

  static void variants(Device device) throws Exception {
    // snippet:reference-server-variants
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      server.console().setVariant(PlatformVariant.INTERVAL_MILLIS, true);      // "interval": 2000
      server.console().setVariant(PlatformVariant.AUTH_ERRORS_HTTP_401, true); // errors with HTTP 401
      device.signInAndSync(server); // must work as against the reference reading
    }
    // end-snippet
  }

  /**
   * {@code command} starts the standalone server ({@code java -jar voicelink-reference-server.jar
   * --port 0}); {@code log} gets what it prints.
   */
  static void approveOnAStandaloneServer(List<String> command, PrintStream log,
      StandaloneDevice device) throws Exception {
    // snippet:reference-server-standalone-approve
    Process process = new ProcessBuilder(command)  // java -jar voicelink-reference-server.jar --port 0
        .redirectErrorStream(true).start();
    try {
      StandaloneServerOutput server = new StandaloneServerOutput();
      server.readFrom(process.getInputStream(), log);   // each line, also copied to the test's log
      if (!server.awaitServing(30, TimeUnit.SECONDS)) throw new IllegalStateException("not serving");

      String userCode = device.showUserCode(server.address("auth_url"));  // the device under test
      new SimulatedTester(server.address("verification"), DefaultConsole.TESTER_PHONE, server)
          .approve(userCode);                          // with the SMS code the server printed
      device.awaitSignedIn();                          // its next poll gets the token
    } finally {
      process.destroy();
    }
    // end-snippet
  }

  /** The device under test of {@link #approveOnAStandaloneServer}. */
  interface StandaloneDevice {
    /** Asks the server at {@code authUrl} for a device code; returns its user code. */
    String showUserCode(String authUrl) throws Exception;

    void awaitSignedIn() throws Exception;
  }

  interface Device {
    void signInAndSync(ReferenceServer server) throws Exception;
  }

  interface UserCodeSource {
    String userCode(ReferenceServer server) throws Exception;
  }

  static Console console() {
    // snippet:reference-server-console
    Console console = Console.builder()   // the values of Console.defaults()
        .client(RegisteredClient.create("vl-speaker-01", DefaultConsole.CLIENT_SECRET,
            "VoiceLink Demo Speaker", "5f1a2b3c"))
        .deviceIds("vl-speaker-01", "SN-0001-DEMO")
        .testerPhone("13800000000")
        .account(Account.create("OS123", DefaultConsole.ACCOUNT_KEY, "5f1a2b3c")
            .withDynamicEntityPermission(true)
            .withIpWhitelist(false, Collections.<String>emptyList()))
        .entity(EntityDefinition.create("OS123.contacts", "name", Arrays.asList("alias"), "os_user_id"))
        .entity(EntityDefinition.create("OS123.songs", "name", Arrays.asList("alias"), "os_client_id"))
        .accessTokenLifetimeSeconds(8_640_000).refreshTokenLifetimeSeconds(0)
        .userCodeLifetimeSeconds(120).smsCodeLifetimeSeconds(300).pollIntervalSeconds(2).slowDown(false)
        .build();
    // end-snippet
    return console;
  }
}
