package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.BOB;
import static dev.voicelink.interop.InteropAccounts.CUSTOM_SCOPE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_CODE_GRANT;
import static dev.voicelink.interop.InteropAccounts.DEVICE_POST;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RFC 8628 against the server: what a device sends, what it is answered, and the person's part on the pages. */
@ExtendWith(SharedServer.class)
class DeviceGrantTest {
  static final String DEVICE_ERROR_URI = "https://datatracker.ietf.org/doc/html/rfc8628#section-3.5";
  static final String OAUTH_ERROR_URI = "https://datatracker.ietf.org/doc/html/rfc6749#section-5.2";

  static void assertError(Wire.Answer answer, int status, String error) {
    assertThat(answer.status()).as("%s", answer).isEqualTo(status);
    assertThat(answer.contentType()).isEqualTo("application/json;charset=UTF-8");
    assertThat(answer.json()).containsEntry("error", error);
  }

  @Test void theDeviceAuthorizationAnswerHasBothVerificationUrisAndNoInterval(StandardAuthServer server) {
    Wire.Answer answer = Wire.post(server.deviceAuthorizationEndpoint(), DEVICE_PUBLIC, "scope", "profile " + CUSTOM_SCOPE);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.contentType()).isEqualTo("application/json");
    assertThat(answer.cacheControl()).isEqualTo("no-cache, no-store, max-age=0, must-revalidate");
    Map<String, Object> json = answer.json();
    // no "interval": a device polls every 5 seconds (RFC 8628 section 3.2)
    assertThat(json.keySet()).containsExactlyInAnyOrder("device_code", "user_code", "verification_uri",
        "verification_uri_complete", "expires_in");
    assertThat(json).containsEntry("expires_in", 300.0)
        .containsEntry("verification_uri", server.issuer() + "/oauth2/device_verification")
        .containsEntry("verification_uri_complete",
            server.issuer() + "/oauth2/device_verification?user_code=" + json.get("user_code"));
    // eight consonants in two groups of four, easy to type on a phone
    assertThat((String) json.get("user_code")).matches("[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}");
    assertThat((String) json.get("device_code")).hasSize(128).matches("[A-Za-z0-9_-]+");

    Exchange request = server.journal().last(server.deviceAuthorizationEndpointPath());
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.contentType()).isEqualTo("application/x-www-form-urlencoded");
    assertThat(request.query()).isNull();
    assertThat(request.parameters()).isEqualTo(Map.of("client_id", List.of("speaker-public"),
        "scope", List.of("profile " + CUSTOM_SCOPE)));
    assertThat(request.authorizationScheme()).isNull();
    assertThat(request.responseJson()).isEqualTo(json);
  }

  @Test void theVerificationUrisFollowTheHostTheDeviceCalledNotTheIssuer(StandardAuthServer server) {
    String host = "http://localhost:" + server.port();

    Wire.Answer answer = Wire.post(host + server.deviceAuthorizationEndpointPath(), DEVICE_PUBLIC, "scope", "profile");

    assertThat(answer.json()).containsEntry("verification_uri", host + "/oauth2/device_verification")
        .containsEntry("verification_uri_complete", host + "/oauth2/device_verification?user_code="
            + answer.json().get("user_code"));
    assertThat(Wire.get(host + "/.well-known/openid-configuration").json()).containsEntry("issuer", server.issuer());
  }

  @Test void pendingUntilThePersonApprovesOnThePagesThenOneTokenAnswer(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);
    Wire.Answer pending = DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode());
    assertError(pending, 400, "authorization_pending");
    assertThat(pending.json()).isEqualTo(Map.of("error", "authorization_pending", "error_uri", DEVICE_ERROR_URI));

    Approver.Outcome outcome = Approver.approve(server, codes.userCode(), ALICE);

    assertThat(outcome.connected()).as("%s", outcome).isTrue();
    assertThat(outcome.title()).isEqualTo("Device connected");
    // verification_uri, then the login page, back to the code page, the code typed, the consent page, approved
    assertThat(outcome.steps()).containsExactly(
        "GET /oauth2/device_verification -> 302 /login",
        "GET /login -> 200",
        "POST /login -> 302 /oauth2/device_verification",
        "GET /oauth2/device_verification -> 200",
        "GET /oauth2/device_verification -> 200",
        "POST /oauth2/device_verification -> 302 /",
        "GET / -> 200");
    Exchange consent = server.journal().last(server.deviceVerificationPath());
    assertThat(consent.method()).isEqualTo("POST");
    assertThat(consent.parameters().get("scope")).containsExactlyInAnyOrder("profile", CUSTOM_SCOPE);
    assertThat(consent.param("user_code")).isEqualTo(codes.userCode());

    Wire.Answer token = DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode());
    assertThat(token.status()).as("%s", token).isEqualTo(200);
    assertThat(token.contentType()).isEqualTo("application/json;charset=UTF-8");
    assertThat(token.cacheControl()).isEqualTo("no-cache, no-store, max-age=0, must-revalidate");
    Map<String, Object> json = token.json();
    // no id_token: this server's device grant never issues one
    assertThat(json.keySet()).containsExactlyInAnyOrder("access_token", "refresh_token", "scope", "token_type",
        "expires_in");
    assertThat(json).containsEntry("token_type", "Bearer");
    assertThat(((String) json.get("scope")).split(" ")).containsExactlyInAnyOrder("profile", CUSTOM_SCOPE);
    // a 300 s lifetime is answered as 299: the token's issue time keeps its fraction of a second
    assertThat((Double) json.get("expires_in")).isBetween(299.0, 300.0);
    assertThat((String) json.get("access_token")).startsWith("eyJ"); // a signed JWT

    Exchange poll = server.journal().last(server.tokenEndpointPath());
    assertThat(poll.parameters()).isEqualTo(Map.of("client_id", List.of(DEVICE_PUBLIC.id()),
        "grant_type", List.of(DEVICE_CODE_GRANT), "device_code", List.of(codes.deviceCode())));
    assertThat(poll.contentType()).isEqualTo("application/x-www-form-urlencoded");

    // a device code gives tokens once; polled again it reads as refused
    assertThat(DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode()).json())
        .isEqualTo(Map.of("error", "access_denied", "error_uri", DEVICE_ERROR_URI));
  }

  @Test void theLinkWithTheCodeSkipsTyping(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_POST);

    Approver.Outcome outcome = Approver.approveAt(codes.verificationUriComplete(), BOB);

    assertThat(outcome.connected()).as("%s", outcome).isTrue();
    assertThat(outcome.steps()).containsExactly(
        "GET /oauth2/device_verification -> 302 /login",
        "GET /login -> 200",
        "POST /login -> 302 /oauth2/device_verification",
        "GET /oauth2/device_verification -> 200",
        "POST /oauth2/device_verification -> 302 /",
        "GET / -> 200");
    assertThat(DeviceFlow.poll(server, DEVICE_POST, codes.deviceCode()).status()).isEqualTo(200);
  }

  @Test void pollingAsFastAsPossibleIsNeverToldToSlowDown(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);
    for (int i = 0; i < 20; i++) {
      assertThat(DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode()).json())
          .isEqualTo(Map.of("error", "authorization_pending", "error_uri", DEVICE_ERROR_URI));
    }
    assertThat(server.journal().at(server.tokenEndpointPath())).hasSize(20).allSatisfy(e -> assertThat(e.status()).isEqualTo(400));
  }

  @Test void cancelOnTheConsentPageIsAccessDeniedForGood(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_BASIC);

    Approver.Outcome outcome = Approver.denyAt(codes.verificationUriComplete(), BOB);

    // the server answers the person with its error page
    assertThat(outcome.status()).isEqualTo(400);
    assertThat(outcome.text()).contains("[access_denied] OAuth 2.0 Parameter: client_id");
    Exchange consent = server.journal().last(server.deviceVerificationPath());
    assertThat(consent.parameterNames()).containsExactlyInAnyOrder("client_id", "state", "user_code");
    Wire.Answer denied = DeviceFlow.poll(server, DEVICE_BASIC, codes.deviceCode());
    assertError(denied, 400, "access_denied");
    assertThat(denied.json()).isEqualTo(Map.of("error", "access_denied", "error_uri", DEVICE_ERROR_URI));
    assertThat(DeviceFlow.poll(server, DEVICE_BASIC, codes.deviceCode()).json()).containsEntry("error", "access_denied");
    // the code is spent: approving it afterwards fails on the page
    Approver.Outcome later = Approver.approveAt(codes.verificationUriComplete(), BOB);
    assertThat(later.status()).isEqualTo(400);
    assertThat(later.text()).contains("[invalid_grant]");
  }

  @Test void anExpiredCodeIsExpiredTokenForTheDeviceAndRefusedOnThePage(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);
    server.expireDeviceCode(codes.deviceCode());

    Wire.Answer expired = DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode());
    assertError(expired, 400, "expired_token");
    assertThat(expired.json()).isEqualTo(Map.of("error", "expired_token", "error_uri", DEVICE_ERROR_URI));
    assertThat(DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode()).json()).containsEntry("error", "expired_token");
    Approver.Outcome outcome = Approver.approveAt(codes.verificationUriComplete(), ALICE);
    assertThat(outcome.status()).isEqualTo(400);
    assertThat(outcome.text()).contains("[invalid_grant]");
  }

  @Test void aWrongCodeOnThePageIsInvalidGrant(StandardAuthServer server) {
    Approver.Outcome outcome = Approver.approve(server, "BCDF-GHJK", ALICE);
    assertThat(outcome.status()).isEqualTo(400);
    assertThat(outcome.text()).contains("[invalid_grant]");
  }

  @Test void aWrongPasswordStaysOnTheLoginPage(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);
    Approver.Outcome outcome =
        Approver.approveAt(codes.verificationUriComplete(), new InteropAccounts.User(ALICE.username(), "wrong", ALICE.name()));
    assertThat(outcome.url()).isEqualTo(server.issuer() + "/login?error");
    assertThat(outcome.text()).contains("Invalid credentials");
    assertThat(DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode()).json()).containsEntry("error", "authorization_pending");
  }

  @Test void openidIsRefusedInADeviceRequestEvenWhenTheClientHasIt(StandardAuthServer server) {
    assertThat(DEVICE_PUBLIC.scopes()).contains("openid");
    Wire.Answer answer = Wire.post(server.deviceAuthorizationEndpoint(), DEVICE_PUBLIC, "scope", "openid profile");
    assertError(answer, 400, "invalid_scope");
    assertThat(answer.json()).isEqualTo(Map.of("error", "invalid_scope",
        "error_description", "OAuth 2.0 Parameter: scope", "error_uri", OAUTH_ERROR_URI));
  }

  @Test void aScopeTheClientDoesNotHaveIsRefused(StandardAuthServer server) {
    assertError(Wire.post(server.deviceAuthorizationEndpoint(), DEVICE_PUBLIC, "scope", "profile admin"), 400,
        "invalid_scope");
  }

  @Test void withoutAScopeThePersonHasNothingToApprove(StandardAuthServer server) {
    Wire.Answer answer = Wire.post(server.deviceAuthorizationEndpoint(), DEVICE_PUBLIC);
    assertThat(answer.status()).isEqualTo(200);
    String deviceCode = (String) answer.json().get("device_code");

    // the consent page shows no box; submitting it is a refusal
    Approver.Outcome outcome = Approver.approveAt((String) answer.json().get("verification_uri_complete"), ALICE);

    assertThat(outcome.status()).isEqualTo(400);
    assertThat(outcome.text()).contains("[access_denied]");
    assertThat(DeviceFlow.poll(server, DEVICE_PUBLIC, deviceCode).json()).containsEntry("error", "access_denied");
  }

  @Test void confidentialDevicesAuthenticateWithBasicOrPost(StandardAuthServer server) {
    Map<String, Object> basic = DeviceFlow.signIn(server, DEVICE_BASIC, ALICE);
    Map<String, Object> post = DeviceFlow.signIn(server, DEVICE_POST, ALICE);

    assertThat(basic).containsKeys("access_token", "refresh_token");
    assertThat(post).containsKeys("access_token", "refresh_token");
    List<Exchange> device = server.journal().at(server.deviceAuthorizationEndpointPath());
    assertThat(device.get(0).authorizationScheme()).isEqualTo("Basic");
    assertThat(device.get(0).basicClientId()).isEqualTo(DEVICE_BASIC.id());
    assertThat(device.get(0).parameterNames()).containsExactly("scope");
    assertThat(device.get(1).authorizationScheme()).isNull();
    assertThat(device.get(1).parameterNames()).containsExactlyInAnyOrder("client_id", "client_secret", "scope");
    assertThat(device.get(1).param("client_secret")).isEqualTo(DEVICE_POST.secret());
  }

  @Test void clientAuthenticationFailuresAre401InvalidClient(StandardAuthServer server) {
    for (InteropAccounts.Client client : List.of(DEVICE_BASIC.withSecret("wrong"), DEVICE_BASIC.withSecret(null),
        DEVICE_BASIC.sentAs(InteropAccounts.AuthMethod.CLIENT_SECRET_POST), DEVICE_PUBLIC.withId("nobody"))) {
      Wire.Answer answer = Wire.post(server.deviceAuthorizationEndpoint(), client, "scope", "profile");
      assertThat(answer.status()).as("%s", client).isEqualTo(401);
      assertThat(answer.json()).as("%s", client).isEqualTo(Map.of("error", "invalid_client"));
      assertThat(answer.wwwAuthenticate()).as("%s", client).isNull();
    }
    // no client at all: 401 with no body
    Wire.Answer anonymous = Wire.postRaw(server.deviceAuthorizationEndpoint(), Map.of("Accept", "application/json"),
        "scope", "profile");
    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(anonymous.body()).isEmpty();
  }

  @Test void aBackendClientCannotStartADeviceFlow(StandardAuthServer server) {
    Wire.Answer answer = Wire.post(server.deviceAuthorizationEndpoint(), InteropAccounts.BACKEND_BASIC,
        "scope", CUSTOM_SCOPE);
    assertError(answer, 400, "unauthorized_client");
  }

  @Test void anotherClientsDeviceCodeIsInvalidGrant(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);
    assertThat(DeviceFlow.poll(server, DEVICE_POST, codes.deviceCode()).json()).isEqualTo(Map.of("error", "invalid_grant"));
    assertThat(DeviceFlow.poll(server, DEVICE_PUBLIC, "no-such-code").json()).isEqualTo(Map.of("error", "invalid_grant"));
    Wire.Answer missing = Wire.post(server.tokenEndpoint(), DEVICE_PUBLIC, "grant_type", DEVICE_CODE_GRANT);
    assertThat(missing.json()).isEqualTo(Map.of("error", "invalid_request",
        "error_description", "OAuth 2.0 Parameter: device_code", "error_uri", OAUTH_ERROR_URI));
  }
}
