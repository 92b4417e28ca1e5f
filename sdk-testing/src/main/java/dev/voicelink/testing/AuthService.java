package dev.voicelink.testing;

import java.math.BigDecimal;
import java.util.Map;
import java.util.logging.Logger;
import okhttp3.mockwebserver.MockResponse;
import org.jspecify.annotations.Nullable;

/** The authorization service: protocol 4.1, 4.3–4.6 and 7.1. */
final class AuthService {
  static final String DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
  /** RFC 8628 section 3.2: the poll interval of a device code answer that gives none. */
  static final long DEFAULT_INTERVAL_MILLIS = 5000;
  private static final Logger LOG = Logger.getLogger(AuthService.class.getName());

  private final Console console;
  private final AuthState state;
  private final String verificationUri;

  AuthService(Console console, AuthState state, String verificationUri) {
    this.console = console;
    this.state = state;
    this.verificationUri = verificationUri;
  }

  static MockResponse error(String error, @Nullable String message) {
    return HttpCall.json(400, message == null ? Json.obj("error", error) : Json.obj("error", error, "message", message));
  }

  static MockResponse invalidRequest(String message) {
    return error("invalid_request", message);
  }

  /**
   * An error record's status: 400 in the reference reading, 200, 401 or 503 in the variants (protocol 7.1
   * shows no statuses).
   */
  private MockResponse withErrorStatus(MockResponse response) {
    if (HttpCall.status(response) != 400) return response;
    if (console.has(PlatformVariant.AUTH_ERRORS_HTTP_200)) return response.setResponseCode(200);
    if (console.has(PlatformVariant.AUTH_ERRORS_HTTP_401)) return response.setResponseCode(401);
    if (console.has(PlatformVariant.AUTH_ERRORS_HTTP_503)) return response.setResponseCode(503);
    return response;
  }

  // ---- 4.1 ----

  MockResponse deviceCode(HttpCall call) {
    return withErrorStatus(deviceCodeAnswer(call));
  }

  private MockResponse deviceCodeAnswer(HttpCall call) {
    if (!"POST".equals(call.method)) return HttpCall.json(405, Json.obj("error", "invalid_request", "message", "use POST"));
    if (!call.isForm()) return invalidRequest("Content-Type must be application/x-www-form-urlencoded");
    Map<String, String> form;
    try {
      form = call.form();
    } catch (HttpCall.FormException e) {
      return invalidRequest(e.getMessage());
    }
    String clientId = form.get("client_id");
    if (clientId == null || clientId.isEmpty()) return invalidRequest("client_id is required");
    RegisteredClient client = console.client(clientId);
    if (client == null) return error("invalid_client", "unknown client_id: " + clientId);
    String scope = form.get("scope");
    if (scope == null || scope.isEmpty()) return invalidRequest("scope is required");
    if (!"user_ivs_all".equals(scope)) return error("invalid_scope", "scope must be user_ivs_all; was: " + scope);
    String scopeData = form.get("scope_data");
    if (scopeData == null || scopeData.isEmpty()) return invalidRequest("scope_data is required");
    String deviceId = deviceId(scopeData);
    if (deviceId == null) {
      return invalidRequest("scope_data must be a JSON object like {\"user_ivs_all\":{\"device_id\":\"SN-0001\"}}");
    }
    if (!console.isImported(clientId, deviceId)) {
      return error("invalid_device", "device_id " + deviceId + " is not imported for client " + clientId
          + " (console device ID page)");
    }
    AuthState.DeviceGrant g = state.newDeviceGrant(clientId, deviceId, call.now,
        console.getUserCodeLifetimeSeconds() * 1000L, intervalToldMillis());
    LOG.info("device authorization for " + clientId + "/" + deviceId + ": user_code " + g.userCode);
    Map<String, Object> answer = Json.obj("verification_uri", verificationUri, "user_code", g.userCode);
    if (!console.has(PlatformVariant.NO_INTERVAL)) answer.put("interval", interval());
    answer.put("expires_in", number(console.getUserCodeLifetimeSeconds()));
    answer.put("device_code", g.deviceCode);
    return HttpCall.json(200, answer);
  }

  /**
   * The interval the device_code answer tells, in milliseconds: what slow_down holds the device to.
   * Without an interval, or with 0, the device polls at RFC 8628's 5 s; a fraction counts whole.
   */
  private long intervalToldMillis() {
    if (console.has(PlatformVariant.NO_INTERVAL) || console.has(PlatformVariant.ZERO_INTERVAL)) {
      return DEFAULT_INTERVAL_MILLIS;
    }
    long millis = console.getPollIntervalSeconds() * 1000L;
    return console.has(PlatformVariant.FRACTIONAL_INTERVAL)
        && !console.has(PlatformVariant.INTERVAL_MILLIS) ? millis + 500 : millis;
  }

  /** The device_code {@code interval} in the console's variants: seconds, milliseconds, a fraction or 0. */
  private Object interval() {
    if (console.has(PlatformVariant.ZERO_INTERVAL)) return number(0);
    long seconds = console.getPollIntervalSeconds();
    if (console.has(PlatformVariant.INTERVAL_MILLIS)) return number(seconds * 1000L);
    if (!console.has(PlatformVariant.FRACTIONAL_INTERVAL)) return number(seconds);
    return fraction(seconds + 0.5);
  }

  @SuppressWarnings("unchecked")
  private static @Nullable String deviceId(String scopeData) {
    Map<String, Object> root = Json.parseObject(scopeData);
    if (root == null || root.size() != 1 || !(root.get("user_ivs_all") instanceof Map)) return null;
    Object id = ((Map<String, Object>) root.get("user_ivs_all")).get("device_id");
    return id instanceof String && !((String) id).trim().isEmpty() ? (String) id : null;
  }

  // ---- 4.3 / 4.4 ----

  MockResponse token(HttpCall call) {
    return withErrorStatus(tokenAnswer(call));
  }

  private MockResponse tokenAnswer(HttpCall call) {
    JsonBody parsed = JsonBody.of(call);
    if (parsed.error != null) return parsed.error;
    Map<String, Object> body = parsed.body;
    String grantType = stringField(body, "grant_type");
    if (grantType == null) return missingField(body, "grant_type");
    if (DEVICE_CODE_GRANT.equals(grantType)) return pollDeviceCode(call, body);
    if ("refresh_token".equals(grantType)) return refresh(call, body, AuthState.TokenKind.DEVICE);
    return error("unsupported_grant_type", "grant_type must be " + DEVICE_CODE_GRANT + " or refresh_token; was: " + grantType);
  }

  private MockResponse pollDeviceCode(HttpCall call, Map<String, Object> body) {
    String clientId = stringField(body, "client_id");
    if (clientId == null) return missingField(body, "client_id");
    String deviceCode = stringField(body, "device_code");
    if (deviceCode == null) return missingField(body, "device_code");
    if (console.client(clientId) == null) return error("invalid_client", "unknown client_id: " + clientId);
    synchronized (state) {
      AuthState.DeviceGrant g = state.byDeviceCode(deviceCode);
      if (g == null) return error("invalid_grant", "unknown device_code");
      if (!g.clientId.equals(clientId)) return error("invalid_grant", "device_code was issued to another client");
      if (g.state == AuthState.GrantState.CONSUMED) {
        return error("invalid_grant", "device_code was already exchanged for a token");
      }
      long last = g.lastPollAt;
      g.lastPollAt = call.now;
      if (g.state == AuthState.GrantState.DENIED) return error("access_denied", null);
      if (g.state == AuthState.GrantState.AUTHORIZED) {
        g.state = AuthState.GrantState.CONSUMED;
        return tokenRecord(state.issue(AuthState.TokenKind.DEVICE, g.clientId, g.deviceId, g.authId, call.now,
            console.getAccessTokenLifetimeSeconds(), console.getRefreshTokenLifetimeSeconds()), true);
      }
      if (g.expired(call.now)) return error("expired_token", null);
      if (console.isSlowDown() && last != Long.MIN_VALUE && call.now - last < g.intervalMillis) {
        g.intervalMillis += 5000;
        return error("slow_down", "poll no faster than every " + seconds(g.intervalMillis) + " s");
      }
      return error("authorization_pending", null);
    }
  }

  private MockResponse refresh(HttpCall call, Map<String, Object> body, AuthState.TokenKind kind) {
    String refreshToken = stringField(body, "refresh_token");
    if (refreshToken == null) return missingField(body, "refresh_token");
    synchronized (state) {
      AuthState.TokenGrant old = state.byRefreshToken(refreshToken);
      if (old == null) return error("invalid_refresh_token", "refresh_token is unknown or was already used");
      if (old.kind != kind) {
        return error("invalid_refresh_token", kind == AuthState.TokenKind.DEVICE
            ? "refresh_token belongs to a cloud token; refresh it at /oauth/token"
            : "refresh_token belongs to a device token; refresh it at /oauth/ivs/token");
      }
      if (call.now >= old.refreshExpiresAt) return error("invalid_refresh_token", "refresh_token has expired");
      if (console.has(PlatformVariant.NO_REFRESH_ROTATION)) {
        return tokenRecord(state.refreshWithoutRotation(old, call.now, console.getAccessTokenLifetimeSeconds()), false);
      }
      return tokenRecord(state.refresh(old, call.now, console.getAccessTokenLifetimeSeconds(),
          console.getRefreshTokenLifetimeSeconds()), true);
    }
  }

  // ---- 4.5 / 4.6 ----

  MockResponse cloudToken(HttpCall call) {
    return withErrorStatus(cloudTokenAnswer(call));
  }

  private MockResponse cloudTokenAnswer(HttpCall call) {
    JsonBody parsed = JsonBody.of(call);
    if (parsed.error != null) return parsed.error;
    Map<String, Object> body = parsed.body;
    String grantType = stringField(body, "grant_type");
    if (grantType == null) return missingField(body, "grant_type");
    if ("refresh_token".equals(grantType)) return refresh(call, body, AuthState.TokenKind.CLOUD);
    if (!"client_credentials".equals(grantType)) {
      return error("unsupported_grant_type", "grant_type must be client_credentials or refresh_token; was: " + grantType);
    }
    String clientId = stringField(body, "client_id");
    if (clientId == null) return missingField(body, "client_id");
    String secret = stringField(body, "client_secret");
    if (secret == null) return missingField(body, "client_secret");
    RegisteredClient client = console.client(clientId);
    // One message for both causes, so the endpoint cannot be used to probe for client ids.
    if (client == null || !Ids.constantTimeEquals(client.clientSecret(), secret)) {
      return error("invalid_client", "client_id or client_secret is wrong");
    }
    return tokenRecord(state.issue(AuthState.TokenKind.CLOUD, clientId, null, null, call.now,
        console.getAccessTokenLifetimeSeconds(), console.getRefreshTokenLifetimeSeconds()), true);
  }

  /** The token record of protocol 2.2, in the units of the console's variants. */
  private MockResponse tokenRecord(AuthState.TokenGrant t, boolean withRefreshToken) {
    long expiresInMillis = t.accessExpiresAt - t.createdAt;
    Map<String, Object> record = Json.obj();
    if (!console.has(PlatformVariant.NO_TOKEN_TYPE)) {
      record.put("token_type", console.has(PlatformVariant.TOKEN_TYPE_CAPITALISED) ? "Bearer" : "bearer");
    }
    record.put("access_token", t.accessToken);
    if (withRefreshToken) record.put("refresh_token", t.refreshToken);
    if (!console.has(PlatformVariant.NO_EXPIRES_IN)) record.put("expires_in", expiresIn(expiresInMillis));
    record.put("created_at", createdAt(t.createdAt));
    return HttpCall.json(200, record);
  }

  /** A token's {@code created_at} in the console's variants: epoch seconds, milliseconds or a fraction. */
  private Object createdAt(long millis) {
    if (console.has(PlatformVariant.CREATED_AT_MILLIS)) return number(millis);
    if (!console.has(PlatformVariant.FRACTIONAL_CREATED_AT)) return number(millis / 1000L);
    return decimal(BigDecimal.valueOf(millis, 3)); // three decimals, even on a whole second
  }

  /** A token's {@code expires_in} in the console's variants: seconds, milliseconds or a fraction. */
  private Object expiresIn(long millis) {
    if (console.has(PlatformVariant.HUGE_EXPIRES_IN)) return number(millis);
    if (!console.has(PlatformVariant.FRACTIONAL_EXPIRES_IN)) return number(millis / 1000L);
    return fraction((millis - 500) / 1000.0);
  }

  /**
   * A number with a fraction, in plain digits as servers write it ({@code 19999999.5}, never Java's
   * {@code 1.99999995E7}): as a JSON number, or as text in {@link PlatformVariant#NUMBERS_AS_TEXT}.
   */
  private Object fraction(double value) {
    return decimal(BigDecimal.valueOf(value));
  }

  /** A decimal as a JSON number, or as text in {@link PlatformVariant#NUMBERS_AS_TEXT}. */
  private Object decimal(BigDecimal value) {
    return console.has(PlatformVariant.NUMBERS_AS_TEXT) ? value.toPlainString() : value;
  }

  /** A number of an answer: as a JSON number, or as text in {@link PlatformVariant#NUMBERS_AS_TEXT}. */
  private Object number(long value) {
    return console.has(PlatformVariant.NUMBERS_AS_TEXT) ? Long.toString(value) : value;
  }

  /** A request's JSON object body, or the error to answer when it has none. */
  static final class JsonBody {
    final @Nullable Map<String, Object> body;
    final @Nullable MockResponse error;

    private JsonBody(@Nullable Map<String, Object> body, @Nullable MockResponse error) {
      this.body = body;
      this.error = error;
    }

    static JsonBody of(HttpCall call) {
      if (!"POST".equals(call.method)) {
        return new JsonBody(null, HttpCall.json(405, Json.obj("error", "invalid_request", "message", "use POST")));
      }
      if (!call.isJson()) return new JsonBody(null, invalidRequest("Content-Type must be application/json"));
      String notUtf8 = call.notUtf8();
      if (notUtf8 != null) return new JsonBody(null, invalidRequest(notUtf8));
      Map<String, Object> body = Json.parseObject(call.body);
      return body == null ? new JsonBody(null, invalidRequest("body must be a JSON object")) : new JsonBody(body, null);
    }
  }

  private static @Nullable String stringField(Map<String, Object> body, String name) {
    Object v = body.get(name);
    return v instanceof String && !((String) v).isEmpty() ? (String) v : null;
  }

  private static MockResponse missingField(Map<String, Object> body, String name) {
    Object v = body.get(name);
    return invalidRequest(v == null ? name + " is required" : name + " must be a non-empty string");
  }

  /** {@code millis} as seconds for people: 7 for 7000, 7.5 for 7500. */
  private static String seconds(long millis) {
    return millis % 1000 == 0 ? Long.toString(millis / 1000) : BigDecimal.valueOf(millis, 3)
        .stripTrailingZeros().toPlainString();
  }
}
