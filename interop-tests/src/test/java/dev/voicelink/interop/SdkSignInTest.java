package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.BACKEND_BASIC;
import static dev.voicelink.interop.InteropAccounts.BACKEND_POST;
import static dev.voicelink.interop.InteropAccounts.BACKEND_SCOPE;
import static dev.voicelink.interop.InteropAccounts.BOB;
import static dev.voicelink.interop.InteropAccounts.CUSTOM_SCOPE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_CODE_GRANT;
import static dev.voicelink.interop.InteropAccounts.DEVICE_POST;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_SCOPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.AuthId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The SDK's standard dialect against Spring Authorization Server: discovery, the device flow with the person's
 * approval on the server's own pages, refresh with rotation, client credentials. Asserted on what the server
 * received and answered ({@link Journal}).
 */
@ExtendWith(SharedServer.class)
class SdkSignInTest {
  private final VoiceLinkClient client = VoiceLinkClient.builder().build();
  private final ExecutorService flows = Executors.newSingleThreadExecutor();

  @AfterEach void tearDown() {
    flows.shutdownNow();
    client.close();
  }

  private OAuthServer discover(StandardAuthServer server) throws Exception {
    return OAuthServer.discover(client, server.issuer()).execute();
  }

  /** Signs {@code device} in: code, approval by {@code user} at the link, then the SDK's poll. */
  private TokenRecord signIn(StandardAuthServer server, OAuthServer oauth, InteropAccounts.Client device,
      InteropAccounts.User user) throws Exception {
    DeviceAuthorizer.Builder builder = DeviceAuthorizer.builder(client, oauth).clientId(device.id())
        .scope(DEVICE_SCOPE);
    if (device.secret() != null) builder.clientSecret(device.secret());
    DeviceAuthorizer authorizer = builder.build();
    DeviceCode code = authorizer.requestCode().execute();
    assertThat(Approver.approveAt(code.link(), user).connected()).isTrue();
    DeviceFlowOutcome outcome = authorizer.poll(code).execute();
    assertThat(outcome.kind()).as("%s", outcome).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    return outcome.token();
  }

  @Test void discoveryReadsTheServersOpenIdConfiguration(StandardAuthServer server) throws Exception {
    OAuthServer oauth = discover(server);
    assertThat(oauth.issuer()).isEqualTo(server.issuer());
    assertThat(oauth.deviceAuthorizationEndpoint()).isEqualTo(server.deviceAuthorizationEndpoint());
    assertThat(oauth.tokenEndpoint()).isEqualTo(server.tokenEndpoint());
    assertThat(oauth.userinfoEndpoint()).isEqualTo(server.userInfoEndpoint());
    assertThat(server.journal().all()).extracting(Exchange::path)
        .containsExactly("/.well-known/openid-configuration");
  }

  @Test void approvedWhilePollingAtTheAdvertisedInterval() throws Exception {
    try (StandardAuthServer server = StandardAuthServer.builder().interval(Duration.ofSeconds(1)).start()) {
      OAuthServer oauth = discover(server);
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client, oauth).clientId(DEVICE_PUBLIC.id())
          .scope(DEVICE_SCOPE).build();
      BlockingQueue<DeviceCode> codes = new ArrayBlockingQueue<>(1);
      CountDownLatch twoPending = new CountDownLatch(2);
      List<String> polls = java.util.Collections.synchronizedList(new ArrayList<>());
      DeviceFlowListener listener = new DeviceFlowListener() {
        @Override public void onCodeIssued(DeviceCode code) {
          codes.add(code);
        }

        @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
          polls.add(pollNumber + " " + result + " " + nextPollDelayMillis);
          twoPending.countDown();
        }
      };
      Future<DeviceFlowOutcome> flow = flows.submit(() -> authorizer.authorize(listener).execute());
      DeviceCode code = codes.poll(10, TimeUnit.SECONDS);
      assertThat(code.intervalSeconds()).isEqualTo(1);
      assertThat(twoPending.await(10, TimeUnit.SECONDS)).isTrue();

      assertThat(Approver.approveAt(code.link(), ALICE).connected()).isTrue();
      DeviceFlowOutcome outcome = flow.get(10, TimeUnit.SECONDS);

      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      assertThat(polls).startsWith("1 authorization_pending 1000", "2 authorization_pending 1000");
      Exchange request = server.journal().at(server.deviceAuthorizationEndpointPath()).get(0);
      assertThat(request.parameters()).isEqualTo(Map.of("client_id", List.of(DEVICE_PUBLIC.id()),
          "scope", List.of(DEVICE_SCOPE)));
      assertThat(request.contentType()).isEqualTo("application/x-www-form-urlencoded");
      assertThat(code.link()).isEqualTo(request.responseJson().get("verification_uri_complete"));
      List<Exchange> tokenPolls = server.journal().at(server.tokenEndpointPath());
      assertThat(tokenPolls.size()).isGreaterThanOrEqualTo(3);
      for (int i = 0; i < tokenPolls.size(); i++) {
        Exchange poll = tokenPolls.get(i);
        assertThat(poll.parameters()).isEqualTo(Map.of("client_id", List.of(DEVICE_PUBLIC.id()),
            "grant_type", List.of(DEVICE_CODE_GRANT), "device_code", List.of(code.deviceCode())));
        assertThat(poll.authorizationScheme()).isNull();
        if (i > 0) {
          assertThat(poll.receivedNanos() - tokenPolls.get(i - 1).receivedNanos())
              .as("gap before poll %d", i + 1).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(1));
        }
      }
      assertThat(tokenPolls.get(tokenPolls.size() - 1).status()).isEqualTo(200);
      TokenRecord record = outcome.token();
      assertThat(record.dialect()).isEqualTo(TokenRecord.Dialect.STANDARD);
      assertThat(record.issuer()).isEqualTo(server.issuer());
      assertThat(record.tokenEndpoint()).isEqualTo(server.tokenEndpoint());
      assertThat(record.accessToken())
          .isEqualTo(tokenPolls.get(tokenPolls.size() - 1).responseJson().get("access_token"));
      assertThat(record.scope().split(" ")).containsExactlyInAnyOrder("profile", CUSTOM_SCOPE);
    }
  }

  @Test void deniedOnTheConsentPage(StandardAuthServer server) throws Exception {
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client, discover(server))
        .clientId(DEVICE_PUBLIC.id()).scope(DEVICE_SCOPE).build();
    DeviceCode code = authorizer.requestCode().execute();
    Approver.denyAt(code.link(), BOB);

    DeviceFlowOutcome outcome = authorizer.poll(code).execute();

    assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.DENIED);
    assertThat(((AuthorizationException) outcome.failure()).code()).isEqualTo("access_denied");
    Exchange poll = server.journal().last(server.tokenEndpointPath());
    assertThat(poll.status()).isEqualTo(400);
    assertThat(poll.responseJson()).containsEntry("error", "access_denied");
    assertThat(server.journal().at(server.tokenEndpointPath())).hasSize(1);
  }

  @Test void anExpiredCodeEndsTheFlowAsExpired(StandardAuthServer server) throws Exception {
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client, discover(server))
        .clientId(DEVICE_PUBLIC.id()).scope(DEVICE_SCOPE).build();
    DeviceCode code = authorizer.requestCode().execute();
    server.expireDeviceCode(code.deviceCode());

    DeviceFlowOutcome outcome = authorizer.poll(code).execute();

    assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.EXPIRED);
    assertThat(((AuthorizationException) outcome.failure()).code()).isEqualTo("expired_token");
    assertThat(server.journal().last(server.tokenEndpointPath()).responseJson())
        .containsEntry("error", "expired_token");
  }

  @Test void refreshRotatesAndAReusedRefreshTokenIsRefused(StandardAuthServer server) throws Exception {
    OAuthServer oauth = discover(server);
    TokenRecord first = signIn(server, oauth, DEVICE_BASIC, BOB);
    assertThat(first.clientAuthentication()).isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC);
    InMemoryTokenStore store = new InMemoryTokenStore(first);
    TokenManager manager = TokenManager.builder(client, oauth)
        .deviceGrant(DEVICE_BASIC.id(), DEVICE_BASIC.secret()).store(store).build();

    TokenRecord second = manager.refresh().execute();

    Exchange refresh = server.journal().last(server.tokenEndpointPath());
    assertThat(refresh.authorizationScheme()).isEqualTo("Basic");
    assertThat(refresh.basicClientId()).isEqualTo(DEVICE_BASIC.id());
    assertThat(refresh.parameters()).isEqualTo(Map.of("grant_type", List.of("refresh_token"),
        "refresh_token", List.of(first.refreshToken())));
    assertThat(refresh.status()).isEqualTo(200);
    assertThat(second.refreshToken()).isNotEqualTo(first.refreshToken())
        .isEqualTo(refresh.responseJson().get("refresh_token"));
    assertThat(store.load()).isEqualTo(second); // saved before it is handed out

    // the old record, as a second copy of the device would still hold it
    TokenManager stale = TokenManager.builder(client, oauth)
        .deviceGrant(DEVICE_BASIC.id(), DEVICE_BASIC.secret()).store(new InMemoryTokenStore(first)).build();
    assertThatThrownBy(() -> stale.refresh().execute())
        .isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessageStartingWith("invalid_grant");
    Exchange reused = server.journal().last(server.tokenEndpointPath());
    assertThat(reused.param("refresh_token")).isEqualTo(first.refreshToken());
    assertThat(reused.status()).isEqualTo(400);
    assertThat(reused.responseJson()).isEqualTo(Map.of("error", "invalid_grant"));
    assertThat(stale.state()).isEqualTo(TokenManager.State.REAUTHORIZATION_REQUIRED);
  }

  @Test void signInThenSignOutRevokesTheRefreshTokenAtTheServer(StandardAuthServer server) throws Exception {
    OAuthServer oauth = discover(server);
    assertThat(oauth.revocationEndpoint()).isEqualTo(server.url(server.revocationPath()));
    InMemoryTokenStore store = new InMemoryTokenStore();
    TokenManager manager = TokenManager.builder(client, oauth)
        .deviceGrant(DEVICE_BASIC.id(), DEVICE_BASIC.secret()).scope(DEVICE_SCOPE).store(store).build();
    BlockingQueue<DeviceCode> codes = new ArrayBlockingQueue<>(1);
    Future<DeviceFlowOutcome> flow = flows.submit(() -> manager.signIn(codes::add).execute());
    DeviceCode code = codes.poll(10, TimeUnit.SECONDS);
    assertThat(Approver.approveAt(code.link(), BOB).connected()).isTrue();
    DeviceFlowOutcome outcome = flow.get(30, TimeUnit.SECONDS);
    assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    TokenRecord signedIn = store.load();
    assertThat(signedIn).isEqualTo(outcome.token());
    assertThat(signedIn.revocationEndpoint()).isEqualTo(oauth.revocationEndpoint());

    assertThat(manager.signOut().execute()).isEqualTo(TokenManager.SignOut.REVOKED);

    Exchange revocation = server.journal().last(server.revocationPath());
    assertThat(revocation.authorizationScheme()).isEqualTo("Basic");
    assertThat(revocation.basicClientId()).isEqualTo(DEVICE_BASIC.id());
    assertThat(revocation.parameters()).isEqualTo(Map.of("token", List.of(signedIn.refreshToken()),
        "token_type_hint", List.of("refresh_token")));
    assertThat(revocation.status()).isEqualTo(200);
    assertThat(store.load()).isNull();
    // a copy of the record kept elsewhere is worth nothing now
    TokenManager copy = TokenManager.builder(client, oauth)
        .deviceGrant(DEVICE_BASIC.id(), DEVICE_BASIC.secret()).store(new InMemoryTokenStore(signedIn)).build();
    assertThatThrownBy(() -> copy.refresh().execute())
        .isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessageStartingWith("invalid_grant");
    assertThat(server.journal().last(server.tokenEndpointPath()).param("refresh_token"))
        .isEqualTo(signedIn.refreshToken());
  }

  @Test void aPublicDeviceRefreshesWithItsClientIdAfterARestart(StandardAuthServer server) throws Exception {
    TokenRecord first = signIn(server, discover(server), DEVICE_PUBLIC, ALICE);
    // a restart: only the stored text and a client with no other configuration
    InMemoryTokenStore store = new InMemoryTokenStore(TokenRecord.fromStorageJson(first.toStorageJson()));
    TokenManager manager = TokenManager.builder(client).store(store).build();

    TokenRecord second = manager.refresh().execute();

    Exchange refresh = server.journal().last(server.tokenEndpointPath());
    assertThat(refresh.authorizationScheme()).isNull();
    assertThat(refresh.parameters()).isEqualTo(Map.of("grant_type", List.of("refresh_token"),
        "refresh_token", List.of(first.refreshToken()), "client_id", List.of(DEVICE_PUBLIC.id())));
    assertThat(refresh.status()).isEqualTo(200);
    assertThat(second.accessToken()).isEqualTo(refresh.responseJson().get("access_token"));
  }

  @Test void aConfidentialDeviceRegisteredForPostSignsInWithPost(StandardAuthServer server) throws Exception {
    // the server offers basic and post, and binds this client to post
    OAuthServer forPost = discover(server).newBuilder()
        .clientAuthentication(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST).build();
    TokenRecord record = signIn(server, forPost, DEVICE_POST, ALICE);
    assertThat(record.clientAuthentication()).isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST);
    Exchange poll = server.journal().last(server.tokenEndpointPath());
    assertThat(poll.authorizationScheme()).isNull();
    assertThat(poll.parameterNames())
        .containsExactlyInAnyOrder("grant_type", "device_code", "client_id", "client_secret");
  }

  @Test void clientCredentialsWithBasic(StandardAuthServer server) throws Exception {
    TokenManager backend = TokenManager.builder(client, discover(server))
        .cloudGrant(BACKEND_BASIC.id(), BACKEND_BASIC.secret()).scope(BACKEND_SCOPE)
        .store(new InMemoryTokenStore()).build();

    String token = backend.accessToken();

    Exchange request = server.journal().last(server.tokenEndpointPath());
    assertThat(request.authorizationScheme()).isEqualTo("Basic");
    assertThat(request.basicClientId()).isEqualTo(BACKEND_BASIC.id());
    assertThat(request.parameters()).isEqualTo(Map.of("grant_type", List.of("client_credentials"),
        "scope", List.of(BACKEND_SCOPE)));
    assertThat(request.status()).isEqualTo(200);
    assertThat(token).isEqualTo(request.responseJson().get("access_token"));
    assertThat(backend.record().grant()).isEqualTo(TokenRecord.Grant.CLOUD);
    assertThat(backend.record().scope()).isEqualTo(BACKEND_SCOPE);
  }

  @Test void clientCredentialsWithPost(StandardAuthServer server) throws Exception {
    OAuthServer forPost = discover(server).newBuilder()
        .clientAuthentication(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST).build();
    TokenManager backend = TokenManager.builder(client, forPost)
        .cloudGrant(BACKEND_POST.id(), BACKEND_POST.secret()).scope(BACKEND_SCOPE)
        .store(new InMemoryTokenStore()).build();

    String token = backend.accessToken();

    Exchange request = server.journal().last(server.tokenEndpointPath());
    assertThat(request.authorizationScheme()).isNull();
    assertThat(request.parameters()).isEqualTo(Map.of("grant_type", List.of("client_credentials"),
        "scope", List.of(BACKEND_SCOPE), "client_id", List.of(BACKEND_POST.id()),
        "client_secret", List.of(BACKEND_POST.secret())));
    assertThat(token).isEqualTo(request.responseJson().get("access_token"));
  }

  @Test void aWrongClientSecretIsRefusedAsInvalidClient(StandardAuthServer server) throws Exception {
    TokenManager backend = TokenManager.builder(client, discover(server))
        .cloudGrant(BACKEND_BASIC.id(), "wrong-secret").store(new InMemoryTokenStore()).build();
    assertThatThrownBy(backend::accessToken)
        .isInstanceOf(AuthorizationException.class)
        .isNotInstanceOf(ReauthorizationRequiredException.class)
        .hasMessageStartingWith("invalid_client");
    assertThat(server.journal().last(server.tokenEndpointPath()).status()).isEqualTo(401);
  }

  @Test void theUserinfoSubjectGivesTheUsersAuthId(StandardAuthServer server) throws Exception {
    OAuthServer oauth = discover(server);
    TokenManager tokens = TokenManager.builder(client, oauth).deviceGrant(DEVICE_PUBLIC.id())
        .store(new InMemoryTokenStore(signIn(server, oauth, DEVICE_PUBLIC, ALICE))).build();

    String subject = oauth.subject(client, tokens).execute();

    assertThat(subject).isEqualTo(ALICE.username());
    Exchange userinfo = server.journal().last(server.userInfoPath());
    assertThat(userinfo.method()).isEqualTo("GET");
    assertThat(userinfo.authorizationScheme()).isEqualTo("Bearer");
    assertThat(userinfo.status()).isEqualTo(200);
    assertThat(userinfo.responseJson()).containsEntry("sub", subject);
    // computed here without the SDK: lowercase hex MD5 of issuer, a line break and subject
    byte[] md5 = java.security.MessageDigest.getInstance("MD5")
        .digest((server.issuer() + "\n" + subject).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(AuthId.fromThirdPartyIdentity(oauth.issuer(), subject))
        .isEqualTo(java.util.HexFormat.of().formatHex(md5));
  }

  @Test void aBackendTokenNamesNoUser(StandardAuthServer server) throws Exception {
    OAuthServer oauth = discover(server);
    TokenManager backend = TokenManager.builder(client, oauth).cloudGrant(BACKEND_BASIC.id(), BACKEND_BASIC.secret())
        .scope(BACKEND_SCOPE).store(new InMemoryTokenStore()).build();

    assertThatThrownBy(() -> oauth.subject(client, backend).execute())
        .isInstanceOf(AuthorizationException.class)
        .hasMessage("insufficient_scope: the userinfo endpoint refused the access token (HTTP 403): it takes"
            + " the token of a user's sign-in whose scope includes openid");
    assertThat(server.journal().last(server.userInfoPath()).status()).isEqualTo(403);
  }
}
