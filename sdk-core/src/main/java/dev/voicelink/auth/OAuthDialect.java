package dev.voicelink.auth;

import org.jspecify.annotations.Nullable;
import okhttp3.Request;

/**
 * How one dialect of OAuth writes its requests and names its errors; everything else (polling,
 * reading answers, the token lifecycle) is the same engine for both. {@link PlatformDialect} is the
 * platform's authorization service (protocol 4.1–4.6); {@link StandardDialect} is RFC 8628 and RFC
 * 6749, all form-encoded, with the client authenticated as none, Basic or post. Which one a record
 * was issued in is its {@link TokenRecord.Dialect}.
 */
abstract class OAuthDialect {
  static final String DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

  abstract TokenRecord.Dialect kind();

  /** The device authorization request; {@code deviceId} is the platform's only. */
  abstract Request deviceCode(String clientId, @Nullable String deviceId);

  abstract Request poll(String clientId, DeviceCode code);

  /** The refresh of {@code record}, which holds a refresh token. */
  abstract Request refresh(TokenRecord record);

  abstract Request clientCredentials(String clientId, String clientSecret);

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
