package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.EntityDefinition;
import dev.voicelink.testing.Account;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.FormBody;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Against the reference server: device and server clocks start together and move together. */
class EntityReferenceServerTest {
  static final long START = 1_763_712_000_000L;
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";

  final VirtualTime time = new VirtualTime(START);
  ReferenceServer server;
  VoiceLinkClient config;
  EntityWebApi api;
  final ResourceDefinition contacts = ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
      .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
  final ResourceDefinition songs = ResourceDefinition.builder().name(DefaultConsole.SONGS)
      .mainField("name").secondaryFields("alias").dimension(Dimension.APPLICATION).build();

  @BeforeEach void setUp() throws IOException {
    server = ReferenceServer.builder().console(Console.defaults()).clock(ServerClock.manual(START))
        .build().start();
    config = VoiceLinkClient.builder().baseUrl(server.baseUrl()).platformUrl(server.platformUrl())
        .authUrl(server.authUrl()).clock(time).scheduler(time).build();
    api = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
        .accountKey(DefaultConsole.ACCOUNT_KEY).random(new EntityWebApiTest.CeilingRandom(3)).build();
  }

  @AfterEach void tearDown() throws IOException {
    server.close();
  }

  /** Moves both clocks, one second at a time, running the SDK's due checks on the way. */
  void advanceBoth(long seconds) {
    for (long i = 0; i < seconds; i++) {
      server.clock().advance(1, TimeUnit.SECONDS);
      time.advance(1, TimeUnit.SECONDS);
    }
  }

  UploadRequest contactsUpload() {
    return UploadRequest.builder().appid(DefaultConsole.APPID).definition(contacts)
        .persParam(PersParam.user(AUTH_ID))
        .records(RecordSource.fromText("\uFEFF{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n"
            + "{\"name\":\"Li Lei\",\"alias\":\"\"}\n"))
        .build();
  }

  @Test void uploadThenCheckFromTenSecondsUntilInEffect() throws Exception {
    UploadReceipt receipt = api.uploadResource(contactsUpload()).execute();
    assertThat(receipt.sid()).startsWith("psn");
    assertThat(receipt.inEffectAtMillis()).isEqualTo(START + 300_000);
    RecordedCall upload = server.journal().calls("/upload-resource").get(0);
    assertThat(upload.responseBody()).contains("\"code\":\"00000\"");
    assertThat(upload.header("X-CurTime")).isEqualTo(Long.toString(START / 1000));

    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).enqueue(EntityWebApiTest.collect(outcomes));
    advanceBoth(9);
    assertThat(server.journal().count("/check-resource")).isZero();
    advanceBoth(1);
    List<RecordedCall> checks = server.journal().calls("/check-resource");
    assertThat(checks).hasSize(1);
    assertThat(checks.get(0).receivedAtMillis()).isEqualTo(START + 10_000);
    assertThat(checks.get(0).responseBody()).contains("still processing");

    advanceBoth(400);
    assertThat(outcomes).hasSize(1);
    CheckResult result = (CheckResult) outcomes.get(0);
    assertThat(result.processed()).isTrue();
    assertThat(result.reply()).startsWith("in effect since");
    for (RecordedCall check : server.journal().calls("/check-resource")) {
      assertThat(check.receivedAtMillis() - START).isGreaterThanOrEqualTo(10_000);
    }
  }

  @Test void theWaitEndsWithinThirtySecondsOfTheInEffectTime() throws Exception {
    // The longest jitter every time (CeilingRandom): the latest the wait can end.
    UploadReceipt receipt = api.uploadResource(contactsUpload()).execute();
    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 6, TimeUnit.MINUTES).enqueue(EntityWebApiTest.collect(outcomes));

    advanceBoth(299);
    assertThat(outcomes).isEmpty();
    advanceBoth(31);
    assertThat(outcomes).hasSize(1);
    assertThat(((CheckResult) outcomes.get(0)).processed()).isTrue();
    List<RecordedCall> checks = server.journal().calls("/check-resource");
    long last = checks.get(checks.size() - 1).receivedAtMillis() - START;
    assertThat(last).isBetween(300_000L, 330_000L);
    assertThat(checks.get(checks.size() - 2).receivedAtMillis() - START).isLessThan(300_000L);
  }

  @Test void againstAServerTenTimesFasterTheWaitEndsAtTheThirdCheckAboutFortySecondsIn()
      throws Exception {
    // The standalone server's --clock-scale 10: its 5 minutes pass in 30 s of the device's time, but
    // the checks are spread over 5 minutes of the device's time, 290 s / 19 apart.
    UploadReceipt receipt = api.uploadResource(contactsUpload()).execute();
    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).enqueue(EntityWebApiTest.collect(outcomes));
    for (int second = 1; second <= 40; second++) {
      server.clock().advance(10, TimeUnit.SECONDS);
      time.advance(1, TimeUnit.SECONDS);
    }
    assertThat(outcomes).isEmpty();
    assertThat(server.journal().count("/check-resource")).isEqualTo(2); // at 10 s and 25.3 s
    server.clock().advance(10, TimeUnit.SECONDS);
    time.advance(1, TimeUnit.SECONDS);
    assertThat(server.journal().count("/check-resource")).isEqualTo(3); // at 40.5 s
    assertThat(outcomes).hasSize(1);
    assertThat(((CheckResult) outcomes.get(0)).processed()).isTrue();
  }

  @Test void deviceClockAnHourBehindUploadsAfterOneCorrectiveRetry() throws Exception {
    time.shiftWallClock(-TimeUnit.HOURS.toMillis(1));
    UploadReceipt receipt = api.uploadResource(contactsUpload()).execute();
    assertThat(receipt.sid()).startsWith("psn");
    List<RecordedCall> calls = server.journal().calls("/upload-resource");
    assertThat(calls).hasSize(2);
    assertThat(calls.get(0).responseBody()).contains("\"code\":\"10113\"");
    assertThat(calls.get(1).header("X-CurTime")).isEqualTo(Long.toString(START / 1000));
    assertThat(calls.get(1).header("X-Nonce")).isNotEqualTo(calls.get(0).header("X-Nonce"));
  }

  @Test void ipWhitelistRefusal() throws Exception {
    server.console().putAccount(Account.create(DefaultConsole.NAMESPACE,
        DefaultConsole.ACCOUNT_KEY, DefaultConsole.APPID)
        .withIpWhitelist(true, Collections.singletonList("203.0.113.7")));
    assertThatThrownBy(() -> api.uploadResource(contactsUpload()).execute())
        .isInstanceOf(IpNotWhitelistedException.class)
        .hasMessageStartingWith("IP not in whitelist: this device's public IP address is not on the"
            + " account's IP whitelist; add it to the whitelist in the console or turn the whitelist off"
            + " (20004: illegal IP: ");
  }

  @Test void permissionRefusalIsNotRetried() throws Exception {
    server.console().putAccount(Account.create(DefaultConsole.NAMESPACE,
        DefaultConsole.ACCOUNT_KEY, DefaultConsole.APPID).withDynamicEntityPermission(false));
    assertThatThrownBy(() -> api.uploadResource(contactsUpload()).execute())
        .isExactlyInstanceOf(WebApiException.class)
        .hasMessageStartingWith("10105: no permission: dynamic entities are not enabled for namespace OS123");
    assertThat(server.journal().count("/upload-resource")).isEqualTo(1);
  }

  @Test void wrongAccountKeyIsRefused() throws Exception {
    EntityWebApi wrong = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
        .accountKey("not-the-key").build();
    assertThatThrownBy(() -> wrong.checkResource("psn000000000000").execute())
        .isExactlyInstanceOf(WebApiException.class)
        .hasMessageStartingWith("10105: illegal access: X-CheckSum does not match");
    RecordedCall call = server.journal().calls("/check-resource").get(0);
    assertThat(call.header("X-CheckSum")).isNotEmpty();
  }

  @Test void backendChecksumSourceKeepsTheKeyOffTheDevice() throws Exception {
    List<String> askedBackend = new ArrayList<>();
    // Stands in for the app's backend: only it knows the account key.
    ChecksumSigner.ChecksumSource backend = (nonce, curTime) -> {
      askedBackend.add(nonce + "/" + curTime);
      return ByteString.encodeUtf8(DefaultConsole.ACCOUNT_KEY + nonce + curTime).md5().hex();
    };
    EntityWebApi keyless = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
        .checksumSource(backend).build();

    UploadReceipt receipt = keyless.uploadResource(contactsUpload()).execute();

    assertThat(receipt.sid()).startsWith("psn");
    RecordedCall upload = server.journal().calls("/upload-resource").get(0);
    assertThat(askedBackend).containsExactly(upload.header("X-Nonce") + "/" + upload.header("X-CurTime"));
    assertThat(keyless.toString()).doesNotContain(DefaultConsole.ACCOUNT_KEY);
  }

  @Test void checksumSourceAnsweringNonsenseSendsNothing() {
    EntityWebApi broken = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
        .checksumSource((nonce, curTime) -> "<html>login</html>").build();
    assertThatThrownBy(() -> broken.checkResource("psn000000000000").execute())
        .isInstanceOf(java.io.IOException.class)
        .hasMessage("the checksum source answered 18 characters; expected 32 lowercase hex digits");
    assertThat(server.journal().calls("/check-resource")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0123456789ABCDEF0123456789abcdef", "0123456789abcdef0123456789abcdeg",
      "0123456789abcdef 123456789abcdef", "0123456789abcdef0123456789abcdef0"})
  void checksumSourceAnsweringAlmostAChecksumSendsNothing(String answer) {
    EntityWebApi broken = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
        .checksumSource((nonce, curTime) -> answer).build();
    assertThatThrownBy(() -> broken.checkResource("psn000000000000").execute())
        .isInstanceOf(java.io.IOException.class)
        .hasMessage("the checksum source answered " + answer.length()
            + " characters; expected 32 lowercase hex digits");
    assertThat(server.journal().calls("/check-resource")).isEmpty();
  }

  // --- platform tools upload: each token kind, and the wrong one

  @Test void userUploadWithTheUserToken() throws Exception {
    String sid = tools(deviceFlowToken(), null).uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"张三\",\"alias\":\"\"}"), null).execute();
    assertThat(sid).isNotEmpty();
    RecordedCall call = server.journal().calls("/upload_entities").get(0);
    assertThat(call.responseStatus()).isEqualTo(200);
    assertThat(call.header("Content-Type")).isEqualTo("application/json");
    assertThat(call.body()).isEqualTo("{\"type\":\"user\",\"resource_name\":\"OS123.contacts\","
        + "\"data\":[{\"name\":\"张三\",\"alias\":\"\"}]}");
  }

  @Test void deviceUploadWithTheDeviceToken() throws Exception {
    server.console().putEntity(EntityDefinition.create("OS123.rooms", "name",
        Collections.singletonList("alias"), EntityDefinition.DEVICE));
    ResourceDefinition rooms = ResourceDefinition.builder().name("OS123.rooms").mainField("name")
        .secondaryFields("alias").dimension(Dimension.DEVICE).build();
    String token = deviceFlowToken();
    PlatformToolsClient tools = PlatformToolsClient.builder(config).deviceTokens(() -> token).build();
    assertThat(tools.uploadEntities(rooms, RecordSource.fromText("{\"name\":\"kitchen\",\"alias\":\"\"}"),
        null).execute()).isNotEmpty();
    assertThat(server.journal().calls("/upload_entities").get(0).header("Authorization"))
        .isEqualTo(token);
  }

  @Test void clientUploadWithTheCloudToken() throws Exception {
    String cloud = cloudToken();
    String sid = tools(null, cloud).uploadEntities(songs,
        RecordSource.fromText("{\"name\":\"Yesterday\",\"alias\":\"\"}"), DefaultConsole.APPID)
        .execute();
    assertThat(sid).isNotEmpty();
    RecordedCall call = server.journal().calls("/upload_entities").get(0);
    assertThat(call.header("Authorization")).isEqualTo(cloud);
    assertThat(call.body()).endsWith(",\"appid\":\"5f1a2b3c\"}");
  }

  @Test void clientUploadWithAUserTokenIsRefused() throws Exception {
    String userToken = deviceFlowToken();
    PlatformToolsClient misconfigured = PlatformToolsClient.builder(config)
        .cloudTokens(() -> userToken).build();
    assertThatThrownBy(() -> misconfigured.uploadEntities(songs,
        RecordSource.fromText("{\"name\":\"Yesterday\",\"alias\":\"\"}"), null).execute())
        .isInstanceOfSatisfying(PlatformUploadException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(400);
          assertThat(e.code()).isEqualTo("40301");
          assertThat(e.sid()).isNotEmpty();
        })
        .hasMessageContaining("type client needs a cloud token (client credentials)");
  }

  PlatformToolsClient tools(String userToken, String cloudToken) {
    PlatformToolsClient.Builder builder = PlatformToolsClient.builder(config);
    if (userToken != null) builder.userTokens(fixed(userToken));
    if (cloudToken != null) builder.cloudTokens(fixed(cloudToken));
    return builder.build();
  }

  static TokenSource fixed(String token) {
    return () -> token;
  }

  // The token manager is another feature; these two helpers speak the auth endpoints directly.
  private final OkHttpClient http = new OkHttpClient();
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  String deviceFlowToken() throws IOException {
    Map<String, Object> code = post(new Request.Builder().url(server.authUrl() + "/oauth/ivs/device_code")
        .post(new FormBody.Builder().add("client_id", DefaultConsole.CLIENT_ID)
            .add("scope", "user_ivs_all")
            .add("scope_data", "{\"user_ivs_all\":{\"device_id\":\"" + DefaultConsole.DEVICE_ID + "\"}}")
            .build()).build());
    new SimulatedTester(server).approve((String) code.get("user_code"));
    Map<String, Object> token = post(new Request.Builder().url(server.authUrl() + "/oauth/ivs/token")
        .post(RequestBody.create("{\"client_id\":\"" + DefaultConsole.CLIENT_ID + "\",\"grant_type\":"
            + "\"urn:ietf:params:oauth:grant-type:device_code\",\"device_code\":\""
            + code.get("device_code") + "\"}", JSON)).build());
    return (String) token.get("access_token");
  }

  String cloudToken() throws IOException {
    Map<String, Object> token = post(new Request.Builder().url(server.authUrl() + "/oauth/token")
        .post(RequestBody.create("{\"client_id\":\"" + DefaultConsole.CLIENT_ID + "\",\"client_secret\":\""
            + DefaultConsole.CLIENT_SECRET + "\",\"grant_type\":\"client_credentials\"}", JSON)).build());
    return (String) token.get("access_token");
  }

  private Map<String, Object> post(Request request) throws IOException {
    try (Response response = http.newCall(request).execute()) {
      String body = response.body().string();
      Map<String, Object> map = new Moshi.Builder().build().<Map<String, Object>>adapter(
          Types.newParameterizedType(Map.class, String.class, Object.class)).fromJson(body);
      assertThat(map).as(body).isNotNull();
      return map;
    }
  }

  @Test void signedHeadersReachTheServer() throws Exception {
    api.uploadResource(contactsUpload()).execute();
    RecordedCall call = server.journal().calls("/upload-resource").get(0);
    assertThat(call.header("X-NameSpace")).isEqualTo("OS123");
    assertThat(call.header("X-CheckSum")).isEqualTo(okio.ByteString.encodeUtf8(
        DefaultConsole.ACCOUNT_KEY + call.header("X-Nonce") + call.header("X-CurTime")).md5().hex());
  }
}
