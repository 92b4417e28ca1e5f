package dev.voicelink.auth;

import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Identifiers;
import dev.voicelink.core.internal.Scrub;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;
import okhttp3.Response;

/**
 * A standard OAuth 2.0 authorization server (Keycloak, Auth0, Okta, Spring Authorization Server, ...)
 * that signs devices in for the spec's third-party account variant (protocol 5.1.3): its endpoints and the
 * client authentication methods it supports. Give it to {@link DeviceAuthorizer#builder(VoiceLinkClient,
 * OAuthServer)} and {@link TokenManager#builder(VoiceLinkClient, OAuthServer)}: the device flow and the
 * token lifecycle then speak standard OAuth 2.0 (RFC 8628, RFC 6749) instead of the platform's dialect.
 *
 * <pre>{@code
 * OAuthServer server = OAuthServer.discover(client, "https://login.example.com/realms/speakers").execute();
 * // or, for a server without discovery:
 * OAuthServer server = OAuthServer.builder()
 *     .deviceAuthorizationEndpoint("https://login.example.com/device")
 *     .tokenEndpoint("https://login.example.com/token")
 *     .build();
 * }</pre>
 *
 * <p>Endpoints must be {@code https}, except on a loopback host ({@code localhost}, {@code 127.0.0.1},
 * {@code [::1]}) for tests. Immutable and thread-safe; it holds no resources (nothing to close), so
 * one instance may be shared by every authorizer and manager of the app and kept for its lifetime.
 */
public final class OAuthServer {
  /** Four dotted decimal numbers, as OkHttp writes a host that is an IPv4 address. */
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  /** How a client authenticates at the token endpoint (RFC 6749 section 2.3, RFC 7591 names). */
  public enum ClientAuthentication {
    /** A public client: it sends its {@code client_id} in the form and no secret (RFC 8628 section 5.6). */
    NONE("none"),
    /** The id and secret in an HTTP Basic {@code Authorization} header (RFC 6749 section 2.3.1). */
    CLIENT_SECRET_BASIC("client_secret_basic"),
    /** {@code client_id} and {@code client_secret} in the form body. */
    CLIENT_SECRET_POST("client_secret_post");

    private final String wireName;

    ClientAuthentication(String wireName) {
      this.wireName = wireName;
    }

    /** The name in {@code token_endpoint_auth_methods_supported} and in token files. */
    public String wireName() {
      return wireName;
    }

    static @Nullable ClientAuthentication fromWireName(String name) {
      for (ClientAuthentication method : values()) {
        if (method.wireName.equals(name)) return method;
      }
      return null;
    }
  }

  private final @Nullable String issuer;
  private final @Nullable HttpUrl deviceAuthorizationEndpoint;
  private final HttpUrl tokenEndpoint;
  private final @Nullable HttpUrl userinfoEndpoint;
  private final @Nullable HttpUrl revocationEndpoint;
  private final List<String> authMethods;
  private final @Nullable ClientAuthentication secretAuthentication;

  private OAuthServer(Builder builder) {
    this.issuer = builder.issuer;
    this.deviceAuthorizationEndpoint = builder.deviceAuthorizationEndpoint;
    this.tokenEndpoint = builder.tokenEndpoint;
    this.userinfoEndpoint = builder.userinfoEndpoint;
    this.revocationEndpoint = builder.revocationEndpoint;
    this.authMethods = Collections.unmodifiableList(new ArrayList<>(builder.authMethods));
    this.secretAuthentication = builder.secretAuthentication;
  }

  /**
   * Reads the server's metadata from its issuer: {@code {issuer}/.well-known/openid-configuration}
   * (OpenID Connect Discovery), then the RFC 8414 document {@code
   * .well-known/oauth-authorization-server} (inserted before the issuer's path, if it has one). The
   * first that answers 200 with a JSON object is used; its {@code issuer} must be exactly {@code issuer}
   * and it must name a {@code token_endpoint}. One HTTP request, or two.
   *
   * <p>The call fails with an {@link IOException} whose message starts with "malformed server
   * metadata" and names the member when a document breaks those rules, and with an {@link
   * IOException} when neither document could be read.
   *
   * @throws IllegalArgumentException if {@code issuer} is not an https address (http on loopback), or
   *     has a query or fragment; nothing is sent then
   */
  public static VoiceLinkCall<OAuthServer> discover(VoiceLinkClient client, String issuer) {
    final ClientCore core = ClientCore.open(client);
    final HttpUrl issuerUrl = endpoint(issuer, "issuer");
    if (issuerUrl.encodedQuery() != null || issuerUrl.encodedFragment() != null) {
      throw new IllegalArgumentException("issuer must have no query or fragment; was: "
          + Scrub.address(issuer));
    }
    final String issuerText = issuer;
    final Discovery discovery = new Discovery(core, issuerText);
    return new BlockingCall<OAuthServer>(core) {
      @Override protected OAuthServer run() throws IOException {
        List<String> failures = new ArrayList<>();
        for (HttpUrl url : Discovery.documents(issuerUrl)) {
          try (Response response = send(discovery.get(url))) {
            OAuthServer server = discovery.read(response, failures);
            if (server != null) return server;
          } catch (MalformedResponseException e) {
            throw e;
          } catch (IOException e) {
            if (isCancelled()) throw e;
            failures.add(url + ": " + e.getMessage());
          }
        }
        throw new IOException("discovery of " + issuerText + " failed: " + failures);
      }
    };
  }

  /** A builder of a server configured with explicit endpoints, for a server without discovery. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder that starts from this server, to change what discovery cannot know, for example {@link
   * Builder#clientAuthentication} for a client registered for {@code client_secret_post} only.
   */
  public Builder newBuilder() {
    return new Builder(this);
  }

  /** The issuer it was discovered from, or null when configured with explicit endpoints only. */
  public @Nullable String issuer() {
    return issuer;
  }

  /** {@code device_authorization_endpoint} (RFC 8628), or null if the server has none. */
  public @Nullable String deviceAuthorizationEndpoint() {
    return deviceAuthorizationEndpoint == null ? null : deviceAuthorizationEndpoint.toString();
  }

  /** {@code token_endpoint}. */
  public String tokenEndpoint() {
    return tokenEndpoint.toString();
  }

  /** {@code userinfo_endpoint} (OpenID Connect), or null. */
  public @Nullable String userinfoEndpoint() {
    return userinfoEndpoint == null ? null : userinfoEndpoint.toString();
  }

  /**
   * {@code revocation_endpoint} (RFC 7009), or null: where {@link TokenManager#signOut()} revokes the
   * refresh token of a sign-in.
   */
  public @Nullable String revocationEndpoint() {
    return revocationEndpoint == null ? null : revocationEndpoint.toString();
  }

  /**
   * A call that asks this server's userinfo endpoint (OpenID Connect Core 1.0 section 5.3) who signed
   * in, with the access token of {@code tokens} (for example the {@link TokenManager} of the sign-in),
   * and ends with the user's {@code sub}: the subject that {@link
   * dev.voicelink.entity.AuthId#fromThirdPartyIdentity} turns into the platform's {@code auth_id}. The
   * answer comes from the server itself over TLS, so it is trusted as it is; the SDK never takes a
   * subject from an ID token it has not verified. The sign-in's scope should include {@code openid}
   * (OpenID Connect servers answer userinfo only then; some answer any user's token).
   *
   * <p>A 401 invalidates the access token and the call tries once more with a fresh one. It fails with
   * an {@link AuthorizationException} carrying the server's error when the token is refused ({@code
   * invalid_token}, or {@code insufficient_scope} without {@code openid}), and with an {@link
   * IOException} for another status or an answer that is not a JSON object with a non-empty {@code sub}
   * (a signed {@code application/jwt} answer is not read).
   *
   * @throws IllegalStateException if the server has no userinfo endpoint, or the client is closed
   */
  public VoiceLinkCall<String> subject(VoiceLinkClient client, TokenSource tokens) {
    ClientCore core = ClientCore.open(client);
    if (tokens == null) throw new IllegalArgumentException("tokens must not be null");
    if (userinfoEndpoint == null) {
      throw new IllegalStateException("the server has no userinfo_endpoint: " + describe());
    }
    return new UserInfo(core, userinfoEndpoint, tokens);
  }

  /** {@code token_endpoint_auth_methods_supported} as advertised; empty when not advertised. */
  public List<String> tokenEndpointAuthMethods() {
    return authMethods;
  }

  /**
   * How a client authenticates here: {@link ClientAuthentication#NONE} without a secret (whatever the
   * server lists: many do not list {@code none} although their device clients use it); with one, the
   * method set with {@link Builder#clientAuthentication}, else {@code client_secret_basic} when advertised
   * or when nothing is (RFC 6749 section 2.3.1: servers must support it), else {@code client_secret_post}.
   *
   * @throws IllegalStateException if the client has a secret, no method was set and the server lists
   *     neither method
   */
  ClientAuthentication clientAuthentication(boolean hasSecret) {
    if (!hasSecret) return ClientAuthentication.NONE;
    if (secretAuthentication != null) return secretAuthentication;
    if (authMethods.isEmpty() || authMethods.contains(ClientAuthentication.CLIENT_SECRET_BASIC.wireName)) {
      return ClientAuthentication.CLIENT_SECRET_BASIC;
    }
    if (authMethods.contains(ClientAuthentication.CLIENT_SECRET_POST.wireName)) {
      return ClientAuthentication.CLIENT_SECRET_POST;
    }
    throw new IllegalStateException("the server supports neither client_secret_basic nor"
        + " client_secret_post for a client secret; token_endpoint_auth_methods_supported: " + authMethods);
  }

  HttpUrl tokenUrl() {
    return tokenEndpoint;
  }

  @Nullable HttpUrl deviceAuthorizationUrl() {
    return deviceAuthorizationEndpoint;
  }

  @Nullable HttpUrl revocationUrl() {
    return revocationEndpoint;
  }

  /**
   * {@code value} as an endpoint address: https, or http on a loopback host.
   *
   * @throws IllegalArgumentException naming {@code field} otherwise
   */
  static HttpUrl endpoint(@Nullable String value, String field) {
    if (value == null || value.isEmpty()) throw new IllegalArgumentException(field + " must not be empty");
    if (!value.equals(value.trim())) {
      // OkHttp would drop it, but an issuer is compared as written with the one its metadata names
      throw new IllegalArgumentException(field + " must not start or end with whitespace; was: \""
          + Identifiers.printable(Scrub.address(value)) + "\"");
    }
    HttpUrl url = HttpUrl.parse(value);
    if (url == null) {
      throw new IllegalArgumentException(field + " must be an https address; was: " + Scrub.address(value));
    }
    if (url.username().length() > 0 || url.password().length() > 0) {
      // Credentials in an address end up in logs, crash reports and stored token records.
      throw new IllegalArgumentException(field + " must not contain user credentials");
    }
    if (!isSecure(url)) {
      throw new IllegalArgumentException(field + " must be an https address (http only on a loopback"
          + " host); was: " + Scrub.address(value));
    }
    return url;
  }

  /**
   * Whether {@code address} may be shown to the user as it is: https, or http on a loopback host.
   * An address that does not parse is left to the caller's own check.
   */
  static boolean isSecureOrUnparsed(String address) {
    HttpUrl url = HttpUrl.parse(address);
    return url == null || isSecure(url);
  }

  private static boolean isSecure(HttpUrl url) {
    return url.isHttps() || isLoopback(url.host());
  }

  private static boolean isLoopback(String host) {
    // 127/8 as an address: a name such as 127.example.com resolves wherever its owner likes
    return host.equals("localhost") || host.equals("::1") || isIpv4Loopback(host);
  }

  private static boolean isIpv4Loopback(String host) {
    if (!IPV4.matcher(host).matches()) return false;
    for (String octet : host.split("\\.")) {
      if (Integer.parseInt(octet) > 255) return false; // 127.999.0.1 is a name, looked up in DNS
    }
    return host.startsWith("127.");
  }

  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof OAuthServer)) return false;
    OAuthServer that = (OAuthServer) other;
    return String.valueOf(issuer).equals(String.valueOf(that.issuer))
        && String.valueOf(deviceAuthorizationEndpoint).equals(String.valueOf(that.deviceAuthorizationEndpoint))
        && tokenEndpoint.equals(that.tokenEndpoint)
        && String.valueOf(userinfoEndpoint).equals(String.valueOf(that.userinfoEndpoint))
        && String.valueOf(revocationEndpoint).equals(String.valueOf(that.revocationEndpoint))
        && authMethods.equals(that.authMethods)
        && secretAuthentication == that.secretAuthentication;
  }

  @Override public int hashCode() {
    return tokenEndpoint.hashCode();
  }

  /** What the server is, for messages: its endpoints, without a secret a query string may hold. */
  String describe() {
    return "OAuthServer{issuer=" + issuer
        + ", device_authorization_endpoint=" + shown(deviceAuthorizationEndpoint)
        + ", token_endpoint=" + shown(tokenEndpoint) + ", userinfo_endpoint=" + shown(userinfoEndpoint)
        + (revocationEndpoint == null ? "" : ", revocation_endpoint=" + shown(revocationEndpoint))
        + ", token_endpoint_auth_methods_supported=" + authMethods
        + (secretAuthentication == null ? "" : ", client_authentication=" + secretAuthentication.wireName) + "}";
  }

  private static @Nullable String shown(@Nullable HttpUrl endpoint) {
    return endpoint == null ? null : Scrub.url(endpoint);
  }

  /** Builds an {@link OAuthServer} from explicit endpoints; setters check their argument. Not thread-safe. */
  public static final class Builder {
    private @Nullable String issuer;
    private @Nullable HttpUrl deviceAuthorizationEndpoint;
    private @Nullable HttpUrl tokenEndpoint;
    private @Nullable HttpUrl userinfoEndpoint;
    private @Nullable HttpUrl revocationEndpoint;
    private List<String> authMethods = new ArrayList<>();
    private @Nullable ClientAuthentication secretAuthentication;

    Builder() {
    }

    Builder(OAuthServer server) {
      this.issuer = server.issuer;
      this.deviceAuthorizationEndpoint = server.deviceAuthorizationEndpoint;
      this.tokenEndpoint = server.tokenEndpoint;
      this.userinfoEndpoint = server.userinfoEndpoint;
      this.revocationEndpoint = server.revocationEndpoint;
      this.authMethods = new ArrayList<>(server.authMethods);
      this.secretAuthentication = server.secretAuthentication;
    }

    /** The issuer identifier, kept in token records. Optional. */
    public Builder issuer(String issuer) {
      endpoint(issuer, "issuer");
      this.issuer = issuer;
      return this;
    }

    /** Where a device asks for a user code. Required for the device flow. */
    public Builder deviceAuthorizationEndpoint(String url) {
      this.deviceAuthorizationEndpoint = endpoint(url, "device_authorization_endpoint");
      return this;
    }

    /** Where tokens are issued and refreshed. Required. */
    public Builder tokenEndpoint(String url) {
      this.tokenEndpoint = endpoint(url, "token_endpoint");
      return this;
    }

    /** OpenID Connect userinfo, where an app learns who signed in. Optional. */
    public Builder userinfoEndpoint(String url) {
      this.userinfoEndpoint = endpoint(url, "userinfo_endpoint");
      return this;
    }

    /**
     * Where a token is revoked (RFC 7009): a sign-out revokes the sign-in's refresh token there first.
     * Optional: without it, a sign-out forgets the sign-in on the device only.
     */
    public Builder revocationEndpoint(String url) {
      this.revocationEndpoint = endpoint(url, "revocation_endpoint");
      return this;
    }

    /**
     * The server's {@code token_endpoint_auth_methods_supported}; by default none is listed, and a
     * client with a secret uses {@code client_secret_basic}.
     */
    public Builder tokenEndpointAuthMethods(List<String> methods) {
      if (methods == null) throw new IllegalArgumentException("methods must not be null");
      List<String> copy = new ArrayList<>();
      for (String method : methods) {
        if (method == null || method.isEmpty()) {
          throw new IllegalArgumentException("token_endpoint_auth_methods_supported must not hold empty names");
        }
        copy.add(method);
      }
      this.authMethods = copy;
      return this;
    }

    /**
     * How a client with a secret authenticates at the token endpoint, for a client registered for one
     * method at a server that offers several (Auth0, Okta and Keycloak bind each client to one): {@link
     * ClientAuthentication#CLIENT_SECRET_BASIC} or {@link ClientAuthentication#CLIENT_SECRET_POST}. By
     * default the SDK picks from {@link #tokenEndpointAuthMethods}: basic when listed or when nothing is,
     * else post. A public client (no secret) sends its {@code client_id} only, whatever is set here.
     *
     * @throws IllegalArgumentException if {@code method} is {@link ClientAuthentication#NONE}: a client
     *     without a secret gives none to the authorizer or the token manager instead
     */
    public Builder clientAuthentication(ClientAuthentication method) {
      if (method == null) throw new IllegalArgumentException("clientAuthentication must not be null");
      if (method == ClientAuthentication.NONE) {
        throw new IllegalArgumentException("clientAuthentication must be client_secret_basic or"
            + " client_secret_post; a public client (none) gives no client secret instead");
      }
      this.secretAuthentication = method;
      return this;
    }

    /**
     * Builds the server.
     *
     * @throws IllegalStateException if no token endpoint was set
     */
    public OAuthServer build() {
      if (tokenEndpoint == null) throw new IllegalStateException("token_endpoint is required");
      return new OAuthServer(this);
    }
  }
}
