package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Discovery from an issuer (OpenID Connect Discovery, then RFC 8414) and explicit endpoints. */
class OAuthServerTest {
  private final MockWebServer server = new MockWebServer();
  private final VoiceLinkClient client = VoiceLinkClient.builder().build();
  private String issuer;

  @BeforeEach void setUp() throws IOException {
    server.start();
    issuer = "http://127.0.0.1:" + server.getPort();
  }

  @AfterEach void tearDown() throws IOException {
    server.shutdown();
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json")
        .setBody(body);
  }

  private String metadata(String issuer) {
    return "{\"issuer\":\"" + issuer + "\",\"token_endpoint\":\"" + issuer + "/oauth2/token\","
        + "\"device_authorization_endpoint\":\"" + issuer + "/oauth2/device_authorization\","
        + "\"userinfo_endpoint\":\"" + issuer + "/userinfo\","
        + "\"token_endpoint_auth_methods_supported\":[\"client_secret_basic\",\"client_secret_post\","
        + "\"none\"],\"grant_types_supported\":[\"client_credentials\"]}";
  }

  @Test void readsTheOpenIdConfigurationFirst() throws Exception {
    server.enqueue(json(200, metadata(issuer)));
    OAuthServer discovered = OAuthServer.discover(client, issuer).execute();

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getPath()).isEqualTo("/.well-known/openid-configuration");
    assertThat(request.getHeader("Accept")).isEqualTo("application/json");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(discovered.issuer()).isEqualTo(issuer);
    assertThat(discovered.tokenEndpoint()).isEqualTo(issuer + "/oauth2/token");
    assertThat(discovered.deviceAuthorizationEndpoint()).isEqualTo(issuer + "/oauth2/device_authorization");
    assertThat(discovered.userinfoEndpoint()).isEqualTo(issuer + "/userinfo");
    assertThat(discovered.tokenEndpointAuthMethods())
        .containsExactly("client_secret_basic", "client_secret_post", "none");
  }

  @Test void fallsBackToRfc8414WhenThereIsNoOpenIdConfiguration() throws Exception {
    server.enqueue(json(404, "{\"error\":\"not_found\"}"));
    server.enqueue(json(200, metadata(issuer)));
    OAuthServer discovered = OAuthServer.discover(client, issuer).execute();
    assertThat(server.takeRequest().getPath()).isEqualTo("/.well-known/openid-configuration");
    assertThat(server.takeRequest().getPath()).isEqualTo("/.well-known/oauth-authorization-server");
    assertThat(discovered.tokenEndpoint()).isEqualTo(issuer + "/oauth2/token");
  }

  @Test void anIssuerWithAPathPutsTheWellKnownPartAsEachSpecSays() throws Exception {
    String realm = issuer + "/realms/speakers";
    server.enqueue(new MockResponse().setResponseCode(302).setHeader("Location", "/login"));
    server.enqueue(json(200, metadata(realm)));
    OAuthServer discovered = OAuthServer.discover(client, realm).execute();
    assertThat(server.takeRequest().getPath()).isEqualTo("/realms/speakers/.well-known/openid-configuration");
    assertThat(server.takeRequest().getPath())
        .isEqualTo("/.well-known/oauth-authorization-server/realms/speakers");
    assertThat(discovered.issuer()).isEqualTo(realm);
  }

  @Test void aBodyThatIsNotJsonIsTheNextAddressesTurn() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(200).setBody("<html>login</html>"));
    server.enqueue(json(200, metadata(issuer)));
    assertThat(OAuthServer.discover(client, issuer).execute().tokenEndpoint())
        .isEqualTo(issuer + "/oauth2/token");
  }

  @Test void aJsonObjectWithoutIssuerIsTheNextAddressesTurn() throws Exception {
    server.enqueue(json(200, "{\"status\":\"ok\"}")); // a catch-all route, not metadata
    server.enqueue(json(200, metadata(issuer)));
    assertThat(OAuthServer.discover(client, issuer).execute().tokenEndpoint())
        .isEqualTo(issuer + "/oauth2/token");

    server.enqueue(json(200, "{\"status\":\"ok\"}"));
    server.enqueue(json(404, "{}"));
    assertThatThrownBy(() -> OAuthServer.discover(client, issuer).execute())
        .isInstanceOf(IOException.class)
        .hasMessage("discovery of " + issuer + " failed: [" + issuer
            + "/.well-known/openid-configuration: HTTP 200 with a JSON object that has no issuer, "
            + issuer + "/.well-known/oauth-authorization-server: HTTP 404]");
  }

  @Test void whenNeitherDocumentIsThereTheFailureNamesBoth() {
    server.enqueue(json(404, "{}"));
    server.enqueue(json(404, "{}"));
    assertThatThrownBy(() -> OAuthServer.discover(client, issuer).execute())
        .isInstanceOf(IOException.class)
        .hasMessage("discovery of " + issuer + " failed: [" + issuer
            + "/.well-known/openid-configuration: HTTP 404, " + issuer
            + "/.well-known/oauth-authorization-server: HTTP 404]");
  }

  @Test void anotherIssuerInTheDocumentIsRefused() {
    server.enqueue(json(200, metadata("https://evil.example.com")));
    assertThatThrownBy(() -> OAuthServer.discover(client, issuer).execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed server metadata at " + issuer + "/.well-known/openid-configuration:"
            + " issuer \"https://evil.example.com\" must be " + issuer);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void anIssuerThatDiffersByATrailingSlashIsTheDocumentsOwn() throws Exception {
    server.enqueue(json(200, metadata(issuer).replaceFirst("\"issuer\":\"[^\"]*\"",
        "\"issuer\":\"" + issuer + "/\"")));
    OAuthServer discovered = OAuthServer.discover(client, issuer).execute();
    // as the tokens' iss claims spell it
    assertThat(discovered.issuer()).isEqualTo(issuer + "/");
    assertThat(discovered.tokenEndpoint()).isEqualTo(issuer + "/oauth2/token");
  }

  @Test void aMultiTenantTemplateIssuerSaysWhatToDoInstead() {
    server.enqueue(json(200, metadata(issuer).replaceFirst("\"issuer\":\"[^\"]*\"",
        "\"issuer\":\"https://login.example.com/{tenantid}/v2.0\"")));
    assertThatThrownBy(() -> OAuthServer.discover(client, issuer).execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed server metadata at " + issuer + "/.well-known/openid-configuration:"
            + " issuer \"https://login.example.com/{tenantid}/v2.0\" must be " + issuer + " (a template,"
            + " as a multi-tenant endpoint names it: discover the tenant's own issuer, or give the"
            + " endpoints to OAuthServer.builder())");
  }

  @Test void aDocumentWithoutTokenEndpointIsRefused() {
    server.enqueue(json(200, "{\"issuer\":\"" + issuer + "\"}"));
    assertThatThrownBy(() -> OAuthServer.discover(client, issuer).execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed server metadata at " + issuer + "/.well-known/openid-configuration:"
            + " token_endpoint is missing");
  }

  @Test void anEndpointOverPlainHttpElsewhereThanLoopbackIsRefused() {
    server.enqueue(json(200, "{\"issuer\":\"" + issuer + "\","
        + "\"token_endpoint\":\"http://login.example.com/token\"}"));
    assertThatThrownBy(() -> OAuthServer.discover(client, issuer).execute())
        .isInstanceOf(MalformedResponseException.class)
        .hasMessage("malformed server metadata at " + issuer + "/.well-known/openid-configuration:"
            + " token_endpoint must be an https address (http only on a loopback host); was:"
            + " http://login.example.com/token");
  }

  @Test void badIssuersAreRefusedBeforeSending() {
    assertThatThrownBy(() -> OAuthServer.discover(client, "http://login.example.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("issuer must be an https address (http only on a loopback host); was:"
            + " http://login.example.com");
    assertThatThrownBy(() -> OAuthServer.discover(client, "https://login.example.com?tenant=1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("issuer must have no query or fragment; was: https://login.example.com?tenant=1");
    assertThatThrownBy(() -> OAuthServer.discover(client, ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("issuer must not be empty");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void onlyLoopbackAddressesMayBePlainHttpNotNamesThatLookLikeThem() {
    // A name that starts with 127. resolves wherever its owner points it.
    for (String name : new String[] {"http://127.attacker.example/token", "http://127.999.0.1/token"}) {
      assertThatThrownBy(() -> OAuthServer.builder().tokenEndpoint(name))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("token_endpoint must be an https address (http only on a loopback host); was: "
              + name);
    }
    for (String loopback : new String[] {"http://127.0.0.1:8080/token", "http://127.1.2.3/token",
        "http://localhost/token", "http://[::1]/token"}) {
      assertThat(OAuthServer.builder().tokenEndpoint(loopback).build().tokenEndpoint().toString())
          .isEqualTo(loopback);
    }
  }

  @Test void explicitEndpoints() {
    OAuthServer explicit = OAuthServer.builder()
        .deviceAuthorizationEndpoint("https://login.example.com/device")
        .tokenEndpoint("https://login.example.com/token").build();
    assertThat(explicit.issuer()).isNull();
    assertThat(explicit.deviceAuthorizationEndpoint()).isEqualTo("https://login.example.com/device");
    assertThat(explicit.tokenEndpoint()).isEqualTo("https://login.example.com/token");
    assertThat(explicit.tokenEndpointAuthMethods()).isEmpty();
    assertThatThrownBy(() -> OAuthServer.builder().build())
        .isInstanceOf(IllegalStateException.class).hasMessage("token_endpoint is required");
    assertThatThrownBy(() -> OAuthServer.builder().tokenEndpoint("not a url"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("token_endpoint must be an https address; was: not a url");
  }

  @Test void anEndpointWithUserCredentialsIsRefusedWithoutEchoingThem() {
    assertThatThrownBy(() -> OAuthServer.builder().tokenEndpoint("https://c:s3cret-pw@login.example.com/token"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("token_endpoint must not contain user credentials");
    assertThatThrownBy(() -> OAuthServer.builder().userinfoEndpoint("http://c:s3cret-pw@login.example.com/me"))
        .hasMessage("userinfo_endpoint must not contain user credentials");
    assertThatThrownBy(() -> OAuthServer.discover(client, "https://login.example.com?client_secret=s3cret-pw"))
        .hasMessage("issuer must have no query or fragment; was:"
            + " https://login.example.com?client_secret=‹redacted›");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void clientAuthenticationIsChosenFromWhatTheServerSupports() {
    assertThat(withMethods().clientAuthentication(false))
        .isEqualTo(OAuthServer.ClientAuthentication.NONE);
    assertThat(withMethods("client_secret_basic").clientAuthentication(false))
        .isEqualTo(OAuthServer.ClientAuthentication.NONE);
    assertThat(withMethods("client_secret_post", "client_secret_basic").clientAuthentication(true))
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC);
    assertThat(withMethods("none", "client_secret_post").clientAuthentication(true))
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST);
    // RFC 6749 section 2.3.1: a server that lists nothing supports Basic
    assertThat(withMethods().clientAuthentication(true))
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC);
    assertThatThrownBy(() -> withMethods("none").clientAuthentication(true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the server supports neither client_secret_basic nor client_secret_post for a"
            + " client secret; token_endpoint_auth_methods_supported: [none]");
  }

  @Test void aClientBoundToOneMethodChoosesItOnADiscoveredServer() throws Exception {
    server.enqueue(json(200, metadata(issuer)));
    OAuthServer discovered = OAuthServer.discover(client, issuer).execute();

    OAuthServer post = discovered.newBuilder()
        .clientAuthentication(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST).build();

    assertThat(discovered.clientAuthentication(true))
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC);
    assertThat(post.clientAuthentication(true))
        .isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST);
    assertThat(post.clientAuthentication(false)).isEqualTo(OAuthServer.ClientAuthentication.NONE);
    // everything else is the discovered server's
    assertThat(post.issuer()).isEqualTo(issuer);
    assertThat(post.deviceAuthorizationEndpoint()).isEqualTo(discovered.deviceAuthorizationEndpoint());
    assertThat(post.tokenEndpoint()).isEqualTo(discovered.tokenEndpoint());
    assertThat(post.userinfoEndpoint()).isEqualTo(discovered.userinfoEndpoint());
    assertThat(post.tokenEndpointAuthMethods()).isEqualTo(discovered.tokenEndpointAuthMethods());
    assertThat(post).isNotEqualTo(discovered);
    assertThat(discovered.newBuilder().build()).isEqualTo(discovered);
    assertThat(post.describe()).endsWith(", client_authentication=client_secret_post}");
  }

  @Test void aSecretInAnEndpointsQueryIsShownNowhere() {
    String secret = "s3cr3t-0123456789abcdef";
    OAuthServer server = OAuthServer.builder()
        .tokenEndpoint("https://login.example.com/token?app_secret=" + secret).build();
    assertThat(server.describe()).contains("token_endpoint=https://login.example.com/token?app_secret=‹secret")
        .doesNotContain(secret);
    TokenRecord record = TokenRecord.builder().accessToken("at-0123456789abcdef").tokenType("bearer")
        .expiresInSeconds(3600).createdAtEpochSeconds(1_763_712_000L)
        .receivedAtEpochMillis(1_763_712_000_000L).grant(TokenRecord.Grant.DEVICE)
        .clientId("speaker").standard(null, server.tokenEndpoint(),
            OAuthServer.ClientAuthentication.NONE).build();
    assertThat(record.toString()).contains("token_endpoint=https://login.example.com/token?app_secret=‹secret")
        .doesNotContain(secret);
  }

  @Test void theChosenMethodWinsEvenWhereTheServerListsNeither() {
    assertThat(withMethods("none").newBuilder()
        .clientAuthentication(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC).build()
        .clientAuthentication(true)).isEqualTo(OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC);
    assertThatThrownBy(() -> OAuthServer.builder().clientAuthentication(OAuthServer.ClientAuthentication.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("clientAuthentication must be client_secret_basic or client_secret_post; a public"
            + " client (none) gives no client secret instead");
    assertThatThrownBy(() -> OAuthServer.builder().clientAuthentication(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("clientAuthentication must not be null");
  }

  private static OAuthServer withMethods(String... methods) {
    return OAuthServer.builder().tokenEndpoint("https://login.example.com/token")
        .tokenEndpointAuthMethods(methods.length == 0 ? Collections.<String>emptyList()
            : Arrays.asList(methods))
        .build();
  }
}
