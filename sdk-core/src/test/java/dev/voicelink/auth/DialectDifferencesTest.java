package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the two dialects read the same answer differently, side by side through the public API, each
 * with its exact message and warning: the engine is shared, so a difference lost or swapped between
 * them would otherwise show only in one dialect's own tests, if at all.
 */
class DialectDifferencesTest {
  private static final String ASSUMPTIONS = " (docs/platform-assumptions.md)";
  private static final long TEN_YEARS = TimeUnit.DAYS.toSeconds(3650);

  private final MockWebServer server = new MockWebServer();
  private VoiceLinkClient platform;
  private VoiceLinkClient standard;
  private OAuthServer oauth;
  private LogCapture log;

  @BeforeEach void setUp() throws IOException {
    server.start();
    platform = VoiceLinkClient.builder().authUrl(server.url("/").toString()).build();
    standard = VoiceLinkClient.builder().build();
    oauth = StandardServers.at(server);
    log = LogCapture.install();
  }

  @AfterEach void tearDown() throws IOException {
    log.close();
    platform.close();
    standard.close();
    server.shutdown();
  }

  private DeviceAuthorizer platformAuthorizer() {
    return DeviceAuthorizer.builder(platform).clientId("vl-speaker-01").build();
  }

  private DeviceAuthorizer standardAuthorizer() {
    return DeviceAuthorizer.builder(standard, oauth).clientId("speaker-public").build();
  }

  private static String codeAnswer(String fields) {
    return "{\"user_code\":\"WDJB-MJHT\",\"device_code\":\"dc-secret-9f8e7d\"," + fields + "}";
  }

  // where the user signs in

  @Test void thePlatformReadsOnlyVerificationUriAndShowsItOverHttpToo() throws Exception {
    server.enqueue(json(200, codeAnswer("\"verification_url\":\"https://auth.example.com/verify\","
        + "\"expires_in\":120")));
    assertThatThrownBy(() -> platformAuthorizer().requestCode("SN-1").execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed device authorization response (HTTP 200): verification_uri is missing");

    server.enqueue(json(200, codeAnswer("\"verification_uri\":\"http://auth.example.com/verify\","
        + "\"verification_uri_complete\":\"https://elsewhere.example/verify?c=1\",\"expires_in\":120")));
    DeviceCode code = platformAuthorizer().requestCode("SN-1").execute();
    assertThat(code.link()).isEqualTo("http://auth.example.com/verify?user_code=WDJB-MJHT");
    assertThat(log.warnings()).isEmpty();
  }

  @Test void aStandardLinkThatIsNoAddressOrNotHttpsGivesWayToVerificationUri() throws Exception {
    DeviceAuthorizer authorizer = standardAuthorizer();
    server.enqueue(json(200, codeAnswer("\"verification_uri\":\"https://login.example.com/activate\","
        + "\"verification_uri_complete\":\"not a link\",\"expires_in\":300")));
    assertThat(authorizer.requestCode().execute().link())
        .isEqualTo("https://login.example.com/activate?user_code=WDJB-MJHT");
    server.enqueue(json(200, codeAnswer("\"verification_uri\":\"https://login.example.com/activate\","
        + "\"verification_uri_complete\":\"http://evil.example/activate\",\"expires_in\":300")));
    assertThat(authorizer.requestCode().execute().link())
        .isEqualTo("https://login.example.com/activate?user_code=WDJB-MJHT");
    assertThat(log.warnings()).containsExactly(
        "WARN auth verification_uri_complete is not an http address: the link is made from"
            + " verification_uri" + ASSUMPTIONS,
        "WARN auth verification_uri_complete is not an https address: the link is made from"
            + " verification_uri" + ASSUMPTIONS);
  }

  @Test void everyFieldIsReadAndSaidInOrderBeforeTheFirstProblemEndsTheAnswer() throws Exception {
    server.enqueue(json(200, codeAnswer("\"verification_url\":\"https://login.example.com/activate\","
        + "\"verification_uri_complete\":\"http://evil.example/activate\",\"expires_in\":\"300.5\","
        + "\"interval\":\"2.5\"")));
    DeviceCode code = standardAuthorizer().requestCode().execute();
    assertThat(code.intervalMillis()).isEqualTo(2500);
    assertThat(code.expiresInSeconds()).isEqualTo(300);
    assertThat(log.warnings()).containsExactly(
        "WARN auth the device authorization answer names its page verification_url, not"
            + " verification_uri (RFC 8628 section 3.2): read as verification_uri" + ASSUMPTIONS,
        "WARN auth verification_uri_complete is not an https address: the link is made from"
            + " verification_uri" + ASSUMPTIONS,
        "WARN auth device_code expires_in is a number sent as text: read as 300.5" + ASSUMPTIONS,
        "WARN auth device_code expires_in 300.5 is not a whole number: read as 300 s" + ASSUMPTIONS,
        "WARN auth device_code interval 2.5 is not a whole number: polls every 2500 ms" + ASSUMPTIONS);

    log.close();
    log = LogCapture.install();
    server.enqueue(json(200, "{\"device_code\":\"d\",\"verification_uri_complete\":\"not a link\","
        + "\"expires_in\":\"120\"}"));
    assertThatThrownBy(() -> standardAuthorizer().requestCode().execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed device authorization response (HTTP 200): verification_uri is missing");
    assertThat(log.warnings()).containsExactly(
        "WARN auth verification_uri_complete is not an http address: the link is made from"
            + " verification_uri" + ASSUMPTIONS,
        "WARN auth device_code expires_in is a number sent as text: read as 120" + ASSUMPTIONS);

    server.enqueue(json(200, "{\"device_code\":\"d\",\"verification_uri\":\"http://login.example.com/a\","
        + "\"expires_in\":120}"));
    assertThatThrownBy(() -> standardAuthorizer().requestCode().execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed device authorization response (HTTP 200): verification_uri must be an"
            + " https address (http only on a loopback host); was: http://login.example.com/a");
    server.enqueue(json(200, "{\"device_code\":\"d\",\"verification_uri\":\"https://login.example.com/a\","
        + "\"expires_in\":120}"));
    assertThatThrownBy(() -> standardAuthorizer().requestCode().execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed device authorization response (HTTP 200): user_code is missing");
  }

  // the unit of interval

  @Test void aStandardIntervalIsSecondsWhateverItsSizeAndThePlatformsIsJudged() throws Exception {
    String answer = codeAnswer("\"verification_uri\":\"https://login.example.com/activate\","
        + "\"expires_in\":300,\"interval\":400");
    server.enqueue(json(200, answer));
    assertThatThrownBy(() -> standardAuthorizer().requestCode().execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed device authorization response (HTTP 200): interval 400 s must be"
            + " shorter than expires_in 300 s");
    server.enqueue(json(200, codeAnswer("\"verification_uri\":\"https://login.example.com/activate\","
        + "\"expires_in\":300,\"interval\":150")));
    assertThat(standardAuthorizer().requestCode().execute().intervalMillis()).isEqualTo(150_000);
    assertThat(log.warnings()).isEmpty();

    server.enqueue(json(200, answer));
    assertThat(platformAuthorizer().requestCode("SN-1").execute().intervalMillis()).isEqualTo(1000);
    assertThat(log.warnings()).containsExactly("WARN auth device_code interval 400 is not below"
        + " expires_in 300, so it cannot be seconds: read as milliseconds (polls every 1000 ms)"
        + ASSUMPTIONS);
  }

  @Test void toStringNamesWhereCodesAreAskedFor() {
    assertThat(platformAuthorizer().toString())
        .isEqualTo("DeviceAuthorizer{client_id=vl-speaker-01, auth_url=" + server.url("/") + "}");
    assertThat(standardAuthorizer().toString()).isEqualTo("DeviceAuthorizer{client_id=speaker-public,"
        + " device_authorization_endpoint=" + server.url("/oauth2/device_authorization") + "}");
  }

  // token answers, read for a new cloud grant (client credentials) and for a refresh

  private TokenManager platformCloud() {
    return TokenManager.builder(platform).cloudGrant("backend", "s3cret")
        .store(new InMemoryTokenStore()).build();
  }

  private TokenManager standardCloud() {
    return TokenManager.builder(standard, oauth).cloudGrant("backend", "s3cret")
        .store(new InMemoryTokenStore()).build();
  }

  @Test void tokenTypeIsNamedAsEachDialectSpellsIt() throws Exception {
    server.enqueue(json(200, "{\"access_token\":\"at-1\",\"refresh_token\":\"rt-1\",\"expires_in\":60}"));
    assertThat(platformCloud().refresh().execute().tokenType()).isEqualTo("bearer");
    server.enqueue(json(200, "{\"access_token\":\"at-1\",\"refresh_token\":\"rt-1\",\"expires_in\":60}"));
    assertThat(standardCloud().refresh().execute().tokenType()).isEqualTo("Bearer");
    assertThat(log.warnings()).containsExactly(
        "WARN auth the token answer has no token_type: read as bearer" + ASSUMPTIONS,
        "WARN auth the token answer has no token_type: read as Bearer" + ASSUMPTIONS);

    server.enqueue(json(200, "{\"access_token\":\"at-1\",\"token_type\":\"mac\",\"expires_in\":60}"));
    assertThatThrownBy(() -> platformCloud().refresh().execute())
        .hasMessage("malformed token record: token_type \"mac\" is not supported; expected bearer");
    server.enqueue(json(200, "{\"access_token\":\"at-1\",\"token_type\":\"mac\",\"expires_in\":60}"));
    assertThatThrownBy(() -> standardCloud().refresh().execute())
        .hasMessage("malformed token record: token_type \"mac\" is not supported; expected Bearer");
  }

  @Test void aLifetimeBeyondTenYearsIsMillisecondsFromThePlatformAndTenYearsFromAStandardServer()
      throws Exception {
    server.enqueue(json(200, "{\"access_token\":\"a\",\"token_type\":\"bearer\","
        + "\"refresh_token\":\"r\",\"expires_in\":8640000000}"));
    assertThat(platformCloud().refresh().execute().expiresInSeconds()).isEqualTo(8_640_000);
    server.enqueue(json(200, "{\"access_token\":\"a\",\"token_type\":\"bearer\","
        + "\"refresh_token\":\"r\",\"expires_in\":8640000000}"));
    assertThat(standardCloud().refresh().execute().expiresInSeconds()).isEqualTo(TEN_YEARS);
    assertThat(log.warnings()).containsExactly(
        "WARN auth token expires_in 8640000000 is more than 10 years in seconds: read as"
            + " milliseconds, 8640000 s" + ASSUMPTIONS,
        "WARN auth token expires_in 8640000000 s is more than 10 years: read as 315360000 s"
            + ASSUMPTIONS);
  }

  @Test void withNeitherRefreshTokenNorExpiresInOnlyAStandardNewGrantNeverExpires() throws Exception {
    server.enqueue(json(200, "{\"access_token\":\"a\",\"token_type\":\"bearer\"}"));
    assertThat(platformCloud().refresh().execute().expiresInSeconds()).isEqualTo(3600);
    assertThat(log.warnings()).containsExactly("WARN auth the token answer has no expires_in: the"
        + " token is taken to live 3600 s, and is refreshed sooner if a server rejects it"
        + ASSUMPTIONS);

    server.enqueue(json(200, "{\"access_token\":\"a\",\"token_type\":\"bearer\"}"));
    assertThat(standardCloud().refresh().execute().expiresInSeconds()).isEqualTo(TEN_YEARS);
    server.enqueue(json(200, "{\"access_token\":\"a\",\"token_type\":\"bearer\",\"expires_in\":60}"));
    assertThat(standardCloud().refresh().execute().expiresInSeconds()).isEqualTo(60);
    assertThat(log.warnings()).containsExactly(
        "WARN auth the token answer has no expires_in: the token is taken to live 3600 s, and is"
            + " refreshed sooner if a server rejects it" + ASSUMPTIONS,
        "WARN auth the token answer has neither expires_in nor refresh_token: the token is taken"
            + " not to expire (315360000 s), and is served until a server rejects it" + ASSUMPTIONS,
        "WARN auth the token answer has no refresh_token: the device must be authorized again when"
            + " the token expires, in 60 s; servers such as Okta, Auth0 and Entra ID issue one only"
            + " for the scope offline_access" + ASSUMPTIONS);
  }

  @Test void aStandardRefreshWithNeitherKeepsTheRefreshTokenAndTheDefaultLifetime() throws Exception {
    TokenRecord stored = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("speaker-public")
        .standard(null, oauth.tokenEndpoint(), OAuthServer.ClientAuthentication.NONE)
        .tokenType("Bearer").accessToken("at-1").refreshToken("rt-1").expiresInSeconds(300)
        .receivedAtEpochMillis(System.currentTimeMillis()).build();
    TokenManager manager = TokenManager.builder(standard, oauth).deviceGrant("speaker-public")
        .store(new InMemoryTokenStore(stored)).build();
    server.enqueue(json(200, "{\"access_token\":\"at-2\",\"token_type\":\"Bearer\"}"));
    TokenRecord refreshed = manager.refresh().execute();
    assertThat(refreshed.expiresInSeconds()).isEqualTo(3600);
    assertThat(refreshed.refreshToken()).isEqualTo("rt-1");
    assertThat(log.warnings()).containsExactly(
        "WARN auth the token answer has no expires_in: the token is taken to live 3600 s, and is"
            + " refreshed sooner if a server rejects it" + ASSUMPTIONS,
        "WARN auth the refresh answer has no refresh_token: the stored one is kept for the next"
            + " refresh" + ASSUMPTIONS);
  }

  // what only a standard server takes

  @Test void theSettingsOnlyAStandardServerTakesAreRefusedOnThePlatformBeforeTheirValue() {
    String rule = " is a standard OAuth 2.0 setting; the platform's dialect has none (use ";
    assertThatThrownBy(() -> DeviceAuthorizer.builder(platform).clientSecret(""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("clientSecret" + rule + "DeviceAuthorizer.builder(client, server))");
    assertThatThrownBy(() -> DeviceAuthorizer.builder(platform).scope(""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("scope" + rule + "DeviceAuthorizer.builder(client, server))");
    assertThatThrownBy(() -> TokenManager.builder(platform).scope(""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("scope" + rule + "TokenManager.builder(client, server))");
    assertThatThrownBy(() -> TokenManager.builder(platform).deviceGrant(" c", ""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("deviceGrant(clientId, clientSecret)" + rule + "TokenManager.builder(client, server))");
    assertThatThrownBy(() -> TokenManager.builder(platform).cloudGrant("c", ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("client_secret must not be empty");
  }

  @Test void aStandardServerChecksTheValuesClientIdFirst() {
    assertThatThrownBy(() -> DeviceAuthorizer.builder(standard, oauth).clientSecret(" s3cret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client_secret must not start or end with whitespace (a line break read with it"
            + " from a file, say); the value is not shown");
    assertThatThrownBy(() -> TokenManager.builder(standard, oauth).deviceGrant(" c", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client_id must not start or end with a space; was: \" c\"");
    assertThatThrownBy(() -> TokenManager.builder(standard, oauth).deviceGrant("c", ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("client_secret must not be empty");
    assertThatThrownBy(() -> TokenManager.builder(standard, oauth).scope("a  b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scope must be names separated by single spaces; was: \"a  b\"");
  }
}
