package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.graphics.drawable.BitmapDrawable;
import android.os.Build;
import android.os.Looper;
import android.view.View;
import android.widget.Button;
import android.widget.ImageView;
import android.widget.TextView;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.fixtures.RecordingTokenStore;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.ByteString;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLog;
import org.robolectric.shadows.ShadowPausedLooper;

// Runs once per SDK level of robolectric.properties. The reference server runs in-process on loopback;
// the Activity talks to it over real HTTP, exactly as on a device.
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
public final class MainActivityTest {
  private static final long START = 1_700_000_000_000L;

  private final VirtualTime time = new VirtualTime(START);
  private ReferenceServer server;
  // The app's backend: it alone holds the account key and signs for the device.
  private final MockWebServer backend = new MockWebServer();
  private final List<RecordedRequest> signings = Collections.synchronizedList(new ArrayList<RecordedRequest>());
  private ActivityController<MainActivity> controller;
  private MainActivity activity;

  @Before
  public void startServer() throws Exception {
    server = ReferenceServer.builder().clock(ServerClock.manual(START)).build().start();
    backend.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) {
        signings.add(request);
        String body = request.getBody().clone().readUtf8();
        String nonce = body.replaceAll(".*\"nonce\":\"([^\"]*)\".*", "$1");
        String curTime = body.replaceAll(".*\"cur_time\":\"([^\"]*)\".*", "$1");
        String checksum = ByteString.encodeUtf8(DefaultConsole.ACCOUNT_KEY + nonce + curTime).md5().hex();
        return new MockResponse().setBody("{\"checksum\":\"" + checksum + "\"}");
      }
    });
    backend.start(InetAddress.getLoopbackAddress(), 0);
    MainActivity.clockOverride = time;
    MainActivity.schedulerOverride = time;
    // As in the debug APK (ApkIT checks its manifest): the config comes from the intent extra.
    RuntimeEnvironment.getApplication().getApplicationInfo().flags |= ApplicationInfo.FLAG_DEBUGGABLE;
    FakeAndroidKeyStore.install();
    SampleProcess.end();
  }

  @After
  public void stop() throws Exception {
    if (controller != null) controller.pause().stop().destroy();
    MainActivity.clockOverride = null;
    MainActivity.schedulerOverride = null;
    SampleProcess.end();
    FakeAndroidKeyStore.uninstall();
    backend.shutdown();
    try {
      server.close();
    } catch (IOException e) {
      // the Agent's socket close handshake may still be under way; nothing checked depends on it
    }
  }

  private static String logcat() {
    StringBuilder lines = new StringBuilder();
    for (ShadowLog.LogItem item : ShadowLog.getLogsForTag("VoiceLink")) lines.append(item.msg).append('\n');
    return lines.toString();
  }

  @Test
  public void authorizesShowsTheCodeAndLinkThenDrivesTheAgent() throws Exception {
    launch(config(server));
    assertThat(Build.VERSION.SDK_INT).isIn(21, 28, 35);
    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo(
        "Not authorized. Device SN-0001-DEMO at " + server.authUrl());
    assertThat(button(MainActivity.TAG_SYNC).isEnabled()).isFalse();

    click(MainActivity.TAG_AUTHORIZE);
    assertThat(button(MainActivity.TAG_AUTHORIZE).isEnabled()).as("one flow at a time").isFalse();
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");
    String userCode = text(MainActivity.TAG_USER_CODE);
    assertThat(text(MainActivity.TAG_LINK)).isEqualTo(server.verificationUri() + "?user_code=" + userCode);
    assertThat(eventLog()).contains("user code " + userCode + ", link " + server.verificationUri()
        + "?user_code=" + userCode);
    assertThat(view(MainActivity.TAG_QR).getVisibility()).isEqualTo(View.VISIBLE);
    assertThat(qrText()).as("the QR code on screen").isEqualTo(text(MainActivity.TAG_LINK));

    new SimulatedTester(server).approve(userCode);
    advanceToNextTask("the first poll");
    awaitUi(() -> eventLog().contains("EVENT_CONNECTED_TO_SERVER"), "the Agent to connect");
    assertThat(eventLog()).contains("\nauthorized\n");
    assertThat(text(MainActivity.TAG_USER_CODE)).isEmpty();
    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Connected");
    String connected = line("← EVENT_CONNECTED_TO_SERVER");
    assertThat(connected).matches("← EVENT_CONNECTED_TO_SERVER arg1=0 arg2=0 uid=[a-z0-9]{32}");
    String uid = connected.substring(connected.indexOf("uid=") + 4);

    List<RecordedCall> deviceCodes = server.journal().calls("/oauth/ivs/device_code");
    assertThat(deviceCodes).hasSize(1);
    assertThat(deviceCodes.get(0).body()).contains("client_id=vl-speaker-01", "scope=user_ivs_all");
    String accessToken = accessTokenIssued();
    // The SDK logs to Logcat by default: the app installs nothing for it.
    assertThat(logcat()).contains("[auth] device code issued: ", "[auth] device authorized after ")
        .doesNotContain(accessToken);
    List<RecordedCall> channel = server.journal().calls("/v2/voicelink/interact");
    assertThat(channel).hasSize(1);
    assertThat(channel.get(0).responseStatus()).isEqualTo(101);
    assertThat(channel.get(0).header("Authorization")).isEqualTo(accessToken);
    assertThat(button(MainActivity.TAG_QUERY).isEnabled()).as("nothing synced yet").isFalse();

    // CMD_SYNC: the contacts go to the web API, owned by the connected user
    click(MainActivity.TAG_SYNC);
    assertThat(eventLog()).contains("→ CMD_SYNC arg1=SYNC_DATA_SCHEMA params={\"tag\":\"contacts-1\"} data=");
    awaitUi(() -> eventLog().contains("← EVENT_CMD_RETURN arg1=CMD_SYNC"), "the sync's reply");
    String synced = line("← EVENT_CMD_RETURN arg1=CMD_SYNC");
    assertThat(synced).matches("← EVENT_CMD_RETURN arg1=CMD_SYNC arg2=0 sid=psn\\S+ sync_dtype=3 tag=contacts-1");
    String sid = synced.replaceAll(".* sid=(\\S+) .*", "$1");
    List<RecordedCall> uploads = server.journal().calls("/entity/upload-resource");
    assertThat(uploads).hasSize(1);
    Map<String, String> upload = form(uploads.get(0).body());
    assertThat(upload.get("res_name")).isEqualTo("OS123.contacts");
    assertThat(upload.get("appid")).isEqualTo(DefaultConsole.APPID);
    assertThat(upload.get("pers_param")).isEqualTo("{\"auth_id\":\"" + uid + "\"}");
    assertThat(ByteString.decodeBase64(upload.get("data")).utf8()).isEqualTo(
        "{\"name\":\"Zhang San\",\"alias\":\"Old Zhang\"}\n{\"name\":\"Li Si\",\"alias\":\"\"}\n"
        + "{\"name\":\"Wang Wu\",\"alias\":\"Xiao Wang\"}");
    assertThat(uploads.get(0).responseBody()).contains(sid);

    // CMD_QUERY_SYNC_STATUS: the Agent holds the check until 10 s after the upload
    int scheduled = time.scheduledCount();
    click(MainActivity.TAG_QUERY);
    assertThat(line("→ CMD_QUERY_SYNC_STATUS")).isEqualTo("→ CMD_QUERY_SYNC_STATUS arg1=SYNC_DATA_SCHEMA params={\"sid\":\"" + sid + "\"}");
    time.awaitScheduled(scheduled + 1);
    assertThat(server.journal().calls("/entity/check-resource")).as("not before 10 s").isEmpty();
    server.clock().advance(10, TimeUnit.SECONDS);
    time.advance(10, TimeUnit.SECONDS);
    awaitUi(() -> eventLog().contains("← EVENT_CMD_RETURN arg1=CMD_QUERY_SYNC_STATUS"), "the query's reply");
    assertThat(line("← EVENT_CMD_RETURN arg1=CMD_QUERY_SYNC_STATUS")).startsWith("← EVENT_CMD_RETURN arg1=CMD_QUERY_SYNC_STATUS arg2=0 result={")
        .contains("\"sid\":\"" + sid + "\"").contains("sync_dtype=4");
    List<RecordedCall> checks = server.journal().calls("/entity/check-resource");
    assertThat(checks).hasSize(1);
    assertThat(form(checks.get(0).body())).containsEntry("sid", sid);
    assertThat(checks.get(0).receivedAtMillis() - uploads.get(0).receivedAtMillis()).isEqualTo(10_000L);

    // CMD_SET_PARAMS: for later voice writes; no reply, and nothing goes over HTTP
    int calls = server.journal().size();
    click(MainActivity.TAG_SET_PARAMS);
    assertThat(line("→ CMD_SET_PARAMS")).isEqualTo(
        "→ CMD_SET_PARAMS params={\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}");
    assertThat(server.journal().size()).isEqualTo(calls);

    // CMD_WRITE (text) with pers_param, once the upload is in effect (5 minutes)
    server.clock().advance(5, TimeUnit.MINUTES);
    time.advance(5, TimeUnit.MINUTES);
    click(MainActivity.TAG_WRITE);
    assertThat(eventLog()).contains("→ CMD_WRITE params=data_type=text,pers_param={\"uid\":\"\"} data=14 bytes");
    awaitUi(() -> eventLog().contains("← EVENT_RESULT"), "the write's result");
    assertThat(line("← EVENT_RESULT")).contains("OS123.contacts", "Zhang San", "Old Zhang");
    assertThat(eventLog()).doesNotContain("EVENT_ERROR");
    assertThat(eventLog()).as("the screen never shows a token").doesNotContain(accessToken);

    // The backend signed each web API request for this device, and nothing else
    List<RecordedCall> webApi = new ArrayList<>(uploads);
    webApi.addAll(checks);
    assertThat(signings).hasSize(webApi.size());
    for (int i = 0; i < webApi.size(); i++) {
      RecordedRequest signing = signings.get(i);
      assertThat(signing.getPath()).isEqualTo("/sign");
      assertThat(signing.getHeader("Authorization")).isEqualTo(accessToken);
      assertThat(signing.getBody().clone().readUtf8()).isEqualTo("{\"nonce\":\"" + webApi.get(i).header("X-Nonce")
          + "\",\"cur_time\":\"" + webApi.get(i).header("X-CurTime") + "\"}");
    }
  }

  @Test
  public void staysSignedInAcrossARestartWithoutANewDeviceFlow() throws Exception {
    launch(config(server));
    signInAndConnect();
    String accessToken = accessTokenIssued();
    int tokenCalls = server.journal().count("/oauth/ivs/token");
    assertThat(button(MainActivity.TAG_SIGN_OUT).isEnabled()).isTrue();
    File saved = savedSignIn();
    assertThat(saved).as("the encrypted token record").isFile();
    assertThat(new String(Files.readAllBytes(saved.toPath()), StandardCharsets.ISO_8859_1))
        .doesNotContain(accessToken);

    restartProcess();

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Signed in (saved). Connecting…");
    assertThat(line("signed in from the saved token")).startsWith("signed in from the saved token, valid until ")
        .endsWith("; no new device flow").doesNotContain(accessToken);
    assertThat(button(MainActivity.TAG_AUTHORIZE).isEnabled()).isFalse();
    assertThat(button(MainActivity.TAG_SIGN_OUT).isEnabled()).isTrue();
    awaitUi(() -> eventLog().contains("EVENT_CONNECTED_TO_SERVER"), "the Agent to connect");
    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Connected");
    assertThat(server.journal().calls("/oauth/ivs/device_code")).as("no new device flow").hasSize(1);
    assertThat(server.journal().count("/oauth/ivs/token")).as("the saved token is still fresh").isEqualTo(tokenCalls);
    List<RecordedCall> channel = server.journal().calls("/v2/voicelink/interact");
    assertThat(channel).hasSize(2);
    assertThat(channel.get(1).responseStatus()).isEqualTo(101);
    assertThat(channel.get(1).header("Authorization")).isEqualTo(accessToken);
  }

  /**
   * Third-party accounts (protocol 5.1.3): with {@code sample.issuer} the sample signs the device in at that
   * standard OAuth 2.0 server (RFC 8628), and the Agent takes its token from the token manager of that
   * server. The server here answers with a token the reference server knows, as a manufacturer's
   * server would hand out one the platform accepts.
   */
  @Test
  public void signsInAtTheStandardServerOfTheConfigAndStaysSignedIn() throws Exception {
    String platformToken = platformAccessToken();
    int platformFlows = server.journal().count("/oauth/ivs/device_code");
    AtomicBoolean approved = new AtomicBoolean();
    List<RecordedRequest> oauth = Collections.synchronizedList(new ArrayList<RecordedRequest>());
    MockWebServer standard = new MockWebServer();
    standard.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) {
        oauth.add(request);
        String issuer = request.getRequestUrl().resolve("/realms/speakers").toString();
        switch (request.getPath()) {
          case "/realms/speakers/.well-known/openid-configuration":
            return json(200, "{\"issuer\":\"" + issuer + "\",\"device_authorization_endpoint\":\"" + issuer
                + "/device\",\"token_endpoint\":\"" + issuer + "/token\"}");
          case "/realms/speakers/device":
            return json(200, "{\"device_code\":\"dc-1\",\"user_code\":\"WDJB-MJHT\",\"verification_uri\":\""
                + issuer + "/activate\",\"verification_uri_complete\":\"" + issuer
                + "/activate?user_code=WDJB-MJHT\",\"expires_in\":300}");
          case "/realms/speakers/token":
            return approved.get() ? json(200, "{\"access_token\":\"" + platformToken + "\",\"token_type\":"
                + "\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"std-refresh-1\",\"scope\":\"openid profile\"}")
                : json(400, "{\"error\":\"authorization_pending\"}");
          default:
            return new MockResponse().setResponseCode(404);
        }
      }
    });
    standard.start(InetAddress.getLoopbackAddress(), 0);
    try {
      String issuer = standard.url("/realms/speakers").toString();
      launch(standardConfig(issuer));
      awaitUi(() -> button(MainActivity.TAG_AUTHORIZE).isEnabled(), "discovery");
      assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Not authorized. Sign in at " + issuer);

      click(MainActivity.TAG_AUTHORIZE);
      awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");
      assertThat(text(MainActivity.TAG_USER_CODE)).isEqualTo("WDJB-MJHT");
      assertThat(text(MainActivity.TAG_LINK)).as("verification_uri_complete")
          .isEqualTo(issuer + "/activate?user_code=WDJB-MJHT");
      assertThat(qrText()).isEqualTo(text(MainActivity.TAG_LINK));
      approved.set(true);
      advanceToNextTask("the first poll, after the default 5 s");
      awaitUi(() -> eventLog().contains("EVENT_CONNECTED_TO_SERVER"), "the Agent to connect");

      assertThat(oauth).extracting(RecordedRequest::getPath).containsExactly(
          "/realms/speakers/.well-known/openid-configuration", "/realms/speakers/device", "/realms/speakers/token");
      Map<String, String> authorization = new LinkedHashMap<>();
      authorization.put("client_id", "speaker-public");
      authorization.put("scope", "openid profile");
      assertThat(form(oauth.get(1).getBody().readUtf8())).isEqualTo(authorization);
      Map<String, String> poll = new LinkedHashMap<>();
      poll.put("grant_type", "urn:ietf:params:oauth:grant-type:device_code");
      poll.put("device_code", "dc-1");
      poll.put("client_id", "speaker-public");
      assertThat(form(oauth.get(2).getBody().readUtf8())).isEqualTo(poll);
      assertThat(server.journal().count("/oauth/ivs/device_code")).as("no platform sign-in").isEqualTo(platformFlows);
      List<RecordedCall> channel = server.journal().calls("/v2/voicelink/interact");
      assertThat(channel).hasSize(1);
      assertThat(channel.get(0).header("Authorization")).isEqualTo(platformToken);
      assertThat(eventLog()).doesNotContain(platformToken).doesNotContain("std-refresh-1");

      restartProcess(standardConfig(issuer));

      awaitUi(() -> eventLog().contains("EVENT_CONNECTED_TO_SERVER"), "the Agent to connect again");
      assertThat(line("signed in from the saved token")).endsWith("; no new device flow");
      assertThat(oauth).extracting(RecordedRequest::getPath).as("only the discovery again").containsExactly(
          "/realms/speakers/.well-known/openid-configuration", "/realms/speakers/device", "/realms/speakers/token",
          "/realms/speakers/.well-known/openid-configuration");
      assertThat(server.journal().calls("/v2/voicelink/interact")).hasSize(2);
    } finally {
      standard.shutdown();
    }
  }

  @Test
  public void signOutForgetsTheSavedSignIn() throws Exception {
    launch(config(server));
    signInAndConnect();

    click(MainActivity.TAG_SIGN_OUT);
    awaitUi(() -> eventLog().contains("signed out"), "the sign-in to be deleted");

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo(
        "Signed out. Device SN-0001-DEMO at " + server.authUrl());
    assertThat(eventLog()).contains("\nsigned out: the saved token is deleted");
    assertThat(button(MainActivity.TAG_AUTHORIZE).isEnabled()).isTrue();
    assertThat(button(MainActivity.TAG_SIGN_OUT).isEnabled()).isFalse();
    for (String command : new String[] {MainActivity.TAG_SYNC, MainActivity.TAG_QUERY,
        MainActivity.TAG_SET_PARAMS, MainActivity.TAG_WRITE}) {
      assertThat(button(command).isEnabled()).as(command).isFalse();
    }
    assertThat(savedSignIn()).doesNotExist();

    restartProcess();

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo(
        "Not authorized. Device SN-0001-DEMO at " + server.authUrl());
    assertThat(button(MainActivity.TAG_AUTHORIZE).isEnabled()).isTrue();
    assertThat(button(MainActivity.TAG_SIGN_OUT).isEnabled()).isFalse();
    time.runDueTasks();
    mainLooper().idle();
    assertThat(server.journal().calls("/v2/voicelink/interact")).as("no Agent without a sign-in").hasSize(1);
  }

  /**
   * Two stores made alike are one to the SDK: the token managers of either (this Activity's, a
   * Service's Agent's) hear each other's sign-in and sign-out.
   */
  @Test
  public void theSampleStoreIsTheSdksEncryptedStoreSoItsManagersHearEachOther() {
    android.content.Context app = RuntimeEnvironment.getApplication();
    assertThat(SampleProcess.encryptedStore(app))
        .isEqualTo(dev.voicelink.android.EncryptedTokenStore.create(app, "sample-sign-in"));
  }

  /**
   * The saved sign-in is read at start, saved by the sign-in, read again after a restart and cleared
   * by the sign-out, each time on an SDK thread: never on the main thread, which drives all of it
   * (RecordingTokenStore of voicelink-fixtures, in front of the sample's encrypted store). The SDK
   * runs on its own clock and scheduler here, as in the app: the virtual time of the other tests
   * runs the SDK's due tasks on the thread that moves it, this one.
   */
  @Test
  public void theSavedSignInIsNeverReadOrWrittenOnTheMainThread() throws Exception {
    MainActivity.clockOverride = null;
    MainActivity.schedulerOverride = null;
    server.close();
    server = ReferenceServer.builder().build().start();
    server.console().setPollIntervalSeconds(1);
    RecordingTokenStore store = new RecordingTokenStore(
        SampleProcess.encryptedStore(RuntimeEnvironment.getApplication()));
    SampleProcess.start(store);
    launch(config(server));
    click(MainActivity.TAG_AUTHORIZE);
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");
    new SimulatedTester(server).approve(text(MainActivity.TAG_USER_CODE));
    awaitUi(() -> eventLog().contains("EVENT_CONNECTED_TO_SERVER"), "the Agent to connect");
    controller.pause().stop().destroy();
    controller = null;
    SampleProcess.start(store); // a new process; the same store on disk
    launch(config(server));
    awaitUi(() -> eventLog().contains("EVENT_CONNECTED_TO_SERVER"), "the Agent to connect again");
    click(MainActivity.TAG_SIGN_OUT);
    awaitUi(() -> eventLog().contains("signed out"), "the sign-out");

    Thread main = Looper.getMainLooper().getThread();
    assertThat(Thread.currentThread()).isSameAs(main);
    assertThat(store.calls()).as("the store's calls").isNotEmpty()
        .extracting(RecordingTokenStore.Call::thread).doesNotContain(main);
    // A token request that comes while the sign-in is being saved may save it once more: one SAVE or two.
    List<RecordingTokenStore.Operation> operations = new ArrayList<>();
    for (RecordingTokenStore.Call call : store.calls()) {
      if (operations.isEmpty() || operations.get(operations.size() - 1) != call.operation()) {
        operations.add(call.operation());
      }
    }
    assertThat(operations).as("the store's calls " + store.calls()).containsExactly(
        RecordingTokenStore.Operation.LOAD, RecordingTokenStore.Operation.SAVE,
        RecordingTokenStore.Operation.LOAD, RecordingTokenStore.Operation.CLEAR);
    assertThat(savedSignIn()).doesNotExist();
  }

  @Test
  public void lostConnectionDisablesTheCommands() throws Exception {
    launch(config(server));
    click(MainActivity.TAG_AUTHORIZE);
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");
    new SimulatedTester(server).approve(text(MainActivity.TAG_USER_CODE));
    advanceToNextTask("the first poll");
    awaitUi(() -> button(MainActivity.TAG_SYNC).isEnabled(), "the Agent to connect");

    server.close(); // says goodbye to the channel's client (close frame 1001)
    awaitUi(() -> eventLog().contains("← EVENT_SERVER_DISCONNECTED"), "the disconnection");

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Disconnected");
    for (String command : new String[] {MainActivity.TAG_SYNC, MainActivity.TAG_QUERY,
        MainActivity.TAG_SET_PARAMS, MainActivity.TAG_WRITE}) {
      assertThat(button(command).isEnabled()).as(command).isFalse();
    }
  }

  @Test
  public void leavingTheActivityStopsTheDeviceFlow() throws Exception {
    launch(config(server));
    click(MainActivity.TAG_AUTHORIZE);
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");
    advanceToNextTask("the first poll");
    awaitUi(() -> server.journal().count("/oauth/ivs/token") >= 1, "the first poll");
    // While the poll is out, the task pending is its deadline; once the screen shows its answer, the
    // task pending is the wait before the next poll.
    awaitUi(() -> text(MainActivity.TAG_STATUS).contains("(poll 1: authorization_pending)")
        && !time.pendingDelaysMillis().isEmpty(), "the wait before the next poll");

    controller.pause().stop().destroy();
    controller = null;

    assertThat(time.pendingDelaysMillis()).as("the wait before the next poll is cancelled").isEmpty();
    int polls = server.journal().count("/oauth/ivs/token");
    time.advance(20, TimeUnit.SECONDS);
    mainLooper().idle();
    assertThat(server.journal().count("/oauth/ivs/token")).isEqualTo(polls);
  }

  @Test
  public void refusalIsShownAndAuthorizeCanBePressedAgain() throws Exception {
    launch(config(server));
    click(MainActivity.TAG_AUTHORIZE);
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");

    new SimulatedTester(server).refuse(text(MainActivity.TAG_USER_CODE));
    advanceToNextTask("the first poll");
    awaitUi(() -> button(MainActivity.TAG_AUTHORIZE).isEnabled(), "the flow to end");

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Not authorized: DENIED");
    assertThat(eventLog()).contains("authorization ended: DENIED");
    assertThat(server.journal().calls("/v2/voicelink/interact")).as("no Agent without a token").isEmpty();
  }

  @Test
  public void configWithoutAppidIsReportedAndNothingIsSent() {
    launch(config(server).replace("\"login\": {\"appid\": \"5f1a2b3c\"},\n", ""));

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo(
        "Config error: login.appid is missing from the config: it is required because dynamic entities"
            + " cannot take effect without the application id; add \"login\": {\"appid\": \"<your appid>\"}");
    assertThat(button(MainActivity.TAG_AUTHORIZE).isEnabled()).isFalse();
    assertThat(server.journal()).isEmpty();
  }

  @Test
  public void aBuildThatIsNotDebuggableIgnoresTheConfigExtra() {
    // The activity is exported: another app's config must not choose where the saved sign-in goes.
    RuntimeEnvironment.getApplication().getApplicationInfo().flags &= ~ApplicationInfo.FLAG_DEBUGGABLE;
    launch(config(server).replace("\"login\": {\"appid\": \"5f1a2b3c\"},\n", ""));

    // The asset was read instead of the extra (whose config lacks login.appid); these unit tests
    // package no assets, so reading it fails with the asset's name.
    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Config error: " + MainActivity.CONFIG_ASSET);
    assertThat(server.journal()).isEmpty();
  }

  private String config(ReferenceServer server) {
    return "// test config\n{\n"
        + "\"login\": {\"appid\": \"" + DefaultConsole.APPID + "\"},\n"
        + "\"server\": {\"auth_url\": \"" + server.authUrl() + "\", \"platform_url\": \"" + server.platformUrl()
        + "\", \"base_url\": \"" + server.baseUrl() + "\"},\n"
        + "\"auth\": {\"client_id\": \"" + DefaultConsole.CLIENT_ID + "\", \"device_id\": \""
        + DefaultConsole.DEVICE_ID + "\"},\n"
        + "\"entity\": {\"namespace\": \"" + DefaultConsole.NAMESPACE + "\"},\n"
        + "\"sample\": {\"contacts_resource\": \"" + DefaultConsole.CONTACTS + "\", \"checksum_url\": \""
        + backend.url("/sign") + "\"}\n}";
  }

  private String standardConfig(String issuer) {
    return "// test config: sign-in at a standard OAuth 2.0 server\n{\n"
        + "\"login\": {\"appid\": \"" + DefaultConsole.APPID + "\"},\n"
        + "\"server\": {\"platform_url\": \"" + server.platformUrl() + "\", \"base_url\": \"" + server.baseUrl()
        + "\"},\n"
        + "\"auth\": {\"client_id\": \"speaker-public\"},\n"
        + "\"entity\": {\"namespace\": \"" + DefaultConsole.NAMESPACE + "\"},\n"
        + "\"sample\": {\"contacts_resource\": \"" + DefaultConsole.CONTACTS + "\", \"checksum_url\": \""
        + backend.url("/sign") + "\", \"issuer\": \"" + issuer + "\", \"scope\": \"openid profile\"}\n}";
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
  }

  /** An access token the reference server issued to this device by the platform's device flow. */
  private String platformAccessToken() throws Exception {
    VoiceLinkClient auth = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time).scheduler(time)
        .callbackExecutor(Runnable::run).build();
    try {
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(auth).clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
      new SimulatedTester(server).approve(code.userCode());
      AtomicReference<CallResult<DeviceFlowOutcome>> ended = new AtomicReference<>();
      authorizer.poll(code).enqueue(ended::set);
      advanceToNextTask("the platform's poll");
      awaitUi(() -> ended.get() != null, "the platform's token");
      return ended.get().value().token().accessToken();
    } finally {
      auth.close();
    }
  }

  private void signInAndConnect() throws IOException {
    click(MainActivity.TAG_AUTHORIZE);
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");
    new SimulatedTester(server).approve(text(MainActivity.TAG_USER_CODE));
    advanceToNextTask("the first poll");
    awaitUi(() -> eventLog().contains("EVENT_CONNECTED_TO_SERVER"), "the Agent to connect");
  }

  /** Ends the Activity and the process's objects, as the system does, then launches again. */
  private void restartProcess() {
    restartProcess(config(server));
  }

  private void restartProcess(String config) {
    controller.pause().stop().destroy();
    controller = null;
    SampleProcess.end();
    launch(config);
  }

  private File savedSignIn() {
    return new File(activity.getNoBackupFilesDir(), "dev.voicelink.tokens.sample-sign-in");
  }

  private void launch(String config) {
    Intent intent = new Intent(Intent.ACTION_MAIN).putExtra(MainActivity.EXTRA_CONFIG, config);
    controller = Robolectric.buildActivity(MainActivity.class, intent).setup();
    activity = controller.get();
    // The saved sign-in is read off the main thread: its news reaches the screen through the looper.
    awaitUi(() -> !text(MainActivity.TAG_STATUS).equals("Reading the saved sign-in…"),
        "the saved sign-in to be read");
  }

  private String accessTokenIssued() {
    List<RecordedCall> polls = server.journal().calls("/oauth/ivs/token");
    String body = polls.get(polls.size() - 1).responseBody();
    assertThat(body).contains("access_token");
    return body.replaceAll(".*\"access_token\"\\s*:\\s*\"([^\"]+)\".*", "$1");
  }

  private static Map<String, String> form(String body) throws Exception {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      fields.put(URLDecoder.decode(pair.substring(0, eq), "UTF-8"), URLDecoder.decode(pair.substring(eq + 1), "UTF-8"));
    }
    return fields;
  }

  /** The last line of the event log that starts with {@code prefix}. */
  private String line(String prefix) {
    String found = null;
    for (String line : eventLog().split("\n")) {
      if (line.startsWith(prefix)) found = line;
    }
    assertThat(found).as("a line starting with " + prefix + " in\n" + eventLog()).isNotNull();
    return found;
  }

  private View view(String tag) {
    View view = activity.getWindow().getDecorView().findViewWithTag(tag);
    assertThat(view).as("view tagged " + tag).isNotNull();
    return view;
  }

  private String text(String tag) {
    return ((TextView) view(tag)).getText().toString();
  }

  private Button button(String tag) {
    return (Button) view(tag);
  }

  private String qrText() throws Exception {
    return QrCodesTest.decode(((BitmapDrawable) ((ImageView) view(MainActivity.TAG_QR)).getDrawable()).getBitmap());
  }

  private String eventLog() {
    return text(MainActivity.TAG_EVENT_LOG);
  }

  private void click(String tag) {
    assertThat(button(tag).isEnabled()).as(tag + " enabled").isTrue();
    assertThat(button(tag).performClick()).isTrue();
    mainLooper().idle();
  }

  // Work happens on SDK threads and reaches the UI through the main looper: run it, and what is due
  // on the virtual clock, until the condition holds; the clock does not move. Between rounds, wait for
  // the SDK threads' next post to the main looper, at most 10 ms so that a task they schedule on the
  // virtual clock runs too. A bound on real time only keeps a broken build from hanging.
  private void awaitUi(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      time.runDueTasks();
      mainLooper().idle();
      if (condition.getAsBoolean()) return;
      if (System.nanoTime() > deadline) fail("timed out waiting for " + what + "; event log:\n" + eventLog());
      mainLooper().poll(10);
    }
  }

  // One explicit step of the virtual clock (the server's clock stays: nothing here depends on its
  // time): once the SDK has scheduled its next task, such as the device flow's next poll after its
  // interval, move the clock to it, which runs it.
  private void advanceToNextTask(String what) {
    awaitUi(() -> !time.pendingDelaysMillis().isEmpty(), what + " to be scheduled");
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
  }

  private static ShadowPausedLooper mainLooper() {
    return Shadow.extract(Looper.getMainLooper());
  }
}
