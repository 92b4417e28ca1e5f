package dev.voicelink.auth;

import dev.voicelink.core.internal.ClientCore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/** Reads an authorization server's metadata (OpenID Connect Discovery 1.0, RFC 8414). */
final class Discovery {
  static final String OPENID_CONFIGURATION = ".well-known/openid-configuration";
  static final String OAUTH_AUTHORIZATION_SERVER = ".well-known/oauth-authorization-server";
  private static final long MAX_BODY_BYTES = 256 * 1024;

  private final OkHttpClient http;
  private final String issuer;

  Discovery(ClientCore core, String issuer) {
    // A redirect (some servers send their login page for a path they do not serve) is not metadata.
    // A GET: sent again after a stale connection, whatever the app's client says for its own requests.
    this.http = core.http().newBuilder().followRedirects(false).retryOnConnectionFailure(true).build();
    this.issuer = issuer;
  }

  /**
   * The addresses to try, in order: {@code {issuer}/.well-known/openid-configuration}, then RFC 8414's
   * {@code {scheme}://{host}/.well-known/oauth-authorization-server{path}}, which for an issuer
   * without a path is {@code {issuer}/.well-known/oauth-authorization-server}.
   */
  static List<HttpUrl> documents(HttpUrl issuer) {
    HttpUrl.Builder openid = issuer.newBuilder();
    List<String> segments = new ArrayList<>(issuer.pathSegments());
    if (!segments.isEmpty() && segments.get(segments.size() - 1).isEmpty()) {
      segments.remove(segments.size() - 1); // a trailing slash
    }
    openid.encodedPath("/");
    for (String segment : segments) openid.addPathSegment(segment);
    openid.addPathSegments(OPENID_CONFIGURATION);
    HttpUrl.Builder rfc8414 = issuer.newBuilder().encodedPath("/").addPathSegments(OAUTH_AUTHORIZATION_SERVER);
    for (String segment : segments) rfc8414.addPathSegment(segment);
    return Arrays.asList(openid.build(), rfc8414.build());
  }

  Call get(HttpUrl url) {
    return http.newCall(new Request.Builder().url(url).header("Accept", "application/json").build());
  }

  /**
   * The server in a metadata answer; null (noting why in {@code failures}) for an answer that is not
   * a metadata document, so that the next address is tried.
   *
   * @throws MalformedResponseException naming the member, for a document that breaks the rules
   */
  @Nullable OAuthServer read(Response response, List<String> failures) throws IOException {
    String where = response.request().url().toString();
    if (response.code() != 200) {
      failures.add(where + ": HTTP " + response.code());
      return null;
    }
    Map<?, ?> json = WireJson.object(response.body(), MAX_BODY_BYTES);
    if (json == null) {
      failures.add(where + ": HTTP 200 with a body that is not a JSON object");
      return null;
    }
    Object documentIssuer = json.get("issuer");
    if (documentIssuer == null) {
      // RFC 8414 section 3.3 forbids using a document of another issuer, not trying the next
      // address: a JSON object without one (a catch-all's {"status":"ok"}) is no metadata at all.
      failures.add(where + ": HTTP 200 with a JSON object that has no issuer");
      return null;
    }
    if (!(documentIssuer instanceof String) || !sameIssuer(issuer, (String) documentIssuer)) {
      throw new MalformedResponseException("malformed server metadata at " + where + ": issuer "
          + (documentIssuer instanceof String ? "\"" + documentIssuer + "\"" : "is not a string, and")
          + " must be " + issuer + (String.valueOf(documentIssuer).contains("{")
          ? " (a template, as a multi-tenant endpoint names it: discover the tenant's own issuer, or"
              + " give the endpoints to OAuthServer.builder())" : ""));
    }
    // The document's own spelling: the tokens' iss claims, and the auth_id made from them, carry it.
    OAuthServer.Builder server = OAuthServer.builder().issuer((String) documentIssuer);
    try {
      String token = string(json, "token_endpoint", where);
      if (token == null) {
        throw new MalformedResponseException("malformed server metadata at " + where
            + ": token_endpoint is missing");
      }
      server.tokenEndpoint(token);
      String device = string(json, "device_authorization_endpoint", where);
      if (device != null) server.deviceAuthorizationEndpoint(device);
      String userinfo = string(json, "userinfo_endpoint", where);
      if (userinfo != null) server.userinfoEndpoint(userinfo);
      String revocation = string(json, "revocation_endpoint", where);
      if (revocation != null) server.revocationEndpoint(revocation);
    } catch (IllegalArgumentException e) {
      throw new MalformedResponseException("malformed server metadata at " + where + ": " + e.getMessage());
    }
    Object methods = json.get("token_endpoint_auth_methods_supported");
    if (methods instanceof List) {
      List<String> names = new ArrayList<>();
      for (Object method : (List<?>) methods) {
        if (method instanceof String && !((String) method).isEmpty()) names.add((String) method);
      }
      server.tokenEndpointAuthMethods(names);
    }
    return server.build();
  }

  /**
   * Whether the document's issuer is the one configured: equal, or but for one trailing slash
   * (Auth0's issuer ends with one, the address its console shows does not).
   */
  private static boolean sameIssuer(String configured, String document) {
    return configured.equals(document) || configured.equals(document + "/")
        || document.equals(configured + "/");
  }

  private static @Nullable String string(Map<?, ?> json, String name, String where)
      throws MalformedResponseException {
    Object value = json.get(name);
    if (value == null) return null;
    if (!(value instanceof String)) {
      throw new MalformedResponseException("malformed server metadata at " + where + ": " + name
          + " must be a string");
    }
    return (String) value;
  }

}
