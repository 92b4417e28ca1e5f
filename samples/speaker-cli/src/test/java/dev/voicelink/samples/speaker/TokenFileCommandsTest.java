package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that act with the token file of a signed-in device, end to end against the reference
 * server. {@code upload-entities} with an authorization address keeps the token file's record alive:
 * an expired token is refreshed first, a 401 gets one refresh and one retry, and the rotated record is
 * saved to the token file. {@code sync --level user --token-file} uploads for the user the interaction
 * channel names, with the token refreshed first in the same way.
 */
class TokenFileCommandsTest {
  @TempDir File dir;
  private ReferenceServer server;
  private File tokenFile;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final Map<String, String> env = new HashMap<>();

  @AfterEach void tearDown() throws Exception {
    if (server != null) server.close();
  }

  private TokenRecord signedInAt(long startMillis) throws Exception {
    return signedInAt(startMillis, 0);
  }

  /**
   * Starts the server at {@code startMillis} and signs the device in there: the record in the token
   * file was received at that time, on a device clock that agreed with the server's. Access tokens
   * live {@code lifetimeSeconds} (0: the console's default, 100 days).
   */
  private TokenRecord signedInAt(long startMillis, long lifetimeSeconds) throws Exception {
    server = ReferenceServer.builder().clock(ServerClock.manual(startMillis)).build().start();
    if (lifetimeSeconds > 0) server.console().setAccessTokenLifetimeSeconds(lifetimeSeconds);
    VirtualTime time = new VirtualTime(startMillis);
    AtomicReference<CallResult<DeviceFlowOutcome>> result = new AtomicReference<>();
    CountDownLatch ended = new CountDownLatch(1);
    try (VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time)
        .scheduler(time).build()) {
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client)
          .clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
      new SimulatedTester(server).approve(code.userCode());
      authorizer.poll(code).enqueue(flowResult -> {
        result.set(flowResult);
        ended.countDown();
      });
      time.advance(code.intervalSeconds(), TimeUnit.SECONDS); // the first poll, already approved
      assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    }
    DeviceFlowOutcome outcome = result.get().get();
    assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    tokenFile = new File(dir, "token.json");
    new FileTokenStore(tokenFile).save(outcome.token());
    return outcome.token();
  }

  private int uploadEntities(String... more) throws Exception {
    List<String> args = new ArrayList<>(Arrays.asList("upload-entities",
        "--platform-url", server.platformUrl(), "--type", "user", "--resource-name", "OS123.contacts",
        "--file", records().getPath(), "--token-file", tokenFile.getPath()));
    args.addAll(Arrays.asList(more));
    return run(args);
  }

  private int syncForTheSignedInUser(String... more) throws Exception {
    File key = new File(dir, "key");
    Files.write(key.toPath(), DefaultConsole.ACCOUNT_KEY.getBytes(StandardCharsets.UTF_8));
    List<String> args = new ArrayList<>(Arrays.asList("sync", "--base-url", server.baseUrl(),
        "--namespace", "OS123", "--appid", DefaultConsole.APPID, "--res-name", "OS123.contacts",
        "--fields", "name,alias", "--level", "user", "--token-file", tokenFile.getPath(),
        "--account-key-file", key.getPath(), "--file", records().getPath()));
    args.addAll(Arrays.asList(more));
    return run(args);
  }

  private File records() throws IOException {
    File records = new File(dir, "contacts.jsonl");
    Files.write(records.toPath(), "{\"name\":\"张三\",\"alias\":\"老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}"
        .getBytes(StandardCharsets.UTF_8));
    return records;
  }

  private int run(List<String> args) {
    SpeakerCli cli = new SpeakerCli();
    cli.env = env;
    cli.terminal = false;
    return SpeakerCli.run(cli, new PrintWriter(out, true), new PrintWriter(err, true),
        args.toArray(new String[0]));
  }

  /** The auth_id the reference server gives the tester who approved: computed here, not asked. */
  private static String testersAuthId() throws Exception {
    byte[] md5 = MessageDigest.getInstance("MD5")
        .digest(("user:" + DefaultConsole.TESTER_PHONE).getBytes(StandardCharsets.UTF_8));
    StringBuilder hex = new StringBuilder();
    for (byte b : md5) hex.append(String.format("%02x", b));
    return hex.toString();
  }

  /** The pers_param of the one upload-resource the server received. */
  private String uploadedPersParam() throws Exception {
    List<RecordedCall> uploads = server.journal().calls("/entity/upload-resource");
    assertThat(uploads).hasSize(1);
    for (String field : uploads.get(0).body().split("&")) {
      if (field.startsWith("pers_param=")) {
        return URLDecoder.decode(field.substring("pers_param=".length()), "UTF-8");
      }
    }
    throw new AssertionError("no pers_param in " + uploads.get(0).body());
  }

  /** The access token of the last token answer the server gave. */
  private String lastIssuedAccessToken() {
    List<RecordedCall> answers = server.journal().calls("/oauth/ivs/token");
    return answers.get(answers.size() - 1).responseBody()
        .replaceAll("(?s).*\"access_token\":\"([^\"]+)\".*", "$1");
  }

  /** The sid of the last upload the server accepted. */
  private String uploadSid() {
    List<RecordedCall> uploads = server.journal().calls("/tools/upload_entities");
    return uploads.get(uploads.size() - 1).responseBody().replaceAll("(?s).*\"sid\":\"([^\"]+)\".*", "$1");
  }

  private void assertNoSecretPrinted() {
    LeakScan.of(server).scan("stdout", out.toString()).scan("stderr", err.toString()).assertNoLeak();
  }

  @Test void anExpiredTokenIsRefreshedSavedAndUsed() throws Exception {
    // Signed in two hours ago with tokens that live one hour: expired on the device and the server.
    long twoHoursAgo = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(2);
    TokenRecord old = signedInAt(twoHoursAgo, 3600);
    server.clock().advance(2, TimeUnit.HOURS);

    assertThat(uploadEntities("--auth-url", server.authUrl(), "--json")).as(err.toString()).isZero();

    List<RecordedCall> calls = server.journal().snapshot();
    RecordedCall refresh = calls.get(calls.size() - 2);
    RecordedCall upload = calls.get(calls.size() - 1);
    assertThat(refresh.path()).endsWith("/oauth/ivs/token");
    assertThat(refresh.body()).isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\""
        + old.refreshToken() + "\"}");
    assertThat(upload.path()).endsWith("/tools/upload_entities");
    TokenRecord saved = new FileTokenStore(tokenFile).load();
    assertThat(saved.accessToken()).isEqualTo(lastIssuedAccessToken()).isNotEqualTo(old.accessToken());
    assertThat(saved.refreshToken()).isNotEqualTo(old.refreshToken());
    assertThat(upload.header("Authorization")).isEqualTo(saved.accessToken());
    assertThat(upload.responseStatus()).isEqualTo(200);
    assertThat(server.journal().calls("/tools/upload_entities")).hasSize(1);
    assertThat(out.toString()).isEqualTo("{\"sid\":\"" + uploadSid() + "\",\"token_refreshed\":true}"
        + System.lineSeparator());
    assertThat(err.toString()).isEmpty();
    assertNoSecretPrinted();
  }

  @Test void theAddressMayComeFromVoicelinkAuthUrl() throws Exception {
    long twoHoursAgo = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(2);
    TokenRecord old = signedInAt(twoHoursAgo, 3600);
    server.clock().advance(2, TimeUnit.HOURS);
    env.put("VOICELINK_AUTH_URL", server.authUrl());

    assertThat(uploadEntities()).as(err.toString()).isZero();

    assertThat(out.toString()).isEqualTo("uploaded OS123.contacts (user): sid " + uploadSid() + "; the token"
        + " was refreshed and the rotated record saved to " + tokenFile.getPath() + System.lineSeparator());
    assertThat(new FileTokenStore(tokenFile).load().refreshToken()).isNotEqualTo(old.refreshToken());
  }

  @Test void theFlagWinsOverTheEnvironment() throws Exception {
    // An expired token: the refresh goes wherever the address resolved to.
    signedInAt(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(2), 3600);
    server.clock().advance(2, TimeUnit.HOURS);
    env.put("VOICELINK_AUTH_URL", "http://127.0.0.1:9/not-here");
    int before = server.journal().size();

    assertThat(uploadEntities("--auth-url", server.authUrl(), "--json")).as(err.toString()).isZero();

    assertThat(out.toString()).isEqualTo("{\"sid\":\"" + uploadSid() + "\",\"token_refreshed\":true}"
        + System.lineSeparator());
    List<RecordedCall> calls = server.journal().snapshot();
    assertThat(calls.subList(before, calls.size())).satisfiesExactly(
        refresh -> assertThat(refresh.path()).endsWith("/oauth/ivs/token"),
        upload -> assertThat(upload.path()).endsWith("/tools/upload_entities"));
  }

  @Test void aValidTokenIsUsedAsItIs() throws Exception {
    TokenRecord record = signedInAt(System.currentTimeMillis());
    int before = server.journal().size();

    assertThat(uploadEntities("--auth-url", server.authUrl())).as(err.toString()).isZero();

    List<RecordedCall> calls = server.journal().snapshot();
    assertThat(calls.size() - before).isEqualTo(1);
    assertThat(calls.get(before).header("Authorization")).isEqualTo(record.accessToken());
    assertThat(new FileTokenStore(tokenFile).load()).isEqualTo(record);
  }

  @Test void a401GetsOneRefreshAndOneRetry() throws Exception {
    TokenRecord old = signedInAt(System.currentTimeMillis());
    server.faults().on(Endpoint.UPLOAD_ENTITIES, Fault.status(401).times(1));
    int before = server.journal().size();

    assertThat(uploadEntities("--auth-url", server.authUrl(), "--json")).as(err.toString()).isZero();

    List<RecordedCall> calls = server.journal().snapshot().subList(before, server.journal().size());
    assertThat(calls).hasSize(3);
    assertThat(calls.get(0).path()).endsWith("/tools/upload_entities");
    assertThat(calls.get(0).header("Authorization")).isEqualTo(old.accessToken());
    assertThat(calls.get(0).responseStatus()).isEqualTo(401);
    assertThat(calls.get(1).path()).endsWith("/oauth/ivs/token");
    assertThat(calls.get(1).body()).contains("\"refresh_token\":\"" + old.refreshToken() + "\"");
    assertThat(calls.get(2).path()).endsWith("/tools/upload_entities");
    assertThat(calls.get(2).responseStatus()).isEqualTo(200);
    TokenRecord saved = new FileTokenStore(tokenFile).load();
    assertThat(calls.get(2).header("Authorization")).isEqualTo(saved.accessToken())
        .isNotEqualTo(old.accessToken());
    assertThat(calls.get(2).body()).isEqualTo(calls.get(0).body());
    assertThat(out.toString()).isEqualTo("{\"sid\":\"" + uploadSid() + "\",\"token_refreshed\":true}"
        + System.lineSeparator());
    assertNoSecretPrinted();
  }

  @Test void aSecond401IsNotRetriedAgain() throws Exception {
    signedInAt(System.currentTimeMillis());
    server.faults().on(Endpoint.UPLOAD_ENTITIES, Fault.status(401).times(2));

    assertThat(uploadEntities("--auth-url", server.authUrl())).isEqualTo(ExitCodes.FAILURE);

    assertThat(server.journal().calls("/tools/upload_entities")).hasSize(2);
    assertThat(server.journal().calls("/oauth/ivs/token")).hasSize(2); // the device flow's, the refresh
    assertThat(err.toString()).isEqualTo("speaker-cli: failed: upload_entities failed with HTTP 401 and"
        + " no code" + System.lineSeparator());
    assertNoSecretPrinted();
  }

  @Test void aRefusedRefreshAsksForANewSignInAndUploadsNothing() throws Exception {
    long twoHoursAgo = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(2);
    TokenRecord old = signedInAt(twoHoursAgo, 3600);
    server.clock().advance(2, TimeUnit.HOURS);
    // Someone else refreshed with this record: its refresh token is spent.
    new FileTokenStore(new File(dir, "copy.json")).save(old);
    assertThat(SpeakerCli.run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
        "refresh", "--auth-url", server.authUrl(), "--token-file", new File(dir, "copy.json").getPath()))
        .isZero();

    assertThat(uploadEntities("--auth-url", server.authUrl()))
        .isEqualTo(ExitCodes.REAUTHORIZATION_REQUIRED);

    assertThat(err.toString()).isEqualTo("speaker-cli: re-authorization required, nothing was uploaded:"
        + " invalid_refresh_token: refresh_token is unknown or was already used; run 'speaker-cli login'"
        + " again" + System.lineSeparator());
    assertThat(server.journal().calls("/tools/upload_entities")).isEmpty();
    assertThat(new FileTokenStore(tokenFile).load()).as("the record is kept").isEqualTo(old);
  }

  /** A cloud record is got anew with cloud-token: login would replace it with a device sign-in. */
  @Test void aRefusedCloudRefreshOfAClientUploadPointsAtCloudToken() throws Exception {
    server = ReferenceServer.builder().build().start();
    tokenFile = new File(dir, "token.json");
    Files.write(tokenFile.toPath(), ("{\"version\":1,\"grant\":\"cloud\",\"client_id\":\""
        + DefaultConsole.CLIENT_ID + "\",\"token_type\":\"bearer\",\"access_token\":\"at-1\","
        + "\"refresh_token\":\"rt-unknown\",\"expires_in\":3600,\"created_at\":1763712000,"
        + "\"received_at_ms\":1763712000123}").getBytes(StandardCharsets.UTF_8)); // long expired

    assertThat(run(Arrays.asList("upload-entities", "--platform-url", server.platformUrl(), "--type",
        "client", "--resource-name", "OS123.contacts", "--file", records().getPath(), "--token-file",
        tokenFile.getPath(), "--auth-url", server.authUrl())))
        .isEqualTo(ExitCodes.REAUTHORIZATION_REQUIRED);

    assertThat(err.toString()).isEqualTo("speaker-cli: re-authorization required, nothing was uploaded:"
        + " invalid_refresh_token: refresh_token is unknown or was already used; run 'speaker-cli"
        + " cloud-token' again" + System.lineSeparator());
    assertThat(server.journal().calls("/tools/upload_entities")).isEmpty();
  }

  @Test void syncWithTheTokenFileUploadsForTheUserTheChannelNames() throws Exception {
    signedInAt(System.currentTimeMillis());

    assertThat(syncForTheSignedInUser()).as(err.toString()).isZero();

    String authId = testersAuthId();
    assertThat(uploadedPersParam()).isEqualTo("{\"auth_id\":\"" + authId + "\"}");
    assertThat(out.toString()).startsWith("the signed-in user's auth_id: " + authId
        + System.lineSeparator() + "uploaded OS123.contacts: sid psn");
    assertThat(server.awaitInteractionSessionsClosed(5, TimeUnit.SECONDS))
        .as("the channel that named the user is closed").isTrue();
    assertThat(err.toString()).isEmpty();
    assertNoSecretPrinted();
  }

  @Test void syncRefreshesAnExpiredTokenBeforeTheChannelIsAsked() throws Exception {
    TokenRecord old = signedInAt(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(2), 3600);
    server.clock().advance(2, TimeUnit.HOURS);
    int before = server.journal().size();

    assertThat(syncForTheSignedInUser("--auth-url", server.authUrl(), "--json"))
        .as(err.toString()).isZero();

    List<RecordedCall> calls = server.journal().snapshot();
    assertThat(calls.subList(before, calls.size())).satisfiesExactly(
        refresh -> assertThat(refresh.body()).isEqualTo("{\"grant_type\":\"refresh_token\","
            + "\"refresh_token\":\"" + old.refreshToken() + "\"}"),
        upgrade -> assertThat(upgrade.header("Authorization")).isEqualTo(lastIssuedAccessToken()),
        upload -> assertThat(upload.path()).endsWith("/entity/upload-resource"));
    assertThat(uploadedPersParam()).isEqualTo("{\"auth_id\":\"" + testersAuthId() + "\"}");
    assertThat(new FileTokenStore(tokenFile).load().accessToken()).isEqualTo(lastIssuedAccessToken());
    assertThat(out.toString()).startsWith("{\"sid\":\"psn");
    assertNoSecretPrinted();
  }
}
