package dev.voicelink.auth;

import dev.voicelink.core.internal.Log;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.Call;

/**
 * One token request and the reading of its answer, for {@link TokenManager}: a refresh in the dialect
 * of the record it refreshes (which names it, so a record read back after a restart needs no other
 * configuration), or client credentials in the manager's dialect. It keeps no state of its own: the
 * manager decides what the result does to the credential.
 */
final class TokenExchange {
  private static final String TAG = "auth";

  /** What an exchange ended in: exactly one of a record, a refusal and a transient failure. */
  static final class Result {
    final @Nullable TokenRecord record;
    final @Nullable AuthorizationException refusal;
    final @Nullable IOException failure;
    /**
     * With a failure only: the refreshed record with the new refresh token of an answer that could
     * not be read otherwise, and its old access token. The server may have voided the old refresh
     * token already (protocol 3.2), so the new one must be kept.
     */
    final @Nullable TokenRecord rotated;

    private Result(@Nullable TokenRecord record, @Nullable AuthorizationException refusal,
        @Nullable IOException failure) {
      this(record, refusal, failure, null);
    }

    private Result(@Nullable TokenRecord record, @Nullable AuthorizationException refusal,
        @Nullable IOException failure, @Nullable TokenRecord rotated) {
      this.record = record;
      this.refusal = refusal;
      this.failure = failure;
      this.rotated = rotated;
    }
  }

  private final AuthClient client;
  /** Where platform records are refreshed, whatever the manager's own dialect. */
  private final OAuthDialect platform;
  private final @Nullable String clientId;
  private final @Nullable String clientSecret;
  /** Whether a token can be obtained with client credentials (a cloud credential with its secret). */
  private final boolean clientCredentials;

  TokenExchange(AuthClient client, @Nullable String clientId, @Nullable String clientSecret,
      boolean clientCredentials) {
    this.client = client;
    this.platform = new PlatformDialect(client.config);
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.clientCredentials = clientCredentials;
  }

  boolean canObtainWithoutRecord() {
    return clientCredentials;
  }

  /**
   * The dialect {@code record} is refreshed in, or the manager's for no record.
   *
   * @throws IllegalStateException if a standard record's client needs a secret the manager lacks
   */
  OAuthDialect dialectOf(@Nullable TokenRecord record) {
    if (record == null) return client.dialect;
    if (record.dialect() == TokenRecord.Dialect.PLATFORM) return platform;
    return StandardDialect.of(record, clientSecret);
  }

  /**
   * The value of the {@code Authorization} header that carries {@code record}'s access token: the
   * raw token for the platform, as it expects; {@code Bearer <token>} for a standard server (RFC 6750).
   */
  static String authorization(TokenRecord record) {
    return record.dialect() == TokenRecord.Dialect.PLATFORM
        ? record.accessToken() : "Bearer " + record.accessToken();
  }

  /**
   * Refreshes {@code base}, or obtains a token with client credentials when there is no base or it
   * holds no refresh token. Runs on the calling thread: a client worker, see {@link TokenKeeper}.
   *
   * @throws IllegalStateException as {@link #dialectOf} does
   */
  Result run(@Nullable TokenRecord base) {
    OAuthDialect dialect = dialectOf(base);
    TokenRecord.Grant kind = base != null ? base.grant() : TokenRecord.Grant.CLOUD;
    String owner = base != null ? base.clientId() : clientId;
    boolean credentials = base == null || base.refreshToken() == null;
    if (credentials && !clientCredentials) {
      return new Result(null, new ReauthorizationRequiredException(dialect.refreshRefused(),
          "the stored record has no refresh token"), null);
    }
    AuthClient.Answer answer;
    try {
      answer = execute(credentials
          ? client.clientCredentialsCall(clientId, clientSecret)
          : client.refreshCall(dialect, base));
      if (!credentials && dialect.refusesRefreshToken(answer.error) && !answer.isTransient()
          && clientCredentials) {
        Log.info(TAG, "cloud refresh token refused; asking for a new token with the client secret");
        credentials = true;
        answer = execute(client.clientCredentialsCall(clientId, clientSecret));
      }
    } catch (IOException e) {
      return new Result(null, null, e);
    }
    if (answer.hasToken()) {
      TokenRecord record;
      try {
        record = client.tokenRecord(answer, credentials ? client.dialect : dialect, kind, owner,
            credentials);
      } catch (IOException e) {
        return new Result(null, null, e, credentials ? null : keepRotated(base, answer));
      }
      if (!credentials && record.refreshToken() == null) {
        // RFC 6749 section 6: without a new refresh token, the client keeps the one it has.
        client.tolerance.warnOnce("refresh_token-kept", "the refresh answer has no refresh_token:"
            + " the stored one is kept for the next refresh");
        record = record.newBuilder().refreshToken(base.refreshToken()).build();
      }
      if (!credentials && record.idToken() == null && base.idToken() != null) {
        // OpenID Connect Core section 12.2: a refresh answer may leave the id token out; the one of
        // the sign-in still names the user.
        record = record.newBuilder().idToken(base.idToken()).build();
      }
      return new Result(record, null, null);
    }
    if (answer.isTransient()) {
      // A success with a new refresh token and no usable access token has voided the old one too.
      boolean malformedSuccess = answer.status / 100 == 2 && answer.error == null;
      return new Result(null, null, answer.transientFailure("token refresh"),
          credentials || !malformedSuccess ? null : keepRotated(base, answer));
    }
    if (dialect.refusesRefreshToken(answer.error)) {
      return new Result(null, new ReauthorizationRequiredException(answer.error, answer.message), null);
    }
    return new Result(null, new AuthorizationException(answer.error, answer.message), null);
  }

  /** {@code base} with the answer's new refresh token, or null if it names none. */
  private static @Nullable TokenRecord keepRotated(TokenRecord base, AuthClient.Answer answer) {
    String rotated = answer.json != null ? answer.json.string("refresh_token") : null;
    if (rotated == null || rotated.trim().isEmpty() || rotated.equals(base.refreshToken())) {
      return null;
    }
    return base.newBuilder().refreshToken(rotated).build();
  }

  private AuthClient.Answer execute(Call call) throws IOException {
    return client.read(call.execute());
  }
}
