package dev.voicelink.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

/** The device's side of RFC 8628 in plain HTTP, for the tests: asks for a code, polls once. */
final class DeviceFlow {
  private DeviceFlow() {}

  /** A device authorization answer. */
  record Codes(String deviceCode, String userCode, String verificationUri, String verificationUriComplete,
      Map<String, Object> json) {
    @Override public String toString() {
      return "Codes{" + userCode + ", " + verificationUriComplete + "}";
    }
  }

  static Codes start(StandardAuthServer server, InteropAccounts.Client client, String scope) {
    Wire.Answer answer = Wire.post(server.deviceAuthorizationEndpoint(), client, "scope", scope);
    assertThat(answer.status()).as("%s", answer).isEqualTo(200);
    Map<String, Object> json = answer.json();
    return new Codes((String) json.get("device_code"), (String) json.get("user_code"),
        (String) json.get("verification_uri"), (String) json.get("verification_uri_complete"), json);
  }

  static Codes start(StandardAuthServer server, InteropAccounts.Client client) {
    return start(server, client, InteropAccounts.DEVICE_SCOPE);
  }

  static Wire.Answer poll(StandardAuthServer server, InteropAccounts.Client client, String deviceCode) {
    return Wire.post(server.tokenEndpoint(), client, "grant_type", InteropAccounts.DEVICE_CODE_GRANT,
        "device_code", deviceCode);
  }

  static Wire.Answer refresh(StandardAuthServer server, InteropAccounts.Client client, String refreshToken) {
    return Wire.post(server.tokenEndpoint(), client, "grant_type", "refresh_token", "refresh_token", refreshToken);
  }

  /** Asks for a code, lets {@code user} approve it on the pages, and returns the token answer. */
  static Map<String, Object> signIn(StandardAuthServer server, InteropAccounts.Client client, InteropAccounts.User user) {
    Codes codes = start(server, client);
    Approver.Outcome outcome = Approver.approveAt(codes.verificationUriComplete(), user);
    assertThat(outcome.connected()).as("%s", outcome).isTrue();
    Wire.Answer token = poll(server, client, codes.deviceCode());
    assertThat(token.status()).as("%s", token).isEqualTo(200);
    return token.json();
  }
}
