package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.error;
import static dev.voicelink.auth.AuthServerScript.json;
import static dev.voicelink.auth.AuthServerScript.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceFlowOutcome.Kind;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The device flow in the standard dialect (RFC 8628) against a scripted server: the exact wire. */
class StandardDeviceFlowTest {
  static final String DEVICE_GRANT = "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code";

  private final VirtualTime time = new VirtualTime();
  private final AuthServerScript script = new AuthServerScript(time);
  private final MockWebServer server = new MockWebServer();
  private final DeviceAuthorizerTest.Events events = new DeviceAuthorizerTest.Events();
  private final List<String> logLines = Collections.synchronizedList(new ArrayList<>());
  private VoiceLinkClient config;

  @BeforeEach void setUp() throws IOException {
    server.setDispatcher(script);
    server.start();
    config = VoiceLinkClient.builder().clock(time).scheduler(time).build();
    VoiceLinkLog.setSink(new VoiceLinkLog.Sink() {
      @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
        return true;
      }

      @Override public void log(VoiceLinkLog.Level level, String tag, String message,
          @Nullable Throwable failure) {
        logLines.add(message + (failure != null ? " | " + failure : ""));
      }
    });
  }

  @AfterEach void tearDown() throws IOException {
    VoiceLinkLog.setSink(VoiceLinkLog.javaUtilLogging());
    server.shutdown();
  }

  private OAuthServer oauthServer(String... authMethods) {
    return StandardServers.at(server, authMethods);
  }

  private DeviceAuthorizer publicClient() {
    return DeviceAuthorizer.builder(config, oauthServer()).clientId("speaker-public")
        .scope("profile voicelink.entities").random(new Random(7)).build();
  }

  static MockResponse standardCode(@Nullable Integer interval) {
    return json(200, "{\"device_code\":\"dc-secret-9f8e7d\",\"user_code\":\"WDJB-MJHT\","
        + "\"verification_uri\":\"https://login.example.com/activate\","
        + "\"verification_uri_complete\":\"https://login.example.com/activate?user_code=WDJB-MJHT\","
        + (interval != null ? "\"interval\":" + interval + "," : "") + "\"expires_in\":300}");
  }

  static MockResponse standardToken(String tokenType) {
    return json(200, "{\"access_token\":\"at-std-1\",\"token_type\":\"" + tokenType + "\","
        + "\"expires_in\":299,\"refresh_token\":\"rt-std-1\",\"scope\":\"profile voicelink.entities\","
        + "\"id_token\":\"eyJ.id-token-secret.sig\"}");
  }

  private VoiceLinkCall<DeviceFlowOutcome> startFlow(DeviceAuthorizer authorizer)
      throws InterruptedException {
    int before = time.scheduledCount();
    VoiceLinkCall<DeviceFlowOutcome> flow = authorizer.authorize(events);
    flow.enqueue(events);
    time.awaitScheduled(before + 1);
    return flow;
  }

  @Test void requestsACodeFormEncodedWithClientIdAndScope() throws Exception {
    script.enqueue(standardCode(null));
    DeviceCode code = publicClient().requestCode().execute();

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getPath()).isEqualTo("/oauth2/device_authorization");
    assertThat(request.getHeader("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
    assertThat(request.getHeader("Accept")).isEqualTo("application/json");
    assertThat(request.getHeader("Authorization")).isNull();
    assertThat(request.getBody().readUtf8())
        .isEqualTo("client_id=speaker-public&scope=profile+voicelink.entities");

    assertThat(code.link()).isEqualTo("https://login.example.com/activate?user_code=WDJB-MJHT");
    assertThat(code.verificationUri()).isEqualTo("https://login.example.com/activate");
    assertThat(code.intervalSeconds()).isEqualTo(5);
    assertThat(code.expiresInSeconds()).isEqualTo(300);
  }

  @Test void withoutVerificationUriCompleteTheLinkIsMadeFromVerificationUri() throws Exception {
    script.enqueue(json(200, "{\"device_code\":\"d\",\"user_code\":\"AB CD\","
        + "\"verification_uri\":\"https://login.example.com/activate\",\"expires_in\":300}"));
    DeviceCode code = publicClient().requestCode().execute();
    assertThat(code.link()).isEqualTo("https://login.example.com/activate?user_code=AB%20CD");
  }

  @Test void theDraftsVerificationUrlIsReadAsVerificationUri() throws Exception {
    script.enqueue(json(200, "{\"device_code\":\"d\",\"user_code\":\"ABCD\","
        + "\"verification_url\":\"https://www.example.com/device\",\"expires_in\":1800,"
        + "\"interval\":5}"));
    DeviceCode code = publicClient().requestCode().execute();
    assertThat(code.verificationUri()).isEqualTo("https://www.example.com/device");
    assertThat(code.link()).isEqualTo("https://www.example.com/device?user_code=ABCD");
    assertThat(logLines).contains("the device authorization answer names its page"
        + " verification_url, not verification_uri (RFC 8628 section 3.2): read as verification_uri"
        + " (docs/platform-assumptions.md)");

    script.enqueue(json(200, "{\"device_code\":\"d\",\"user_code\":\"ABCD\","
        + "\"verification_url\":\"http://www.example.com/device\",\"expires_in\":1800}"));
    assertThatThrownBy(() -> publicClient().requestCode().execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed device authorization response (HTTP 200): verification_uri must be an"
            + " https address (http only on a loopback host); was: http://www.example.com/device");
  }

  @Test void whereTheUserSignsInMustBeHttps() throws Exception {
    // RFC 6749 3.1: the QR code must not lead to a page without TLS, where the user types a password.
    script.enqueue(json(200, "{\"device_code\":\"d\",\"user_code\":\"ABCD\","
        + "\"verification_uri\":\"http://login.example.com/activate\",\"expires_in\":300}"));
    assertThatThrownBy(() -> publicClient().requestCode().execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed device authorization response (HTTP 200): verification_uri must be an"
            + " https address (http only on a loopback host); was: http://login.example.com/activate");

    script.enqueue(json(200, "{\"device_code\":\"d\",\"user_code\":\"ABCD\","
        + "\"verification_uri\":\"https://login.example.com/activate\","
        + "\"verification_uri_complete\":\"http://evil.example/activate?user_code=ABCD\","
        + "\"expires_in\":300}"));
    assertThat(publicClient().requestCode().execute().link()).as("made from verification_uri")
        .isEqualTo("https://login.example.com/activate?user_code=ABCD");
  }

  @Test void withoutScopeTheRequestCarriesNone() throws Exception {
    script.enqueue(standardCode(null));
    DeviceAuthorizer.builder(config, oauthServer()).clientId("speaker-public").build()
        .requestCode().execute();
    assertThat(server.takeRequest().getBody().readUtf8()).isEqualTo("client_id=speaker-public");
  }

  @Test void pollsFormEncodedEveryFiveSecondsWhenNoIntervalIsGivenUntilAuthorized() throws Exception {
    script.enqueue(standardCode(null), pending(), pending(), standardToken("Bearer"));
    startFlow(publicClient());
    assertThat(time.pendingDelaysMillis()).containsExactly(5000L);
    stepPoll(5000);
    stepPoll(5000);
    time.advance(5000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();

    assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 5000L, 10000L, 15000L);
    assertThat(events.calls).containsExactly("code WDJB-MJHT",
        "poll 1 authorization_pending 5000", "poll 2 authorization_pending 5000",
        "outcome AUTHORIZED");
    server.takeRequest();
    for (int i = 0; i < 3; i++) {
      RecordedRequest poll = server.takeRequest();
      assertThat(poll.getPath()).isEqualTo("/oauth2/token");
      assertThat(poll.getHeader("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
      assertThat(poll.getHeader("Authorization")).isNull();
      assertThat(poll.getBody().readUtf8()).isEqualTo("grant_type=" + DEVICE_GRANT
          + "&device_code=dc-secret-9f8e7d&client_id=speaker-public");
    }

    TokenRecord record = outcome.token();
    assertThat(record.dialect()).isEqualTo(TokenRecord.Dialect.STANDARD);
    assertThat(record.tokenEndpoint()).isEqualTo(server.url("/oauth2/token").toString());
    assertThat(record.clientAuthentication()).isEqualTo(OAuthServer.ClientAuthentication.NONE);
    assertThat(record.issuer()).isNull();
    assertThat(record.grant()).isEqualTo(TokenRecord.Grant.DEVICE);
    assertThat(record.clientId()).isEqualTo("speaker-public");
    assertThat(record.accessToken()).isEqualTo("at-std-1");
    assertThat(record.refreshToken()).isEqualTo("rt-std-1");
    assertThat(record.tokenType()).isEqualTo("Bearer");
    assertThat(record.expiresInSeconds()).isEqualTo(299);
    assertThat(record.scope()).isEqualTo("profile voicelink.entities");
    assertThat(record.idToken()).isEqualTo("eyJ.id-token-secret.sig");
    assertThat(record.toString()).doesNotContain("at-std-1", "rt-std-1", "id-token-secret",
        "voicelink.entities");
    assertThat(String.join("\n", logLines)).doesNotContain("at-std-1", "rt-std-1",
        "id-token-secret", "voicelink.entities", "dc-secret-9f8e7d");
  }

  @Test void pollsAtTheAdvertisedIntervalInSeconds() throws Exception {
    script.enqueue(standardCode(3), pending(), standardToken("bearer"));
    startFlow(publicClient());
    stepPoll(3000);
    time.advance(3000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 3000L, 6000L);
  }

  @Test void slowDownAddsFiveSecondsForTheRestOfTheFlow() throws Exception {
    script.enqueue(standardCode(null), error("slow_down"), pending(), error("slow_down"), pending(),
        standardToken("Bearer"));
    startFlow(publicClient());
    stepPoll(5000);   // slow_down: 10 s from now on
    stepPoll(10000);  // pending
    stepPoll(10000);  // slow_down: 15 s
    stepPoll(15000);  // pending
    assertThat(time.pendingDelaysMillis()).containsExactly(15000L);
    time.advance(15000, TimeUnit.MILLISECONDS);
    assertThat(events.await().kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 5000L, 15000L, 25000L, 40000L, 55000L);
    assertThat(events.calls).contains("poll 1 slow_down 10000", "poll 2 authorization_pending 10000",
        "poll 3 slow_down 15000", "poll 4 authorization_pending 15000");
  }

  @Test void accessDeniedIsDenied() throws Exception {
    DeviceFlowOutcome outcome = endWith(json(400,
        "{\"error\":\"access_denied\",\"error_description\":\"The user denied the request\"}"));
    assertThat(outcome.kind()).isEqualTo(Kind.DENIED);
    assertThat(outcome.failure()).isInstanceOf(AuthorizationException.class)
        .hasMessage("access_denied: The user denied the request");
  }

  @Test void expiredTokenIsExpired() throws Exception {
    DeviceFlowOutcome outcome = endWith(error("expired_token"));
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(((AuthorizationException) outcome.failure()).code()).isEqualTo("expired_token");
  }

  @Test void invalidGrantIsExpired() throws Exception {
    DeviceFlowOutcome outcome = endWith(json(400, "{\"error\":\"invalid_grant\"}"));
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(((AuthorizationException) outcome.failure()).code()).isEqualTo("invalid_grant");
  }

  @Test void azureAdsNamesForARefusalAndAnExpiredCodeAreRead() throws Exception {
    assertThat(endWith(json(400, "{\"error\":\"authorization_declined\"}")).kind())
        .isEqualTo(Kind.DENIED);
  }

  @Test void azureAdV1sExpiredCodeIsExpired() throws Exception {
    assertThat(endWith(json(400, "{\"error\":\"code_expired\"}")).kind()).isEqualTo(Kind.EXPIRED);
  }

  @Test void aTokenWithNeitherExpiresInNorRefreshTokenIsTakenNotToExpire() throws Exception {
    // GitHub's answer for a token that never expires.
    script.enqueue(standardCode(null), json(200, "{\"access_token\":\"gho_secret\","
        + "\"token_type\":\"bearer\",\"scope\":\"repo\"}"));
    startFlow(publicClient());
    time.advance(5000, TimeUnit.MILLISECONDS);
    TokenRecord record = events.await().token();
    assertThat(record.expiresInSeconds()).isEqualTo(TimeUnit.DAYS.toSeconds(3650));
    assertThat(logLines).contains("the token answer has neither expires_in nor refresh_token: the"
        + " token is taken not to expire (315360000 s), and is served until a server rejects it"
        + " (docs/platform-assumptions.md)");

    TokenManager manager = TokenManager.builder(config, oauthServer()).deviceGrant("speaker-public")
        .store(new InMemoryTokenStore(record)).build();
    time.advance(30, TimeUnit.DAYS);
    assertThat(manager.accessToken()).isEqualTo("gho_secret");
    assertThat(script.arrivalsMillis()).hasSize(2); // the code and the poll: no refresh
  }

  @Test void aTokenWithoutARefreshTokenSaysTheSignInEndsWithIt() throws Exception {
    script.enqueue(standardCode(null), json(200, "{\"access_token\":\"at-x\","
        + "\"token_type\":\"Bearer\",\"expires_in\":3600}"));
    startFlow(publicClient());
    time.advance(5000, TimeUnit.MILLISECONDS);
    assertThat(events.await().token().expiresInSeconds()).isEqualTo(3600);
    assertThat(logLines).contains("the token answer has no refresh_token: the device must be"
        + " authorized again when the token expires, in 3600 s; servers such as Okta, Auth0 and"
        + " Entra ID issue one only for the scope offline_access (docs/platform-assumptions.md)");
  }

  @Test void anotherErrorFails() throws Exception {
    DeviceFlowOutcome outcome = endWith(json(401, "{\"error\":\"invalid_client\"}"));
    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(((AuthorizationException) outcome.failure()).code()).isEqualTo("invalid_client");
  }

  private DeviceFlowOutcome endWith(MockResponse poll) throws Exception {
    script.enqueue(standardCode(null), pending(), poll);
    startFlow(publicClient());
    stepPoll(5000);
    time.advance(5000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();
    assertThat(script.arrivalsMillis()).containsExactly(0L, 5000L, 10000L);
    return outcome;
  }

  @Test void theCodeExpiresLocallyWithoutAnotherPoll() throws Exception {
    script.enqueue(json(200, "{\"device_code\":\"d\",\"user_code\":\"U\","
        + "\"verification_uri\":\"https://login.example.com/activate\",\"expires_in\":12}"),
        pending(), pending());
    startFlow(publicClient());
    stepPoll(5000);
    stepPoll(5000);
    assertThat(time.pendingDelaysMillis()).containsExactly(2000L);
    time.advance(2000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.EXPIRED);
    assertThat(script.arrivalsMillis()).containsExactly(0L, 5000L, 10000L);
  }

  @Test void cancelStopsTheFlowAndPollsNoMore() throws Exception {
    script.enqueue(standardCode(null), pending());
    VoiceLinkCall<DeviceFlowOutcome> flow = startFlow(publicClient());
    flow.cancel();
    assertThat(events.awaitResult().isCancelled()).isTrue();
    time.advance(60, TimeUnit.SECONDS);
    assertThat(script.arrivalsMillis()).containsExactly(0L);
  }

  @Test void tokenTypeIsComparedCaseInsensitively() throws Exception {
    script.enqueue(standardCode(null), standardToken("BEARER"));
    startFlow(publicClient());
    time.advance(5000, TimeUnit.MILLISECONDS);
    assertThat(events.await().token().tokenType()).isEqualTo("BEARER");
  }

  @Test void aTokenTypeOtherThanBearerFailsTheFlow() throws Exception {
    script.enqueue(standardCode(null), standardToken("DPoP"));
    startFlow(publicClient());
    time.advance(5000, TimeUnit.MILLISECONDS);
    DeviceFlowOutcome outcome = events.await();
    assertThat(outcome.kind()).isEqualTo(Kind.FAILED);
    assertThat(outcome.failure()).isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed token record: token_type \"DPoP\" is not supported; expected Bearer");
  }

  @Test void basicWinsWhenTheServerOffersBoth() throws Exception {
    script.enqueue(standardCode(null), standardToken("Bearer"));
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config,
            oauthServer("client_secret_post", "client_secret_basic", "none"))
        .clientId("speaker:basic").clientSecret("s3cret:&=").scope("profile").build();
    DeviceCode code = authorizer.requestCode().execute();
    RecordedRequest request = server.takeRequest();
    // RFC 6749 section 2.3.1: id and secret form-encoded, then Basic
    String basic = "Basic " + okio.ByteString.encodeUtf8("speaker%3Abasic:s3cret%3A%26%3D").base64();
    assertThat(request.getHeader("Authorization")).isEqualTo(basic);
    assertThat(request.getBody().readUtf8()).isEqualTo("scope=profile");

    DeviceFlowOutcome outcome = poll(authorizer, code);
    RecordedRequest poll = server.takeRequest();
    assertThat(poll.getHeader("Authorization")).isEqualTo(basic);
    assertThat(poll.getBody().readUtf8())
        .isEqualTo("grant_type=" + DEVICE_GRANT + "&device_code=dc-secret-9f8e7d");
    assertThat(outcome.token().clientAuthentication())
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC);
    assertThat(authorizer.toString()).doesNotContain("s3cret");
  }

  /** RFC 6749 appendix A.1: a client_id is any printable ASCII, a space included. */
  @Test void aClientIdWithASpaceIsFormEncodedInTheBodyAndInBasic() throws Exception {
    script.enqueue(standardCode(null), standardToken("Bearer"));
    DeviceAuthorizer open = DeviceAuthorizer.builder(config, oauthServer("none"))
        .clientId("Kitchen Speaker").build();
    DeviceCode code = open.requestCode().execute();
    assertThat(server.takeRequest().getBody().readUtf8()).isEqualTo("client_id=Kitchen+Speaker");
    DeviceFlowOutcome outcome = poll(open, code);
    assertThat(server.takeRequest().getBody().readUtf8()).isEqualTo("grant_type=" + DEVICE_GRANT
        + "&device_code=dc-secret-9f8e7d&client_id=Kitchen+Speaker");
    TokenRecord stored = TokenRecord.fromStorageJson(outcome.token().toStorageJson());
    assertThat(stored.clientId()).isEqualTo("Kitchen Speaker");

    script.enqueue(standardCode(null));
    DeviceAuthorizer.builder(config, oauthServer("client_secret_basic")).clientId("Kitchen Speaker")
        .clientSecret("s3cret").build().requestCode().execute();
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("Basic "
        + okio.ByteString.encodeUtf8("Kitchen+Speaker:s3cret").base64());
  }

  @Test void aClientIdThatStartsOrEndsWithASpaceIsASlipAndRefused() {
    assertThatThrownBy(() -> DeviceAuthorizer.builder(config, oauthServer("none")).clientId("speaker "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client_id must not start or end with a space; was: \"speaker \"");
    assertThatThrownBy(() -> TokenRecord.builder().clientId("Kitchen\tSpeaker"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client_id must not contain control characters or whitespace other than a space;"
            + " was: \"Kitchen\\u0009Speaker\"");
  }

  @Test void postWhenTheServerOffersOnlyPost() throws Exception {
    script.enqueue(standardCode(null), standardToken("Bearer"));
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config, oauthServer("client_secret_post"))
        .clientId("speaker-post").clientSecret("s3cret").build();
    DeviceCode code = authorizer.requestCode().execute();
    RecordedRequest request = server.takeRequest();
    assertThat(request.getHeader("Authorization")).isNull();
    assertThat(request.getBody().readUtf8())
        .isEqualTo("client_id=speaker-post&client_secret=s3cret");
    DeviceFlowOutcome outcome = poll(authorizer, code);
    assertThat(server.takeRequest().getBody().readUtf8()).isEqualTo("grant_type=" + DEVICE_GRANT
        + "&device_code=dc-secret-9f8e7d&client_id=speaker-post&client_secret=s3cret");
    assertThat(outcome.token().clientAuthentication())
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST);
  }

  @Test void postWhenTheClientIsRegisteredForItThoughTheServerPrefersBasic() throws Exception {
    script.enqueue(standardCode(null), standardToken("Bearer"));
    OAuthServer postClient = oauthServer("client_secret_basic", "client_secret_post").newBuilder()
        .clientAuthentication(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST).build();
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config, postClient)
        .clientId("speaker-post").clientSecret("s3cret").build();
    DeviceCode code = authorizer.requestCode().execute();
    RecordedRequest request = server.takeRequest();
    assertThat(request.getHeader("Authorization")).isNull();
    assertThat(request.getBody().readUtf8()).isEqualTo("client_id=speaker-post&client_secret=s3cret");
    DeviceFlowOutcome outcome = poll(authorizer, code);
    RecordedRequest poll = server.takeRequest();
    assertThat(poll.getHeader("Authorization")).isNull();
    assertThat(poll.getBody().readUtf8()).isEqualTo("grant_type=" + DEVICE_GRANT
        + "&device_code=dc-secret-9f8e7d&client_id=speaker-post&client_secret=s3cret");
    assertThat(outcome.token().clientAuthentication())
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST);
  }

  /**
   * Moves the clock to the next poll and waits until its answer was taken: the poll arms the code's
   * deadline while it is out (one task), and its answer schedules the wait before the next (another).
   */
  private void stepPoll(long millis) throws InterruptedException {
    time.step(millis, 2);
  }

  /** A blocking poll that the virtual clock lets through its first wait. */
  private DeviceFlowOutcome poll(DeviceAuthorizer authorizer, DeviceCode code) throws Exception {
    int before = time.scheduledCount();
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<DeviceFlowOutcome> outcome =
          thread.submit(() -> authorizer.poll(code).execute());
      time.awaitScheduled(before + 1);
      time.advance(5, TimeUnit.SECONDS);
      return outcome.get(10, TimeUnit.SECONDS);
    } finally {
      thread.shutdownNow();
    }
  }

  @Test void aSecretTheServerCannotTakeIsRefusedBeforeSending() {
    assertThatThrownBy(() -> DeviceAuthorizer.builder(config, oauthServer("private_key_jwt"))
        .clientId("speaker").clientSecret("s3cret").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the server supports neither client_secret_basic nor client_secret_post for a"
            + " client secret; token_endpoint_auth_methods_supported: [private_key_jwt]");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void dialectsAreNotMixed() {
    DeviceAuthorizer standard = publicClient();
    assertThatThrownBy(() -> standard.requestCode("SN-1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("a standard OAuth 2.0 server takes no device_id: call requestCode() or"
            + " authorize(listener)");
    VoiceLinkClient platform = VoiceLinkClient.builder().authUrl(server.url("/").toString()).build();
    DeviceAuthorizer platformAuthorizer = DeviceAuthorizer.builder(platform).clientId("c").build();
    assertThatThrownBy(platformAuthorizer::requestCode)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the platform's device flow needs a device_id: call requestCode(deviceId) or"
            + " authorize(deviceId, listener)");
    assertThatThrownBy(() -> DeviceAuthorizer.builder(platform).scope("profile"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("scope is a standard OAuth 2.0 setting; the platform's dialect has none (use"
            + " DeviceAuthorizer.builder(client, server))");
    assertThatThrownBy(() -> DeviceAuthorizer.builder(config, oauthServer()).scope("a  b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scope must be names separated by single spaces; was: \"a  b\"");
    assertThatThrownBy(() -> DeviceAuthorizer.builder(config, OAuthServer.builder()
        .tokenEndpoint(server.url("/t").toString()).build()).clientId("c").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("the server has no device_authorization_endpoint: OAuthServer{");
    assertThat(server.getRequestCount()).isZero();
  }
}
