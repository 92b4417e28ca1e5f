package dev.voicelink.auth;

import dev.voicelink.core.internal.Redact;
import dev.voicelink.core.internal.Scrub;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A token record issued by the authorization service (protocol 2.2), plus what the SDK needs to keep it
 * alive: which grant it came from, for which {@code client_id}, and when it was received.
 *
 * <p>{@code expires_in} is seconds and {@code created_at} epoch seconds, as the SDK read them from the
 * answer (a missing {@code expires_in} is an hour; one that cannot be seconds was read as
 * milliseconds; see docs/platform-assumptions.md). The SDK computes expiry from the local time of
 * receipt, never from {@code created_at}: a device clock may be years off before NTP answers, and
 * {@code created_at} may be the time of the original grant. It is kept for information.
 *
 * <p>Immutable and thread-safe. {@link #toString()} shows fingerprints of the tokens, never the
 * tokens.
 */
public final class TokenRecord {
  /**
   * The longest lifetime a record holds: ten years. A platform token answer that says more cannot
   * mean seconds and is read as milliseconds; a standard server's is capped here.
   */
  static final long MAX_EXPIRES_IN_SECONDS = TimeUnit.DAYS.toSeconds(3650);
  /** 9999-12-31T23:59:59Z: the bound of the record's times, which its stored form can carry. */
  static final long LAST_EPOCH_SECOND = 253_402_300_799L;
  static final long LAST_EPOCH_MILLI = LAST_EPOCH_SECOND * 1000 + 999;
  /** How a record was obtained, which decides where and how it is refreshed. */
  public enum Grant {
    /** Device authorization (protocol 4.3); refreshed at {@code {auth_url}/oauth/ivs/token} (4.4). */
    DEVICE("device"),
    /** Client credentials, a cloud token (protocol 4.5); refreshed at {@code {auth_url}/oauth/token} (4.6). */
    CLOUD("cloud");

    private final String wireName;

    Grant(String wireName) {
      this.wireName = wireName;
    }

    /** The name used in token files: {@code device} or {@code cloud}. */
    public String wireName() {
      return wireName;
    }

    static @Nullable Grant fromWireName(String name) {
      for (Grant grant : values()) {
        if (grant.wireName.equals(name)) return grant;
      }
      return null;
    }
  }

  /**
   * Which dialect of OAuth the record's server speaks, which decides how it is refreshed: the
   * platform's ({@code {auth_url}/oauth/ivs/token}, JSON) or standard OAuth 2.0 (the record's own
   * {@linkplain #tokenEndpoint() token endpoint}, form-encoded, RFC 6749 section 6).
   */
  public enum Dialect {
    /** The platform's authorization service (protocol 4.1–4.6). */
    PLATFORM("platform"),
    /** A standard OAuth 2.0 server (RFC 6749, RFC 8628): the third-party account variant. */
    STANDARD("standard");

    private final String wireName;

    Dialect(String wireName) {
      this.wireName = wireName;
    }

    /** The name used in token files: {@code platform} or {@code standard}. */
    public String wireName() {
      return wireName;
    }
  }

  private final Grant grant;
  private final Dialect dialect;
  private final @Nullable String issuer;
  private final @Nullable String tokenEndpoint;
  private final @Nullable String revocationEndpoint;
  private final OAuthServer.@Nullable ClientAuthentication clientAuthentication;
  private final @Nullable String scope;
  private final @Nullable String idToken;
  private final String clientId;
  private final String tokenType;
  private final String accessToken;
  private final @Nullable String refreshToken;
  private final long expiresInSeconds;
  private final long createdAtEpochSeconds;
  private final long receivedAtEpochMillis;

  TokenRecord(Builder builder) {
    this.grant = builder.grant;
    this.dialect = builder.dialect;
    this.issuer = builder.issuer;
    this.tokenEndpoint = builder.tokenEndpoint;
    this.revocationEndpoint = builder.revocationEndpoint;
    this.clientAuthentication = builder.clientAuthentication;
    this.scope = builder.scope;
    this.idToken = builder.idToken;
    this.clientId = builder.clientId;
    this.tokenType = builder.tokenType;
    this.accessToken = builder.accessToken;
    this.refreshToken = builder.refreshToken;
    this.expiresInSeconds = builder.expiresInSeconds;
    this.createdAtEpochSeconds = builder.createdAtEpochSeconds;
    this.receivedAtEpochMillis = builder.receivedAtEpochMillis;
  }

  /**
   * The record in the versioned JSON form that token stores keep (one object, with {@code version}
   * 1). A standard record also holds {@code "dialect":"standard"}, its issuer, token endpoint, revocation endpoint, client
   * authentication, scope and id token; a record without {@code dialect} (every record written before
   * the standard dialect existed) is a platform one. It holds the tokens in clear: keep it in private
   * or encrypted storage. A custom {@link TokenStore} can store this text and read it back with {@link
   * #fromStorageJson}.
   */
  public String toStorageJson() {
    return TokenRecordStorage.write(this);
  }

  /**
   * Reads the text of {@link #toStorageJson()}.
   *
   * @throws IOException whose message names what is wrong (never a secret), if the text is not a
   *     record of a supported version
   */
  public static TokenRecord fromStorageJson(String json) throws IOException {
    return TokenRecordStorage.read(json);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder newBuilder() {
    return new Builder(this);
  }

  public Grant grant() {
    return grant;
  }

  /** The dialect of the server that issued the record; records stored before it was kept are platform ones. */
  public Dialect dialect() {
    return dialect;
  }

  /** The issuer of a standard record when it was configured from one (discovery), else null. */
  public @Nullable String issuer() {
    return issuer;
  }

  /** Where a standard record is refreshed; null for a platform record. */
  public @Nullable String tokenEndpoint() {
    return tokenEndpoint;
  }

  /**
   * Where a standard record's tokens are revoked (RFC 7009), as its server advertised it; null when it
   * advertised none, and for a platform record.
   */
  public @Nullable String revocationEndpoint() {
    return revocationEndpoint;
  }

  /** How a standard record's client authenticates at its token endpoint; null for a platform record. */
  public OAuthServer.@Nullable ClientAuthentication clientAuthentication() {
    return clientAuthentication;
  }

  /**
   * The scope the token was granted (the answer's {@code scope}, or the one asked for when the answer
   * has none), or null. Space-separated, in the server's order. Kept out of {@code toString} and logs.
   */
  public @Nullable String scope() {
    return scope;
  }

  /**
   * The OpenID Connect id token the server answered with, or null. Not verified by the SDK: an app
   * that wants the user's identity from it verifies its signature, issuer, audience and expiry
   * first. A secret: never log it.
   */
  public @Nullable String idToken() {
    return idToken;
  }

  /** The {@code client_id} the record was issued to. */
  public String clientId() {
    return clientId;
  }

  /** {@code token_type}; the service always says {@code bearer}. */
  public String tokenType() {
    return tokenType;
  }

  /** The access token. A secret: never log it. */
  public String accessToken() {
    return accessToken;
  }

  /** The refresh token for the next refresh, or null if the server sent none. A secret. */
  public @Nullable String refreshToken() {
    return refreshToken;
  }

  /** Validity of the access token in seconds from receipt ({@code expires_in}). */
  public long expiresInSeconds() {
    return expiresInSeconds;
  }

  /** The server's {@code created_at} in epoch seconds, or 0 if it sent none or an implausible one. */
  public long createdAtEpochSeconds() {
    return createdAtEpochSeconds;
  }

  /** When the record was received, in epoch milliseconds of the skew-corrected clock. */
  public long receivedAtEpochMillis() {
    return receivedAtEpochMillis;
  }

  /** {@code receivedAt + expires_in}, in epoch milliseconds of the skew-corrected clock. */
  public long expiresAtEpochMillis() {
    long lifetime = TimeUnit.SECONDS.toMillis(expiresInSeconds);
    long sum = receivedAtEpochMillis + lifetime;
    return sum < receivedAtEpochMillis ? Long.MAX_VALUE : sum;
  }

  /**
   * Whether {@code a} and {@code b} are the same credential, so that refreshing one refreshes the
   * other: the same grant and client, and the same refresh token (or access token, without one).
   */
  static boolean sameCredential(@Nullable TokenRecord a, @Nullable TokenRecord b) {
    if (a == null || b == null) return false;
    if (a == b) return true;
    return a.grant == b.grant && a.clientId.equals(b.clientId)
        && (a.refreshToken != null ? a.refreshToken.equals(b.refreshToken)
            : b.refreshToken == null && a.accessToken.equals(b.accessToken));
  }

  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof TokenRecord)) return false;
    TokenRecord that = (TokenRecord) other;
    return grant == that.grant
        && dialect == that.dialect
        && equal(issuer, that.issuer)
        && equal(tokenEndpoint, that.tokenEndpoint)
        && equal(revocationEndpoint, that.revocationEndpoint)
        && clientAuthentication == that.clientAuthentication
        && equal(scope, that.scope)
        && equal(idToken, that.idToken)
        && clientId.equals(that.clientId)
        && tokenType.equals(that.tokenType)
        && accessToken.equals(that.accessToken)
        && (refreshToken == null ? that.refreshToken == null : refreshToken.equals(that.refreshToken))
        && expiresInSeconds == that.expiresInSeconds
        && createdAtEpochSeconds == that.createdAtEpochSeconds
        && receivedAtEpochMillis == that.receivedAtEpochMillis;
  }

  private static boolean equal(@Nullable String a, @Nullable String b) {
    return a == null ? b == null : a.equals(b);
  }

  @Override public int hashCode() {
    int result = accessToken.hashCode();
    result = 31 * result + (refreshToken != null ? refreshToken.hashCode() : 0);
    result = 31 * result + Long.valueOf(receivedAtEpochMillis).hashCode();
    return result;
  }

  @Override public String toString() {
    return "TokenRecord{grant=" + grant.wireName
        + (dialect == Dialect.STANDARD && tokenEndpoint != null
            ? ", dialect=standard, token_endpoint=" + Scrub.endpoint(tokenEndpoint) : "")
        + ", client_id=" + clientId
        + ", token_type=" + tokenType
        + ", access_token=" + Redact.secret(accessToken)
        + ", refresh_token=" + Redact.secret(refreshToken)
        + ", expires_in=" + expiresInSeconds
        + ", created_at=" + createdAtEpochSeconds
        + ", received_at_ms=" + receivedAtEpochMillis
        + "}";
  }

  /** Builds a {@link TokenRecord}; setters check their argument at once. Not thread-safe. */
  public static final class Builder {
    private @Nullable Grant grant;
    private Dialect dialect = Dialect.PLATFORM;
    private @Nullable String issuer;
    private @Nullable String tokenEndpoint;
    private @Nullable String revocationEndpoint;
    private OAuthServer.@Nullable ClientAuthentication clientAuthentication;
    private @Nullable String scope;
    private @Nullable String idToken;
    private @Nullable String clientId;
    private String tokenType = "bearer";
    private @Nullable String accessToken;
    private @Nullable String refreshToken;
    private long expiresInSeconds = -1;
    private long createdAtEpochSeconds;
    private long receivedAtEpochMillis = -1;

    Builder() {
    }

    Builder(TokenRecord record) {
      this.grant = record.grant;
      this.dialect = record.dialect;
      this.issuer = record.issuer;
      this.tokenEndpoint = record.tokenEndpoint;
      this.revocationEndpoint = record.revocationEndpoint;
      this.clientAuthentication = record.clientAuthentication;
      this.scope = record.scope;
      this.idToken = record.idToken;
      this.clientId = record.clientId;
      this.tokenType = record.tokenType;
      this.accessToken = record.accessToken;
      this.refreshToken = record.refreshToken;
      this.expiresInSeconds = record.expiresInSeconds;
      this.createdAtEpochSeconds = record.createdAtEpochSeconds;
      this.receivedAtEpochMillis = record.receivedAtEpochMillis;
    }

    public Builder grant(Grant grant) {
      if (grant == null) throw new IllegalArgumentException("grant must not be null");
      this.grant = grant;
      return this;
    }

    /**
     * Makes the record a standard-dialect one, refreshed at {@code tokenEndpoint} with {@code
     * authentication}; {@code issuer} may be null when the server was configured without discovery.
     *
     * @throws IllegalArgumentException if {@code tokenEndpoint} is not an http or https address
     */
    public Builder standard(@Nullable String issuer, String tokenEndpoint,
        OAuthServer.ClientAuthentication authentication) {
      if (authentication == null) {
        throw new IllegalArgumentException("clientAuthentication must not be null");
      }
      this.tokenEndpoint = OAuthServer.endpoint(tokenEndpoint, "token_endpoint").toString();
      this.issuer = issuer;
      this.clientAuthentication = authentication;
      this.dialect = Dialect.STANDARD;
      return this;
    }

    /**
     * Where a standard record's tokens are revoked (RFC 7009), or null for none.
     *
     * @throws IllegalStateException if the record is not a standard one ({@link #standard} first)
     * @throws IllegalArgumentException if {@code url} is not an https address (http on loopback)
     */
    public Builder revocationEndpoint(@Nullable String url) {
      if (dialect != Dialect.STANDARD) {
        throw new IllegalStateException("revocationEndpoint is for a standard record: call"
            + " standard(...) first");
      }
      this.revocationEndpoint = url == null ? null
          : OAuthServer.endpoint(url, "revocation_endpoint").toString();
      return this;
    }

    /** The granted scope, or null. */
    public Builder scope(@Nullable String scope) {
      this.scope = scope == null || scope.isEmpty() ? null : scope;
      return this;
    }

    /** The id token as answered (not verified), or null. */
    public Builder idToken(@Nullable String idToken) {
      this.idToken = idToken == null || idToken.isEmpty() ? null : idToken;
      return this;
    }

    public Builder clientId(String clientId) {
      this.clientId = Validate.clientId(clientId);
      return this;
    }

    public Builder tokenType(String tokenType) {
      if (tokenType == null || tokenType.isEmpty()) {
        throw new IllegalArgumentException("token_type must not be empty");
      }
      this.tokenType = tokenType;
      return this;
    }

    public Builder accessToken(String accessToken) {
      if (accessToken == null || accessToken.isEmpty()) {
        throw new IllegalArgumentException("access_token must not be empty");
      }
      this.accessToken = accessToken;
      return this;
    }

    /** The refresh token, or null when the server sent none. */
    public Builder refreshToken(@Nullable String refreshToken) {
      if (refreshToken != null && refreshToken.isEmpty()) {
        throw new IllegalArgumentException("refresh_token must not be empty; pass null for none");
      }
      this.refreshToken = refreshToken;
      return this;
    }

    /**
     * The token's lifetime, at most 10 years (315360000 s, the longest the SDK reads from a token
     * answer): a record that said more could be saved but not read back.
     */
    public Builder expiresInSeconds(long expiresInSeconds) {
      if (expiresInSeconds < 0 || expiresInSeconds > MAX_EXPIRES_IN_SECONDS) {
        throw new IllegalArgumentException("expires_in must be 0 to " + MAX_EXPIRES_IN_SECONDS
            + " seconds (10 years); was: " + expiresInSeconds);
      }
      this.expiresInSeconds = expiresInSeconds;
      return this;
    }

    /** When the server made the token, 0 for unknown; up to the end of the year 9999. */
    public Builder createdAtEpochSeconds(long createdAtEpochSeconds) {
      if (createdAtEpochSeconds < 0 || createdAtEpochSeconds > LAST_EPOCH_SECOND) {
        throw new IllegalArgumentException("created_at must be 0 to " + LAST_EPOCH_SECOND
            + " epoch seconds (the year 9999); was: " + createdAtEpochSeconds);
      }
      this.createdAtEpochSeconds = createdAtEpochSeconds;
      return this;
    }

    /** When the device received the token; up to the end of the year 9999. */
    public Builder receivedAtEpochMillis(long receivedAtEpochMillis) {
      if (receivedAtEpochMillis < 0 || receivedAtEpochMillis > LAST_EPOCH_MILLI) {
        throw new IllegalArgumentException("receivedAtEpochMillis must be 0 to " + LAST_EPOCH_MILLI
            + " (the year 9999); was: " + receivedAtEpochMillis);
      }
      this.receivedAtEpochMillis = receivedAtEpochMillis;
      return this;
    }

    public TokenRecord build() {
      if (grant == null) throw new IllegalStateException("grant is required");
      if (clientId == null) throw new IllegalStateException("client_id is required");
      if (accessToken == null) throw new IllegalStateException("access_token is required");
      if (expiresInSeconds < 0) throw new IllegalStateException("expires_in is required");
      if (receivedAtEpochMillis < 0) {
        throw new IllegalStateException("receivedAtEpochMillis is required");
      }
      return new TokenRecord(this);
    }
  }
}
