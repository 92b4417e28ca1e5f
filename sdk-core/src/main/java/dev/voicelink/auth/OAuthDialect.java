package dev.voicelink.auth;

import dev.voicelink.core.internal.Tolerance;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Request;

/**
 * How one dialect of OAuth writes its requests, names its errors, and reads its answers wherever it
 * reads them differently; everything else (polling, the token lifecycle) is the same engine for
 * both, which asks its dialect and never which dialect it has, so that another dialect is another
 * subclass and nothing else. {@link PlatformDialect} is the platform's authorization service
 * (protocol 4.1–4.6); {@link StandardDialect} is RFC 8628 and RFC 6749, all form-encoded, with the
 * client authenticated as none, Basic or post. Which one a record was issued in is its {@link
 * TokenRecord.Dialect}.
 */
abstract class OAuthDialect {
  static final String DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

  /** The device authorization request; {@code deviceId} is the platform's only. */
  abstract Request deviceCode(String clientId, @Nullable String deviceId);

  abstract Request poll(String clientId, DeviceCode code);

  /** The refresh of {@code record}, which holds a refresh token. */
  abstract Request refresh(TokenRecord record);

  abstract Request clientCredentials(String clientId, String clientSecret);

  /**
   * The request that revokes the tokens of {@code record}, a record of this dialect's server, at a
   * sign-out; null when the server offers no revocation.
   */
  abstract @Nullable Request revocation(TokenRecord record);

  /** Whether this dialect's server revokes tokens at a sign-out ({@link #revocation} not null). */
  abstract boolean offersRevocation();

  /**
   * Refuses a device flow started with a device_id ({@code given}) or without one, whichever this
   * dialect does not take, naming the calls that it does take: {@code withDeviceId} or {@code
   * withoutDeviceId}.
   *
   * @throws IllegalStateException then
   */
  abstract void checkDeviceId(boolean given, String withDeviceId, String withoutDeviceId);

  /** Where this dialect asks for device codes, as {@code setting=address}, for toString. */
  abstract String deviceCodeAddress();

  /**
   * The unit of a device code answer's {@code interval}; null when the dialect does not state it, and
   * the reading of docs/platform-assumptions.md#interval-unit decides.
   */
  abstract @Nullable TimeUnit intervalUnit();

  /** The page where the user enters the code, as this dialect's answers name it; null if none. */
  abstract @Nullable String verificationUri(WireJson answer, Tolerance tolerance);

  /** The link to that page that carries the code itself; null to make it from verification_uri. */
  abstract @Nullable String verificationUriComplete(WireJson answer, Tolerance tolerance);

  /** Refuses a {@code verification_uri} that this dialect does not show the user. */
  abstract void checkVerificationUri(String verificationUri) throws AuthClient.MalformedField;

  /**
   * {@code token_type} as this dialect spells it: what an answer without one is read as, and what a
   * message about another one expects.
   */
  abstract String bearer();

  /**
   * The lifetime in seconds of a new grant's token whose answer has no refresh token, read with
   * {@code reader} ({@link AuthClient#expiresInSeconds} is the reading of any other answer).
   */
  abstract long lifetimeWithoutRefreshToken(WireJson answer, AuthClient reader)
      throws MalformedResponseException;

  /**
   * The lifetime in seconds of a token whose {@code expires_in}, taken as seconds, is more than ten
   * years ({@link TokenRecord#MAX_EXPIRES_IN_SECONDS}); the reading is said once to {@code tolerance}.
   */
  abstract long expiresInBeyondTenYears(double expiresIn, Tolerance tolerance);

  /** The error that says the refresh token is void, so the user must authorize again. */
  abstract String refreshRefused();

  /** Whether a refresh answered {@code error} says the refresh token is void. */
  boolean refusesRefreshToken(@Nullable String error) {
    return refreshRefused().equals(error);
  }

  /** Whether a poll answered {@code error} means the device code is no longer good. */
  abstract boolean codeExpired(String error);

  /** Sets what the dialect keeps in the record of a token answer. */
  abstract TokenRecord.Builder stamp(TokenRecord.Builder record, WireJson answer);
}
