package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.BOB;
import static dev.voicelink.interop.InteropAccounts.CUSTOM_SCOPE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_POST;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RFC 6749 section 6 against the server: rotation, a reused refresh token, who may refresh. */
@ExtendWith(SharedServer.class)
class RefreshTest {

  @Test void everyRefreshRotatesAndTheOldRefreshTokenIsInvalidGrant(StandardAuthServer server) {
    Map<String, Object> first = DeviceFlow.signIn(server, DEVICE_BASIC, BOB);
    String oldRefresh = (String) first.get("refresh_token");

    Wire.Answer refreshed = DeviceFlow.refresh(server, DEVICE_BASIC, oldRefresh);

    assertThat(refreshed.status()).as("%s", refreshed).isEqualTo(200);
    assertThat(refreshed.cacheControl()).isEqualTo("no-cache, no-store, max-age=0, must-revalidate");
    Map<String, Object> second = refreshed.json();
    assertThat(second.keySet()).containsExactlyInAnyOrder("access_token", "refresh_token", "scope", "token_type",
        "expires_in");
    assertThat(second).containsEntry("token_type", "Bearer");
    assertThat(second.get("refresh_token")).isNotEqualTo(oldRefresh);
    assertThat(second.get("access_token")).isNotEqualTo(first.get("access_token"));
    assertThat(((String) second.get("scope")).split(" ")).containsExactlyInAnyOrder("profile", CUSTOM_SCOPE);
    Exchange request = server.journal().last(server.tokenEndpointPath());
    assertThat(request.authorizationScheme()).isEqualTo("Basic");
    assertThat(request.parameters()).isEqualTo(Map.of("grant_type", List.of("refresh_token"),
        "refresh_token", List.of(oldRefresh)));

    Wire.Answer reused = DeviceFlow.refresh(server, DEVICE_BASIC, oldRefresh);
    assertThat(reused.status()).isEqualTo(400);
    assertThat(reused.json()).isEqualTo(Map.of("error", "invalid_grant"));

    // a reuse revokes nothing: the newest refresh token still works, and rotates again
    Wire.Answer third = DeviceFlow.refresh(server, DEVICE_BASIC, (String) second.get("refresh_token"));
    assertThat(third.status()).isEqualTo(200);
    assertThat(third.json().get("refresh_token")).isNotEqualTo(second.get("refresh_token"));
  }

  @Test void aPublicDeviceRefreshesWithItsClientIdAlone(StandardAuthServer server) {
    Map<String, Object> tokens = DeviceFlow.signIn(server, DEVICE_PUBLIC, ALICE);

    Wire.Answer refreshed = DeviceFlow.refresh(server, DEVICE_PUBLIC, (String) tokens.get("refresh_token"));

    assertThat(refreshed.status()).as("%s", refreshed).isEqualTo(200);
    assertThat(refreshed.json()).containsKeys("access_token", "refresh_token");
    assertThat(server.journal().last(server.tokenEndpointPath()).parameterNames())
        .containsExactlyInAnyOrder("client_id", "grant_type", "refresh_token");
  }

  @Test void withoutClientIdARefreshIs401WithNoBody(StandardAuthServer server) {
    Map<String, Object> tokens = DeviceFlow.signIn(server, DEVICE_PUBLIC, ALICE);

    Wire.Answer anonymous = Wire.postRaw(server.tokenEndpoint(), Map.of("Accept", "application/json"),
        "grant_type", "refresh_token", "refresh_token", (String) tokens.get("refresh_token"));

    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(anonymous.body()).isEmpty();
    // nothing was spent: the device can still refresh
    assertThat(DeviceFlow.refresh(server, DEVICE_PUBLIC, (String) tokens.get("refresh_token")).status()).isEqualTo(200);
  }

  @Test void aNarrowerScopeMayBeAskedForAWiderOneNot(StandardAuthServer server) {
    Map<String, Object> tokens = DeviceFlow.signIn(server, DEVICE_POST, ALICE);

    Wire.Answer narrower = Wire.post(server.tokenEndpoint(), DEVICE_POST, "grant_type", "refresh_token",
        "refresh_token", (String) tokens.get("refresh_token"), "scope", "profile");

    assertThat(narrower.json()).containsEntry("scope", "profile");
    Wire.Answer wider = Wire.post(server.tokenEndpoint(), DEVICE_POST, "grant_type", "refresh_token",
        "refresh_token", (String) narrower.json().get("refresh_token"), "scope", "profile openid");
    assertThat(wider.status()).isEqualTo(400);
    assertThat(wider.json()).isEqualTo(Map.of("error", "invalid_scope"));
  }

  @Test void anotherClientOrAWrongSecretCannotRefresh(StandardAuthServer server) {
    Map<String, Object> tokens = DeviceFlow.signIn(server, DEVICE_BASIC, ALICE);
    String refresh = (String) tokens.get("refresh_token");

    assertThat(DeviceFlow.refresh(server, DEVICE_POST, refresh).json()).isEqualTo(Map.of("error", "invalid_grant"));
    Wire.Answer wrongSecret = DeviceFlow.refresh(server, DEVICE_BASIC.withSecret("wrong"), refresh);
    assertThat(wrongSecret.status()).isEqualTo(401);
    assertThat(wrongSecret.json()).isEqualTo(Map.of("error", "invalid_client"));
    // neither spent it
    assertThat(DeviceFlow.refresh(server, DEVICE_BASIC, refresh).status()).isEqualTo(200);
  }
}
