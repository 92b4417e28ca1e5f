package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Malformed requests across every endpoint: each gets the prescribed (or documented) error and leaves the
 * server's state exactly as it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
  static final String DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
  static final String UID = "0123456789abcdef0123456789abcdef";
  static final String GOOD_DATA = Platform.base64("{\"name\":\"a\",\"alias\":\"b\"}");

  ServerClock clock = ServerClock.manual(AuthFlowTest.T0);
  ReferenceServer server;
  Platform platform;
  String deviceCode;
  String otherClientsDeviceCode;
  Map<String, Object> deviceToken;
  Map<String, Object> cloudToken;

  interface Call {
    Wire.Answer run() throws IOException;
  }

  /** One malformed request and what it must get. */
  static final class Case {
    final String name;
    final Call call;
    final int status;
    final String[] expected;

    Case(String name, Call call, int status, String... expected) {
      this.name = name;
      this.call = call;
      this.status = status;
      this.expected = expected;
    }
  }

  @BeforeAll void start() throws IOException {
    Console console = DefaultConsole.builder()
        .client(RegisteredClient.create("other-client", "other-secret", "Other", null))
        .deviceIds("other-client", "OTHER-1")
        .account(Account.create("OS777", "key777", "app777").withDynamicEntityPermission(false))
        .build();
    server = ReferenceServer.builder().console(console).clock(clock).build().start();
    platform = new Platform(server);
    deviceToken = platform.deviceToken();
    cloudToken = platform.cloudToken();
    deviceCode = (String) Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id", DefaultConsole.CLIENT_ID,
        "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).json().get("device_code");
    otherClientsDeviceCode = (String) Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id", "other-client",
        "scope", "user_ivs_all", "scope_data", "{\"user_ivs_all\":{\"device_id\":\"OTHER-1\"}}").json().get("device_code");
    assertThat(platform.upload(DefaultConsole.CONTACTS, "{\"auth_id\":\"" + UID + "\"}", "{\"name\":\"a\",\"alias\":\"\"}")
        .json()).containsEntry("code", "00000");
  }

  @AfterAll void stop() throws IOException {
    server.close();
  }

  @TestFactory Stream<DynamicTest> everyMalformedRequestIsRefusedAndChangesNothing() {
    List<Case> cases = new ArrayList<>();
    cases.addAll(deviceCodeCases());
    cases.addAll(tokenCases());
    cases.addAll(cloudTokenCases());
    cases.addAll(webApiCases());
    cases.addAll(platformCases());
    cases.addAll(verificationCases());
    cases.addAll(notUtf8Cases());
    assertThat(cases).hasSizeGreaterThanOrEqualTo(40);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name, () -> {
      String before = server.stateSummary();
      Wire.Answer a = c.call.run();
      assertThat(a.status).as("HTTP status; body: %s", a.body).isEqualTo(c.status);
      for (String e : c.expected) assertThat(a.body).contains(e);
      assertThat(server.stateSummary()).isEqualTo(before);
    }));
  }

  // ---- text that is not UTF-8 (protocol 5.3.3), on every interface ----

  /** 张三 in GBK, as a contacts export in another encoding carries it. */
  static final byte[] GBK_NAME = {(byte) 0xd5, (byte) 0xc5, (byte) 0xc8, (byte) 0xfd};

  static Wire.Answer postBytes(Request.Builder request, byte[] body, String contentType) throws IOException {
    return Wire.call(request.post(RequestBody.create(body, MediaType.get(contentType))).build());
  }

  static byte[] withGbkName(String before, String after) {
    byte[] head = before.getBytes(StandardCharsets.UTF_8);
    byte[] tail = after.getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[head.length + GBK_NAME.length + tail.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(GBK_NAME, 0, all, head.length, GBK_NAME.length);
    System.arraycopy(tail, 0, all, head.length + GBK_NAME.length, tail.length);
    return all;
  }

  List<Case> notUtf8Cases() {
    String form = "application/x-www-form-urlencoded";
    String good = "client_id=" + DefaultConsole.CLIENT_ID + "&scope=user_ivs_all&scope_data="
        + "%7B%22user_ivs_all%22%3A%7B%22device_id%22%3A%22SN-0001-DEMO%22%7D%7D";
    String deviceCodeUrl = server.authUrl() + "/oauth/ivs/device_code";
    List<Case> l = new ArrayList<>();
    l.add(new Case("device_code: a form value whose escapes are not UTF-8", () -> Wire.postRaw(deviceCodeUrl,
        good.replace("SN-0001-DEMO", "SN-%D5%C5"), form), 400,
        authError("invalid_request", "scope_data is not UTF-8 once URL-decoded")));
    l.add(new Case("device_code: charset iso-8859-1", () -> Wire.postRaw(deviceCodeUrl, good,
        form + "; charset=iso-8859-1"), 400,
        authError("invalid_request", "charset must be utf-8; was: iso-8859-1")));
    l.add(new Case("token: a JSON body in GBK", () -> postBytes(new Request.Builder().url(server.authUrl()
        + "/oauth/ivs/token"), withGbkName("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"", "\"}"),
        "application/json"), 400, authError("invalid_request", "the body is not UTF-8")));
    l.add(new Case("platform: records in GBK", () -> {
      Request.Builder tools = new Request.Builder().url(server.platformUrl() + "/tools/upload_entities")
          .header("Authorization", (String) deviceToken.get("access_token"));
      return postBytes(tools, withGbkName("{\"type\":\"user\",\"resource_name\":\"" + DefaultConsole.CONTACTS
          + "\",\"data\":[{\"name\":\"", "\",\"alias\":\"\"}]}"), "application/json");
    }, 400, "\"code\":\"40002\",\"message\":\"the body is not UTF-8\""));
    l.add(new Case("web API: a form value whose escapes are not UTF-8", () -> postBytes(platform.signed(
        "/v2/voicelink/entity/check-resource", "n-utf8", platform.curTime(), DefaultConsole.ACCOUNT_KEY),
        "sid=psn%D5%C5".getBytes(StandardCharsets.UTF_8), form + "; charset=utf-8"), 200,
        envelope("10107", "sid is not UTF-8 once URL-decoded")));
    return l;
  }

  // ---- authorization service ----

  Wire.Answer deviceCodeForm(String... form) throws IOException {
    return Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", form);
  }

  static String authError(String error, String message) {
    return message == null ? "{\"error\":\"" + error + "\"}"
        : "{\"error\":\"" + error + "\",\"message\":\"" + message.replace("\"", "\\\"") + "\"}";
  }

  List<Case> deviceCodeCases() {
    String url = server.authUrl() + "/oauth/ivs/device_code";
    String c = DefaultConsole.CLIENT_ID;
    String sd = AuthFlowTest.SCOPE_DATA;
    List<Case> l = new ArrayList<>();
    l.add(new Case("device_code: JSON body", () -> Wire.postJson(url, "{\"client_id\":\"" + c + "\"}"), 400,
        authError("invalid_request", "Content-Type must be application/x-www-form-urlencoded")));
    l.add(new Case("device_code: GET", () -> Wire.call(new Request.Builder().url(url).build()), 405, "use POST"));
    l.add(new Case("device_code: no client_id", () -> deviceCodeForm("scope", "user_ivs_all", "scope_data", sd), 400,
        authError("invalid_request", "client_id is required")));
    l.add(new Case("device_code: unknown client_id", () -> deviceCodeForm("client_id", "nobody", "scope", "user_ivs_all",
        "scope_data", sd), 400, authError("invalid_client", "unknown client_id: nobody")));
    l.add(new Case("device_code: no scope", () -> deviceCodeForm("client_id", c, "scope_data", sd), 400,
        authError("invalid_request", "scope is required")));
    l.add(new Case("device_code: wrong scope", () -> deviceCodeForm("client_id", c, "scope", "user_all", "scope_data", sd),
        400, authError("invalid_scope", "scope must be user_ivs_all; was: user_all")));
    l.add(new Case("device_code: no scope_data", () -> deviceCodeForm("client_id", c, "scope", "user_ivs_all"), 400,
        authError("invalid_request", "scope_data is required")));
    String shape = "scope_data must be a JSON object like {\\\"user_ivs_all\\\":{\\\"device_id\\\":\\\"SN-0001\\\"}}";
    l.add(new Case("device_code: scope_data not JSON", () -> deviceCodeForm("client_id", c, "scope", "user_ivs_all",
        "scope_data", "device_id=SN-0001-DEMO"), 400, "\"error\":\"invalid_request\"", shape));
    l.add(new Case("device_code: scope_data without device_id", () -> deviceCodeForm("client_id", c, "scope",
        "user_ivs_all", "scope_data", "{\"user_ivs_all\":{}}"), 400, shape));
    l.add(new Case("device_code: device_id is a number", () -> deviceCodeForm("client_id", c, "scope", "user_ivs_all",
        "scope_data", "{\"user_ivs_all\":{\"device_id\":1}}"), 400, shape));
    l.add(new Case("device_code: scope_data URL-encoded twice", () -> deviceCodeForm("client_id", c, "scope",
        "user_ivs_all", "scope_data", "%7B%22user_ivs_all%22%3A%7B%22device_id%22%3A%22SN-0001-DEMO%22%7D%7D"), 400, shape));
    l.add(new Case("device_code: device not imported", () -> deviceCodeForm("client_id", c, "scope", "user_ivs_all",
        "scope_data", "{\"user_ivs_all\":{\"device_id\":\"SN-9999\"}}"), 400, authError("invalid_device",
        "device_id SN-9999 is not imported for client vl-speaker-01 (console device ID page)")));
    l.add(new Case("device_code: device imported for another client", () -> deviceCodeForm("client_id", c, "scope",
        "user_ivs_all", "scope_data", "{\"user_ivs_all\":{\"device_id\":\"OTHER-1\"}}"), 400, "\"error\":\"invalid_device\""));
    l.add(new Case("device_code: client_id twice", () -> Wire.postRaw(url, "client_id=" + c + "&client_id=x&scope="
        + "user_ivs_all", "application/x-www-form-urlencoded"), 400,
        authError("invalid_request", "client_id must be given once; it appears more than once")));
    return l;
  }

  Wire.Answer token(String json) throws IOException {
    return Wire.postJson(server.authUrl() + "/oauth/ivs/token", json);
  }

  List<Case> tokenCases() {
    String url = server.authUrl() + "/oauth/ivs/token";
    String c = DefaultConsole.CLIENT_ID;
    List<Case> l = new ArrayList<>();
    l.add(new Case("token: form body", () -> Wire.postForm(url, "client_id", c, "grant_type", DEVICE_GRANT,
        "device_code", deviceCode), 400, authError("invalid_request", "Content-Type must be application/json")));
    l.add(new Case("token: body is not JSON", () -> Wire.postRaw(url, "{\"client_id\":", "application/json"), 400,
        authError("invalid_request", "body must be a JSON object")));
    l.add(new Case("token: body is an array", () -> token("[]"), 400, authError("invalid_request", "body must be a JSON object")));
    l.add(new Case("token: no grant_type", () -> token("{\"client_id\":\"" + c + "\",\"device_code\":\"" + deviceCode + "\"}"),
        400, authError("invalid_request", "grant_type is required")));
    l.add(new Case("token: password grant", () -> token("{\"grant_type\":\"password\"}"), 400,
        authError("unsupported_grant_type", "grant_type must be " + DEVICE_GRANT + " or refresh_token; was: password")));
    l.add(new Case("token: no client_id", () -> token("{\"grant_type\":\"" + DEVICE_GRANT + "\",\"device_code\":\""
        + deviceCode + "\"}"), 400, authError("invalid_request", "client_id is required")));
    l.add(new Case("token: no device_code", () -> token("{\"grant_type\":\"" + DEVICE_GRANT + "\",\"client_id\":\"" + c
        + "\"}"), 400, authError("invalid_request", "device_code is required")));
    l.add(new Case("token: device_code is a number", () -> token("{\"grant_type\":\"" + DEVICE_GRANT + "\",\"client_id\":\""
        + c + "\",\"device_code\":42}"), 400, authError("invalid_request", "device_code must be a non-empty string")));
    l.add(new Case("token: unknown device_code", () -> token("{\"grant_type\":\"" + DEVICE_GRANT + "\",\"client_id\":\""
        + c + "\",\"device_code\":\"dc_nope\"}"), 400, authError("invalid_grant", "unknown device_code")));
    l.add(new Case("token: device_code of another client", () -> token("{\"grant_type\":\"" + DEVICE_GRANT
        + "\",\"client_id\":\"" + c + "\",\"device_code\":\"" + otherClientsDeviceCode + "\"}"), 400,
        authError("invalid_grant", "device_code was issued to another client")));
    l.add(new Case("token: unknown refresh_token", () -> token("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt_x\"}"),
        400, authError("invalid_refresh_token", "refresh_token is unknown or was already used")));
    l.add(new Case("token: refresh without refresh_token", () -> token("{\"grant_type\":\"refresh_token\"}"), 400,
        authError("invalid_request", "refresh_token is required")));
    return l;
  }

  List<Case> cloudTokenCases() {
    String url = server.authUrl() + "/oauth/token";
    String c = DefaultConsole.CLIENT_ID;
    List<Case> l = new ArrayList<>();
    l.add(new Case("cloud token: wrong secret", () -> Wire.postJson(url, "{\"client_id\":\"" + c
        + "\",\"client_secret\":\"guess\",\"grant_type\":\"client_credentials\"}"), 400,
        authError("invalid_client", "client_id or client_secret is wrong")));
    l.add(new Case("cloud token: unknown client", () -> Wire.postJson(url, "{\"client_id\":\"nobody\",\"client_secret\":\""
        + DefaultConsole.CLIENT_SECRET + "\",\"grant_type\":\"client_credentials\"}"), 400,
        authError("invalid_client", "client_id or client_secret is wrong")));
    l.add(new Case("cloud token: no client_secret", () -> Wire.postJson(url, "{\"client_id\":\"" + c
        + "\",\"grant_type\":\"client_credentials\"}"), 400, authError("invalid_request", "client_secret is required")));
    l.add(new Case("cloud token: device-code grant", () -> Wire.postJson(url, "{\"client_id\":\"" + c
        + "\",\"grant_type\":\"" + DEVICE_GRANT + "\",\"device_code\":\"" + deviceCode + "\"}"), 400,
        "\"error\":\"unsupported_grant_type\""));
    l.add(new Case("cloud token: device refresh token", () -> Wire.postJson(url, "{\"grant_type\":\"refresh_token\","
        + "\"refresh_token\":\"" + deviceToken.get("refresh_token") + "\"}"), 400, authError("invalid_refresh_token",
        "refresh_token belongs to a device token; refresh it at /oauth/ivs/token")));
    return l;
  }

  // ---- web API ----

  static String envelope(String code, String desc) {
    return "{\"code\":\"" + code + "\",\"data\":null,\"desc\":\"" + desc.replace("\"", "\\\"") + "\",\"sid\":\"vls";
  }

  Wire.Answer upload(String... form) throws IOException {
    return platform.webApi("/v2/voicelink/entity/upload-resource", form);
  }

  Wire.Answer uploadWith(String persParam, String data) throws IOException {
    return upload("appid", DefaultConsole.APPID, "res_name", DefaultConsole.CONTACTS, "pers_param", persParam, "data", data);
  }

  Wire.Answer signedRaw(String nonce, String curTime, String checkSum, String namespace) throws IOException {
    Request.Builder b = platform.signed("/v2/voicelink/entity/check-resource", nonce, curTime, DefaultConsole.ACCOUNT_KEY);
    if (checkSum != null) b.header("X-CheckSum", checkSum);
    if (namespace != null) b.header("X-NameSpace", namespace);
    return Wire.call(b.post(Wire.form("sid", "psn0")).build());
  }

  List<Case> webApiCases() {
    String now = platform.curTime();
    String key = DefaultConsole.ACCOUNT_KEY;
    String userPers = "{\"auth_id\":\"" + UID + "\"}";
    List<Case> l = new ArrayList<>();
    l.add(new Case("web API: no X-Nonce", () -> Wire.call(new Request.Builder().url(server.baseUrl()
        + "/v2/voicelink/entity/check-resource").header("X-NameSpace", "OS123").header("X-CurTime", now)
        .header("X-CheckSum", Wire.md5(key + now)).post(Wire.form("sid", "psn0")).build()), 200,
        envelope("10106", "header X-Nonce is required")));
    String longNonce = new String(new char[129]).replace('\0', 'a');
    l.add(new Case("web API: nonce of 129 characters", () -> signedRaw(longNonce, now, Wire.md5(key + longNonce + now), null),
        200, envelope("10107", "X-Nonce must be at most 128 characters; was: 129")));
    l.add(new Case("web API: CurTime in milliseconds with a dot", () -> signedRaw("n", now + ".5", Wire.md5(key + "n" + now + ".5"),
        null), 200, envelope("10107", "X-CurTime must be UTC seconds since 1970 as digits; was: " + now + ".5")));
    String old = Long.toString(Long.parseLong(now) - 301);
    l.add(new Case("web API: CurTime 301 s old", () -> signedRaw("n", old, Wire.md5(key + "n" + old), null), 200,
        envelope("10113", "X-CurTime " + old + " is more than 5 minutes away from the server time " + now)));
    l.add(new Case("web API: unknown namespace", () -> signedRaw("n", now, Wire.md5(key + "n" + now), "OS404"), 200,
        envelope("31402", "unknown namespace OS404")));
    l.add(new Case("web API: checksum in uppercase hex", () -> signedRaw("n", now, Wire.md5(key + "n" + now).toUpperCase(),
        null), 200, envelope("10105", "illegal access: X-CheckSum does not match md5(accountKey + X-Nonce + X-CurTime) in lowercase hex")));
    l.add(new Case("web API: checksum with the wrong key", () -> signedRaw("n", now, Wire.md5("wrong" + "n" + now), null),
        200, "\"code\":\"10105\""));
    l.add(new Case("web API: checksum with nonce and time swapped", () -> signedRaw("n", now, Wire.md5(key + now + "n"), null),
        200, "\"code\":\"10105\""));
    l.add(new Case("web API: permission off", () -> Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "n",
        now, "key777").header("X-NameSpace", "OS777").post(Wire.form("sid", "psn0")).build()), 200,
        envelope("10105", "no permission: dynamic entities are not enabled for namespace OS777")));
    l.add(new Case("web API: JSON body", () -> Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "n", now, key)
        .post(RequestBody.create("{\"sid\":\"psn0\"}", Wire.JSON)).build()), 200,
        envelope("10106", "Content-Type must be application/x-www-form-urlencoded; charset=utf-8")));
    l.add(new Case("web API: latin-1 charset", () -> Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "n", now,
        key).post(RequestBody.create("sid=psn0".getBytes(StandardCharsets.ISO_8859_1),
        MediaType.get("application/x-www-form-urlencoded; charset=iso-8859-1"))).build()), 200,
        envelope("10107", "charset must be utf-8; was: iso-8859-1")));
    l.add(new Case("upload: no appid", () -> upload("res_name", DefaultConsole.CONTACTS, "pers_param", userPers, "data",
        GOOD_DATA), 200, envelope("10106", "appid is required")));
    l.add(new Case("upload: no data", () -> upload("appid", DefaultConsole.APPID, "res_name", DefaultConsole.CONTACTS,
        "pers_param", userPers), 200, envelope("10106", "data is required")));
    l.add(new Case("upload: foreign appid", () -> upload("appid", "app777", "res_name", DefaultConsole.CONTACTS, "pers_param",
        userPers, "data", GOOD_DATA), 200, envelope("10107", "appid app777 is not an application of namespace OS123")));
    l.add(new Case("upload: res_name without namespace", () -> upload("appid", DefaultConsole.APPID, "res_name", "contacts",
        "pers_param", userPers, "data", GOOD_DATA), 200,
        envelope("10107", "res_name must be <namespace>.<name>, e.g. OS123.contacts; was: contacts")));
    l.add(new Case("upload: res_name of another namespace", () -> upload("appid", DefaultConsole.APPID, "res_name",
        "OS777.contacts", "pers_param", userPers, "data", GOOD_DATA), 200,
        envelope("31402", "res_name namespace OS777 is not the namespace of this account (OS123)")));
    l.add(new Case("upload: unknown resource", () -> upload("appid", DefaultConsole.APPID, "res_name", "OS123.nothing",
        "pers_param", userPers, "data", GOOD_DATA), 200, envelope("31403", "no resource OS123.nothing is defined")));
    l.add(new Case("upload: pers_param not JSON", () -> uploadWith("auth_id=" + UID, GOOD_DATA), 200,
        envelope("10107", "pers_param must be a JSON object")));
    l.add(new Case("upload: uid instead of auth_id", () -> uploadWith("{\"uid\":\"" + UID + "\"}", GOOD_DATA), 200,
        envelope("10107", "pers_param for OS123.contacts (dimension os_user_id) must be an object with the single key auth_id; was: [uid]")));
    l.add(new Case("upload: appid for a user-level resource", () -> uploadWith("{\"appid\":\"5f1a2b3c\"}", GOOD_DATA), 200,
        "\"code\":\"10107\""));
    l.add(new Case("upload: auth_id in uppercase", () -> uploadWith("{\"auth_id\":\"" + UID.toUpperCase() + "\"}", GOOD_DATA),
        200, envelope("10107", "pers_param.auth_id must be 32 lowercase letters or digits; was: " + UID.toUpperCase())));
    l.add(new Case("upload: auth_id of 31 characters", () -> uploadWith("{\"auth_id\":\"" + UID.substring(1) + "\"}",
        GOOD_DATA), 200, "\"code\":\"10107\""));
    l.add(new Case("upload: empty auth_id", () -> uploadWith("{\"auth_id\":\"\"}", GOOD_DATA), 200,
        envelope("10107", "pers_param.auth_id must be a non-empty string")));
    l.add(new Case("upload: data not Base64", () -> uploadWith(userPers, "not base64!"), 200,
        envelope("32114", "data is not valid Base64 (standard alphabet, = padding, no line breaks)")));
    l.add(new Case("upload: Base64 with a line break", () -> uploadWith(userPers, GOOD_DATA.substring(0, 8) + "\n"
        + GOOD_DATA.substring(8)), 200, "\"code\":\"32114\""));
    String unpadded = Base64.getEncoder().withoutPadding().encodeToString(
        "{\"name\":\"a\",\"alias\":\"\"}".getBytes(StandardCharsets.UTF_8));
    l.add(new Case("upload: Base64 without its = padding", () -> uploadWith(userPers, unpadded), 200,
        envelope("32114", "data is not valid Base64 (standard alphabet, = padding, no line breaks)")));
    l.add(new Case("upload: URL-safe Base64", () -> uploadWith(userPers, Base64.getUrlEncoder().encodeToString(
        "{\"name\":\"??>\",\"alias\":\"\"}".getBytes(StandardCharsets.UTF_8))), 200, "\"code\":\"32114\""));
    byte[] bom = "\uFEFF{\"name\":\"a\",\"alias\":\"\"}".getBytes(StandardCharsets.UTF_8);
    l.add(new Case("upload: text with a byte-order mark", () -> uploadWith(userPers, Base64.getEncoder().encodeToString(bom)),
        200, envelope("32115", "data starts with a byte-order mark; send UTF-8 without BOM")));
    byte[] gbk = {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xD5, (byte) 0xC5, '"', '}'};
    l.add(new Case("upload: text not UTF-8", () -> uploadWith(userPers, Base64.getEncoder().encodeToString(gbk)), 200,
        envelope("32115", "data is not UTF-8 text")));
    l.add(new Case("upload: a line that is not JSON", () -> uploadWith(userPers, Platform.base64(
        "{\"name\":\"a\",\"alias\":\"\"}\nname=b")), 200, envelope("32116", "line 2 is not a JSON object")));
    l.add(new Case("upload: a record without alias", () -> uploadWith(userPers, Platform.base64("{\"name\":\"a\"}")), 200,
        envelope("32117", "line 1 lacks field alias (OS123.contacts defines [name, alias])")));
    l.add(new Case("upload: empty main field", () -> uploadWith(userPers, Platform.base64("{\"name\":\"\",\"alias\":\"x\"}")),
        200, envelope("32117", "line 1: main field name must not be empty")));
    l.add(new Case("upload: alias is a number", () -> uploadWith(userPers, Platform.base64("{\"name\":\"a\",\"alias\":1}")),
        200, envelope("32117", "line 1: field alias must be a string")));
    l.add(new Case("upload: only blank lines", () -> uploadWith(userPers, Platform.base64("\n\n")), 200,
        envelope("32118", "data holds no records")));
    l.add(new Case("check: no sid", () -> platform.webApi("/v2/voicelink/entity/check-resource"), 200,
        envelope("10106", "sid is required")));
    l.add(new Case("check: sid without psn", () -> platform.checkResource("abc123"), 200,
        envelope("10107", "sid must begin with psn; was: abc123")));
    l.add(new Case("check: unknown sid", () -> platform.checkResource("psnffff"), 200,
        envelope("31405", "no upload with sid psnffff in namespace OS123")));
    return l;
  }

  // ---- platform tools ----

  Wire.Answer tools(String token, String contentType, String body) throws IOException {
    Request.Builder b = new Request.Builder().url(server.platformUrl() + "/tools/upload_entities")
        .post(RequestBody.create(body.getBytes(StandardCharsets.UTF_8), MediaType.get(contentType)));
    if (token != null) b.header("Authorization", token);
    return Wire.call(b.build());
  }

  List<Case> platformCases() {
    String user = (String) deviceToken.get("access_token");
    String json = "application/json";
    String good = PlatformToolsTest.body("user", DefaultConsole.CONTACTS);
    List<Case> l = new ArrayList<>();
    l.add(new Case("platform: no Authorization", () -> tools(null, json, good), 400,
        "\"code\":\"40101\",\"message\":\"Authorization header is required\",\"sid\":\"ptu"));
    l.add(new Case("platform: Bearer prefix", () -> tools("Bearer " + user, json, good), 400,
        "\"code\":\"40102\",\"message\":\"Authorization must be the raw token, without a Bearer prefix\""));
    l.add(new Case("platform: unknown token", () -> tools("at_nope", json, good), 400, "\"code\":\"40103\""));
    l.add(new Case("platform: form body", () -> tools(user, "application/x-www-form-urlencoded", "type=user"), 400,
        "\"code\":\"40001\",\"message\":\"Content-Type must be application/json\""));
    l.add(new Case("platform: body not JSON", () -> tools(user, json, "{type:user}"), 400,
        "\"code\":\"40002\",\"message\":\"body must be a JSON object\""));
    l.add(new Case("platform: type app", () -> tools(user, json, PlatformToolsTest.body("app", DefaultConsole.CONTACTS)), 400,
        "\"code\":\"40003\",\"message\":\"type must be user, client or device; was: app\""));
    l.add(new Case("platform: resource_name without namespace", () -> tools(user, json,
        PlatformToolsTest.body("user", "contacts")), 400, "\"code\":\"40004\""));
    l.add(new Case("platform: unknown resource", () -> tools(user, json, PlatformToolsTest.body("user", "OS123.nothing")),
        400, "\"code\":\"40005\",\"message\":\"no resource OS123.nothing is defined\""));
    l.add(new Case("platform: type device for a user resource", () -> tools(user, json,
        PlatformToolsTest.body("device", DefaultConsole.CONTACTS)), 400, "\"code\":\"40006\",\"message\":\"type device needs "
        + "a resource of dimension os_device_id; OS123.contacts has dimension os_user_id\""));
    l.add(new Case("platform: data is an object", () -> tools(user, json, "{\"type\":\"user\",\"resource_name\":"
        + "\"OS123.contacts\",\"data\":{\"name\":\"a\",\"alias\":\"\"}}"), 400,
        "\"code\":\"40008\",\"message\":\"data must be an array of records\""));
    l.add(new Case("platform: record without alias", () -> tools(user, json, "{\"type\":\"user\",\"resource_name\":"
        + "\"OS123.contacts\",\"data\":[{\"name\":\"a\"}]}"), 400,
        "\"code\":\"40009\",\"message\":\"data[0] lacks field alias (OS123.contacts defines [name, alias])\""));
    l.add(new Case("platform: foreign appid", () -> tools((String) cloudToken.get("access_token"), json,
        "{\"type\":\"client\",\"resource_name\":\"OS123.songs\",\"appid\":\"app777\",\"data\":[{\"name\":\"a\",\"alias\":\"\"}]}"),
        400, "\"code\":\"40007\",\"message\":\"appid app777 is not an application of namespace OS123\""));
    return l;
  }

  // ---- verification page ----

  List<Case> verificationCases() {
    String verify = server.verificationUri();
    List<Case> l = new ArrayList<>();
    l.add(new Case("verify: unknown user code", () -> Wire.call(new Request.Builder().url(verify + "?user_code=ZZZZ").build()),
        404, "The code ZZZZ is not known."));
    l.add(new Case("verify: send code for an unknown user code", () -> Wire.postForm(verify + "/send-code", "user_code",
        "ZZZZ", "phone", DefaultConsole.TESTER_PHONE), 404, "is not known"));
    l.add(new Case("verify: sign in with a code never sent", () -> Wire.postForm(verify + "/login", "user_code",
        pendingUserCode(), "phone", DefaultConsole.TESTER_PHONE, "sms_code", "123456"),
        401, "The verification code is wrong or has expired."));
    l.add(new Case("verify: decide without a session", () -> Wire.postForm(verify + "/decide", "session", "s_forged",
        "decision", "authorize"), 401, "Your sign-in is not valid any more."));
    l.add(new Case("verify: decide something else", () -> Wire.postForm(verify + "/decide", "session", "s_forged",
        "decision", "maybe"), 400, "decision must be authorize or refuse."));
    return l;
  }

  String pendingUserCode() {
    String summary = server.stateSummary();
    for (String part : summary.substring(summary.indexOf('[') + 1, summary.indexOf(']')).split(", ")) {
      if (part.contains(":PENDING:")) return part.substring(0, part.indexOf(':'));
    }
    throw new AssertionError("no pending grant in " + summary);
  }
}
