package dev.voicelink.interop;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.Transient;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.web.authentication.AuthenticationConverter;

/**
 * Public clients (RFC 8628 section 5.6: a device keeps no secret) at the device authorization endpoint and
 * at the token endpoint for the device-code and refresh grants: {@code client_id} alone identifies them.
 *
 * <p>Out of the box the server accepts a client without a secret only for the authorization-code grant with
 * PKCE; its reference documentation has deployments add this pair (a converter and a provider) for devices.
 * A request that carries any credential (an Authorization header or {@code client_secret}) is left to the
 * server's own converters.
 */
final class PublicClientAuthentication {
  private PublicClientAuthentication() {}

  /** A request that named a client and carried no credential. */
  @Transient
  static final class Token extends OAuth2ClientAuthenticationToken {
    private static final long serialVersionUID = 1L;

    Token(String clientId) {
      super(clientId, ClientAuthenticationMethod.NONE, null, null);
    }
  }

  static final class Converter implements AuthenticationConverter {
    private final AuthorizationServerSettings settings;

    Converter(AuthorizationServerSettings settings) {
      this.settings = settings;
    }

    @Override public Authentication convert(HttpServletRequest request) {
      if (!"POST".equals(request.getMethod())) return null;
      String path = request.getRequestURI();
      boolean deviceAuthorization = path.equals(settings.getDeviceAuthorizationEndpoint());
      boolean token = path.equals(settings.getTokenEndpoint());
      if (!deviceAuthorization && !token) return null;
      if (token) {
        String grantType = request.getParameter("grant_type");
        if (!AuthorizationGrantType.DEVICE_CODE.getValue().equals(grantType)
            && !AuthorizationGrantType.REFRESH_TOKEN.getValue().equals(grantType)) {
          return null;
        }
      }
      if (request.getHeader(HttpHeaders.AUTHORIZATION) != null || request.getParameter("client_secret") != null) {
        return null;
      }
      String[] clientIds = request.getParameterValues("client_id");
      if (clientIds == null) return null;
      if (clientIds.length != 1 || clientIds[0].isBlank()) {
        throw new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_REQUEST);
      }
      return new Token(clientIds[0]);
    }
  }

  static final class Provider implements AuthenticationProvider {
    private final RegisteredClientRepository clients;

    Provider(RegisteredClientRepository clients) {
      this.clients = clients;
    }

    @Override public Authentication authenticate(Authentication authentication) {
      Token token = (Token) authentication;
      RegisteredClient client = clients.findByClientId((String) token.getPrincipal());
      if (client == null || !client.getClientAuthenticationMethods().contains(ClientAuthenticationMethod.NONE)) {
        throw new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_CLIENT);
      }
      return new OAuth2ClientAuthenticationToken(client, ClientAuthenticationMethod.NONE, null);
    }

    @Override public boolean supports(Class<?> authentication) {
      return Token.class.isAssignableFrom(authentication);
    }
  }
}
