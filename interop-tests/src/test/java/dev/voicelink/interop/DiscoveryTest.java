package dev.voicelink.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The two discovery documents a device reads from an issuer URL, as this server writes them. */
@ExtendWith(SharedServer.class)
class DiscoveryTest {

  static final List<String> COMMON_MEMBERS = List.of("issuer", "authorization_endpoint", "token_endpoint",
      "token_endpoint_auth_methods_supported", "jwks_uri", "response_types_supported", "grant_types_supported",
      "revocation_endpoint", "revocation_endpoint_auth_methods_supported", "introspection_endpoint",
      "introspection_endpoint_auth_methods_supported", "code_challenge_methods_supported",
      "tls_client_certificate_bound_access_tokens", "dpop_signing_alg_values_supported",
      "device_authorization_endpoint");
  static final List<String> OIDC_MEMBERS = List.of("userinfo_endpoint", "end_session_endpoint",
      "subject_types_supported", "id_token_signing_alg_values_supported", "scopes_supported");

  @Test void openIdConfigurationNamesEveryEndpointADeviceNeeds(StandardAuthServer server) {
    Wire.Answer answer = Wire.get(server.url("/.well-known/openid-configuration"));
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.contentType()).isEqualTo("application/json");
    Map<String, Object> document = answer.json();
    assertThat(document.keySet()).containsExactlyInAnyOrderElementsOf(concat(COMMON_MEMBERS, OIDC_MEMBERS));
    assertThat(document).containsEntry("issuer", server.issuer())
        .containsEntry("device_authorization_endpoint", server.issuer() + "/oauth2/device_authorization")
        .containsEntry("token_endpoint", server.issuer() + "/oauth2/token")
        .containsEntry("userinfo_endpoint", server.issuer() + "/userinfo")
        .containsEntry("jwks_uri", server.issuer() + "/oauth2/jwks")
        // what it lists, whatever clients it has: only "openid"
        .containsEntry("scopes_supported", List.of("openid"));
    // "none" is not listed, although the device grant's public clients use it
    assertThat(document.get("token_endpoint_auth_methods_supported")).isEqualTo(List.of("client_secret_basic",
        "client_secret_post", "client_secret_jwt", "private_key_jwt", "tls_client_auth", "self_signed_tls_client_auth"));
    assertThat(document.get("grant_types_supported")).isEqualTo(List.of("authorization_code", "client_credentials",
        "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange", InteropAccounts.DEVICE_CODE_GRANT));
  }

  @Test void authorizationServerMetadataIsTheSameWithoutOpenIdMembers(StandardAuthServer server) {
    Wire.Answer answer = Wire.get(server.url("/.well-known/oauth-authorization-server"));
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.contentType()).isEqualTo("application/json");
    Map<String, Object> rfc8414 = answer.json();
    assertThat(rfc8414.keySet()).containsExactlyInAnyOrderElementsOf(COMMON_MEMBERS);
    Map<String, Object> oidc = new HashMap<>(Wire.get(server.url("/.well-known/openid-configuration")).json());
    oidc.keySet().removeAll(OIDC_MEMBERS);
    assertThat(rfc8414).isEqualTo(oidc);
  }

  @Test void anIssuerWithAPathHasNoDocumentHere(StandardAuthServer server) {
    // Paths the server does not serve go to its login page, as every page a person must sign in for:
    // a device that follows redirects reads HTML there, not a discovery document.
    for (String path : List.of("/.well-known/oauth-authorization-server/tenant", "/tenant/.well-known/openid-configuration")) {
      Wire.Answer answer = Wire.get(server.url(path), "Accept", "application/json");
      assertThat(answer.status()).as(path).isEqualTo(302);
      assertThat(answer.location()).as(path).isEqualTo("/login");
    }
  }

  static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
