package dev.voicelink.core;

import dev.voicelink.core.internal.HttpLogger;
import dev.voicelink.core.internal.ServerDateInterceptor;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Where the platform is and which shared resources the SDK uses to reach it.
 *
 * <p>The three base addresses of the platform are configuration, never constants: {@code auth_url}
 * (authorization service), {@code platform_url} (platform tools) and {@code base_url} (dynamic entity
 * web API). Each feature needs only its own address; asking a feature for an address that was not set
 * fails with an {@link IllegalStateException} naming the setting.
 *
 * <pre>{@code
 * VoiceLinkConfig config = VoiceLinkConfig.builder()
 *     .authUrl("https://auth.example.com")
 *     .baseUrl("https://api.example.com")
 *     .httpClient(appOkHttpClient) // optional: share the app's connection pool
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and safe to share between threads; build one per app and reuse it. The
 * HTTP client is derived from the app's own with {@link OkHttpClient#newBuilder()}, so connection pool
 * and dispatcher are shared.
 */
public final class VoiceLinkConfig {
  /** The fixed path segment that stands for the product in web API paths ({@code /v2/voicelink/...}). */
  public static final String PRODUCT = "voicelink";

  private final @Nullable HttpUrl authUrl;
  private final @Nullable HttpUrl platformUrl;
  private final @Nullable HttpUrl baseUrl;
  /** The app's client as given (null: none), so that newBuilder() does not stack our interceptors. */
  private final @Nullable OkHttpClient appHttpClient;
  private final OkHttpClient httpClient;
  private final Clock deviceClock;
  private final SkewCorrectedClock correctedClock;
  private final Scheduler scheduler;
  private final HttpLogLevel httpLogging;

  private VoiceLinkConfig(Builder builder) {
    this.authUrl = builder.authUrl;
    this.platformUrl = builder.platformUrl;
    this.baseUrl = builder.baseUrl;
    this.deviceClock = builder.clock;
    this.correctedClock = new SkewCorrectedClock(builder.clock);
    this.scheduler = builder.scheduler != null
        ? builder.scheduler
        : Scheduler.system("voicelink-scheduler");
    this.httpLogging = builder.httpLogging;
    this.appHttpClient = builder.httpClient;
    OkHttpClient base = builder.httpClient != null ? builder.httpClient : new OkHttpClient();
    OkHttpClient.Builder derived = base.newBuilder()
        .addNetworkInterceptor(new ServerDateInterceptor(correctedClock));
    if (httpLogging != HttpLogLevel.NONE) {
      // Last network interceptor: it logs what goes over the wire, after every header is set.
      derived.addNetworkInterceptor(new HttpLogger(httpLogging));
    }
    this.httpClient = derived.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder newBuilder() {
    return new Builder(this);
  }

  /** The authorization service address ({@code auth_url}). */
  public HttpUrl authUrl() {
    return require(authUrl, "auth_url", "authUrl");
  }

  /** The platform tools address ({@code platform_url}). */
  public HttpUrl platformUrl() {
    return require(platformUrl, "platform_url", "platformUrl");
  }

  /** The dynamic entity web API address ({@code base_url}). */
  public HttpUrl baseUrl() {
    return require(baseUrl, "base_url", "baseUrl");
  }

  /**
   * {@code {base_url}/v2/voicelink/<path>}: the address of a versioned web API operation, for
   * example {@code webApiUrl("entity/upload-resource")}.
   */
  public HttpUrl webApiUrl(String path) {
    return baseUrl().newBuilder().addPathSegment("v2").addPathSegment(PRODUCT)
        .addPathSegments(path).build();
  }

  /** {@code {auth_url}/<path>}, for example {@code authEndpoint("oauth/ivs/token")}. */
  public HttpUrl authEndpoint(String path) {
    return authUrl().newBuilder().addPathSegments(path).build();
  }

  /** {@code {platform_url}/<path>}, for example {@code platformEndpoint("tools/upload_entities")}. */
  public HttpUrl platformEndpoint(String path) {
    return platformUrl().newBuilder().addPathSegments(path).build();
  }

  /**
   * The HTTP client every VoiceLink feature derives its own from. It shares the app's connection pool
   * and learns the server's time from each response's {@code Date} header.
   */
  public OkHttpClient httpClient() {
    return httpClient;
  }

  /** The device's clock, for measuring intervals (monotonic) and for local time stamps. */
  public Clock deviceClock() {
    return deviceClock;
  }

  /**
   * The device clock corrected by the offset learnt from the servers: use it wherever wall time is
   * sent to a server.
   */
  public SkewCorrectedClock correctedClock() {
    return correctedClock;
  }

  /** Where the SDK's waits and retries are scheduled. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** How much HTTP traffic is logged; {@link HttpLogLevel#NONE} unless set. */
  public HttpLogLevel httpLogging() {
    return httpLogging;
  }

  private static HttpUrl require(@Nullable HttpUrl url, String setting, String method) {
    if (url == null) {
      throw new IllegalStateException(setting + " is not configured; set it with VoiceLinkConfig"
          + ".Builder." + method + "(...)");
    }
    return url;
  }

  @Override public String toString() {
    return "VoiceLinkConfig{auth_url=" + authUrl + ", platform_url=" + platformUrl
        + ", base_url=" + baseUrl + "}";
  }

  /**
   * Builds a {@link VoiceLinkConfig}. Each setter checks its argument at once and throws {@link
   * IllegalArgumentException} naming the setting. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable HttpUrl authUrl;
    private @Nullable HttpUrl platformUrl;
    private @Nullable HttpUrl baseUrl;
    private @Nullable OkHttpClient httpClient;
    private Clock clock = Clock.system();
    private @Nullable Scheduler scheduler;
    private HttpLogLevel httpLogging = HttpLogLevel.NONE;

    Builder() {
    }

    Builder(VoiceLinkConfig config) {
      this.authUrl = config.authUrl;
      this.platformUrl = config.platformUrl;
      this.baseUrl = config.baseUrl;
      this.httpClient = config.appHttpClient;
      this.clock = config.deviceClock;
      this.scheduler = config.scheduler;
      this.httpLogging = config.httpLogging;
    }

    /** The authorization service address, e.g. {@code https://auth.example.com}. */
    public Builder authUrl(String authUrl) {
      this.authUrl = parseBaseAddress(authUrl, "auth_url");
      return this;
    }

    /** The platform tools address, e.g. {@code https://platform.example.com}. */
    public Builder platformUrl(String platformUrl) {
      this.platformUrl = parseBaseAddress(platformUrl, "platform_url");
      return this;
    }

    /** The dynamic entity web API address, e.g. {@code https://api.example.com}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = parseBaseAddress(baseUrl, "base_url");
      return this;
    }

    /** The app's own OkHttp client; the SDK derives its clients from it. */
    public Builder httpClient(OkHttpClient httpClient) {
      if (httpClient == null) throw new IllegalArgumentException("httpClient must not be null");
      this.httpClient = httpClient;
      return this;
    }

    /** The clock to use; tests pass a controllable one. Defaults to {@link Clock#system()}. */
    public Builder clock(Clock clock) {
      if (clock == null) throw new IllegalArgumentException("clock must not be null");
      this.clock = clock;
      return this;
    }

    /** Where waits run; tests pass a controllable one. Defaults to one daemon thread. */
    public Builder scheduler(Scheduler scheduler) {
      if (scheduler == null) throw new IllegalArgumentException("scheduler must not be null");
      this.scheduler = scheduler;
      return this;
    }

    /**
     * Logs the SDK's HTTP traffic through {@link VoiceLinkLog} (tag {@code http}, level {@code
     * DEBUG}), secrets redacted; see {@link HttpLogLevel}. Default {@link HttpLogLevel#NONE}. Meant
     * for development: {@link HttpLogLevel#BODY} writes personal data such as user codes, entity
     * names and recognized text.
     */
    public Builder httpLogging(HttpLogLevel level) {
      if (level == null) throw new IllegalArgumentException("httpLogging must not be null");
      this.httpLogging = level;
      return this;
    }

    public VoiceLinkConfig build() {
      return new VoiceLinkConfig(this);
    }

    static HttpUrl parseBaseAddress(@Nullable String value, String setting) {
      String expected = setting + " must be an http or https address such as https://host[:port][/path]";
      if (value == null || value.trim().isEmpty()) {
        throw new IllegalArgumentException(expected + "; was empty");
      }
      HttpUrl url = HttpUrl.parse(value.trim());
      if (url == null) {
        throw new IllegalArgumentException(expected + "; was: " + value);
      }
      if (url.query() != null || url.fragment() != null) {
        throw new IllegalArgumentException(setting + " must not have a query or fragment; was: "
            + value);
      }
      if (url.username().length() > 0 || url.password().length() > 0) {
        // Credentials in an address end up in logs and crash reports.
        throw new IllegalArgumentException(setting + " must not contain user credentials");
      }
      // Drop a trailing slash so that endpoint paths append to the last real segment.
      HttpUrl.Builder normalized = url.newBuilder();
      int last = url.pathSize() - 1;
      if (last >= 0 && url.pathSegments().get(last).isEmpty()) {
        if (last == 0) {
          normalized.encodedPath("/");
        } else {
          normalized.removePathSegment(last);
        }
      }
      return normalized.build();
    }
  }
}
