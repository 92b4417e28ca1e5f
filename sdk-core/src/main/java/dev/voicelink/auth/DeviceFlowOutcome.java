package dev.voicelink.auth;

import dev.voicelink.auth.internal.AuthResults;
import org.jspecify.annotations.Nullable;

/**
 * How a device flow ended. Exactly one outcome per flow. A flow that was cancelled has none: its
 * {@link dev.voicelink.core.VoiceLinkCall} reports the cancellation instead.
 *
 * <p>Immutable and thread-safe. {@link #toString()} never prints a token. Apps' tests make outcomes
 * with {@code voicelink-fixtures}.
 */
public final class DeviceFlowOutcome {
  /** The kinds of ending. */
  public enum Kind {
    /** The user authorized the device; {@link #token()} holds the record. */
    AUTHORIZED,
    /** The user refused ({@code access_denied}). */
    DENIED,
    /**
     * The user code expired: the server said {@code expired_token} (an {@link
     * AuthorizationException}), or {@code expires_in} elapsed on the device's monotonic clock (no
     * failure; or the last poll's {@link java.io.IOException} when the polls were failing then: the
     * network or the server failed while the user had the code).
     */
    EXPIRED,
    /**
     * The flow could not go on: the server refused with another error (an {@link
     * AuthorizationException}, for example {@code invalid_client}), or an {@link
     * java.io.IOException}: an answer that breaks the protocol or is no OAuth answer at all (a 4xx
     * page), or the device code request failing more often in a row than its bound. See {@link
     * #failure()}.
     */
    FAILED
  }

  static {
    AuthResults.SEAM.install(new AuthResults() {
      @Override public DeviceCode deviceCode(String verificationUri, String userCode,
          long intervalMillis, long expiresInSeconds, String deviceCode, long receivedAtNanos) {
        return new DeviceCode(verificationUri, userCode, intervalMillis, expiresInSeconds,
            deviceCode, receivedAtNanos);
      }

      @Override public DeviceFlowOutcome authorized(TokenRecord token) {
        return DeviceFlowOutcome.authorized(token);
      }

      @Override public DeviceFlowOutcome ended(Kind kind, @Nullable Exception failure) {
        return DeviceFlowOutcome.ended(kind, failure);
      }
    });
  }

  private final Kind kind;
  private final @Nullable TokenRecord token;
  private final @Nullable Exception failure;

  private DeviceFlowOutcome(Kind kind, @Nullable TokenRecord token, @Nullable Exception failure) {
    this.kind = kind;
    this.token = token;
    this.failure = failure;
  }

  static DeviceFlowOutcome authorized(TokenRecord token) {
    return new DeviceFlowOutcome(Kind.AUTHORIZED, token, null);
  }

  static DeviceFlowOutcome ended(Kind kind, @Nullable Exception failure) {
    if (kind == Kind.AUTHORIZED) throw new IllegalArgumentException("authorized needs a token");
    return new DeviceFlowOutcome(kind, null, failure);
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The token record of an {@link Kind#AUTHORIZED} flow: give it to {@link TokenManager#setRecord}.
   *
   * @throws IllegalStateException if the flow ended another way
   */
  public TokenRecord token() {
    if (token == null) {
      throw new IllegalStateException("the device flow ended " + kind + "; only an AUTHORIZED"
          + " outcome has a token");
    }
    return token;
  }

  /**
   * What the server said for {@link Kind#DENIED} and a server-side {@link Kind#EXPIRED} (an {@link
   * AuthorizationException}), the last poll's failure for an {@link Kind#EXPIRED} the polls were
   * failing at, or why the flow {@link Kind#FAILED}; null otherwise.
   */
  public @Nullable Exception failure() {
    return failure;
  }

  @Override public String toString() {
    StringBuilder result = new StringBuilder("DeviceFlowOutcome{").append(kind);
    if (token != null) result.append(", ").append(token);
    if (failure != null) result.append(", ").append(failure);
    return result.append('}').toString();
  }
}
