package dev.voicelink.testing;

import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Device authorizations and issued tokens. All methods are synchronized on this object. */
final class AuthState {
  enum GrantState { PENDING, AUTHORIZED, DENIED, CONSUMED }

  static final class DeviceGrant {
    final String deviceCode;
    final String userCode;
    final String clientId;
    final String deviceId;
    final long expiresAt;
    long intervalMillis;
    long lastPollAt = Long.MIN_VALUE;
    GrantState state = GrantState.PENDING;
    @Nullable String authId;

    DeviceGrant(String deviceCode, String userCode, String clientId, String deviceId, long expiresAt, long intervalMillis) {
      this.deviceCode = deviceCode;
      this.userCode = userCode;
      this.clientId = clientId;
      this.deviceId = deviceId;
      this.expiresAt = expiresAt;
      this.intervalMillis = intervalMillis;
    }

    boolean expired(long now) {
      return state == GrantState.PENDING && now >= expiresAt;
    }
  }

  enum TokenKind { DEVICE, CLOUD }

  /** Who a token speaks for. Device tokens have a user and a device; cloud tokens only a client. */
  static final class TokenGrant {
    final TokenKind kind;
    final String clientId;
    final @Nullable String deviceId;
    final @Nullable String authId;
    final String accessToken;
    final long accessExpiresAt;
    final String refreshToken;
    final long refreshExpiresAt;
    final long createdAt;

    TokenGrant(TokenKind kind, String clientId, @Nullable String deviceId, @Nullable String authId,
        String accessToken,
        long accessExpiresAt, String refreshToken, long refreshExpiresAt, long createdAt) {
      this.kind = kind;
      this.clientId = clientId;
      this.deviceId = deviceId;
      this.authId = authId;
      this.accessToken = accessToken;
      this.accessExpiresAt = accessExpiresAt;
      this.refreshToken = refreshToken;
      this.refreshExpiresAt = refreshExpiresAt;
      this.createdAt = createdAt;
    }
  }

  /**
   * How long an expired device code or token stays known, answered as expired rather than unknown;
   * then it is forgotten, so that a server left running for days does not grow without end.
   */
  static final long KEPT_AFTER_EXPIRY_MILLIS = 24 * 3600_000L;
  /** Sweeps for what may be forgotten run at most this often, as codes and tokens are issued. */
  private static final long SWEEP_EVERY_MILLIS = 60_000L;

  private long sweptAt = Long.MIN_VALUE;
  private final Map<String, DeviceGrant> byDeviceCode = new HashMap<>();
  private final Map<String, DeviceGrant> byUserCode = new HashMap<>();
  private final Map<String, TokenGrant> byAccess = new HashMap<>();
  private final Map<String, TokenGrant> byRefresh = new HashMap<>();

  synchronized DeviceGrant newDeviceGrant(String clientId, String deviceId, long now, long lifetimeMillis,
      long intervalMillis) {
    String userCode;
    do {
      userCode = Ids.userCode();
    } while (byUserCode.containsKey(userCode));
    forgetLongExpired(now);
    DeviceGrant g = new DeviceGrant(Ids.random("dc_", 24), userCode, clientId, deviceId, now + lifetimeMillis,
        intervalMillis);
    byDeviceCode.put(g.deviceCode, g);
    byUserCode.put(userCode, g);
    return g;
  }

  synchronized @Nullable DeviceGrant byDeviceCode(String deviceCode) {
    return byDeviceCode.get(deviceCode);
  }

  synchronized @Nullable DeviceGrant byUserCode(String userCode) {
    return byUserCode.get(userCode);
  }

  /** Moves a pending, unexpired grant to AUTHORIZED or DENIED; false when it was not pending any more. */
  synchronized boolean decide(DeviceGrant g, boolean authorize, String authId, long now) {
    if (g.state != GrantState.PENDING || g.expired(now)) return false;
    g.state = authorize ? GrantState.AUTHORIZED : GrantState.DENIED;
    g.authId = authId;
    return true;
  }

  synchronized TokenGrant issue(TokenKind kind, String clientId, @Nullable String deviceId,
      @Nullable String authId, long now,
      long accessLifetimeSeconds, long refreshLifetimeSeconds) {
    forgetLongExpired(now);
    return register(new TokenGrant(kind, clientId, deviceId, authId, Ids.random("at_", 24),
        now + accessLifetimeSeconds * 1000L, Ids.random("rt_", 24),
        refreshLifetimeSeconds == 0 ? Long.MAX_VALUE : now + refreshLifetimeSeconds * 1000L, now));
  }

  /** Rotation: the old refresh token stops working at once; its access token lives until it expires. */
  synchronized TokenGrant refresh(TokenGrant old, long now, long accessLifetimeSeconds, long refreshLifetimeSeconds) {
    byRefresh.remove(old.refreshToken);
    return issue(old.kind, old.clientId, old.deviceId, old.authId, now, accessLifetimeSeconds, refreshLifetimeSeconds);
  }

  /** No rotation: a new access token, and the refresh token used keeps working (until it expires). */
  synchronized TokenGrant refreshWithoutRotation(TokenGrant old, long now, long accessLifetimeSeconds) {
    forgetLongExpired(now);
    return register(new TokenGrant(old.kind, old.clientId, old.deviceId, old.authId, Ids.random("at_", 24),
        now + accessLifetimeSeconds * 1000L, old.refreshToken, old.refreshExpiresAt, now));
  }

  /** Forgets the device codes and tokens that expired more than {@link #KEPT_AFTER_EXPIRY_MILLIS} ago. */
  private void forgetLongExpired(long now) {
    if (sweptAt != Long.MIN_VALUE && now - sweptAt < SWEEP_EVERY_MILLIS) return;
    sweptAt = now;
    long before = now - KEPT_AFTER_EXPIRY_MILLIS;
    for (java.util.Iterator<DeviceGrant> i = byDeviceCode.values().iterator(); i.hasNext(); ) {
      DeviceGrant g = i.next();
      if (g.expiresAt < before) {
        i.remove();
        byUserCode.remove(g.userCode);
      }
    }
    byAccess.values().removeIf(t -> t.accessExpiresAt < before);
    byRefresh.values().removeIf(t -> t.refreshExpiresAt < before);
  }

  private TokenGrant register(TokenGrant t) {
    byAccess.put(t.accessToken, t);
    byRefresh.put(t.refreshToken, t);
    return t;
  }

  synchronized @Nullable TokenGrant byRefreshToken(String refreshToken) {
    return byRefresh.get(refreshToken);
  }

  /** The grant of a valid (known, unexpired) access token; null otherwise. */
  synchronized @Nullable TokenGrant validAccessToken(String accessToken, long now) {
    TokenGrant t = byAccess.get(accessToken);
    return t == null || now >= t.accessExpiresAt ? null : t;
  }

  synchronized @Nullable TokenGrant anyAccessToken(String accessToken) {
    return byAccess.get(accessToken);
  }

  /** Counts and grant states, for tests proving that a refused request changed nothing. */
  synchronized String summary() {
    StringBuilder sb = new StringBuilder("grants=" + byDeviceCode.size() + " access=" + byAccess.size()
        + " refresh=" + byRefresh.size());
    java.util.List<String> states = new java.util.ArrayList<>();
    for (DeviceGrant g : byDeviceCode.values()) states.add(g.userCode + ":" + g.state + ":" + g.intervalMillis);
    java.util.Collections.sort(states);
    return sb.append(' ').append(states).toString();
  }
}
