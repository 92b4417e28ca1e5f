package dev.voicelink.auth;

import dev.voicelink.core.internal.Redact;
import dev.voicelink.core.internal.Scrub;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;

/**
 * The answer to a device authorization request (protocol 2.1): what to show the user, and the device code
 * to poll with.
 *
 * <p>Show the user {@link #userCode()} and {@link #link()}; the link is {@code
 * {verification_uri}?user_code=<code>} (or a standard server's {@code verification_uri_complete}),
 * ready to be rendered as a QR code. The device code itself is
 * a secret: it appears in no {@code toString}, log or message.
 *
 * <p>Immutable and thread-safe. Apps' tests make codes with {@code voicelink-fixtures}.
 */
public final class DeviceCode {
  /** The interval used when the server sends none or zero (the OAuth device grant default). */
  public static final int DEFAULT_INTERVAL_SECONDS = 5;

  private final String verificationUri;
  private final String userCode;
  private final long intervalMillis;
  private final long expiresInSeconds;
  private final String deviceCode;
  private final String link;
  private final long receivedAtNanos;

  DeviceCode(String verificationUri, String userCode, long intervalMillis, long expiresInSeconds,
      String deviceCode, long receivedAtNanos) {
    this(verificationUri, null, userCode, intervalMillis, expiresInSeconds, deviceCode,
        receivedAtNanos);
  }

  /** {@code verificationUriComplete}, when given, is the {@link #link()}. */
  DeviceCode(String verificationUri, @Nullable String verificationUriComplete, String userCode,
      long intervalMillis, long expiresInSeconds, String deviceCode, long receivedAtNanos) {
    HttpUrl uri = HttpUrl.parse(verificationUri);
    if (uri == null) {
      throw new IllegalArgumentException("verification_uri must be an http or https address; was: "
          + Scrub.address(verificationUri));
    }
    this.verificationUri = verificationUri;
    this.userCode = userCode;
    this.intervalMillis = intervalMillis > 0
        ? intervalMillis : TimeUnit.SECONDS.toMillis(DEFAULT_INTERVAL_SECONDS);
    this.expiresInSeconds = expiresInSeconds;
    this.deviceCode = deviceCode;
    this.link = verificationUriComplete != null ? verificationUriComplete
        : uri.newBuilder().addQueryParameter("user_code", userCode).build().toString();
    this.receivedAtNanos = receivedAtNanos;
  }

  /** Where the user checks the code ({@code verification_uri}). */
  public String verificationUri() {
    return verificationUri;
  }

  /** The short code the user confirms ({@code user_code}). */
  public String userCode() {
    return userCode;
  }

  /**
   * The link to give the user, for example as a QR code: a standard server's {@code
   * verification_uri_complete} when it sent one, else {@code {verification_uri}?user_code=<code>}
   * with the code URL-encoded.
   */
  public String link() {
    return link;
  }

  /**
   * Milliseconds between two polls: the server's {@code interval}, or 5 s if it sent none or zero.
   * The spec does not state its unit: a value below {@code expires_in} is seconds, one that is not is
   * milliseconds (unless the app chose with {@link DeviceAuthorizer.Builder#intervalUnit}), and it is
   * never less than a second.
   */
  public long intervalMillis() {
    return intervalMillis;
  }

  /** {@link #intervalMillis()} in whole seconds, rounded up. */
  public int intervalSeconds() {
    return (int) TimeUnit.MILLISECONDS.toSeconds(intervalMillis + 999);
  }

  /** Validity of the user code in seconds from receipt ({@code expires_in}). */
  public long expiresInSeconds() {
    return expiresInSeconds;
  }

  /** The device code to poll with. A secret. */
  public String deviceCode() {
    return deviceCode;
  }

  /** Monotonic time of receipt; the code expires {@code expires_in} seconds later. */
  long receivedAtNanos() {
    return receivedAtNanos;
  }

  @Override public boolean equals(@Nullable Object other) {
    return other instanceof DeviceCode && ((DeviceCode) other).deviceCode.equals(deviceCode)
        && ((DeviceCode) other).receivedAtNanos == receivedAtNanos;
  }

  @Override public int hashCode() {
    return deviceCode.hashCode();
  }

  @Override public String toString() {
    return "DeviceCode{verification_uri=" + verificationUri + ", user_code=" + userCode
        + ", interval_ms=" + intervalMillis + ", expires_in=" + expiresInSeconds
        + ", device_code=" + Redact.secret(deviceCode) + "}";
  }
}
