package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import dev.voicelink.interact.RecognizedEntity;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The whole SDK in one run, as a smart speaker would use it, against the reference server started
 * in-process: sign-in, token storage, cloud token, entity uploads through both endpoints, the timing
 * rules, activation, and refresh. Exits 0 only if every step behaved as the platform spec says.
 */
@Command(name = "demo",
    description = {"Runs a complete smart-speaker session against the embedded reference server.",
        "Time runs faster than real time for both the server and the device, so the 10-second and",
        "5-minute rules pass in under a minute; the demo says by how much."},
    mixinStandardHelpOptions = true)
final class DemoCommand implements Callable<Integer> {
  static final double DEFAULT_SPEED = 30;
  private static final String CONTACTS = "{\"name\":\"Zhang San\",\"alias\":\"Xiao Zhang|Lao Zhang\"}\n"
      + "{\"name\":\"Li Lei\",\"alias\":\"\"}";
  private static final String SONGS = "{\"name\":\"Blue Lotus\",\"alias\":\"Lotus\"}\n"
      + "{\"name\":\"Morning Rain\",\"alias\":\"\"}";
  private static final String SAID_TO_SPEAKER = "call Xiao Zhang";
  private static final String SONG_REQUEST = "play blue lotus";

  @Spec CommandSpec spec;
  @ParentCommand SpeakerCli cli;

  @Option(names = "--interactive",
      description = "Wait for a person to approve the device in a browser at the printed link.")
  boolean interactive;

  @Option(names = "--json", description = "One JSON object per line on stdout.")
  boolean json;

  @Option(names = "--speed", paramLabel = "FACTOR", defaultValue = "30",
      description = "How many times faster than real time the demo's clocks run (default: 30).")
  double speed;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Where the device token is stored (default: a temporary file, deleted at exit).")
  File tokenFile;

  private Output out;
  private int step;

  @Override public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    out = new Output(stdout, spec.commandLine().getErr(), json);
    if (!(speed >= 1 && speed <= 1000)) {
      out.problem("--speed must be between 1 and 1000; was: " + speed);
      return ExitCodes.INVALID_INPUT;
    }
    quietLogs();
    return runDemo();
  }

  private int runDemo() throws Exception {
    AcceleratedTime time = new AcceleratedTime(speed);
    Console console = Console.defaults();
    // Whoever approves (a person, or the simulated tester on a busy machine) needs real time:
    // the user code keeps its usual lifetime in real time, whatever the speed of the demo's clocks.
    console.userCodeLifetimeSeconds((long) (console.userCodeLifetimeSeconds() * speed));
    File tokens = tokenFile != null ? tokenFile : File.createTempFile("voicelink-demo-token", ".json");
    if (tokenFile == null) {
      tokens.deleteOnExit();
      Files.delete(tokens.toPath());
    }
    try (ReferenceServer server = ReferenceServer.builder()
        .console(console)
        .clock(ServerClock.scaled(speed))
        .build()
        .start()) {
      if (cli != null) cli.embeddedServers.add(server);
      Session session = new Session(server, time, tokens);
      try {
        return session.run();
      } finally {
        session.config.close(); // the demo's client: its threads and connections end with it
      }
    } catch (DemoFailure failure) {
      out.record(fields("step", step, "status", "failed", "reason", failure.getMessage()),
          "  FAILED: " + failure.getMessage());
      return ExitCodes.FAILURE;
    }
  }

  /** The demo's steps, in order; each checks what the spec says should have happened. */
  private final class Session {
    private final ReferenceServer server;
    private final AcceleratedTime time;
    private final File tokenFile;
    private final VoiceLinkClient config;
    private EntityWebApi webApi;

    Session(ReferenceServer server, AcceleratedTime time, File tokenFile) {
      this.server = server;
      this.time = time;
      this.tokenFile = tokenFile;
      this.config = VoiceLinkClient.builder()
          .authUrl(server.authUrl())
          .platformUrl(server.platformUrl())
          .baseUrl(server.baseUrl())
          .clock(time)
          .scheduler(time)
          .httpLogging(cli.httpLogging())
          .build();
    }

    int run() throws Exception {
      begin("Reference server");
      out.record(fields("step", step, "auth_url", server.authUrl(), "platform_url",
          server.platformUrl(), "base_url", server.baseUrl(), "speed", speed),
          "  auth_url     " + server.authUrl() + "\n  platform_url " + server.platformUrl()
              + "\n  base_url     " + server.baseUrl() + "\n  Time runs " + format(speed)
              + "x faster than real time for the server and the device in this demo: 5 minutes"
              + " take " + seconds(time.realMillis(TimeUnit.MINUTES.toMillis(5))) + ".");

      TokenRecord deviceToken = authorizeDevice();
      TokenManager deviceTokens = storeToken(deviceToken);
      TokenManager cloudTokens = cloudToken();
      try (DemoChannel channel = new DemoChannel(config, deviceTokens)) {
        String uid = connect(channel);
        // Songs first: the demo waits for the contacts to take effect, and the songs, uploaded
        // earlier, are then in effect too; the other way round they could miss by a moment.
        uploadSongs(cloudTokens);
        UploadReceipt contacts = syncContacts(uid);
        checkAfterTenSeconds(contacts);
        waitUntilInEffect(contacts);
        interact(channel);
      }
      refresh(deviceTokens, deviceToken);
      out.record(fields("status", "ok"), "\nEvery step behaved as the platform spec says.");
      return ExitCodes.SUCCESS;
    }

    private TokenRecord authorizeDevice() throws Exception {
      begin("Device authorization (OAuth device flow)");
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
          .clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
      out.record(fields("step", step, "event", "user_code", "user_code", code.userCode(),
          "verification_uri", code.verificationUri(), "link", code.link(),
          "expires_in", code.expiresInSeconds(), "interval", code.intervalSeconds()),
          "  Open " + code.link() + "\n  and enter the code " + code.userCode()
              + " (valid " + seconds(time.realMillis(code.expiresInSeconds() * 1000))
              + " of real time; the device polls every " + code.intervalSeconds()
              + " s of demo time).");
      out.say(TerminalQr.render(code.link()));
      BlockingQueue<DeviceFlowOutcome> outcome = new LinkedBlockingQueue<>();
      int[] polls = {0};
      VoiceLinkCall<DeviceFlowOutcome> flow = authorizer.poll(code, new DeviceFlowListener() {
        @Override public void onCodeIssued(DeviceCode issued) {
          // shown above, with its QR code
        }

        @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
          polls[0] = pollNumber;
        }
      });
      flow.enqueue(result -> {
        if (result.isSuccess()) outcome.add(result.value());
      });
      if (interactive) {
        out.say("  Log in with the tester phone " + DefaultConsole.TESTER_PHONE
            + "; its one-time code will appear here.");
        new SmsRelay(server, out).start();
      } else {
        out.say("  A simulated tester opens the page, logs in with " + DefaultConsole.TESTER_PHONE
            + " and presses Authorize...");
        new SimulatedTester(server).approve(code.userCode());
      }
      DeviceFlowOutcome ended = Progress.await(out, outcome, "waiting for the user",
          TimeUnit.MILLISECONDS.toMillis(time.realMillis(code.expiresInSeconds() * 1000) + 5000));
      if (ended == null) {
        flow.cancel();
        throw new DemoFailure("the device flow did not end before the code expired");
      }
      if (ended.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
        throw new DemoFailure("the device flow ended " + ended.kind() + " instead of AUTHORIZED");
      }
      TokenRecord token = ended.token();
      out.record(fields("step", step, "status", "authorized", "polls", polls[0] + 1,
          "access_token", secret(token.accessToken())),
          "  Authorized after " + (polls[0] + 1) + " polls; access token "
              + secret(token.accessToken()) + ".");
      return token;
    }

    private TokenManager storeToken(TokenRecord token) throws Exception {
      begin("Token stored in a file");
      TokenManager tokens = TokenManager.builder(config)
          .deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new FileTokenStore(tokenFile))
          .build();
      tokens.setRecord(token);
      TokenRecord reloaded = new FileTokenStore(tokenFile).load();
      if (reloaded == null || !reloaded.accessToken().equals(token.accessToken())) {
        throw new DemoFailure("the token file did not hold the record that was saved");
      }
      out.record(fields("step", step, "token_file", tokenFile.getPath(), "bytes", tokenFile.length()),
          "  " + tokenFile.getPath() + " (" + tokenFile.length() + " bytes; reloaded and matched)");
      return tokens;
    }

    private TokenManager cloudToken() throws Exception {
      begin("Cloud token for the vendor backend (client credentials)");
      TokenManager cloud = TokenManager.builder(config)
          .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
          .store(new InMemoryTokenStore())
          .build();
      String token = cloud.accessToken();
      out.record(fields("step", step, "access_token", secret(token)),
          "  cloud token " + secret(token));
      return cloud;
    }

    private String connect(DemoChannel channel) throws Exception {
      begin("Interaction channel");
      String uid = channel.connect();
      out.record(fields("step", step, "uid", uid), "  connected; the platform names the user " + uid);
      return uid;
    }

    private UploadReceipt syncContacts(String uid) throws Exception {
      begin("User-level contacts synced through the web API");
      EntityWebApi api = EntityWebApi.builder(config)
          .namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY)
          .build();
      UploadReceipt receipt = api.uploadResource(UploadRequest.builder()
          .appid(DefaultConsole.APPID)
          .definition(ResourceDefinition.builder()
              .name(DefaultConsole.NAMESPACE + ".contacts")
              .mainField("name").secondaryFields("alias")
              .dimension(Dimension.USER)
              .build())
          .persParam(PersParam.user(uid))
          .records(RecordSource.fromText(CONTACTS))
          .build()).execute();
      out.record(fields("step", step, "sid", receipt.sid(), "csid", receipt.csid()),
          "  sid " + receipt.sid() + " (upload accepted; processing is asynchronous)");
      this.webApi = api;
      return receipt;
    }

    private void uploadSongs(TokenManager cloudTokens) throws Exception {
      begin("Application-level songs uploaded through the platform tools endpoint");
      PlatformToolsClient platform = PlatformToolsClient.builder(config)
          .cloudTokens(cloudTokens)
          .build();
      String sid = platform.uploadEntities(ResourceDefinition.builder()
              .name(DefaultConsole.NAMESPACE + ".songs")
              .mainField("name").secondaryFields("alias")
              .dimension(Dimension.APPLICATION)
              .build(),
          RecordSource.fromText(SONGS), DefaultConsole.APPID).execute();
      out.record(fields("step", step, "sid", sid), "  sid " + sid + " (Authorization: the cloud token)");
    }

    private void checkAfterTenSeconds(UploadReceipt receipt) throws Exception {
      begin("Check the upload, no earlier than 10 s after it");
      Progress.sleep(out, "waiting for the 10-second rule",
          time.realMillis(Math.max(0, receipt.earliestCheckAtMillis() - time.wallMillis())));
      CheckResult result = webApi.checkResource(receipt.sid()).execute();
      long waited = firstCheckDelayMillis(receipt.sid());
      if (waited < TimeUnit.SECONDS.toMillis(10)) {
        throw new DemoFailure("the first check came " + waited + " ms after the upload");
      }
      out.record(fields("step", step, "sid", result.sid(), "error", result.error(), "reply",
          result.reply(), "first_check_after_ms", waited),
          "  first check " + seconds(waited) + " after the upload (server time): error "
              + result.error() + ", \"" + result.reply() + "\"");
    }

    /** Server-side proof of the 10-second rule: the journal's receive times of upload and check. */
    private long firstCheckDelayMillis(String sid) {
      return checkDelayMillis(sid, "");
    }

    /**
     * Server time from the upload of {@code sid} to the first check of it whose answer contains
     * {@code answerPart}. The server's journal is the judge: the device's clock measures from when
     * the upload's answer arrived, which at the demo's speed can be seconds after the server's.
     */
    private long checkDelayMillis(String sid, String answerPart) {
      long uploadedAt = -1;
      for (RecordedCall call : server.journal().snapshot()) {
        if (call.path().endsWith("/entity/upload-resource") && call.responseBody().contains(sid)) {
          uploadedAt = call.receivedAtMillis();
        } else if (uploadedAt >= 0 && call.path().endsWith("/entity/check-resource")
            && call.body().contains(sid) && call.responseBody().contains(answerPart)) {
          return call.receivedAtMillis() - uploadedAt;
        }
      }
      throw new DemoFailure("the server journal shows no such check of " + sid);
    }

    private void waitUntilInEffect(UploadReceipt receipt) throws Exception {
      begin("Wait until the upload is processed and in effect (5 minutes after it)");
      CheckResult result = Progress.call(out, "checking with backoff until processed",
          () -> webApi.awaitProcessed(receipt, 10, TimeUnit.MINUTES).execute());
      if (!result.processed()) {
        throw new DemoFailure("the upload was not processed: " + result.reply());
      }
      if (checkDelayMillis(receipt.sid(), "\"error\":0") < TimeUnit.MINUTES.toMillis(5)) {
        throw new DemoFailure("processed before the 5-minute rule allows");
      }
      out.record(fields("step", step, "sid", result.sid(), "error", result.error(), "reply",
          result.reply(), "in_effect_at", receipt.inEffectAtMillis()),
          "  error " + result.error() + ", \"" + result.reply() + "\" (5 minutes of demo time after the upload)");
    }

    private void interact(DemoChannel channel) throws Exception {
      begin("Activation with pers_param, then the same without it");
      String userLevel = PersParam.activation().user().build().toJson();
      InteractionResult with = channel.say(SAID_TO_SPEAKER, userLevel);
      InteractionResult without = channel.say(SAID_TO_SPEAKER, null);
      String appLevel = PersParam.activation().application().build().toJson();
      InteractionResult song = channel.say(SONG_REQUEST, appLevel);
      report("pers_param " + userLevel, with);
      report("no pers_param", without);
      report("pers_param " + appLevel, song);
      if (!containsValue(with.entities(), "Zhang San")) {
        throw new DemoFailure("with pers_param the contact was not recognized: " + with.entities());
      }
      if (!without.entities().isEmpty()) {
        throw new DemoFailure("without pers_param dynamic entities were used: " + without.entities());
      }
      if (!containsValue(song.entities(), "Blue Lotus")) {
        throw new DemoFailure("the application-level song was not recognized: " + song.entities());
      }
    }

    private void report(String label, InteractionResult result) {
      out.record(fields("step", step, "with", label, "text", result.text(), "entities",
          result.entities().toString()),
          "  \"" + result.text() + "\" with " + label + " -> "
              + (result.entities().isEmpty() ? "no dynamic entity" : result.entities().toString()));
    }

    private void refresh(TokenManager tokens, TokenRecord before) throws Exception {
      begin("Token refresh (the refresh token rotates)");
      TokenRecord after = tokens.refresh().execute();
      TokenRecord stored = new FileTokenStore(tokenFile).load();
      if (after.refreshToken() == null || after.refreshToken().equals(before.refreshToken())) {
        throw new DemoFailure("the refresh did not rotate the refresh token");
      }
      if (stored == null || !after.refreshToken().equals(stored.refreshToken())) {
        throw new DemoFailure("the token file does not hold the rotated refresh token");
      }
      out.record(fields("step", step, "refresh_token_before", secret(before.refreshToken()),
          "refresh_token_after", secret(after.refreshToken())),
          "  refresh token " + secret(before.refreshToken()) + " -> "
              + secret(after.refreshToken()) + " (saved before use)");
    }
  }

  /** A secret as the demo shows it: a fingerprint that matches two lines and reveals nothing. */
  static String secret(@Nullable String secret) {
    return secret == null ? "‹none›" : "‹secret " + AuthCommand.fingerprint(secret) + "›";
  }

  /** Library and server logs would interleave with the steps; keep warnings and errors only. */
  private static void quietLogs() {
    QUIET_LOGGER.setLevel(Level.WARNING);
  }

  private static final Logger QUIET_LOGGER = Logger.getLogger("dev.voicelink");

  private void begin(String title) {
    step++;
    out.record(fields("step", step, "title", title), "\n[" + step + "] " + title);
  }

  private static boolean containsValue(List<RecognizedEntity> entities, String value) {
    for (RecognizedEntity entity : entities) {
      if (entity.value().equals(value)) return true;
    }
    return false;
  }

  static String format(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  static String seconds(long millis) {
    return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
  }

  /** A step did not behave as the spec says. */
  static final class DemoFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
      super(message);
    }
  }
}
