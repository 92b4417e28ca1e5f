package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Cache;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OAuthServer#subject}: who signed in, from the userinfo endpoint (OpenID Connect Core 5.3). */
class UserInfoSubjectTest {
  private final MockWebServer server = new MockWebServer();
  private final VoiceLinkClient client = VoiceLinkClient.builder().build();
  private OAuthServer oauth;

  /** Hands out at-1, and at-2 once at-1 was invalidated; remembers what it was told. */
  private final class Tokens implements TokenSource {
    final List<String> invalidated = new ArrayList<>();
    int served;

    @Override public String accessToken() {
      served++;
      return invalidated.contains("at-1") ? "at-2" : "at-1";
    }

    @Override public void invalidate(String rejectedToken) {
      invalidated.add(rejectedToken);
    }
  }

  private final Tokens tokens = new Tokens();

  @BeforeEach void setUp() throws IOException {
    server.start();
    oauth = OAuthServer.builder().tokenEndpoint(server.url("/oauth2/token").toString())
        .userinfoEndpoint(server.url("/userinfo").toString()).build();
  }

  @AfterEach void tearDown() throws IOException {
    client.close();
    server.shutdown();
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json")
        .setBody(body);
  }

  @Test void theSubjectComesFromTheUserinfoAnswer() throws Exception {
    server.enqueue(json(200, "{\"sub\":\"248289761001\",\"name\":\"Jane Doe\"}"));

    assertThat(oauth.subject(client, tokens).execute()).isEqualTo("248289761001");

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getPath()).isEqualTo("/userinfo");
    assertThat(request.getHeader("Authorization")).isEqualTo("Bearer at-1");
    assertThat(request.getHeader("Accept")).isEqualTo("application/json");
    assertThat(request.getBodySize()).isZero();
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void aRefusedTokenIsInvalidatedAndTriedOnceMoreFresh() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(401)
        .setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\""));
    server.enqueue(json(200, "{\"sub\":\"alice\"}"));

    assertThat(oauth.subject(client, tokens).execute()).isEqualTo("alice");

    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("Bearer at-1");
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("Bearer at-2");
    assertThat(tokens.invalidated).containsExactly("at-1");
  }

  @Test void theAnswerIsNeverTakenFromTheAppsCache(@TempDir File cacheDir) throws Exception {
    // OkHttp's cache keys on the address alone: the previous user's answer would name the next one.
    VoiceLinkClient cached = VoiceLinkClient.builder().httpClient(new OkHttpClient.Builder()
        .cache(new Cache(cacheDir, 1024 * 1024)).build()).build();
    server.enqueue(json(200, "{\"sub\":\"alice\"}").setHeader("Cache-Control", "max-age=3600"));
    server.enqueue(json(200, "{\"sub\":\"bob\"}").setHeader("Cache-Control", "max-age=3600"));
    try {
      assertThat(oauth.subject(cached, () -> "alices-token").execute()).isEqualTo("alice");
      assertThat(oauth.subject(cached, () -> "bobs-token").execute()).isEqualTo("bob");
      assertThat(server.getRequestCount()).isEqualTo(2);
    } finally {
      cached.close();
    }
  }

  @Test void aRedirectOrA401IsNotAnsweredByTheAppsClient() throws Exception {
    MockWebServer elsewhere = new MockWebServer();
    elsewhere.enqueue(json(200, "{\"sub\":\"mallory\"}")); // a redirect followed ends at once
    AtomicInteger authenticatorCalls = new AtomicInteger();
    VoiceLinkClient app = VoiceLinkClient.builder().httpClient(new OkHttpClient.Builder()
        .authenticator((route, response) -> {
          authenticatorCalls.incrementAndGet();
          return response.request().newBuilder().header("Authorization", "Bearer other").build();
        }).build()).build();
    try {
      server.enqueue(new MockResponse().setResponseCode(307)
          .setHeader("Location", elsewhere.url("/userinfo").toString()));
      assertThatThrownBy(() -> oauth.subject(app, tokens).execute())
          .isExactlyInstanceOf(IOException.class)
          .hasMessage("HTTP 307, a redirect: userinfo requests are not sent on to another address,"
              + " as the access token would go with them; configure the address the server names");
      assertThat(elsewhere.getRequestCount()).isZero();

      server.enqueue(new MockResponse().setResponseCode(401));
      server.enqueue(new MockResponse().setResponseCode(401));
      assertThatThrownBy(() -> oauth.subject(app, tokens).execute())
          .isInstanceOf(AuthorizationException.class);
      assertThat(authenticatorCalls).hasValue(0);
      assertThat(server.getRequestCount()).isEqualTo(3); // the redirect, the 401, one fresh try
    } finally {
      app.close();
      elsewhere.shutdown();
    }
  }

  @Test void aTokenRefusedTwiceIsTheServersRefusal() {
    for (int i = 0; i < 3; i++) {
      server.enqueue(new MockResponse().setResponseCode(401)
          .setHeader("WWW-Authenticate", "Bearer realm=\"x\", error=\"invalid_token\""));
    }

    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .isInstanceOf(AuthorizationException.class)
        .hasMessage("invalid_token: the userinfo endpoint refused the access token (HTTP 401)");
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(tokens.served).isEqualTo(2);
  }

  @Test void aSignInWithoutOpenidIsToldSo() {
    server.enqueue(new MockResponse().setResponseCode(403)
        .setHeader("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"openid\""));

    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .isInstanceOf(AuthorizationException.class)
        .hasMessage("insufficient_scope: the userinfo endpoint refused the access token (HTTP 403): it"
            + " takes the token of a user's sign-in whose scope includes openid");
    assertThat(tokens.invalidated).isEmpty();
  }

  @Test void anErrorInTheBodyIsReadWhenTheChallengeHasNone() {
    server.enqueue(json(401, "{\"error\":\"invalid_token\"}"));
    server.enqueue(json(401, "{\"error\":\"invalid_token\"}"));
    server.enqueue(json(403, "not json"));

    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .hasMessage("invalid_token: the userinfo endpoint refused the access token (HTTP 401)");
    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .hasMessage("insufficient_scope: the userinfo endpoint refused the access token (HTTP 403): it"
            + " takes the token of a user's sign-in whose scope includes openid");
  }

  @Test void anAnswerWithoutASubjectIsMalformed() {
    server.enqueue(json(200, "{\"name\":\"Jane Doe\",\"sub\":\"\"}"));
    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .isInstanceOf(IOException.class)
        .hasMessage("malformed userinfo answer: sub must be a non-empty string");

    server.enqueue(json(200, "[\"sub\"]"));
    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .isInstanceOf(IOException.class)
        .hasMessage("malformed userinfo answer: not a JSON object of at most 65536 bytes");
  }

  @Test void aSignedAnswerIsNotRead() {
    server.enqueue(new MockResponse().setHeader("Content-Type", "application/jwt")
        .setBody("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln"));

    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .isInstanceOf(IOException.class)
        .hasMessage("malformed userinfo answer: Content-Type application/jwt (a signed or encrypted answer"
            + " is not read); it must be application/json");
  }

  @Test void anotherStatusIsAnIoFailure() {
    server.enqueue(json(503, "{\"error\":\"temporarily_unavailable\"}"));

    assertThatThrownBy(() -> oauth.subject(client, tokens).execute())
        .isInstanceOf(IOException.class)
        .hasMessage("the userinfo endpoint answered HTTP 503");
  }

  @Test void aServerWithoutUserinfoIsRefusedBeforeAnythingIsAsked() {
    OAuthServer without = OAuthServer.builder().tokenEndpoint(server.url("/oauth2/token").toString()).build();

    assertThatThrownBy(() -> without.subject(client, tokens))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the server has no userinfo_endpoint: OAuthServer{issuer=null,"
            + " device_authorization_endpoint=null, token_endpoint=" + server.url("/oauth2/token")
            + ", userinfo_endpoint=null, token_endpoint_auth_methods_supported=[]}");
    assertThat(tokens.served).isZero();
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void theTokenStaysOutOfTheHttpLog() throws Exception {
    List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    VoiceLinkLog.setSink(new VoiceLinkLog.Sink() {
      @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
        return true;
      }

      @Override public void log(VoiceLinkLog.Level level, String tag, String message,
          @org.jspecify.annotations.Nullable Throwable error) {
        lines.add(tag + " " + message);
      }
    });
    try (VoiceLinkClient logging = VoiceLinkClient.builder().httpLogging(HttpLogLevel.BODY).build()) {
      server.enqueue(json(200, "{\"sub\":\"alice\"}"));
      TokenSource secret = () -> "userinfo-access-token-0123456789";

      assertThat(oauth.subject(logging, secret).execute()).isEqualTo("alice");

      assertThat(String.join("\n", lines)).contains("GET " + server.url("/userinfo"))
          .doesNotContain("userinfo-access-token-0123456789");
    } finally {
      VoiceLinkLog.setSink(VoiceLinkLog.javaUtilLogging());
    }
  }
}
