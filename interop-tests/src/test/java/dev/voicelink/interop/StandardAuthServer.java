package dev.voicelink.interop;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.springframework.context.annotation.AnnotationConfigUtils;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.core.OAuth2DeviceCode;
import org.springframework.security.oauth2.core.OAuth2UserCode;
import org.springframework.web.context.support.GenericWebApplicationContext;

/**
 * Spring Authorization Server, an OAuth 2.0 / OpenID Connect server written independently of this SDK,
 * running in this JVM on {@code 127.0.0.1}: the device authorization grant (RFC 8628), client credentials,
 * refresh tokens with rotation, discovery (OpenID Connect and RFC 8414), userinfo, form login and the
 * server's own consent page. The clients and people it knows are {@link InteropAccounts}.
 *
 * <pre>{@code
 * try (StandardAuthServer server = StandardAuthServer.builder().interval(Duration.ofSeconds(1)).start()) {
 *   String issuer = server.issuer();               // http://127.0.0.1:<port>
 *   ... a device asks for a code, Approver.approve(server, userCode, ALICE) ...
 *   server.journal().last(server.tokenEndpointPath()); // what the server saw and answered
 * }
 * }</pre>
 *
 * <p>Lifecycle: {@link Builder#start()} binds the port and returns once the server answers; {@link #close()}
 * stops it and frees the port. Thread-safe: requests are served on the server's own threads.
 */
public final class StandardAuthServer implements AutoCloseable {

  /** How a server is configured. Immutable. */
  public record Settings(int port, Duration deviceCodeTimeToLive, Duration accessTokenTimeToLive,
      Duration refreshTokenTimeToLive, Duration interval, boolean deviceUserInfo, boolean rememberConsent,
      boolean rotateRefreshTokens, Duration keepAliveTimeout) {}

  /** Configures a server; every setting has a default. Not thread-safe. */
  public static final class Builder {
    private int port;
    private Duration deviceCodeTimeToLive = Duration.ofMinutes(5);
    private Duration accessTokenTimeToLive = Duration.ofMinutes(5);
    private Duration refreshTokenTimeToLive = Duration.ofHours(1);
    private Duration interval;
    private boolean deviceUserInfo = true;
    private boolean rememberConsent;
    private boolean rotateRefreshTokens = true;
    private Duration keepAliveTimeout;

    private Builder() {}

    /**
     * How long Tomcat keeps an idle kept-alive connection open (its connector's {@code keepAliveTimeout}).
     * Its poller looks for idle connections about once a second, so a connection is closed up to a second
     * after the timeout, as Node's is. Default: Tomcat's, 20 seconds.
     */
    public Builder keepAliveTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "keepAliveTimeout");
      if (timeout.toMillis() < 1) throw new IllegalArgumentException("keepAliveTimeout must be 1 ms or more: " + timeout);
      this.keepAliveTimeout = timeout;
      return this;
    }

    /** The port on 127.0.0.1; 0 (the default) takes a free one. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be 0..65535: " + port);
      this.port = port;
      return this;
    }

    /** How long a device code and its user code live ({@code expires_in}); default 5 minutes. */
    public Builder deviceCodeTimeToLive(Duration ttl) {
      this.deviceCodeTimeToLive = positiveSeconds("deviceCodeTimeToLive", ttl);
      return this;
    }

    /** How long an access token lives ({@code expires_in}); default 5 minutes. */
    public Builder accessTokenTimeToLive(Duration ttl) {
      this.accessTokenTimeToLive = positiveSeconds("accessTokenTimeToLive", ttl);
      return this;
    }

    /** How long a refresh token lives; default 1 hour. */
    public Builder refreshTokenTimeToLive(Duration ttl) {
      this.refreshTokenTimeToLive = positiveSeconds("refreshTokenTimeToLive", ttl);
      return this;
    }

    /**
     * Makes the device authorization answer carry this {@code interval}. By default the server sends none,
     * which tells a device to poll every 5 seconds (RFC 8628 section 3.2).
     */
    public Builder interval(Duration interval) {
      this.interval = positiveSeconds("interval", interval);
      return this;
    }

    /**
     * Whether userinfo answers device-grant access tokens (default true, as OpenID Connect servers for
     * devices do). False keeps the server's own behaviour: 403 {@code insufficient_scope} for them.
     */
    public Builder deviceUserInfo(boolean on) {
      this.deviceUserInfo = on;
      return this;
    }

    /**
     * Whether a person's consent is remembered, so that their next approval of the same client asks nothing
     * (the server's own behaviour). Default false: every approval shows the consent page.
     */
    public Builder rememberConsent(boolean on) {
      this.rememberConsent = on;
      return this;
    }

    /**
     * Whether every refresh answers a new refresh token and retires the old one (default true). False keeps the
     * server's own default: the same refresh token is answered again.
     */
    public Builder rotateRefreshTokens(boolean on) {
      this.rotateRefreshTokens = on;
      return this;
    }

    /** Starts the server; it answers when this returns. */
    public StandardAuthServer start() {
      return new StandardAuthServer(new Settings(port, deviceCodeTimeToLive, accessTokenTimeToLive,
          refreshTokenTimeToLive, interval, deviceUserInfo, rememberConsent, rotateRefreshTokens, keepAliveTimeout));
    }

    private static Duration positiveSeconds(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.getSeconds() < 1 || value.getNano() != 0) {
        throw new IllegalArgumentException(name + " must be a whole number of seconds, at least 1: " + value);
      }
      return value;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The OpenID Connect {@code name} of a user of {@link InteropAccounts}. */
  static String displayName(String username) {
    for (InteropAccounts.User user : InteropAccounts.USERS) if (user.username().equals(username)) return user.name();
    return username;
  }

  private final Settings settings;
  private final Journal journal = new Journal();
  private final Path baseDir;
  private final Tomcat tomcat;
  private final GenericWebApplicationContext spring;
  private final String issuer;
  private final AuthorizationServerSettings endpoints;

  private StandardAuthServer(Settings settings) {
    this.settings = settings;
    SecurityFilter security = new SecurityFilter();
    try {
      baseDir = Files.createTempDirectory("vl-standard-auth");
    } catch (IOException e) {
      throw new IllegalStateException("cannot create the server's working directory", e);
    }
    tomcat = new Tomcat();
    tomcat.setBaseDir(baseDir.toString());
    Connector connector = new Connector();
    connector.setPort(settings.port());
    connector.setProperty("address", "127.0.0.1");
    if (settings.keepAliveTimeout() != null) {
      connector.setProperty("keepAliveTimeout", Long.toString(settings.keepAliveTimeout().toMillis()));
    }
    tomcat.setConnector(connector);
    Context context = tomcat.addContext("", baseDir.toString());
    if (context instanceof StandardContext standard) {
      // leak detection for redeployed web applications: nothing is redeployed here, and it warns on Java 17
      standard.setClearReferencesThreadLocals(false);
      standard.setClearReferencesRmiTargets(false);
    }
    addFilter(context, "journal", new JournalFilter(journal));
    addFilter(context, "security", security);
    AuthorizationServerSettings defaults = AuthorizationServerSettings.builder().build();
    Tomcat.addServlet(context, "pages", new Pages(defaults.getDeviceVerificationEndpoint()));
    context.addServletMappingDecoded("/", "pages");
    try {
      tomcat.start();
      // the container logs a port it cannot bind and goes on without it
      if (connector.getLocalPort() <= 0) throw new LifecycleException("port " + settings.port() + " is not free");
    } catch (LifecycleException e) {
      stopTomcat();
      throw new IllegalStateException("the server did not start on 127.0.0.1:" + settings.port(), e);
    }
    issuer = "http://127.0.0.1:" + connector.getLocalPort();
    endpoints = AuthorizationServerSettings.builder().issuer(issuer).build();
    spring = new GenericWebApplicationContext(context.getServletContext());
    try {
      AnnotationConfigUtils.registerAnnotationConfigProcessors(spring);
      spring.registerBean(Settings.class, () -> settings);
      spring.registerBean(AuthorizationServerSettings.class, () -> endpoints);
      spring.registerBean(ServerConfig.class);
      spring.refresh();
      security.delegate = spring.getBean("springSecurityFilterChain", Filter.class);
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  private static void addFilter(Context context, String name, Filter filter) {
    FilterDef definition = new FilterDef();
    definition.setFilterName(name);
    definition.setFilter(filter);
    context.addFilterDef(definition);
    FilterMap mapping = new FilterMap();
    mapping.setFilterName(name);
    mapping.addURLPattern("/*");
    context.addFilterMap(mapping);
  }

  /** Spring Security's filter chain, set once the application context is up (the port is known first). */
  private static final class SecurityFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private volatile Filter delegate;

    @Override protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
        throws IOException, ServletException {
      Filter filter = delegate;
      if (filter == null) {
        response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        return;
      }
      filter.doFilter(request, response, chain);
    }
  }

  public Settings settings() { return settings; }

  /** {@code http://127.0.0.1:<port>}: the issuer of its discovery documents and tokens. */
  public String issuer() { return issuer; }

  public int port() { return Integer.parseInt(issuer.substring(issuer.lastIndexOf(':') + 1)); }

  /** The issuer followed by {@code path}. */
  public String url(String path) { return issuer + path; }

  public String deviceAuthorizationEndpointPath() { return endpoints.getDeviceAuthorizationEndpoint(); }
  public String deviceVerificationPath() { return endpoints.getDeviceVerificationEndpoint(); }
  public String tokenEndpointPath() { return endpoints.getTokenEndpoint(); }
  public String userInfoPath() { return endpoints.getOidcUserInfoEndpoint(); }
  public String jwkSetPath() { return endpoints.getJwkSetEndpoint(); }
  public String introspectionPath() { return endpoints.getTokenIntrospectionEndpoint(); }
  public String revocationPath() { return endpoints.getTokenRevocationEndpoint(); }

  /** The full URL of the device authorization endpoint (RFC 8628 section 3.1). */
  public String deviceAuthorizationEndpoint() { return url(deviceAuthorizationEndpointPath()); }
  /** The full URL of the token endpoint. */
  public String tokenEndpoint() { return url(tokenEndpointPath()); }
  /** {@code verification_uri} as the server answers it to a device that called it on 127.0.0.1. */
  public String verificationUri() { return url(deviceVerificationPath()); }
  public String userInfoEndpoint() { return url(userInfoPath()); }

  /** What the server received and answered. */
  public Journal journal() { return journal; }

  /**
   * Makes a device code and its user code expired now, as if their lifetime had run out: the server's own
   * expiry handling then answers, to the device ({@code expired_token}) and on the verification page. Fails
   * when the server does not know the code.
   */
  public void expireDeviceCode(String deviceCode) {
    OAuth2AuthorizationService authorizations = spring.getBean(OAuth2AuthorizationService.class);
    OAuth2Authorization authorization =
        authorizations.findByToken(deviceCode, new OAuth2TokenType(OAuth2ParameterNames.DEVICE_CODE));
    if (authorization == null) throw new IllegalArgumentException("the server knows no such device code");
    OAuth2Authorization.Token<OAuth2DeviceCode> device = authorization.getToken(OAuth2DeviceCode.class);
    OAuth2Authorization.Token<OAuth2UserCode> user = authorization.getToken(OAuth2UserCode.class);
    Instant expiresAt = Instant.now().minusSeconds(1);
    Instant issuedAt = device.getToken().getIssuedAt();
    if (issuedAt == null || !issuedAt.isBefore(expiresAt)) issuedAt = expiresAt.minusSeconds(1);
    authorizations.save(OAuth2Authorization.from(authorization)
        .token(new OAuth2DeviceCode(deviceCode, issuedAt, expiresAt), metadata -> metadata.putAll(device.getMetadata()))
        .token(new OAuth2UserCode(user.getToken().getTokenValue(), issuedAt, expiresAt),
            metadata -> metadata.putAll(user.getMetadata()))
        .build());
  }

  @Override public void close() {
    try {
      if (spring != null && spring.isActive()) spring.close();
    } finally {
      stopTomcat();
    }
  }

  private void stopTomcat() {
    try {
      tomcat.stop();
      tomcat.destroy();
    } catch (LifecycleException e) {
      throw new IllegalStateException("the server did not stop", e);
    } finally {
      deleteBaseDir();
    }
  }

  private void deleteBaseDir() {
    try (Stream<Path> files = Files.walk(baseDir)) {
      files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    } catch (IOException e) {
      // a temporary directory left behind is no failure of the server
    }
  }

  @Override public String toString() {
    return "StandardAuthServer{" + issuer + "}";
  }
}
