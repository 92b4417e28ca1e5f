package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.TokenManager.State;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** The token lifecycle in the standard dialect (RFC 6749 sections 4.4 and 6): the exact wire. */
class StandardTokenManagerTest {
  @TempDir File dir;
  private final VirtualTime time = new VirtualTime();
  private final AuthServerScript script = new AuthServerScript(time);
  private final MockWebServer server = new MockWebServer();
  private final StateLog states = new StateLog();
  private VoiceLinkClient config;

  @BeforeEach void setUp() throws IOException {
    server.setDispatcher(script);
    server.start();
    config = VoiceLinkClient.builder().clock(time).scheduler(time).build();
  }

  @AfterEach void tearDown() throws IOException {
    server.shutdown();
  }

  private OAuthServer oauthServer(String... authMethods) {
    return StandardServers.at(server, authMethods);
  }

  private TokenRecord standardRecord(OAuthServer.ClientAuthentication authentication, String clientId) {
    return TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId(clientId)
        .standard(null, server.url("/oauth2/token").toString(), authentication)
        .scope("profile voicelink.entities").idToken("eyJ.id-1.sig")
        .tokenType("Bearer").accessToken("at-1").refreshToken("rt-1").expiresInSeconds(300)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build();
  }

  /** A store holding a public client's record of a 300 s token received now. */
  private InMemoryTokenStore publicStore() {
    return new InMemoryTokenStore(standardRecord(OAuthServer.ClientAuthentication.NONE, "speaker-public"));
  }

  private TokenManager publicManager(TokenStore store) {
    TokenManager manager = TokenManager.builder(config, oauthServer()).deviceGrant("speaker-public")
        .store(store).random(new Random(3)).build();
    manager.addListener(states);
    return manager;
  }

  @Test void refreshOfAPublicClientSendsItsClientIdAndSavesTheRotatedToken() throws Exception {
    InMemoryTokenStore store = publicStore();
    TokenManager manager = publicManager(store);
    script.enqueue(json(200, "{\"access_token\":\"at-2\",\"token_type\":\"bearer\",\"expires_in\":300,"
        + "\"refresh_token\":\"rt-2\"}"));

    time.advance(300, TimeUnit.SECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-2");

    RecordedRequest refresh = server.takeRequest();
    assertThat(refresh.getPath()).isEqualTo("/oauth2/token");
    assertThat(refresh.getHeader("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
    assertThat(refresh.getHeader("Authorization")).isNull();
    assertThat(refresh.getBody().readUtf8())
        .isEqualTo("grant_type=refresh_token&refresh_token=rt-1&client_id=speaker-public");
    TokenRecord saved = store.load();
    assertThat(saved.refreshToken()).isEqualTo("rt-2");
    assertThat(saved.dialect()).isEqualTo(TokenRecord.Dialect.STANDARD);
    assertThat(saved.tokenEndpoint()).isEqualTo(server.url("/oauth2/token").toString());
    // no scope in the answer: what was granted before
    assertThat(saved.scope()).isEqualTo("profile voicelink.entities");
    states.awaitExactly(State.LOADING, State.VALID, State.REFRESHING, State.VALID);
    assertThat(manager.toString()).doesNotContain("at-2", "rt-2", "voicelink.entities", "id-1");
  }

  @Test void anAnswerWithoutARefreshTokenKeepsTheOldOne() throws Exception {
    InMemoryTokenStore store = publicStore();
    TokenManager manager = publicManager(store);
    script.enqueue(json(200, "{\"access_token\":\"at-2\",\"token_type\":\"Bearer\",\"expires_in\":300,"
        + "\"scope\":\"profile\"}"));
    TokenRecord record = manager.refresh().execute();
    assertThat(record.accessToken()).isEqualTo("at-2");
    assertThat(record.refreshToken()).isEqualTo("rt-1");
    assertThat(record.scope()).isEqualTo("profile");
    assertThat(record.idToken()).isEqualTo("eyJ.id-1.sig"); // none in the answer: the sign-in's
    assertThat(store.load().refreshToken()).isEqualTo("rt-1");

    script.enqueue(json(200, "{\"access_token\":\"at-3\",\"token_type\":\"Bearer\",\"expires_in\":300,"
        + "\"id_token\":\"eyJ.id-2.sig\"}"));
    assertThat(manager.refresh().execute().idToken()).isEqualTo("eyJ.id-2.sig");
  }

  /** RFC 6749's invalid_grant, and GitHub's bad_refresh_token (in HTTP 200) for one expired or used. */
  @ParameterizedTest @CsvSource({"400, invalid_grant", "200, bad_refresh_token"})
  void aRefusedRefreshTokenMeansReauthorizationRequired(int status, String error) throws Exception {
    InMemoryTokenStore store = publicStore();
    TokenManager manager = publicManager(store);
    script.enqueue(json(status, "{\"error\":\"" + error + "\",\"error_description\":\"refresh"
        + " token revoked\"}"));
    assertThatThrownBy(() -> manager.refresh().execute())
        .isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage(error + ": refresh token revoked");
    assertThat(manager.state()).isEqualTo(State.REAUTHORIZATION_REQUIRED);
    assertThatThrownBy(manager::accessToken).isInstanceOf(ReauthorizationRequiredException.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(store.load()).isNotNull(); // nothing is lost
  }

  @Test void aConfidentialDeviceClientRefreshesWithBasic() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(
        standardRecord(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC, "speaker-basic"));
    TokenManager manager = TokenManager.builder(config, oauthServer("client_secret_basic"))
        .deviceGrant("speaker-basic", "s3cret").store(store).build();
    script.enqueue(json(200, "{\"access_token\":\"at-2\",\"token_type\":\"Bearer\",\"expires_in\":300,"
        + "\"refresh_token\":\"rt-2\"}"));
    manager.refresh().execute();
    RecordedRequest refresh = server.takeRequest();
    assertThat(refresh.getHeader("Authorization"))
        .isEqualTo("Basic " + ByteString.encodeUtf8("speaker-basic:s3cret").base64());
    assertThat(refresh.getBody().readUtf8()).isEqualTo("grant_type=refresh_token&refresh_token=rt-1");
  }

  @Test void clientCredentialsWithBasic() throws Exception {
    TokenManager manager = TokenManager.builder(config,
            oauthServer("client_secret_basic", "client_secret_post"))
        .cloudGrant("backend", "b4ck3nd-secret").scope("voicelink.entities")
        .store(new InMemoryTokenStore()).build();
    script.enqueue(json(200, "{\"access_token\":\"at-c\",\"token_type\":\"Bearer\",\"expires_in\":300,"
        + "\"scope\":\"voicelink.entities\"}"));
    assertThat(manager.accessToken()).isEqualTo("at-c");
    RecordedRequest request = server.takeRequest();
    assertThat(request.getPath()).isEqualTo("/oauth2/token");
    assertThat(request.getHeader("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
    assertThat(request.getHeader("Authorization"))
        .isEqualTo("Basic " + ByteString.encodeUtf8("backend:b4ck3nd-secret").base64());
    assertThat(request.getBody().readUtf8())
        .isEqualTo("grant_type=client_credentials&scope=voicelink.entities");
    TokenRecord record = manager.record();
    assertThat(record.grant()).isEqualTo(TokenRecord.Grant.CLOUD);
    assertThat(record.dialect()).isEqualTo(TokenRecord.Dialect.STANDARD);
    assertThat(record.scope()).isEqualTo("voicelink.entities");
    assertThat(manager.toString()).doesNotContain("b4ck3nd-secret", "at-c");

    // no refresh token: when it runs out, client credentials again
    script.enqueue(json(200, "{\"access_token\":\"at-d\",\"token_type\":\"Bearer\",\"expires_in\":300}"));
    time.advance(300, TimeUnit.SECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-d");
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("grant_type=client_credentials&scope=voicelink.entities");
  }

  @Test void clientCredentialsWithPost() throws Exception {
    TokenManager manager = TokenManager.builder(config, oauthServer("client_secret_post"))
        .cloudGrant("backend", "b4ck3nd-secret").store(new InMemoryTokenStore()).build();
    script.enqueue(json(200, "{\"access_token\":\"at-c\",\"token_type\":\"Bearer\",\"expires_in\":300}"));
    manager.accessToken();
    assertSecretPosted(server.takeRequest());
  }

  @Test void aClientRegisteredForPostSendsPostAtAServerThatPrefersBasic() throws Exception {
    OAuthServer postClient = oauthServer("client_secret_basic", "client_secret_post").newBuilder()
        .clientAuthentication(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST).build();
    TokenManager backend = TokenManager.builder(config, postClient)
        .cloudGrant("backend", "b4ck3nd-secret").store(new InMemoryTokenStore()).build();
    script.enqueue(json(200, "{\"access_token\":\"at-c\",\"token_type\":\"Bearer\",\"expires_in\":300}"));

    backend.accessToken();

    assertSecretPosted(server.takeRequest());
    assertThat(backend.record().clientAuthentication())
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST);
  }

  /** client_secret_post: the backend's credentials in the form, no Authorization header. */
  private static void assertSecretPosted(RecordedRequest request) {
    assertThat(request.getHeader("Authorization")).isNull();
    assertThat(request.getBody().readUtf8())
        .isEqualTo("grant_type=client_credentials&client_id=backend&client_secret=b4ck3nd-secret");
  }

  @Test void aWrongClientSecretIsARefusalNotAReauthorization() throws Exception {
    TokenManager manager = TokenManager.builder(config, oauthServer())
        .cloudGrant("backend", "wrong").store(new InMemoryTokenStore()).build();
    script.enqueue(json(401, "{\"error\":\"invalid_client\"}"));
    assertThatThrownBy(manager::accessToken)
        .isInstanceOf(AuthorizationException.class)
        .isNotInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_client");
  }

  @Test void aTokenWithoutARefreshTokenIsServedUntilItExpiresAndThenNeedsASignIn() throws Exception {
    // RFC 6749 section 5.1: refresh_token is optional; such a token is good until expires_in.
    InMemoryTokenStore store = new InMemoryTokenStore(standardRecord(
        OAuthServer.ClientAuthentication.NONE, "speaker-public").newBuilder().refreshToken(null).build());
    TokenManager manager = publicManager(store);

    time.advance(299, TimeUnit.SECONDS); // well inside what would be its refresh margin
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(manager.state()).isEqualTo(State.VALID);
    assertThatThrownBy(() -> manager.refresh().execute())
        .as("nothing to renew it with: the forced refresh fails, the token stays")
        .isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_grant: the stored record has no refresh token");
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(manager.state()).isEqualTo(State.VALID);

    time.advance(1, TimeUnit.SECONDS);
    assertThatThrownBy(manager::accessToken)
        .isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_grant: the stored record has no refresh token");
    assertThat(manager.state()).isEqualTo(State.REAUTHORIZATION_REQUIRED);
    assertThat(server.getRequestCount()).isZero();
    assertThat(store.load().accessToken()).isEqualTo("at-1"); // nothing is lost
  }

  @Test void aTokenWithoutARefreshTokenIsServedWhileTheClockIsBehindUntilAServerRejectsIt()
      throws Exception {
    // Received an hour after the device clock's now (a speaker restarted before NTP): its age is
    // unknown, and with nothing to renew it, a refresh margin would only end the sign-in early.
    InMemoryTokenStore store = new InMemoryTokenStore(standardRecord(
        OAuthServer.ClientAuthentication.NONE, "speaker-public").newBuilder().refreshToken(null)
        .receivedAtEpochMillis(time.wallMillis() + TimeUnit.HOURS.toMillis(1)).build());
    TokenManager manager = publicManager(store);

    time.advance(299, TimeUnit.SECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-1");
    manager.invalidate("at-1"); // the server rejected it
    assertThatThrownBy(manager::accessToken)
        .isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_grant: the stored record has no refresh token");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aRefusalThatSaysNothingOfTheTokenLeavesItServedUntilItExpires() throws Exception {
    InMemoryTokenStore store = publicStore();
    TokenManager manager = publicManager(store);
    script.enqueue(json(400, "{\"error\":\"invalid_scope\",\"error_description\":\"scope"
        + " withdrawn\"}"));

    time.advance(150, TimeUnit.SECONDS); // the margin of a 300 s token is half of it
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(manager.accessToken()).as("the next try waits out a backoff").isEqualTo("at-1");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(manager.state()).isEqualTo(State.VALID);

    // Who asks for a new token (the CLI's refresh, an app after rotating its secret) is told.
    script.enqueue(json(400, "{\"error\":\"invalid_scope\",\"error_description\":\"scope"
        + " withdrawn\"}"));
    assertThatThrownBy(() -> manager.refresh().execute())
        .isInstanceOf(AuthorizationException.class)
        .hasMessage("invalid_scope: scope withdrawn");
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(server.getRequestCount()).isEqualTo(2);

    script.enqueue(json(400, "{\"error\":\"invalid_scope\",\"error_description\":\"scope"
        + " withdrawn\"}"));
    time.advance(150, TimeUnit.SECONDS);
    assertThatThrownBy(manager::accessToken)
        .isInstanceOf(AuthorizationException.class)
        .isNotInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_scope: scope withdrawn");
    assertThat(server.getRequestCount()).isEqualTo(3);
    assertThat(manager.state()).isEqualTo(State.EXPIRED);
    states.awaitExactly(State.LOADING, State.VALID, State.REFRESHING, State.VALID, State.REFRESHING,
        State.VALID, State.REFRESHING, State.EXPIRED);
    assertThat(store.load().refreshToken()).isEqualTo("rt-1");
  }

  @Test void aRedirectOfTheTokenEndpointIsNotFollowedWithTheRefreshTokenInItsBody() throws Exception {
    MockWebServer elsewhere = new MockWebServer();
    elsewhere.start();
    try {
      TokenManager manager = publicManager(publicStore());
      script.enqueue(new MockResponse().setResponseCode(307)
          .setHeader("Location", elsewhere.url("/collect").toString()));

      time.advance(300, TimeUnit.SECONDS);
      assertThatThrownBy(manager::accessToken)
          .isInstanceOf(IOException.class)
          .hasMessage("HTTP 307, a redirect: authorization requests are not sent on to another"
              + " address, as their secrets would go with them; configure the address the server"
              + " names");
      assertThat(server.getRequestCount()).isEqualTo(1);
      assertThat(elsewhere.getRequestCount()).isZero();
    } finally {
      elsewhere.shutdown();
    }
  }

  @Test void a401FromTheTokenEndpointIsTheServersRefusalNotTheAppAuthenticatorsToAnswer()
      throws Exception {
    AtomicInteger authenticatorCalls = new AtomicInteger();
    OkHttpClient app = new OkHttpClient.Builder()
        .authenticator((route, response) -> {
          authenticatorCalls.incrementAndGet();
          return response.request().newBuilder().header("Authorization", "Bearer app-token").build();
        })
        .build();
    VoiceLinkClient shared = VoiceLinkClient.builder().httpClient(app).clock(time).scheduler(time)
        .build();
    try {
      TokenManager manager = TokenManager.builder(shared, oauthServer("client_secret_basic"))
          .deviceGrant("speaker-basic", "rotated-away")
          .store(new InMemoryTokenStore(
              standardRecord(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC, "speaker-basic")))
          .build();
      script.enqueue(json(401, "{\"error\":\"invalid_client\"}"));

      time.advance(300, TimeUnit.SECONDS);
      assertThatThrownBy(manager::accessToken)
          .isInstanceOf(AuthorizationException.class)
          .hasMessage("invalid_client");
      assertThat(authenticatorCalls).hasValue(0);
      assertThat(server.getRequestCount()).isEqualTo(1);
      assertThat(server.takeRequest().getHeader("Authorization"))
          .isEqualTo("Basic " + ByteString.encodeUtf8("speaker-basic:rotated-away").base64());
    } finally {
      shared.close();
    }
  }

  @Test void anExpiresInBeyondTenYearsIsTenYearsFromAStandardServer() throws Exception {
    TokenManager manager = publicManager(publicStore());
    script.enqueue(json(200, "{\"access_token\":\"at-2\",\"token_type\":\"Bearer\","
        + "\"expires_in\":2147483647,\"refresh_token\":\"rt-2\"}"));

    assertThat(manager.refresh().execute().expiresInSeconds())
        .as("RFC 6749: seconds, never the platform's milliseconds reading")
        .isEqualTo(TimeUnit.DAYS.toSeconds(3650));
  }

  @Test void aStoredRecordIsRefreshedAfterARebootWithNoOtherConfiguration() throws Exception {
    File file = new File(dir, "token.json");
    new FileTokenStore(file).save(standardRecord(OAuthServer.ClientAuthentication.NONE,
        "speaker-public"));

    // After a reboot: a client with no auth_url, a manager that only knows its store.
    VoiceLinkClient rebooted = VoiceLinkClient.builder().clock(time).scheduler(time).build();
    FileTokenStore store = new FileTokenStore(file);
    TokenManager manager = TokenManager.builder(rebooted).store(store).build();
    StateLog.awaitLoaded(manager);
    TokenRecord loaded = manager.record();
    assertThat(loaded).isEqualTo(standardRecord(OAuthServer.ClientAuthentication.NONE,
        "speaker-public"));

    script.enqueue(json(200, "{\"access_token\":\"at-2\",\"token_type\":\"Bearer\",\"expires_in\":300,"
        + "\"refresh_token\":\"rt-2\"}"));
    time.advance(300, TimeUnit.SECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-2");
    RecordedRequest refresh = server.takeRequest();
    assertThat(refresh.getPath()).isEqualTo("/oauth2/token");
    assertThat(refresh.getBody().readUtf8())
        .isEqualTo("grant_type=refresh_token&refresh_token=rt-1&client_id=speaker-public");
    assertThat(new FileTokenStore(file).load().refreshToken()).isEqualTo("rt-2");
    assertThat(new FileTokenStore(file).load().dialect()).isEqualTo(TokenRecord.Dialect.STANDARD);
  }

  @Test void aConfidentialRecordNeedsItsSecretAfterAReboot() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(
        standardRecord(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST, "speaker-post"));
    TokenManager manager = TokenManager.builder(config).store(store).build();
    assertThatThrownBy(() -> manager.refresh().execute())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("client_secret is required: the client authenticates with client_secret_post");
    assertThat(server.getRequestCount()).isZero();
    assertThat(manager.state()).isEqualTo(State.VALID);
  }

  @Test void theInterceptorSendsABearerToken() throws Exception {
    InMemoryTokenStore store = publicStore();
    TokenManager manager = publicManager(store);
    script.enqueue(json(200, "{}"));
    OkHttpClient http = new OkHttpClient.Builder().addInterceptor(manager.interceptor()).build();
    try (Response response = http.newCall(new Request.Builder().url(server.url("/api")).build())
        .execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("Bearer at-1");
  }

  @Test void aManagerOfOneServerRefusesRecordsOfAnother() throws Exception {
    TokenManager manager = publicManager(new InMemoryTokenStore());
    TokenRecord platform = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
        .clientId("speaker-public").accessToken("at").expiresInSeconds(60)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis()).build();
    assertThatThrownBy(() -> manager.setRecord(platform))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("record is a platform record; this manager keeps tokens of "
            + server.url("/oauth2/token"));

    TokenManager fromStore = TokenManager.builder(config, oauthServer()).deviceGrant("speaker-public")
        .store(new InMemoryTokenStore(platform)).build();
    assertThatThrownBy(fromStore::accessToken)
        .isInstanceOf(IOException.class)
        .hasMessage("the store holds a platform record; this manager keeps tokens of "
            + server.url("/oauth2/token"));

    VoiceLinkClient platformClient = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .clock(time).scheduler(time).build();
    TokenManager platformManager = TokenManager.builder(platformClient).deviceGrant("speaker-public")
        .store(new InMemoryTokenStore()).build();
    assertThatThrownBy(() -> platformManager.setRecord(
        standardRecord(OAuthServer.ClientAuthentication.NONE, "speaker-public")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("record is a record of the standard server " + server.url("/oauth2/token")
            + "; this manager keeps platform tokens (use TokenManager.builder(client, server))");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aStandardRecordRoundTripsThroughStorageJson() throws Exception {
    TokenRecord record = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("speaker")
        .standard("https://login.example.com/realms/speakers", "https://login.example.com/token",
            OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC)
        .scope("profile").idToken("eyJ.id.sig").tokenType("Bearer").accessToken("at")
        .refreshToken("rt").expiresInSeconds(60).createdAtEpochSeconds(1_763_712_000L)
        .receivedAtEpochMillis(1_763_712_000_000L).build();
    String json = record.toStorageJson();
    assertThat(json).startsWith("{\"version\":1,\"grant\":\"device\",\"dialect\":\"standard\","
        + "\"issuer\":\"https://login.example.com/realms/speakers\","
        + "\"token_endpoint\":\"https://login.example.com/token\","
        + "\"token_endpoint_auth_method\":\"client_secret_basic\",\"scope\":\"profile\","
        + "\"id_token\":\"eyJ.id.sig\",");
    assertThat(TokenRecord.fromStorageJson(json)).isEqualTo(record);
    assertThat(record.toString()).doesNotContain("profile", "eyJ.id.sig");
    assertThatThrownBy(() -> TokenRecord.fromStorageJson(json.replace("\"standard\"", "\"other\"")))
        .isInstanceOf(IOException.class).hasMessage("dialect must be platform or standard; was: other");
    assertThatThrownBy(() -> TokenRecord.fromStorageJson(
        json.replace("\"client_secret_basic\"", "\"private_key_jwt\"")))
        .isInstanceOf(IOException.class).hasMessage("token_endpoint_auth_method must be none,"
            + " client_secret_basic or client_secret_post; was: private_key_jwt");
  }

  @Test void aRecordWithoutADialectIsAPlatformOne() throws Exception {
    TokenRecord record = TokenRecord.fromStorageJson("{\"version\":1,\"grant\":\"device\","
        + "\"client_id\":\"c\",\"token_type\":\"bearer\",\"access_token\":\"at\","
        + "\"refresh_token\":\"rt\",\"expires_in\":60,\"created_at\":1763712000,"
        + "\"received_at_ms\":1763712000000}");
    assertThat(record.dialect()).isEqualTo(TokenRecord.Dialect.PLATFORM);
    assertThat(record.tokenEndpoint()).isNull();
    assertThat(record.toStorageJson()).doesNotContain("dialect");
  }
}
