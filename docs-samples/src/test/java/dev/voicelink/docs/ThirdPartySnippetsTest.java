package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.PersParam;
import java.io.File;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the snippets of docs/third-party-accounts.md against a scripted standard server. */
class ThirdPartySnippetsTest {
  @TempDir File dir;

  private static MockResponse json(String body) {
    return new MockResponse().setHeader("Content-Type", "application/json").setBody(body);
  }

  @Test void theSnippetsSignInRefreshAfterARebootAndGetABackendToken() throws Exception {
    ExecutorService callbacks = Executors.newSingleThreadExecutor();
    try (MockWebServer mock = new MockWebServer();
        VoiceLinkClient client = VoiceLinkClient.builder().callbackExecutor(callbacks).build()) {
      mock.start();
      String issuer = "http://127.0.0.1:" + mock.getPort();
      mock.enqueue(json("{\"issuer\":\"" + issuer + "\",\"token_endpoint\":\"" + issuer
          + "/oauth2/token\",\"device_authorization_endpoint\":\"" + issuer
          + "/oauth2/device_authorization\",\"token_endpoint_auth_methods_supported\":"
          + "[\"client_secret_basic\",\"client_secret_post\"]}"));
      OAuthServer server = ThirdPartySnippets.discover(client, issuer);
      assertThat(server).isEqualTo(OAuthServer.builder().issuer(issuer)
          .deviceAuthorizationEndpoint(issuer + "/oauth2/device_authorization")
          .tokenEndpoint(issuer + "/oauth2/token")
          .tokenEndpointAuthMethods(java.util.Arrays.asList("client_secret_basic", "client_secret_post"))
          .build());
      assertThat(mock.takeRequest().getPath()).isEqualTo("/.well-known/openid-configuration");

      File tokenFile = new File(dir, "token.json");
      mock.enqueue(json("{\"device_code\":\"dc\",\"user_code\":\"WDJB-MJHT\","
          + "\"verification_uri\":\"https://login.example.com/activate\","
          + "\"verification_uri_complete\":\"https://login.example.com/activate?user_code=WDJB-MJHT\","
          + "\"interval\":1,\"expires_in\":300}"));
      mock.enqueue(json("{\"access_token\":\"at-1\",\"token_type\":\"Bearer\",\"expires_in\":300,"
          + "\"refresh_token\":\"rt-1\",\"scope\":\"profile voicelink.entities\"}"));
      BlockingQueue<String> shown = new LinkedBlockingQueue<>();
      VoiceLinkCall<DeviceFlowOutcome> flow = ThirdPartySnippets.signIn(client, server,
          (userCode, link) -> shown.add(userCode + " " + link), tokenFile);
      assertThat(shown.poll(10, TimeUnit.SECONDS))
          .isEqualTo("WDJB-MJHT https://login.example.com/activate?user_code=WDJB-MJHT");
      assertThat(mock.takeRequest().getBody().readUtf8())
          .isEqualTo("client_id=speaker-public&scope=profile+voicelink.entities");
      assertThat(mock.takeRequest(10, TimeUnit.SECONDS).getBody().readUtf8()).isEqualTo(
          "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=dc"
              + "&client_id=speaker-public");
      assertThat(shown.poll(10, TimeUnit.SECONDS)).as("told once saved").isEqualTo(" signed in");
      TokenRecord saved = new FileTokenStore(tokenFile).load();
      assertThat(saved).isNotNull();
      assertThat(flow.isCancelled()).isFalse();
      assertThat(saved.dialect()).isEqualTo(TokenRecord.Dialect.STANDARD);
      assertThat(saved.tokenEndpoint()).isEqualTo(issuer + "/oauth2/token");

      mock.enqueue(json("{\"access_token\":\"at-2\",\"token_type\":\"Bearer\",\"expires_in\":300}"));
      TokenManager rebooted = ThirdPartySnippets.afterReboot(client, tokenFile);
      assertThat(rebooted.refresh().execute().refreshToken()).isEqualTo("rt-1");
      assertThat(mock.takeRequest().getBody().readUtf8())
          .isEqualTo("grant_type=refresh_token&refresh_token=rt-1&client_id=speaker-public");

      mock.enqueue(json("{\"access_token\":\"at-b\",\"token_type\":\"Bearer\",\"expires_in\":300}"));
      assertThat(ThirdPartySnippets.backend(client, server, "backend-secret").accessToken())
          .isEqualTo("at-b");
      RecordedRequest backend = mock.takeRequest();
      assertThat(backend.getHeader("Authorization")).startsWith("Basic ");
      assertThat(backend.getBody().readUtf8()).isEqualTo("grant_type=client_credentials&scope=voicelink.entities");

      mock.enqueue(json("{\"access_token\":\"at-p\",\"token_type\":\"Bearer\",\"expires_in\":300}"));
      OAuthServer forPost = ThirdPartySnippets.registeredForPost(server);
      assertThat(ThirdPartySnippets.backend(client, forPost, "backend-secret").accessToken()).isEqualTo("at-p");
      RecordedRequest post = mock.takeRequest();
      assertThat(post.getHeader("Authorization")).isNull();
      assertThat(post.getBody().readUtf8()).isEqualTo("grant_type=client_credentials&scope=voicelink.entities"
          + "&client_id=backend&client_secret=backend-secret");

      OAuthServer explicit = ThirdPartySnippets.explicit("https://login.example.com");
      assertThat(explicit.deviceAuthorizationEndpoint())
          .isEqualTo("https://login.example.com/oauth2/device_authorization");
      assertThat(explicit.tokenEndpoint()).isEqualTo("https://login.example.com/oauth2/token");
      assertThat(explicit.tokenEndpointAuthMethods()).isEmpty();
    } finally {
      callbacks.shutdownNow();
    }
  }

  @Test void theSubjectSnippetAsksUserinfoWithTheSignInsToken() throws Exception {
    try (MockWebServer mock = new MockWebServer(); VoiceLinkClient client = VoiceLinkClient.builder().build()) {
      mock.start();
      String issuer = "http://127.0.0.1:" + mock.getPort();
      mock.enqueue(json("{\"issuer\":\"" + issuer + "\",\"token_endpoint\":\"" + issuer
          + "/oauth2/token\",\"userinfo_endpoint\":\"" + issuer + "/userinfo\"}"));
      mock.enqueue(json("{\"sub\":\"alice\"}"));
      OAuthServer server = ThirdPartySnippets.discover(client, issuer);
      TokenRecord record = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
          .standard(issuer, issuer + "/oauth2/token", OAuthServer.ClientAuthentication.NONE)
          .clientId("speaker-public").tokenType("Bearer").accessToken("at-1").refreshToken("rt-1")
          .expiresInSeconds(300).createdAtEpochSeconds(System.currentTimeMillis() / 1000)
          .receivedAtEpochMillis(System.currentTimeMillis()).build();
      TokenManager tokens = TokenManager.builder(client, server).deviceGrant("speaker-public")
          .store(new InMemoryTokenStore(record)).build();

      PersParam owner = ThirdPartySnippets.signedInUser(client, server, tokens);

      mock.takeRequest();
      RecordedRequest userinfo = mock.takeRequest();
      assertThat(userinfo.getPath()).isEqualTo("/userinfo");
      assertThat(userinfo.getHeader("Authorization")).isEqualTo("Bearer at-1");
      // lowercase hex MD5 of issuer, a line break and the subject, computed here without the SDK
      String expected = okio.ByteString.encodeUtf8(issuer + "\nalice").md5().hex();
      assertThat(owner).isEqualTo(PersParam.user(expected));
    }
  }
}
