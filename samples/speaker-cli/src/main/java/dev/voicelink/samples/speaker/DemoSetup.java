package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the demo runs against, started before its first step and closed after its last: the reference
 * server and the device's client on one accelerated clock, and the token file.
 */
final class DemoSetup {
  /** Library and server logs would interleave with the steps; keep warnings and errors only. */
  private static final Logger QUIET_LOGGER = Logger.getLogger("dev.voicelink");

  private final DemoCommand options;
  private final Output out;

  DemoSetup(DemoCommand options, Output out) {
    this.options = options;
    this.out = out;
  }

  int run() throws Exception {
    Level level = QUIET_LOGGER.getLevel();
    QUIET_LOGGER.setLevel(Level.WARNING);
    AcceleratedTime time = new AcceleratedTime(options.speed);
    try {
      return run(time);
    } finally {
      time.stop(); // also when the server could not start; stopping twice is harmless
      QUIET_LOGGER.setLevel(level);
    }
  }

  /**
   * The console of a demo whose clocks run {@code speed} times faster than real time. Whoever
   * approves (a person, or the simulated tester on a busy machine) needs real time: the user code
   * and the SMS login code keep their usual lifetimes in real time.
   */
  static Console console(double speed) {
    Console console = Console.defaults();
    console.setUserCodeLifetimeSeconds((long) (console.getUserCodeLifetimeSeconds() * speed));
    console.setSmsCodeLifetimeSeconds((long) (console.getSmsCodeLifetimeSeconds() * speed));
    return console;
  }

  private int run(AcceleratedTime time) throws Exception {
    Console console = console(options.speed);
    File tokens = tokenFile();
    DemoSession demo = null;
    try (ReferenceServer server = ReferenceServer.builder()
        .console(console)
        .clock(ServerClock.scaled(options.speed))
        .build()
        .start()) {
      options.cli.embeddedServers.add(server);
      VoiceLinkClient client = options.cli.clientBuilder()
          .authUrl(server.authUrl())
          .platformUrl(server.platformUrl())
          .baseUrl(server.baseUrl())
          .clock(time)
          .scheduler(time)
          .build();
      demo = new DemoSession(out, server, time, client, tokens, options.speed, options.interactive);
      try {
        return DemoScript.run(demo);
      } finally {
        demo.close(); // the demo's client: its threads and connections end with it
      }
    } catch (DemoFailure failure) {
      int step = demo == null ? 0 : demo.step();
      out.record(fields("step", step, "status", "failed", "message", failure.getMessage()),
          "  FAILED: " + failure.getMessage());
      out.problem("the demo failed at step " + step + ": " + failure.getMessage());
      return ExitCodes.FAILURE;
    }
  }

  /** The token file the options name, or a temporary one that is deleted at exit. */
  private File tokenFile() throws IOException {
    if (options.tokenFile != null) return options.tokenFile;
    File tokens = File.createTempFile("voicelink-demo-token", ".json");
    tokens.deleteOnExit();
    Files.delete(tokens.toPath());
    return tokens;
  }
}
