package dev.voicelink.auth;

import java.util.Arrays;
import okhttp3.mockwebserver.MockWebServer;

/** A standard OAuth 2.0 server on a MockWebServer, at the paths Spring Authorization Server uses. */
final class StandardServers {
  private StandardServers() {
  }

  /** Explicit endpoints (no discovery), offering {@code authMethods} at the token endpoint. */
  static OAuthServer at(MockWebServer server, String... authMethods) {
    return OAuthServer.builder()
        .deviceAuthorizationEndpoint(server.url("/oauth2/device_authorization").toString())
        .tokenEndpoint(server.url("/oauth2/token").toString())
        .tokenEndpointAuthMethods(Arrays.asList(authMethods))
        .build();
  }
}
