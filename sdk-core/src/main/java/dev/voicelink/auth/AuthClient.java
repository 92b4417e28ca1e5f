package dev.voicelink.auth;

import com.squareup.moshi.JsonWriter;
import dev.voicelink.core.ServerBusyException;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.HttpFailure;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.Call;
import okhttp3.FormBody;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;

/** The wire side of the authorization service (spec 4.1, 4.3–4.6): requests and their answers. */
final class AuthClient {
  static final String DEVICE_CODE_PATH = "oauth/ivs/device_code";
  static final String DEVICE_TOKEN_PATH = "oauth/ivs/token";
  static final String CLOUD_TOKEN_PATH = "oauth/token";
  static final String SCOPE = "user_ivs_all";
  static final String DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  private static final long MAX_BODY_BYTES = 64 * 1024;
  /** The user code may not be valid longer than this; a larger value is a malformed answer. */
  private static final long MAX_EXPIRES_IN_SECONDS = 1_000_000_000L;

  final ClientCore config;
  private final OkHttpClient http;

  AuthClient(ClientCore config) {
    this.config = config;
    config.authUrl(); // fail at once, naming the setting, if auth_url is missing
    // No silent retries: every request the server sees is one the flow scheduled, so polls keep
    // their interval, and a lost refresh answer is not replayed with a refresh token already used.
    this.http = config.http().newBuilder().retryOnConnectionFailure(false).build();
  }

  Call deviceCodeCall(String clientId, String deviceId) {
    Buffer scopeData = new Buffer();
    try {
      JsonWriter writer = JsonWriter.of(scopeData);
      writer.beginObject().name(SCOPE).beginObject().name("device_id").value(deviceId)
          .endObject().endObject().close();
    } catch (IOException e) {
      throw new AssertionError(e); // writing to a Buffer cannot fail
    }
    RequestBody body = new FormBody.Builder()
        .add("client_id", clientId)
        .add("scope", SCOPE)
        .add("scope_data", scopeData.readUtf8())
        .build();
    return call(config.authEndpoint(DEVICE_CODE_PATH).toString(), body);
  }

  Call devicePollCall(String clientId, DeviceCode code) {
    return call(config.authEndpoint(DEVICE_TOKEN_PATH).toString(), json(
        "client_id", clientId,
        "grant_type", DEVICE_CODE_GRANT,
        "device_code", code.deviceCode()));
  }

  Call refreshCall(TokenRecord.Grant grant, String refreshToken) {
    String path = grant == TokenRecord.Grant.DEVICE ? DEVICE_TOKEN_PATH : CLOUD_TOKEN_PATH;
    return call(config.authEndpoint(path).toString(), json(
        "grant_type", "refresh_token",
        "refresh_token", refreshToken));
  }

  Call clientCredentialsCall(String clientId, String clientSecret) {
    return call(config.authEndpoint(CLOUD_TOKEN_PATH).toString(), json(
        "client_id", clientId,
        "client_secret", clientSecret,
        "grant_type", "client_credentials"));
  }

  private Call call(String url, RequestBody body) {
    Request request = new Request.Builder().url(url).post(body).build();
    return http.newCall(request);
  }

  private static RequestBody json(String... namesAndValues) {
    Buffer buffer = new Buffer();
    try {
      JsonWriter writer = JsonWriter.of(buffer);
      writer.beginObject();
      for (int i = 0; i < namesAndValues.length; i += 2) {
        writer.name(namesAndValues[i]).value(namesAndValues[i + 1]);
      }
      writer.endObject().close();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return RequestBody.create(buffer.readByteString(), JSON);
  }

  /** Reads a device_code answer; throws on refusal and on anything else than a valid 2.1 record. */
  DeviceCode readDeviceCode(Response response) throws IOException, AuthorizationException {
    Answer answer = read(response);
    if (answer.error != null && !answer.isTransient()) {
      throw new AuthorizationException(answer.error, answer.message);
    }
    WireJson json = answer.json;
    if (json == null || answer.error != null || !response.isSuccessful()) {
      throw answer.transientFailure("device authorization");
    }
    String verificationUri = json.string("verification_uri");
    String userCode = json.string("user_code");
    String deviceCode = json.string("device_code");
    long interval = json.number("interval", 0);
    long expiresIn = json.number("expires_in", Long.MIN_VALUE);
    String problem = null;
    if (verificationUri == null || verificationUri.isEmpty()) {
      problem = "verification_uri is missing";
    } else if (userCode == null || userCode.isEmpty()) {
      problem = "user_code is missing";
    } else if (deviceCode == null || deviceCode.isEmpty()) {
      problem = "device_code is missing";
    } else if (expiresIn <= 0 || expiresIn > MAX_EXPIRES_IN_SECONDS) {
      problem = "expires_in must be a positive number of seconds";
    } else if (interval == Long.MIN_VALUE || interval > Integer.MAX_VALUE / 1000) {
      problem = "interval must be a number of seconds";
    }
    if (problem == null) {
      try {
        return new DeviceCode(verificationUri, userCode, (int) Math.max(0, interval), expiresIn,
            deviceCode, config.deviceClock().monotonicNanos());
      } catch (IllegalArgumentException e) {
        problem = e.getMessage();
      }
    }
    throw new IOException("malformed device authorization response (HTTP " + response.code() + "): "
        + problem);
  }

  /** Reads a token endpoint answer, whatever its status. Never throws for what the server said. */
  Answer read(Response response) {
    long retryAfterMillis = HttpFailure.retryAfterMillis(response);
    try (ResponseBody body = response.body()) {
      String text = "";
      if (body != null) {
        BufferedSource source = body.source();
        if (source.request(MAX_BODY_BYTES + 1)) {
          return new Answer(response.code(), null, null, "", failure(response, "HTTP "
              + response.code() + " with a body larger than " + MAX_BODY_BYTES + " bytes"),
              retryAfterMillis);
        }
        text = source.getBuffer().readUtf8();
      }
      WireJson json = WireJson.parse(text);
      String error = json != null ? json.string("error") : null;
      String message = json != null && json.string("message") != null ? json.string("message") : "";
      IOException problem = null;
      if (json == null) {
        problem = failure(response, "HTTP " + response.code() + " with "
            + (text.trim().isEmpty() ? "an empty body" : "a body that is not a JSON object"));
      } else if (error == null && json.string("access_token") == null
          && json.string("device_code") == null) {
        problem = failure(response, "HTTP " + response.code() + " with neither a token nor an error");
      }
      return new Answer(response.code(), json, error, message, problem, retryAfterMillis);
    } catch (IOException e) {
      return new Answer(response.code(), null, null, "", e, retryAfterMillis);
    }
  }

  private static IOException failure(Response response, String message) {
    return HttpFailure.of(response, message);
  }

  /** Builds the record of a token answer, learning the server's time from its created_at. */
  TokenRecord tokenRecord(WireJson json, TokenRecord.Grant grant, String clientId)
      throws IOException {
    String accessToken = json.string("access_token");
    long expiresIn = json.number("expires_in", Long.MIN_VALUE);
    long createdAt = json.number("created_at", 0);
    String tokenType = json.string("token_type");
    String refreshToken = json.string("refresh_token");
    if (accessToken == null || accessToken.isEmpty()) {
      throw new IOException("malformed token record: access_token is missing");
    }
    if (expiresIn < 0) {
      throw new IOException("malformed token record: expires_in must be a number of seconds");
    }
    if (createdAt < 0) createdAt = 0;
    // created_at is epoch seconds; a value beyond the year 5000 is not, and says nothing about skew.
    if (createdAt > 0 && createdAt < 95_617_584_000L) {
      config.correctedClock().observeServerTime(createdAt * 1000L);
    }
    return TokenRecord.builder()
        .grant(grant)
        .clientId(clientId)
        .tokenType(tokenType == null || tokenType.isEmpty() ? "bearer" : tokenType)
        .accessToken(accessToken)
        .refreshToken(refreshToken == null || refreshToken.isEmpty() ? null : refreshToken)
        .expiresInSeconds(expiresIn)
        .createdAtEpochSeconds(createdAt)
        .receivedAtEpochMillis(config.correctedClock().wallMillis())
        .build();
  }

  /** What the server answered, read whatever the HTTP status. */
  static final class Answer {
    final int status;
    final @Nullable WireJson json;
    final @Nullable String error;
    final String message;
    final @Nullable IOException problem;
    /** The server's Retry-After in milliseconds, or -1 (see {@link HttpFailure#retryAfterMillis}). */
    final long retryAfterMillis;

    Answer(int status, @Nullable WireJson json, @Nullable String error, String message,
        @Nullable IOException problem, long retryAfterMillis) {
      this.status = status;
      this.json = json;
      this.error = error;
      this.message = message;
      this.problem = problem;
      this.retryAfterMillis = retryAfterMillis;
    }

    boolean hasToken() {
      return error == null && problem == null && json != null && json.string("access_token") != null;
    }

    /**
     * True for what is worth retrying: an unreadable answer, or an unknown error in a 5xx answer
     * (a proxy or a failing back end speaking, not the authorization logic).
     */
    boolean isTransient() {
      if (problem != null) return true;
      if (error == null) return false;
      if ("temporarily_unavailable".equals(error) || "server_error".equals(error)) return true;
      return status >= 500 && !isFlowError(error);
    }

    private static boolean isFlowError(String error) {
      return error.equals("authorization_pending") || error.equals("slow_down")
          || error.equals("expired_token") || error.equals("access_denied")
          || error.equals("invalid_refresh_token");
    }

    IOException transientFailure(String what) {
      if (problem != null) return problem;
      String text = what + " failed: HTTP " + status
          + (error != null ? " " + error : "") + (message.isEmpty() ? "" : ": " + message);
      return retryAfterMillis >= 0
          ? new ServerBusyException(text, status, retryAfterMillis)
          : new IOException(text);
    }
  }
}
