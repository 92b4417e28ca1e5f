package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.BACKEND_BASIC;
import static dev.voicelink.interop.InteropAccounts.BACKEND_SCOPE;
import static dev.voicelink.interop.InteropAccounts.BOB;
import static dev.voicelink.interop.InteropAccounts.CUSTOM_SCOPE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Who signed in: the userinfo endpoint read with a device's access token. */
@ExtendWith(SharedServer.class)
class UserInfoTest {

  static Wire.Answer userInfo(StandardAuthServer server, String authorization) {
    return Wire.get(server.userInfoEndpoint(), "Authorization", authorization, "Accept", "application/json");
  }

  @Test void theSubjectIsTheUserNameAndProfileAddsTheName(StandardAuthServer server) {
    Map<String, Object> tokens = DeviceFlow.signIn(server, DEVICE_PUBLIC, ALICE);

    Wire.Answer answer = userInfo(server, "Bearer " + tokens.get("access_token"));

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.contentType()).isEqualTo("application/json");
    assertThat(answer.json()).isEqualTo(Map.of("sub", "alice", "name", "Alice Example", "preferred_username", "alice"));
    Exchange request = server.journal().last(server.userInfoPath());
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.authorizationScheme()).isEqualTo("Bearer");
    // the scheme is case-insensitive here
    assertThat(userInfo(server, "bearer " + tokens.get("access_token")).status()).isEqualTo(200);
  }

  @Test void withoutProfileOnlyTheSubject(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_BASIC, CUSTOM_SCOPE);
    assertThat(Approver.approveAt(codes.verificationUriComplete(), BOB).connected()).isTrue();
    String accessToken = (String) DeviceFlow.poll(server, DEVICE_BASIC, codes.deviceCode()).json().get("access_token");

    assertThat(userInfo(server, "Bearer " + accessToken).json()).isEqualTo(Map.of("sub", "bob"));
  }

  @Test void theAccessTokenARefreshReplacedIs401InvalidToken(StandardAuthServer server) {
    Map<String, Object> tokens = DeviceFlow.signIn(server, DEVICE_PUBLIC, ALICE);
    Wire.Answer refreshed = DeviceFlow.refresh(server, DEVICE_PUBLIC, (String) tokens.get("refresh_token"));

    // the old token's signature and lifetime are still good, but the server no longer knows it
    Wire.Answer old = userInfo(server, "Bearer " + tokens.get("access_token"));
    assertThat(old.status()).isEqualTo(401);
    assertThat(old.json()).isEqualTo(Map.of("error", "invalid_token"));
    assertThat(userInfo(server, "Bearer " + refreshed.json().get("access_token")).status()).isEqualTo(200);
  }

  @Test void noTokenOrAMalformedOneIs401WithTheReasonInTheHeader(StandardAuthServer server) {
    Wire.Answer none = Wire.get(server.userInfoEndpoint(), "Accept", "application/json");
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.body()).isEmpty();
    assertThat(none.wwwAuthenticate())
        .isEqualTo("Bearer resource_metadata=\"" + server.issuer() + "/.well-known/oauth-protected-resource\"");

    Wire.Answer malformed = userInfo(server, "Bearer not-a-token");
    assertThat(malformed.status()).isEqualTo(401);
    assertThat(malformed.body()).isEmpty();
    assertThat(malformed.wwwAuthenticate()).startsWith("Bearer error=\"invalid_token\", error_description=\"");
  }

  @Test void aBackendTokenHasNoUserAndIs403InsufficientScope(StandardAuthServer server) {
    Wire.Answer backend = Wire.post(server.tokenEndpoint(), BACKEND_BASIC, "grant_type", "client_credentials",
        "scope", BACKEND_SCOPE);

    Wire.Answer answer = userInfo(server, "Bearer " + backend.json().get("access_token"));

    assertThat(answer.status()).isEqualTo(403);
    assertThat(answer.json()).isEqualTo(Map.of("error", "insufficient_scope"));
  }

  @Test void outOfTheBoxTheServerRefusesDeviceTokensAtUserInfo() {
    try (StandardAuthServer stock = StandardAuthServer.builder().deviceUserInfo(false).start()) {
      Map<String, Object> tokens = DeviceFlow.signIn(stock, DEVICE_PUBLIC, ALICE);

      Wire.Answer answer = userInfo(stock, "Bearer " + tokens.get("access_token"));

      // its userinfo wants the openid scope, which its device grant refuses to give
      assertThat(answer.status()).isEqualTo(403);
      assertThat(answer.json()).isEqualTo(Map.of("error", "insufficient_scope"));
    }
  }
}
