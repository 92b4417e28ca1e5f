package dev.voicelink.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import okhttp3.Request;

/** Test shortcuts over the raw wire: tokens through the real flows, signed web API calls. */
final class Platform {
  final ReferenceServer server;

  Platform(ReferenceServer server) {
    this.server = server;
  }

  /** A device-flow token record for the default device, approved by the default tester. */
  Map<String, Object> deviceToken() throws IOException {
    return deviceToken(DefaultConsole.TESTER_PHONE);
  }

  Map<String, Object> deviceToken(String phone) throws IOException {
    Map<String, Object> dc = Wire.postForm(server.authUrl() + "/oauth/ivs/device_code",
        "client_id", DefaultConsole.CLIENT_ID, "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).json();
    new SimulatedTester(server, phone).approve((String) dc.get("user_code"));
    return Wire.postJson(server.authUrl() + "/oauth/ivs/token", "{\"client_id\":\"" + DefaultConsole.CLIENT_ID
        + "\",\"grant_type\":\"urn:ietf:params:oauth:grant-type:device_code\",\"device_code\":\""
        + dc.get("device_code") + "\"}").json();
  }

  Map<String, Object> cloudToken() throws IOException {
    return cloudTokenAnswer().json();
  }

  Wire.Answer cloudTokenAnswer() throws IOException {
    return Wire.postJson(server.authUrl() + "/oauth/token", "{\"client_id\":\"" + DefaultConsole.CLIENT_ID
        + "\",\"client_secret\":\"" + DefaultConsole.CLIENT_SECRET + "\",\"grant_type\":\"client_credentials\"}");
  }

  static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  String curTime() {
    return Long.toString(server.clock().nowMillis() / 1000);
  }

  Request.Builder signed(String path, String nonce, String curTime, String accountKey) {
    return new Request.Builder().url(server.baseUrl() + path)
        .header("X-NameSpace", DefaultConsole.NAMESPACE)
        .header("X-Nonce", nonce)
        .header("X-CurTime", curTime)
        .header("X-CheckSum", Wire.md5(accountKey + nonce + curTime));
  }

  Wire.Answer webApi(String path, String... form) throws IOException {
    return Wire.call(signed(path, "n0nce", curTime(), DefaultConsole.ACCOUNT_KEY).post(Wire.form(form)).build());
  }

  Wire.Answer upload(String resName, String persParam, String resourceText) throws IOException {
    return webApi("/v2/voicelink/entity/upload-resource", "appid", DefaultConsole.APPID, "res_name", resName,
        "pers_param", persParam, "data", base64(resourceText));
  }

  Wire.Answer checkResource(String sid) throws IOException {
    return webApi("/v2/voicelink/entity/check-resource", "sid", sid);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> data(Wire.Answer a) {
    return (Map<String, Object>) a.json().get("data");
  }
}
