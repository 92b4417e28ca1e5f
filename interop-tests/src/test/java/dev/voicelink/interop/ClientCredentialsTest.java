package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.BACKEND_BASIC;
import static dev.voicelink.interop.InteropAccounts.BACKEND_POST;
import static dev.voicelink.interop.InteropAccounts.BACKEND_SCOPE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RFC 6749 section 4.4 for vendor backends, with the secret in HTTP Basic or in the form. */
@ExtendWith(SharedServer.class)
class ClientCredentialsTest {

  static void assertBackendToken(Wire.Answer answer) {
    assertThat(answer.status()).as("%s", answer).isEqualTo(200);
    assertThat(answer.contentType()).isEqualTo("application/json;charset=UTF-8");
    Map<String, Object> json = answer.json();
    // no refresh token with client credentials
    assertThat(json.keySet()).containsExactlyInAnyOrder("access_token", "scope", "token_type", "expires_in");
    assertThat(json).containsEntry("token_type", "Bearer").containsEntry("scope", BACKEND_SCOPE);
    assertThat((Double) json.get("expires_in")).isBetween(299.0, 300.0);
  }

  @Test void basic(StandardAuthServer server) {
    assertBackendToken(Wire.post(server.tokenEndpoint(), BACKEND_BASIC, "grant_type", "client_credentials",
        "scope", BACKEND_SCOPE));
    Exchange request = server.journal().last(server.tokenEndpointPath());
    assertThat(request.authorizationScheme()).isEqualTo("Basic");
    assertThat(request.basicClientId()).isEqualTo(BACKEND_BASIC.id());
    assertThat(request.parameters()).isEqualTo(Map.of("grant_type", List.of("client_credentials"),
        "scope", List.of(BACKEND_SCOPE)));
  }

  @Test void post(StandardAuthServer server) {
    assertBackendToken(Wire.post(server.tokenEndpoint(), BACKEND_POST, "grant_type", "client_credentials",
        "scope", BACKEND_SCOPE));
    Exchange request = server.journal().last(server.tokenEndpointPath());
    assertThat(request.authorizationScheme()).isNull();
    assertThat(request.parameterNames()).containsExactlyInAnyOrder("grant_type", "scope", "client_id", "client_secret");
  }

  @Test void withoutAScopeTheTokenHasNone(StandardAuthServer server) {
    Wire.Answer answer = Wire.post(server.tokenEndpoint(), BACKEND_BASIC, "grant_type", "client_credentials");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().keySet()).containsExactlyInAnyOrder("access_token", "token_type", "expires_in");
  }

  @Test void aWrongSecretOrTheOtherMethodIs401InvalidClient(StandardAuthServer server) {
    for (InteropAccounts.Client client : List.of(BACKEND_BASIC.withSecret("wrong"),
        BACKEND_BASIC.sentAs(InteropAccounts.AuthMethod.CLIENT_SECRET_POST),
        BACKEND_POST.sentAs(InteropAccounts.AuthMethod.CLIENT_SECRET_BASIC))) {
      Wire.Answer answer = Wire.post(server.tokenEndpoint(), client, "grant_type", "client_credentials");
      assertThat(answer.status()).as("%s", client).isEqualTo(401);
      assertThat(answer.json()).as("%s", client).isEqualTo(Map.of("error", "invalid_client"));
    }
  }

  @Test void aScopeTheBackendDoesNotHaveOrAGrantItDoesNotHaveIs400(StandardAuthServer server) {
    assertThat(Wire.post(server.tokenEndpoint(), BACKEND_BASIC, "grant_type", "client_credentials", "scope", "profile")
        .json()).isEqualTo(Map.of("error", "invalid_scope"));
    assertThat(Wire.post(server.tokenEndpoint(), DEVICE_BASIC, "grant_type", "client_credentials").json())
        .isEqualTo(Map.of("error", "unauthorized_client"));
    Wire.Answer password = Wire.post(server.tokenEndpoint(), BACKEND_BASIC, "grant_type", "password");
    assertThat(password.status()).isEqualTo(400);
    assertThat(password.json()).isEqualTo(Map.of("error", "unsupported_grant_type",
        "error_description", "OAuth 2.0 Parameter: grant_type", "error_uri", DeviceGrantTest.OAUTH_ERROR_URI));
  }
}
