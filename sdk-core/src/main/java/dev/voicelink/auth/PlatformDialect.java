package dev.voicelink.auth;

import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Form;
import dev.voicelink.core.internal.JsonText;
import dev.voicelink.core.internal.Tolerance;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.ByteString;

/** The platform's dialect: fixed paths under {@code auth_url}, JSON token requests. */
final class PlatformDialect extends OAuthDialect {
  static final String DEVICE_CODE_PATH = "oauth/ivs/device_code";
  static final String DEVICE_TOKEN_PATH = "oauth/ivs/token";
  static final String CLOUD_TOKEN_PATH = "oauth/token";
  static final String SCOPE = "user_ivs_all";
  /** As protocol 4.3–4.6 write it: no charset parameter; JSON is UTF-8 by definition. */
  private static final MediaType JSON = MediaType.get("application/json");

  private final ClientCore core;

  PlatformDialect(ClientCore core) {
    this.core = core;
  }

  @Override Request deviceCode(String clientId, @Nullable String deviceId) {
    if (deviceId == null) throw new IllegalStateException("device_id is required");
    String scopeData = new JsonText().beginObject().name(SCOPE).beginObject().name("device_id")
        .value(deviceId).endObject().endObject().text();
    RequestBody body = new Form()
        .add("client_id", clientId)
        .add("scope", SCOPE)
        .add("scope_data", scopeData)
        .build();
    return post(core.authEndpoint(DEVICE_CODE_PATH), body);
  }

  @Override Request poll(String clientId, DeviceCode code) {
    return post(core.authEndpoint(DEVICE_TOKEN_PATH), json(
        "client_id", clientId,
        "grant_type", DEVICE_CODE_GRANT,
        "device_code", code.deviceCode()));
  }

  @Override Request refresh(TokenRecord record) {
    String path = record.grant() == TokenRecord.Grant.DEVICE ? DEVICE_TOKEN_PATH : CLOUD_TOKEN_PATH;
    return post(core.authEndpoint(path), json(
        "grant_type", "refresh_token",
        "refresh_token", record.refreshToken()));
  }

  @Override Request clientCredentials(String clientId, String clientSecret) {
    return post(core.authEndpoint(CLOUD_TOKEN_PATH), json(
        "client_id", clientId,
        "client_secret", clientSecret,
        "grant_type", "client_credentials"));
  }

  /** The platform's authorization service shows no revocation (protocol 4): a sign-out is local. */
  @Override @Nullable Request revocation(TokenRecord record) {
    return null;
  }

  @Override boolean offersRevocation() {
    return false;
  }

  /** Protocol 4.1: the code is asked for one device, which the service knows by its device_id. */
  @Override void checkDeviceId(boolean given, String withDeviceId, String withoutDeviceId) {
    if (!given) {
      throw new IllegalStateException("the platform's device flow needs a device_id: call "
          + withDeviceId);
    }
  }

  @Override String deviceCodeAddress() {
    return "auth_url=" + core.authUrl();
  }

  /** Protocol 8: not stated. */
  @Override @Nullable TimeUnit intervalUnit() {
    return null;
  }

  /** Protocol 2.1 names the page verification_uri, and nothing else; 4.2.1 makes the link of it. */
  @Override @Nullable String verificationUri(WireJson answer, Tolerance tolerance) {
    return answer.string("verification_uri");
  }

  @Override @Nullable String verificationUriComplete(WireJson answer, Tolerance tolerance) {
    return null;
  }

  /** Protocol 4.2: the page is the platform's own, and 5.3.3 lets its interfaces use http too. */
  @Override void checkVerificationUri(String verificationUri) {
  }

  /** Protocol 2.2: always {@code bearer}. */
  @Override String bearer() {
    return "bearer";
  }

  /** Protocol 2.2 and 3.2: every answer carries a refresh token; one without is read as any other. */
  @Override long lifetimeWithoutRefreshToken(WireJson answer, AuthClient reader)
      throws MalformedResponseException {
    return reader.expiresInSeconds(answer, this);
  }

  /**
   * Protocol 8 documents seconds, but its samples run past a day in seconds
   * (docs/platform-assumptions.md#token-expires-in): more than ten years cannot be seconds, so it is
   * milliseconds.
   */
  @Override long expiresInBeyondTenYears(double expiresIn, Tolerance tolerance) {
    long seconds = Math.min(TokenRecord.MAX_EXPIRES_IN_SECONDS, (long) (expiresIn / 1000));
    tolerance.warnOnce("expires_in-ms", "token expires_in " + AuthClient.format(expiresIn)
        + " is more than 10 years in seconds: read as milliseconds, " + seconds + " s");
    return seconds;
  }

  @Override String refreshRefused() {
    return "invalid_refresh_token";
  }

  @Override boolean codeExpired(String error) {
    return false;
  }

  @Override TokenRecord.Builder stamp(TokenRecord.Builder record, WireJson answer) {
    return record;
  }

  private static Request post(HttpUrl url, RequestBody body) {
    return new Request.Builder().url(url).post(body).build();
  }

  private static RequestBody json(@Nullable String... namesAndValues) {
    JsonText writer = new JsonText().beginObject();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      writer.name(namesAndValues[i]).value(namesAndValues[i + 1]);
    }
    // As bytes: a String body would add a charset parameter to the Content-Type.
    return RequestBody.create(ByteString.encodeUtf8(writer.endObject().text()), JSON);
  }
}
