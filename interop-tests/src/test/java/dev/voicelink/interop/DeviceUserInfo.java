package dev.voicelink.interop;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.oidc.OidcUserInfo;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.oidc.authentication.OidcUserInfoAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.oidc.authentication.OidcUserInfoAuthenticationToken;
import org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken;

/**
 * The userinfo endpoint for access tokens of the device grant; every other token goes to the server's own
 * provider unchanged.
 *
 * <p>Out of the box the server answers userinfo only for a token issued together with an ID token and
 * carrying the {@code openid} scope, and its device grant issues no ID token and refuses {@code openid}: a
 * device could never learn who signed in. Servers that implement OpenID Connect for devices (Keycloak,
 * Auth0, Okta) answer it; this provider does the same: {@code sub} is the user's name, and with the
 * {@code profile} scope also {@code name} and {@code preferred_username}. Errors keep the server's format.
 */
final class DeviceUserInfo implements AuthenticationProvider {
  private final OAuth2AuthorizationService authorizations;
  private final Function<String, String> displayNames;
  private final OidcUserInfoAuthenticationProvider standard;

  DeviceUserInfo(OAuth2AuthorizationService authorizations, Function<String, String> displayNames) {
    this.authorizations = authorizations;
    this.displayNames = displayNames;
    this.standard = new OidcUserInfoAuthenticationProvider(authorizations);
  }

  @Override public Authentication authenticate(Authentication authentication) {
    OidcUserInfoAuthenticationToken request = (OidcUserInfoAuthenticationToken) authentication;
    if (!(request.getPrincipal() instanceof AbstractOAuth2TokenAuthenticationToken<?> bearer)
        || !bearer.isAuthenticated()) {
      throw new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_TOKEN);
    }
    OAuth2Authorization authorization =
        authorizations.findByToken(bearer.getToken().getTokenValue(), OAuth2TokenType.ACCESS_TOKEN);
    if (authorization == null || !AuthorizationGrantType.DEVICE_CODE.equals(authorization.getAuthorizationGrantType())) {
      return standard.authenticate(authentication);
    }
    OAuth2Authorization.Token<OAuth2AccessToken> accessToken = authorization.getAccessToken();
    if (accessToken == null || !accessToken.isActive()) {
      throw new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_TOKEN);
    }
    String subject = authorization.getPrincipalName();
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("sub", subject);
    if (accessToken.getToken().getScopes().contains("profile")) {
      claims.put("name", displayNames.apply(subject));
      claims.put("preferred_username", subject);
    }
    return new OidcUserInfoAuthenticationToken(bearer, new OidcUserInfo(claims));
  }

  @Override public boolean supports(Class<?> authentication) {
    return OidcUserInfoAuthenticationToken.class.isAssignableFrom(authentication);
  }
}
