package dev.voicelink.auth;

import dev.voicelink.core.internal.Form;
import dev.voicelink.core.internal.Scrub;
import dev.voicelink.core.internal.Tolerance;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Credentials;
import okhttp3.HttpUrl;
import okhttp3.Request;

/** Standard OAuth 2.0: RFC 8628 device grant, RFC 6749 token requests, all form-encoded. */
final class StandardDialect extends OAuthDialect {
  private final @Nullable String issuer;
  private final @Nullable HttpUrl deviceEndpoint;
  private final HttpUrl tokenEndpoint;
  private final @Nullable HttpUrl revocationEndpoint;
  private final OAuthServer.ClientAuthentication authentication;
  private final @Nullable String clientSecret;
  private final @Nullable String scope;

  StandardDialect(@Nullable String issuer, @Nullable HttpUrl deviceEndpoint, HttpUrl tokenEndpoint,
      @Nullable HttpUrl revocationEndpoint, OAuthServer.ClientAuthentication authentication,
      @Nullable String clientSecret, @Nullable String scope) {
    if (authentication != OAuthServer.ClientAuthentication.NONE && clientSecret == null) {
      throw new IllegalStateException("client_secret is required: the client authenticates with "
          + authentication.wireName());
    }
    this.issuer = issuer;
    this.deviceEndpoint = deviceEndpoint;
    this.tokenEndpoint = tokenEndpoint;
    this.revocationEndpoint = revocationEndpoint;
    this.authentication = authentication;
    this.clientSecret = clientSecret;
    this.scope = scope;
  }

  /** The dialect of {@code server} for a client with {@code clientSecret} (null: a public client). */
  static StandardDialect of(OAuthServer server, @Nullable String clientSecret, @Nullable String scope) {
    return new StandardDialect(server.issuer(), server.deviceAuthorizationUrl(), server.tokenUrl(),
        server.revocationUrl(), server.clientAuthentication(clientSecret != null), clientSecret, scope);
  }

  /** The dialect a stored standard record is refreshed in. */
  static StandardDialect of(TokenRecord record, @Nullable String clientSecret) {
    OAuthServer.ClientAuthentication authentication = record.clientAuthentication();
    String endpoint = record.tokenEndpoint();
    if (authentication == null || endpoint == null) {
      throw new IllegalArgumentException("record is not a standard record");
    }
    String revocation = record.revocationEndpoint();
    return new StandardDialect(record.issuer(), null, OAuthServer.endpoint(endpoint, "token_endpoint"),
        revocation == null ? null : OAuthServer.endpoint(revocation, "revocation_endpoint"),
        authentication, authentication == OAuthServer.ClientAuthentication.NONE ? null : clientSecret,
        record.scope());
  }

  @Override Request deviceCode(String clientId, @Nullable String deviceId) {
    if (deviceEndpoint == null) {
      throw new IllegalStateException("the server has no device_authorization_endpoint");
    }
    return post(deviceEndpoint, clientId, true, "scope", scope);
  }

  @Override Request poll(String clientId, DeviceCode code) {
    return post(tokenEndpoint, clientId, false,
        "grant_type", DEVICE_CODE_GRANT, "device_code", code.deviceCode());
  }

  @Override Request refresh(TokenRecord record) {
    String refreshToken = record.refreshToken();
    if (refreshToken == null) throw new IllegalArgumentException("record has no refresh token");
    return post(tokenEndpoint, record.clientId(), false,
        "grant_type", "refresh_token", "refresh_token", refreshToken);
  }

  @Override Request clientCredentials(String clientId, String secret) {
    return post(tokenEndpoint, clientId, false, "grant_type", "client_credentials", "scope", scope);
  }

  /**
   * RFC 7009 section 2.1: the refresh token (its access tokens go with it, section 2.1 says a server
   * may, and most do), or the access token of a record that has none, authenticated as the token
   * requests are.
   */
  @Override boolean offersRevocation() {
    return revocationEndpoint != null;
  }

  @Override @Nullable Request revocation(TokenRecord record) {
    if (revocationEndpoint == null) return null;
    String refreshToken = record.refreshToken();
    return refreshToken != null
        ? post(revocationEndpoint, record.clientId(), false,
            "token", refreshToken, "token_type_hint", "refresh_token")
        : post(revocationEndpoint, record.clientId(), false,
            "token", record.accessToken(), "token_type_hint", "access_token");
  }

  /** RFC 8628 section 3.1: the client_id (and the scope) say who asks; a device has no other name. */
  @Override void checkDeviceId(boolean given, String withDeviceId, String withoutDeviceId) {
    if (given) {
      throw new IllegalStateException("a standard OAuth 2.0 server takes no device_id: call "
          + withoutDeviceId);
    }
  }

  @Override String deviceCodeAddress() {
    return "device_authorization_endpoint=" + deviceEndpoint;
  }

  /** RFC 8628 section 3.2: seconds. */
  @Override TimeUnit intervalUnit() {
    return TimeUnit.SECONDS;
  }

  @Override @Nullable String verificationUri(WireJson answer, Tolerance tolerance) {
    String verificationUri = answer.string("verification_uri");
    String draftName = answer.string("verification_url");
    if (verificationUri == null && draftName != null) {
      // The draft's name, still sent by Google and by Azure AD's v1 endpoint.
      tolerance.warnOnce("verification_url", "the device authorization answer names its page"
          + " verification_url, not verification_uri (RFC 8628 section 3.2): read as"
          + " verification_uri");
      return draftName;
    }
    return verificationUri;
  }

  /**
   * RFC 8628 section 3.3.1: the code in the link spares the user typing it. One that is no address,
   * or leads to a page without TLS, gives way to verification_uri.
   */
  @Override @Nullable String verificationUriComplete(WireJson answer, Tolerance tolerance) {
    String complete = answer.string("verification_uri_complete");
    if (complete != null && HttpUrl.parse(complete) == null) {
      tolerance.warnOnce("verification_uri_complete", "verification_uri_complete is not an http"
          + " address: the link is made from verification_uri");
      return null;
    }
    if (complete != null && !OAuthServer.isSecureOrUnparsed(complete)) {
      // RFC 6749 3.1: where the user signs in is TLS-protected; the QR code must not lead elsewhere.
      tolerance.warnOnce("verification_uri_complete-http", "verification_uri_complete is not an"
          + " https address: the link is made from verification_uri");
      return null;
    }
    return complete;
  }

  /** RFC 6749 section 3.1: the user types a password on that page, so it is TLS-protected. */
  @Override void checkVerificationUri(String verificationUri) throws AuthClient.MalformedField {
    if (!OAuthServer.isSecureOrUnparsed(verificationUri)) {
      throw new AuthClient.MalformedField("verification_uri must be an https address (http only on a"
          + " loopback host); was: " + Scrub.address(verificationUri));
    }
  }

  /**
   * A form post of {@code namesAndValues} (a null value leaves its name out) with the client
   * authenticated: {@code client_id} in the form for {@code none}, with {@code client_secret} for
   * post, first or last as RFC 8628's examples have it; for basic an HTTP Basic header of the
   * form-encoded id and secret (RFC 6749 section 2.3.1), and no {@code client_id} in the form.
   */
  private Request post(HttpUrl url, String clientId, boolean clientFirst,
      @Nullable String... namesAndValues) {
    Request.Builder request = new Request.Builder().url(url).header("Accept", "application/json");
    Form form = new Form();
    if (clientFirst) addClient(request, form, clientId);
    for (int i = 0; i < namesAndValues.length; i += 2) {
      String value = namesAndValues[i + 1];
      if (value != null) form.add(namesAndValues[i], value);
    }
    if (!clientFirst) addClient(request, form, clientId);
    return request.post(form.build()).build();
  }

  private void addClient(Request.Builder request, Form form, String clientId) {
    switch (authentication) {
      case CLIENT_SECRET_BASIC:
        request.header("Authorization",
            Credentials.basic(Form.encode(clientId), Form.encode(clientSecret)));
        break;
      case CLIENT_SECRET_POST:
        form.add("client_id", clientId).add("client_secret", clientSecret);
        break;
      default:
        form.add("client_id", clientId);
        break;
    }
  }

  /** RFC 6749 section 7.1 and what the SDK sends: {@code Bearer}. */
  @Override String bearer() {
    return "Bearer";
  }

  /**
   * RFC 6749 section 5.1 makes the refresh token optional, and leaves the lifetime to the server:
   * GitHub's tokens that never expire come with neither. Ended after a default lifetime, the sign-in
   * would need doing every hour. A token that does expire ends the sign-in with it, which is said.
   */
  @Override long lifetimeWithoutRefreshToken(WireJson answer, AuthClient reader)
      throws MalformedResponseException {
    if (!answer.has("expires_in")) {
      reader.tolerance.warnOnce("expires_in-none", "the token answer has neither expires_in nor"
          + " refresh_token: the token is taken not to expire (" + TokenRecord.MAX_EXPIRES_IN_SECONDS
          + " s), and is served until a server rejects it");
      return TokenRecord.MAX_EXPIRES_IN_SECONDS;
    }
    long expiresIn = reader.expiresInSeconds(answer, this);
    reader.tolerance.warnOnce("refresh_token-missing", "the token answer has no refresh_token: the"
        + " device must be authorized again when the token expires, in " + expiresIn + " s;"
        + " servers such as Okta, Auth0 and Entra ID issue one only for the scope offline_access");
    return expiresIn;
  }

  /** RFC 6749 section 5.1: seconds. A server that means "never expires" is held to ten years. */
  @Override long expiresInBeyondTenYears(double expiresIn, Tolerance tolerance) {
    tolerance.warnOnce("expires_in-long", "token expires_in " + AuthClient.format(expiresIn)
        + " s is more than 10 years: read as " + TokenRecord.MAX_EXPIRES_IN_SECONDS + " s");
    return TokenRecord.MAX_EXPIRES_IN_SECONDS;
  }

  @Override String refreshRefused() {
    return "invalid_grant";
  }

  /** RFC 6749 section 5.2, and GitHub's {@code bad_refresh_token} for one expired or used. */
  @Override boolean refusesRefreshToken(@Nullable String error) {
    return "invalid_grant".equals(error) || "bad_refresh_token".equals(error);
  }

  /**
   * RFC 8628 section 3.5: {@code expired_token}; some servers say {@code invalid_grant}, Azure AD's
   * v1 endpoint {@code code_expired}.
   */
  @Override boolean codeExpired(String error) {
    return error.equals("invalid_grant") || error.equals("code_expired");
  }

  @Override TokenRecord.Builder stamp(TokenRecord.Builder record, WireJson answer) {
    String granted = answer.string("scope");
    // RFC 6749 section 5.1: an answer without scope granted what was asked (for a refresh: what
    // the record held).
    return record.standard(issuer, tokenEndpoint.toString(), authentication)
        .revocationEndpoint(revocationEndpoint == null ? null : revocationEndpoint.toString())
        .scope(granted != null ? granted : scope)
        .idToken(answer.string("id_token"));
  }
}
