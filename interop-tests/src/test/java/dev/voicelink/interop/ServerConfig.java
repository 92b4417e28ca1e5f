package dev.voicelink.interop;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationConsentService;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationConsent;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationConsentService;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.oidc.authentication.OidcUserInfoAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;

/**
 * The server's configuration: Spring Authorization Server as its reference documentation sets it up (one
 * filter chain for the protocol endpoints, one for form login), with the {@link InteropAccounts}, the
 * {@link StandardAuthServer.Settings} lifetimes, refresh-token rotation, OpenID Connect on, and the device
 * endpoints on. What differs from the server's defaults is named where it is set.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
class ServerConfig {

  @Bean
  @Order(1)
  SecurityFilterChain protocolEndpoints(HttpSecurity http, StandardAuthServer.Settings settings,
      AuthorizationServerSettings serverSettings, RegisteredClientRepository clients,
      OAuth2AuthorizationService authorizations) throws Exception {
    http.oauth2AuthorizationServer(server -> {
      http.securityMatcher(server.getEndpointsMatcher());
      server
          // a device keeps no secret: see PublicClientAuthentication
          .clientAuthentication(authentication -> authentication
              .authenticationConverter(new PublicClientAuthentication.Converter(serverSettings))
              .authenticationProvider(new PublicClientAuthentication.Provider(clients)))
          .deviceAuthorizationEndpoint(endpoint -> {
            if (settings.interval() != null) {
              endpoint.deviceAuthorizationResponseHandler(
                  new AdvertisedInterval(settings.interval(), serverSettings.getDeviceVerificationEndpoint()));
            }
          })
          .deviceVerificationEndpoint(Customizer.withDefaults())
          .oidc(oidc -> {
            if (settings.deviceUserInfo()) {
              oidc.userInfoEndpoint(userInfo -> userInfo.authenticationProviders(providers -> {
                providers.removeIf(provider -> provider instanceof OidcUserInfoAuthenticationProvider);
                providers.add(0, new DeviceUserInfo(authorizations, StandardAuthServer::displayName));
              }));
            }
          });
    });
    http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
        // a browser that is not signed in goes to the login page; a program gets 401
        .exceptionHandling(exceptions -> exceptions.defaultAuthenticationEntryPointFor(
            new LoginUrlAuthenticationEntryPoint("/login"), browsers()));
    return http.build();
  }

  /** Requests that ask for HTML by name; no Accept header, or {@code *}{@code /*}, is not a browser. */
  private static MediaTypeRequestMatcher browsers() {
    MediaTypeRequestMatcher html = new MediaTypeRequestMatcher(MediaType.TEXT_HTML);
    html.setIgnoredMediaTypes(Set.of(MediaType.ALL));
    return html;
  }

  @Bean
  @Order(2)
  SecurityFilterChain people(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
        .formLogin(Customizer.withDefaults());
    return http.build();
  }

  @Bean
  UserDetailsService users() {
    List<UserDetails> users = new ArrayList<>();
    for (InteropAccounts.User user : InteropAccounts.USERS) {
      users.add(User.withUsername(user.username()).password("{noop}" + user.password()).roles("USER").build());
    }
    return new InMemoryUserDetailsManager(users);
  }

  @Bean
  RegisteredClientRepository clients(StandardAuthServer.Settings settings) {
    TokenSettings tokens = TokenSettings.builder()
        .accessTokenTimeToLive(settings.accessTokenTimeToLive())
        .refreshTokenTimeToLive(settings.refreshTokenTimeToLive())
        .deviceCodeTimeToLive(settings.deviceCodeTimeToLive())
        // rotation: every refresh answers a new refresh token (the server's default keeps the old one)
        .reuseRefreshTokens(!settings.rotateRefreshTokens())
        .build();
    List<RegisteredClient> registered = new ArrayList<>();
    for (InteropAccounts.Client client : InteropAccounts.CLIENTS) {
      RegisteredClient.Builder builder = RegisteredClient.withId(UUID.randomUUID().toString())
          .clientId(client.id())
          .clientAuthenticationMethod(new ClientAuthenticationMethod(client.method().value))
          .authorizationGrantTypes(grants -> client.grantTypes().forEach(g -> grants.add(new AuthorizationGrantType(g))))
          .scopes(scopes -> scopes.addAll(client.scopes()))
          // the person sees what the device asks for, and can refuse it
          .clientSettings(ClientSettings.builder().requireAuthorizationConsent(true).build())
          .tokenSettings(tokens);
      if (client.secret() != null) builder.clientSecret("{noop}" + client.secret());
      registered.add(builder.build());
    }
    return new InMemoryRegisteredClientRepository(registered);
  }

  @Bean
  OAuth2AuthorizationService authorizations() {
    return new InMemoryOAuth2AuthorizationService();
  }

  @Bean
  OAuth2AuthorizationConsentService consents(StandardAuthServer.Settings settings) {
    return settings.rememberConsent() ? new InMemoryOAuth2AuthorizationConsentService() : new ConsentNotRemembered();
  }

  /** Every approval asks again, so that any test may approve or refuse whatever ran before it. */
  static final class ConsentNotRemembered implements OAuth2AuthorizationConsentService {
    @Override public void save(OAuth2AuthorizationConsent consent) {}

    @Override public void remove(OAuth2AuthorizationConsent consent) {}

    @Override public OAuth2AuthorizationConsent findById(String registeredClientId, String principalName) {
      return null;
    }
  }

  @Bean
  RSAKey signingKey() throws NoSuchAlgorithmException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair pair = generator.generateKeyPair();
    return new RSAKey.Builder((RSAPublicKey) pair.getPublic()).privateKey((RSAPrivateKey) pair.getPrivate())
        .keyID(UUID.randomUUID().toString()).build();
  }

  @Bean
  JWKSource<SecurityContext> jwkSource(RSAKey signingKey) {
    return new ImmutableJWKSet<>(new JWKSet(signingKey));
  }

  /** Checks the bearer tokens that the userinfo endpoint receives. */
  @Bean
  JwtDecoder jwtDecoder(RSAKey signingKey) throws Exception {
    return NimbusJwtDecoder.withPublicKey(signingKey.toRSAPublicKey()).build();
  }
}
