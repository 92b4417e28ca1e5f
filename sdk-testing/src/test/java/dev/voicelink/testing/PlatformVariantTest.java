package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each {@link PlatformVariant} on the wire: the answer it changes, and only that. */
class PlatformVariantTest {
  private static final long T0 = AuthFlowTest.T0;

  private final ServerClock clock = ServerClock.manual(T0);
  private ReferenceServer server;
  private Platform platform;

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(clock).build().start();
    platform = new Platform(server);
  }

  @AfterEach void stop() throws IOException {
    server.close();
  }

  private void on(PlatformVariant variant) {
    server.console().setVariant(variant, true);
  }

  private Map<String, Object> deviceCode() throws IOException {
    return Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id",
        DefaultConsole.CLIENT_ID, "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).json();
  }

  private Wire.Answer refresh(Object refreshToken) throws IOException {
    return Wire.postJson(server.authUrl() + "/oauth/ivs/token",
        "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + refreshToken + "\"}");
  }

  @Test void intervalInMilliseconds() throws IOException {
    on(PlatformVariant.INTERVAL_MILLIS);
    Map<String, Object> dc = deviceCode();
    assertThat(dc.get("interval")).isEqualTo(2000.0);
    assertThat(dc.get("expires_in")).isEqualTo(120.0);
  }

  @Test void noIntervalWinsOverEveryUnit() throws IOException {
    on(PlatformVariant.NO_INTERVAL);
    on(PlatformVariant.INTERVAL_MILLIS);
    on(PlatformVariant.FRACTIONAL_INTERVAL);
    assertThat(deviceCode()).containsOnlyKeys("verification_uri", "user_code", "expires_in",
        "device_code");
  }

  @Test void withoutAnIntervalSlowDownHoldsTheDeviceToRfc8628sFiveSeconds() throws IOException {
    on(PlatformVariant.NO_INTERVAL);
    server.console().setSlowDown(true);
    server.console().setPollIntervalSeconds(10); // not what the device was told: it was told nothing
    Object deviceCode = deviceCode().get("device_code");
    assertThat(poll(deviceCode).get("error")).isEqualTo("authorization_pending");
    clock.advance(5, TimeUnit.SECONDS);
    assertThat(poll(deviceCode).get("error")).as("5 s later").isEqualTo("authorization_pending");
    clock.advance(4, TimeUnit.SECONDS);
    assertThat(poll(deviceCode).get("error")).as("sooner").isEqualTo("slow_down");
  }

  private Map<String, Object> poll(Object deviceCode) throws IOException {
    return pollAnswer(deviceCode).json();
  }

  private Wire.Answer pollAnswer(Object deviceCode) throws IOException {
    return Wire.postJson(server.authUrl() + "/oauth/ivs/token", "{\"client_id\":\""
        + DefaultConsole.CLIENT_ID + "\",\"grant_type\":\"" + AuthService.DEVICE_CODE_GRANT
        + "\",\"device_code\":\"" + deviceCode + "\"}");
  }

  @Test void zeroIntervalInEveryUnitAndTheDeviceHeldToFiveSeconds() throws IOException {
    on(PlatformVariant.ZERO_INTERVAL);
    on(PlatformVariant.INTERVAL_MILLIS);
    on(PlatformVariant.FRACTIONAL_INTERVAL);
    Wire.Answer code = Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id",
        DefaultConsole.CLIENT_ID, "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA);
    assertThat(code.body).contains("\"interval\":0,");
    server.console().setSlowDown(true);
    server.console().setPollIntervalSeconds(10); // the device was told 0, which means 5 s
    Object deviceCode = code.json().get("device_code");
    assertThat(poll(deviceCode).get("error")).isEqualTo("authorization_pending");
    clock.advance(5, TimeUnit.SECONDS);
    assertThat(poll(deviceCode).get("error")).as("5 s later").isEqualTo("authorization_pending");
    clock.advance(4, TimeUnit.SECONDS);
    assertThat(poll(deviceCode).get("error")).as("sooner").isEqualTo("slow_down");

    on(PlatformVariant.NUMBERS_AS_TEXT);
    assertThat(deviceCode().get("interval")).isEqualTo("0");
    on(PlatformVariant.NO_INTERVAL);
    assertThat(deviceCode()).as("no interval wins").doesNotContainKey("interval");
  }

  @Test void fractionalIntervalHalfASecondMoreUnlessInMilliseconds() throws IOException {
    on(PlatformVariant.FRACTIONAL_INTERVAL);
    assertThat(deviceCode().get("interval")).isEqualTo(2.5);
    on(PlatformVariant.NUMBERS_AS_TEXT);
    assertThat(deviceCode().get("interval")).isEqualTo("2.5");
    on(PlatformVariant.INTERVAL_MILLIS);
    assertThat(deviceCode().get("interval")).isEqualTo("2000");
  }

  @Test void aFractionalIntervalIsTheOneSlowDownHoldsTheDeviceTo() throws IOException {
    on(PlatformVariant.FRACTIONAL_INTERVAL);
    server.console().setSlowDown(true);
    Object deviceCode = deviceCode().get("device_code"); // interval 2.5
    assertThat(poll(deviceCode).get("error")).isEqualTo("authorization_pending");
    clock.advance(2500, TimeUnit.MILLISECONDS);
    assertThat(poll(deviceCode).get("error")).as("2.5 s later").isEqualTo("authorization_pending");
    clock.advance(2000, TimeUnit.MILLISECONDS);
    Map<String, Object> truncated = poll(deviceCode);
    assertThat(truncated.get("error")).as("2 s later, the interval truncated").isEqualTo("slow_down");
    assertThat(truncated.get("message")).isEqualTo("poll no faster than every 7.5 s");
  }

  @Test void createdAtInMillisecondsAndHugeExpiresIn() throws IOException {
    on(PlatformVariant.CREATED_AT_MILLIS);
    on(PlatformVariant.HUGE_EXPIRES_IN);
    Map<String, Object> token = platform.cloudToken();
    assertThat(token.get("created_at")).isEqualTo((double) T0);
    assertThat(token.get("expires_in")).isEqualTo(8_640_000_000.0);
  }

  @Test void fractionalCreatedAtToTheMillisecondUnlessInMilliseconds() throws IOException {
    on(PlatformVariant.FRACTIONAL_CREATED_AT);
    clock.advance(250, TimeUnit.MILLISECONDS);
    assertThat(platform.cloudTokenAnswer().body).contains("\"created_at\":" + T0 / 1000 + ".250}");
    clock.advance(750, TimeUnit.MILLISECONDS);
    Map<String, Object> device = platform.deviceToken();
    assertThat(refresh(device.get("refresh_token")).body).as("three decimals on a whole second too")
        .contains("\"created_at\":" + (T0 / 1000 + 1) + ".000}");
    on(PlatformVariant.EXTRA_FIELDS); // the fields added keep the numbers as they were written
    assertThat(platform.cloudTokenAnswer().body).contains("\"created_at\":" + (T0 / 1000 + 1) + ".000,");
    clock.advance(250, TimeUnit.MILLISECONDS);
    assertThat(platform.cloudTokenAnswer().body).contains("\"created_at\":" + (T0 / 1000 + 1) + ".250,");
    on(PlatformVariant.NUMBERS_AS_TEXT);
    assertThat(platform.cloudToken().get("created_at")).isEqualTo((T0 / 1000 + 1) + ".250");
    on(PlatformVariant.CREATED_AT_MILLIS);
    assertThat(platform.cloudToken().get("created_at")).isEqualTo(Long.toString(T0 + 1250));
  }

  @Test void noExpiresInInAnyTokenAnswerWhileTheTokensLiveAsTheConsoleSays() throws IOException {
    on(PlatformVariant.NO_EXPIRES_IN);
    on(PlatformVariant.HUGE_EXPIRES_IN); // no expires_in wins
    Map<String, Object> device = platform.deviceToken();
    assertThat(device).containsOnlyKeys("token_type", "access_token", "refresh_token", "created_at");
    assertThat(refresh(device.get("refresh_token")).json())
        .containsOnlyKeys("token_type", "access_token", "refresh_token", "created_at");
    Map<String, Object> cloud = platform.cloudToken();
    assertThat(cloud).containsOnlyKeys("token_type", "access_token", "refresh_token", "created_at");

    clock.advance(server.console().getAccessTokenLifetimeSeconds() - 1, TimeUnit.SECONDS);
    assertThat(uploadSongs(cloud).status).as("valid until the console's lifetime ends").isEqualTo(200);
    clock.advance(1, TimeUnit.SECONDS);
    Wire.Answer expired = uploadSongs(cloud);
    assertThat(expired.status).as("and no longer").isEqualTo(400);
    assertThat(expired.json().get("message")).isEqualTo("the token is unknown or has expired");
  }

  private Wire.Answer uploadSongs(Map<String, Object> token) throws IOException {
    return Wire.call(new Request.Builder().url(server.platformUrl() + "/tools/upload_entities")
        .header("Authorization", (String) token.get("access_token"))
        .post(okhttp3.RequestBody.create("{\"type\":\"client\",\"resource_name\":\"" + DefaultConsole.SONGS
            + "\",\"data\":[{\"name\":\"Maps\",\"alias\":\"\"}]}", Wire.JSON)).build());
  }

  @Test void fractionalExpiresInHalfASecondShortUnlessInMilliseconds() throws IOException {
    on(PlatformVariant.FRACTIONAL_EXPIRES_IN);
    assertThat(platform.cloudTokenAnswer().body).contains("\"expires_in\":8639999.5,");
    Map<String, Object> device = platform.deviceToken();
    assertThat(device.get("expires_in")).isEqualTo(8_639_999.5);
    assertThat(refresh(device.get("refresh_token")).json().get("expires_in")).isEqualTo(8_639_999.5);
    server.console().setAccessTokenLifetimeSeconds(20_000_000);
    assertThat(platform.cloudTokenAnswer().body).as("in plain digits, as a server writes it, never 1.99999995E7")
        .contains("\"expires_in\":19999999.5,");
    on(PlatformVariant.NUMBERS_AS_TEXT);
    assertThat(platform.cloudToken().get("expires_in")).isEqualTo("19999999.5");
    on(PlatformVariant.HUGE_EXPIRES_IN);
    assertThat(platform.cloudToken().get("expires_in")).isEqualTo("20000000000");
  }

  @Test void noTokenTypeInAnyTokenAnswer() throws IOException {
    on(PlatformVariant.NO_TOKEN_TYPE);
    Map<String, Object> device = platform.deviceToken();
    assertThat(device).containsOnlyKeys("access_token", "refresh_token", "expires_in", "created_at");
    assertThat(refresh(device.get("refresh_token")).json())
        .containsOnlyKeys("access_token", "refresh_token", "expires_in", "created_at");
    assertThat(platform.cloudToken())
        .containsOnlyKeys("access_token", "refresh_token", "expires_in", "created_at");
  }

  @Test void tokenTypeCapitalisedInEveryTokenAnswerUnlessLeftOut() throws IOException {
    on(PlatformVariant.TOKEN_TYPE_CAPITALISED);
    Map<String, Object> device = platform.deviceToken();
    assertThat(device).containsEntry("token_type", "Bearer");
    assertThat(refresh(device.get("refresh_token")).json()).containsEntry("token_type", "Bearer");
    assertThat(platform.cloudToken()).containsEntry("token_type", "Bearer");
    on(PlatformVariant.NO_TOKEN_TYPE);
    assertThat(platform.cloudToken()).doesNotContainKey("token_type");
  }

  @Test void noRotationOmitsTheRefreshTokenAndKeepsTheOldOneWorking() throws IOException {
    on(PlatformVariant.NO_REFRESH_ROTATION);
    Map<String, Object> token = platform.deviceToken();
    Object refreshToken = token.get("refresh_token");
    assertThat(refreshToken).as("a new grant has one").isNotNull();

    Map<String, Object> first = refresh(refreshToken).json();
    Map<String, Object> second = refresh(refreshToken).json();
    assertThat(first).containsOnlyKeys("token_type", "access_token", "expires_in", "created_at");
    assertThat(second.get("access_token")).isNotEqualTo(first.get("access_token"))
        .isNotEqualTo(token.get("access_token"));
  }

  @Test void successCodeZero() throws IOException {
    on(PlatformVariant.SUCCESS_CODE_ZERO);
    Wire.Answer upload = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID
        + "\"}", "{\"name\":\"Maps\",\"alias\":\"\"}");
    assertThat(upload.json()).containsEntry("code", "0");
    Object sid = Platform.data(upload).get("sid");
    assertThat(platform.checkResource((String) sid).json()).containsEntry("code", "0");
    assertThat(platform.checkResource("psn000").json()).as("refusals keep their code")
        .containsEntry("code", "31405");
  }

  @Test void successCodeNumeric() throws IOException {
    on(PlatformVariant.SUCCESS_CODE_NUMERIC);
    on(PlatformVariant.SUCCESS_CODE_ZERO); // the number wins
    Wire.Answer upload = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID
        + "\"}", "{\"name\":\"Maps\",\"alias\":\"\"}");
    assertThat(upload.body).startsWith("{\"code\":0,\"data\":{");
    Object sid = Platform.data(upload).get("sid");
    assertThat(platform.checkResource((String) sid).body).startsWith("{\"code\":0,");
    assertThat(platform.checkResource("psn000").json()).as("refusals keep their code")
        .containsEntry("code", "31405");
  }

  @Test void webApiRefusalsWithHttp400AndSuccessesWith200() throws IOException {
    on(PlatformVariant.WEB_API_REFUSALS_HTTP_400);
    assertThat(uploadCheckUnknownAndSendABadSignature()).containsExactly(200, 400, 400);
  }

  /**
   * The statuses of a successful upload, a check of an unknown sid and a request signed with the wrong
   * key; their bodies are the reference reading's whatever the status.
   */
  private List<Integer> uploadCheckUnknownAndSendABadSignature() throws IOException {
    Wire.Answer upload = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID
        + "\"}", "{\"name\":\"Maps\",\"alias\":\"\"}");
    assertThat(upload.json()).containsEntry("code", "00000");
    Wire.Answer unknown = platform.checkResource("psn000");
    assertThat(unknown.body).startsWith("{\"code\":\"31405\",\"data\":null,\"desc\":\"no upload with sid"
        + " psn000 in namespace OS123\",\"sid\":\"");
    Wire.Answer unsigned = Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "n0nce",
        platform.curTime(), "not-the-account-key").post(Wire.form("sid", "psn000")).build());
    assertThat(unsigned.json()).containsEntry("code", "10105");
    return Arrays.asList(upload.status, unknown.status, unsigned.status);
  }

  @Test void webApiRefusalsWithAStatusByKind() throws IOException {
    on(PlatformVariant.WEB_API_REFUSALS_BY_KIND);
    on(PlatformVariant.WEB_API_REFUSALS_HTTP_400); // the status by kind wins
    assertThat(uploadCheckUnknownAndSendABadSignature()).as("success, unknown sid, refused signature")
        .containsExactly(200, 404, 401);
    Wire.Answer stale = Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "n0nce2",
        "1000", DefaultConsole.ACCOUNT_KEY).post(Wire.form("sid", "psn000")).build());
    assertThat(stale.status).as("a refused time").isEqualTo(401);
    assertThat(stale.json()).containsEntry("code", "10113");
    Wire.Answer malformed = platform.checkResource("sid1");
    assertThat(malformed.status).as("the rest").isEqualTo(400);
    assertThat(malformed.json()).containsEntry("code", "10107");
    String userPers = "{\"auth_id\":\"0123456789abcdef0123456789abcdef\"}";
    String record = "{\"name\":\"Maps\",\"alias\":\"\"}";
    Wire.Answer foreign = platform.upload("OS777.contacts", userPers, record);
    assertThat(foreign.status).as("a namespace that is not the account's").isEqualTo(404);
    assertThat(foreign.json()).containsEntry("code", "31402");
    Wire.Answer nothing = platform.upload(DefaultConsole.NAMESPACE + ".nothing", userPers, record);
    assertThat(nothing.status).as("an unknown resource").isEqualTo(404);
    assertThat(nothing.json()).containsEntry("code", "31403");
    Account account = server.console().account(DefaultConsole.NAMESPACE);
    server.console().putAccount(account.withDynamicEntityPermission(false));
    Wire.Answer forbidden = platform.checkResource("psn000");
    assertThat(forbidden.status).as("no dynamic-entity permission").isEqualTo(401);
    assertThat(forbidden.json()).containsEntry("code", "10105");
    server.console().putAccount(account.withIpWhitelist(true, Collections.singletonList("203.0.113.9")));
    Wire.Answer whitelisted = platform.checkResource("psn000");
    assertThat(whitelisted.status).as("an address not on the whitelist").isEqualTo(403);
    assertThat(whitelisted.json()).containsEntry("code", "20004");
  }

  @Test void refusalCodesAsJsonNumbers() throws IOException {
    on(PlatformVariant.REFUSAL_CODES_NUMERIC);
    Wire.Answer unknown = platform.checkResource("psn000");
    assertThat(unknown.status).isEqualTo(200);
    assertThat(unknown.body).startsWith("{\"code\":31405,\"data\":null,");
    Wire.Answer stale = Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "n0nce",
        "1000", DefaultConsole.ACCOUNT_KEY).post(Wire.form("sid", "psn000")).build());
    assertThat(stale.body).startsWith("{\"code\":10113,");
    Wire.Answer upload = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID
        + "\"}", "{\"name\":\"Maps\",\"alias\":\"\"}");
    assertThat(upload.json()).as("success keeps its code").containsEntry("code", "00000");
  }

  @Test void extraFieldsInEveryAnswerAndMessage() throws Exception {
    on(PlatformVariant.EXTRA_FIELDS);
    Wire.Answer code = Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id",
        DefaultConsole.CLIENT_ID, "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA);
    assertThat(code.json()).containsKeys("x_request_id", "x_server", "device_code");
    // only fields are added: the numbers stay whole numbers on the wire
    assertThat(code.body).contains("\"interval\":2,").contains("\"expires_in\":120,")
        .contains("\"build\":7,");
    Map<String, Object> token = platform.deviceToken();
    assertThat(token).containsKeys("x_request_id", "x_server", "access_token");
    assertThat(refresh("rt_unknown").json()).containsKeys("x_request_id", "error");
    Wire.Answer upload = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID
        + "\"}", "{\"name\":\"Maps\",\"alias\":\"\"}");
    assertThat(upload.json()).containsKeys("x_request_id", "code", "data", "desc", "sid");
    assertThat(Platform.data(upload)).containsKeys("x_trace", "sid", "csid");

    BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    OkHttpClient client = new OkHttpClient();
    WebSocket socket = client.newWebSocket(new Request.Builder()
        .url(server.baseUrl() + "/v2/voicelink/interact")
        .header("Authorization", (String) token.get("access_token")).build(),
        new WebSocketListener() {
          @Override public void onMessage(WebSocket webSocket, String text) {
            messages.add(text);
          }
        });
    try {
      String connected = messages.poll(5, TimeUnit.SECONDS);
      assertThat(Json.parseObject(connected)).containsKeys("x_request_id", "type", "uid")
          .containsEntry("type", "connected");
    } finally {
      socket.close(1000, null);
      client.dispatcher().executorService().shutdown();
    }
  }

  @Test void authErrorStatuses() throws IOException {
    assertThat(refresh("rt_unknown").status).as("the reference reading").isEqualTo(400);
    on(PlatformVariant.AUTH_ERRORS_HTTP_200);
    Wire.Answer ok = refresh("rt_unknown");
    assertThat(ok.status).isEqualTo(200);
    assertThat(ok.json()).containsEntry("error", "invalid_refresh_token");
    assertThat(Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id", "nobody",
        "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).status).isEqualTo(200);

    assertThatThrownBy(() -> on(PlatformVariant.AUTH_ERRORS_HTTP_401))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth-errors-401 and auth-errors-200 cannot both be on");
    server.console().setVariant(PlatformVariant.AUTH_ERRORS_HTTP_200, false);
    on(PlatformVariant.AUTH_ERRORS_HTTP_401);
    assertThat(refresh("rt_unknown").status).isEqualTo(401);
    assertThat(Wire.postJson(server.authUrl() + "/oauth/token", "{\"grant_type\":\"client_credentials\","
        + "\"client_id\":\"" + DefaultConsole.CLIENT_ID + "\",\"client_secret\":\"wrong\"}").status)
        .isEqualTo(401);
    assertThat(platform.cloudToken()).as("success stays 200").containsKey("access_token");

    assertThatThrownBy(() -> on(PlatformVariant.AUTH_ERRORS_HTTP_503))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth-errors-503 and auth-errors-401 cannot both be on");
    server.console().setVariant(PlatformVariant.AUTH_ERRORS_HTTP_401, false);
    on(PlatformVariant.AUTH_ERRORS_HTTP_503);
    Wire.Answer unavailable = refresh("rt_unknown");
    assertThat(unavailable.status).isEqualTo(503);
    assertThat(unavailable.json()).containsEntry("error", "invalid_refresh_token");
    Object deviceCode = deviceCode().get("device_code");
    assertThat(pollAnswer(deviceCode).status).as("a pending poll").isEqualTo(503);
    assertThatThrownBy(() -> on(PlatformVariant.AUTH_ERRORS_HTTP_200))
        .hasMessage("auth-errors-200 and auth-errors-503 cannot both be on");
    assertThat(platform.cloudToken()).as("success stays 200").containsKey("access_token");
  }

  @Test void uploadEntitiesSuccessWithCode() throws IOException {
    on(PlatformVariant.UPLOAD_ENTITIES_CODE);
    Wire.Answer answer = uploadSongs(platform.cloudToken());
    assertThat(answer.status).isEqualTo(200);
    assertThat(answer.json()).containsOnlyKeys("code", "message", "sid").containsEntry("code", "0")
        .containsEntry("message", "success");
  }

  @Test void uploadEntitiesRefusesATokenItDoesNotTakeWith401() throws IOException {
    Map<String, Object> unknown = Collections.singletonMap("access_token", "at-unknown");
    Wire.Answer reference = uploadSongs(unknown);
    assertThat(reference.status).isEqualTo(400);
    on(PlatformVariant.UPLOAD_ENTITIES_TOKEN_401);
    Wire.Answer refused = uploadSongs(unknown);
    assertThat(refused.status).isEqualTo(401);
    assertThat(refused.json()).containsOnlyKeys("code", "message", "sid").containsEntry("code", "40103")
        .containsEntry("message", "the token is unknown or has expired");
    assertThat(uploadSongs(platform.cloudToken()).status).as("a token it takes").isEqualTo(200);
  }

  @Test void noCsidLeavesItOutOfEveryAnswersData() throws IOException {
    on(PlatformVariant.NO_CSID);
    Wire.Answer upload = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID
        + "\"}", "{\"name\":\"Maps\",\"alias\":\"\"}");
    Map<String, Object> uploaded = Platform.data(upload);
    assertThat(uploaded).containsOnlyKeys("sid");
    Map<String, Object> checked = Platform.data(platform.checkResource((String) uploaded.get("sid")));
    assertThat(checked).containsOnlyKeys("sid", "reply", "error");
  }

  @Test void idsAtTopLevelPutEveryAnswersFieldsBesideTheEnvelopes() throws IOException {
    on(PlatformVariant.IDS_AT_TOP_LEVEL);
    Wire.Answer upload = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID
        + "\"}", "{\"name\":\"Maps\",\"alias\":\"\"}");
    Map<String, Object> uploaded = upload.json();
    assertThat(uploaded).containsOnlyKeys("code", "data", "desc", "sid", "csid").containsEntry("data", null);
    String sid = (String) uploaded.get("sid");
    assertThat(sid).startsWith("psn").isNotEqualTo(uploaded.get("csid"));
    Map<String, Object> checked = platform.checkResource(sid).json();
    assertThat(checked).containsOnlyKeys("code", "data", "desc", "sid", "csid", "reply", "error")
        .containsEntry("data", null).containsEntry("sid", sid);
    // A refusal is an envelope as ever: its sid is the call's.
    Map<String, Object> refused = platform.checkResource("psn000").json();
    assertThat(refused).containsOnlyKeys("code", "data", "desc", "sid").containsEntry("code", "31405");

    on(PlatformVariant.NO_CSID);
    assertThat(platform.checkResource(sid).json()).containsOnlyKeys("code", "data", "desc", "sid", "reply",
        "error");
  }

  @Test void numbersAsTextInEveryAuthorizationAnswer() throws IOException {
    on(PlatformVariant.NUMBERS_AS_TEXT);
    Map<String, Object> dc = deviceCode();
    assertThat(dc.get("interval")).isEqualTo("2");
    assertThat(dc.get("expires_in")).isEqualTo("120");
    Map<String, Object> token = platform.cloudToken();
    assertThat(token.get("expires_in")).isEqualTo("8640000");
    assertThat(token.get("created_at")).isEqualTo(Long.toString(T0 / 1000));
  }

  @Test void flagsNameEveryVariant() {
    for (PlatformVariant variant : PlatformVariant.values()) {
      assertThat(PlatformVariant.ofFlag(variant.flag())).isEqualTo(variant);
    }
    assertThatThrownBy(() -> PlatformVariant.ofFlag("seconds"))
        .hasMessage("--variant must be one of interval-ms, no-interval, zero-interval,"
            + " fractional-interval, created-at-ms, fractional-created-at, huge-expires-in,"
            + " no-expires-in, fractional-expires-in, no-token-type, token-type-capitalised,"
            + " no-rotation, success-code-0, success-code-numeric, web-api-refusals-400,"
            + " web-api-refusals-by-kind, refusal-codes-numeric, extra-fields, auth-errors-200,"
            + " auth-errors-401, auth-errors-503, upload-entities-code, upload-entities-token-401,"
            + " no-csid, ids-at-top-level,"
            + " numbers-as-text;"
            + " was: seconds");
    assertThat(Console.defaults().getVariants()).isEmpty();
    assertThat(Console.builder().variant(PlatformVariant.EXTRA_FIELDS).build().getVariants())
        .containsExactly(PlatformVariant.EXTRA_FIELDS);
  }

  @Test void variantsComeFromTheCommandLine() throws IOException {
    try (ReferenceServer standalone = ReferenceServerMain.fromArgs(new String[] {
        "--variant", "interval-ms,success-code-0", "--variant", "no-rotation"}).start()) {
      assertThat(standalone.console().getVariants()).containsExactly(PlatformVariant.INTERVAL_MILLIS,
          PlatformVariant.NO_REFRESH_ROTATION, PlatformVariant.SUCCESS_CODE_ZERO);
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      ReferenceServerMain.describe(standalone, new java.io.PrintStream(bytes, true, "UTF-8"));
      assertThat(bytes.toString("UTF-8"))
          .contains("  variants      interval-ms, no-rotation, success-code-0\n");
    }
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--variant",
        "auth-errors-200,auth-errors-401"}))
        .hasMessage("auth-errors-401 and auth-errors-200 cannot both be on");
  }
}
