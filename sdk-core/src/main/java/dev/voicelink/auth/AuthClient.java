package dev.voicelink.auth;

import dev.voicelink.core.ServerBusyException;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.HttpFailure;
import dev.voicelink.core.internal.Scrub;
import dev.voicelink.core.internal.SendOnce;
import dev.voicelink.core.internal.Tolerance;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Authenticator;
import okhttp3.Call;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/** The wire side of the authorization service (protocol 4.1, 4.3–4.6): requests and their answers. */
final class AuthClient {
  private static final long MAX_BODY_BYTES = 64 * 1024;
  /** The user code may not be valid longer than this; a larger value is a malformed answer. */
  private static final long MAX_EXPIRES_IN_SECONDS = 1_000_000_000L;
  /** Polls never come closer together than this, whatever the unit of {@code interval}. */
  static final long MIN_INTERVAL_MILLIS = 1000;
  /** Fewer polls than this within a user code's life suggest an interval in another unit. */
  private static final int MIN_USEFUL_POLLS = 3;
  /** The lifetime of a token whose answer has no {@code expires_in}. */
  static final long DEFAULT_EXPIRES_IN_SECONDS = 3600;
  /** {@code created_at} values from this one on cannot be epoch seconds (the year 5138). */
  private static final double MIN_CREATED_AT_MILLIS = 1e11;
  /** Plausible creation times: 2001-09-09 to 2100-01-01, in epoch seconds. */
  private static final long MIN_CREATED_AT = 1_000_000_000L;
  private static final long MAX_CREATED_AT = 4_102_444_800L;

  final ClientCore config;
  final Tolerance tolerance = new Tolerance("auth");
  /** The dialect of the device flow and of new client-credentials tokens. */
  final OAuthDialect dialect;
  private final OkHttpClient http;
  private final OkHttpClient refreshHttp;
  private final OkHttpClient revocationHttp;
  /** The unit of {@code interval} as the app or the dialect says it; null: intervalMillis decides. */
  private final @Nullable TimeUnit intervalUnit;

  AuthClient(ClientCore config, OAuthDialect dialect, @Nullable TimeUnit intervalUnit) {
    this.config = config;
    this.dialect = dialect;
    this.intervalUnit = intervalUnit != null ? intervalUnit : dialect.intervalUnit();
    // Every request the server sees is one the flow scheduled, at the address configured: a redirect
    // is not followed (a 307 would carry the refresh token, the device code or the client secret in
    // its body to wherever it points), and a 401 is the server refusing the client (RFC 6749 section
    // 5.2), not a token for an app's authenticator on the shared OkHttpClient to answer.
    this.http = SendOnce.client(config, config.http()).newBuilder()
        .authenticator(Authenticator.NONE)
        .build();
    // A refresh already sent must end with its answer read and saved, even when the client closes
    // (which cancels every exchange on the SDK's dispatcher) or the app's client has a call timeout:
    // the server voids the old refresh token when it answers. A dispatcher of its own keeps it out
    // of that cancel (it starts no thread for a blocking call); the read timeout still bounds it.
    this.refreshHttp = http.newBuilder().dispatcher(new Dispatcher())
        .callTimeout(0, TimeUnit.MILLISECONDS).build();
    // A sign-out is over on the device at once; the server's part of it is best effort, and bounded.
    this.revocationHttp = http.newBuilder()
        .callTimeout(Revoker.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).build();
  }

  /** The read timeout of the refreshes (and of every authorization request they derive from); for tests. */
  int refreshReadTimeoutMillis() {
    return refreshHttp.readTimeoutMillis();
  }

  Call deviceCodeCall(String clientId, @Nullable String deviceId) {
    return http.newCall(Scrub.rememberingBody(dialect.deviceCode(clientId, deviceId)));
  }

  /**
   * Whether {@code call} has not been handed to the dispatcher yet or still waits in its queue:
   * nothing of it has been sent. A call under way may still be connecting.
   */
  boolean isWaitingToBeSent(Call call) {
    return !call.isExecuted() || http.dispatcher().queuedCalls().contains(call);
  }

  Call devicePollCall(String clientId, DeviceCode code) {
    return http.newCall(Scrub.rememberingBody(dialect.poll(clientId, code)));
  }

  /** The refresh of {@code record} in {@code recordDialect}, the dialect it was issued in. */
  Call refreshCall(OAuthDialect recordDialect, TokenRecord record) {
    return refreshHttp.newCall(Scrub.rememberingBody(recordDialect.refresh(record)));
  }

  /** The revocation of {@code record}'s tokens in {@code recordDialect}; null when it offers none. */
  @Nullable Call revocationCall(OAuthDialect recordDialect, TokenRecord record) {
    Request request = recordDialect.revocation(record);
    return request == null ? null : revocationHttp.newCall(Scrub.rememberingBody(request));
  }

  Call clientCredentialsCall(String clientId, String clientSecret) {
    return http.newCall(Scrub.rememberingBody(dialect.clientCredentials(clientId, clientSecret)));
  }

  /**
   * Reads a device_code answer; throws on refusal, and {@link MalformedResponseException} naming the
   * field for a device code answer (one with a {@code device_code}) that breaks protocol 2.1.
   */
  DeviceCode readDeviceCode(Response response) throws IOException, AuthorizationException {
    WireJson json = deviceAuthorization(response);
    try {
      return deviceCode(json);
    } catch (MalformedField e) {
      throw new MalformedResponseException("malformed device authorization response (HTTP "
          + response.code() + "): " + e.getMessage());
    }
  }

  /**
   * The object of a device authorization answer. A refusal is thrown as the server's error; an
   * answer that is neither a refusal nor a device code, as a failure worth asking again for.
   */
  private WireJson deviceAuthorization(Response response)
      throws IOException, AuthorizationException {
    Answer answer = read(response, "device_code");
    if (answer.error != null && !answer.isTransient()) {
      throw new AuthorizationException(answer.error, answer.message);
    }
    WireJson json = answer.json;
    if (json == null || answer.problem != null || answer.error != null || !response.isSuccessful()) {
      if (answer.refusedWithoutError) throw notAnOAuthAnswer(answer, "device authorization endpoint");
      throw answer.transientFailure("device authorization");
    }
    return json;
  }

  /**
   * The device code of an answer. The address and {@code expires_in} are read, and their deviations
   * said, before any field is checked, so that they are said even when another field ends the answer;
   * the interval is read once the fields before it (protocol 2.1) have passed.
   */
  private DeviceCode deviceCode(WireJson json) throws MalformedField {
    String verificationUri = dialect.verificationUri(json, tolerance);
    String complete = dialect.verificationUriComplete(json, tolerance);
    long expiresIn = codeExpiresIn(json);
    checkVerificationUri(verificationUri);
    String userCode = present(json.string("user_code"), "user_code");
    String deviceCode = present(json.string("device_code"), "device_code");
    if (expiresIn <= 0 || expiresIn > MAX_EXPIRES_IN_SECONDS) {
      throw new MalformedField("expires_in must be a positive number of seconds");
    }
    long intervalMillis = intervalMillis(json, expiresIn);
    try {
      return new DeviceCode(verificationUri, complete, userCode, intervalMillis, expiresIn,
          deviceCode, config.deviceClock().monotonicNanos());
    } catch (IllegalArgumentException e) {
      throw new MalformedField(e.getMessage());
    }
  }

  private void checkVerificationUri(@Nullable String verificationUri) throws MalformedField {
    dialect.checkVerificationUri(present(verificationUri, "verification_uri"));
  }

  private static String present(@Nullable String value, String field) throws MalformedField {
    if (value == null || value.isEmpty()) throw new MalformedField(field + " is missing");
    return value;
  }

  /**
   * The device code's {@code expires_in}, read as every other number of an answer is
   * (docs/platform-assumptions.md#numbers-as-text): text and fractions too; {@link Long#MIN_VALUE}
   * if it is no number. The caller checks its range in its turn, after the fields before it.
   */
  private long codeExpiresIn(WireJson json) {
    double read = json.decimal("expires_in");
    long expiresIn = Double.isNaN(read) ? Long.MIN_VALUE : (long) read;
    if (json.isText("expires_in") && expiresIn > 0) warnText("device_code expires_in", read);
    if (expiresIn > 0 && expiresIn != read) {
      tolerance.warnOnce("device-expires_in-fraction", "device_code expires_in "
          + format(read) + " is not a whole number: read as " + expiresIn + " s");
    }
    return expiresIn;
  }

  /**
   * The wait between polls in milliseconds, or 0 for the default. The unit of {@code interval} is
   * not stated (protocol 8). Unless the app or the dialect set it, a value below {@code expires_in}
   * is seconds (the public samples: 2 with 120) and one that is not, which cannot be seconds, is
   * milliseconds. Polls are never closer than {@link #MIN_INTERVAL_MILLIS}.
   */
  private long intervalMillis(WireJson json, long expiresIn) throws MalformedField {
    if (!json.has("interval")) return 0;
    double interval = json.decimal("interval");
    if (Double.isNaN(interval) || interval < 0) {
      throw new MalformedField("interval must be a number, 0 or more");
    }
    if (interval == 0) return 0;
    boolean millis = intervalUnit != null
        ? intervalUnit == TimeUnit.MILLISECONDS : interval >= expiresIn;
    double exact = millis ? interval : interval * 1000;
    long intervalMillis = Math.max(MIN_INTERVAL_MILLIS, Math.round(exact));
    // Protocol 2.1 shows an integer: a fraction or a number sent as text is read, and said once.
    if (json.isText("interval")) warnText("device_code interval", interval);
    if (interval != Math.rint(interval)) {
      tolerance.warnOnce("interval-fraction", "device_code interval " + format(interval)
          + " is not a whole number: polls every " + intervalMillis + " ms");
    }
    if (exact >= expiresIn * 1000.0) {
      throw new MalformedField("interval " + format(interval) + (millis ? " ms" : " s")
          + " must be shorter than expires_in " + expiresIn + " s");
    }
    if (intervalUnit == null) warnOfUnit(interval, millis, exact, intervalMillis, expiresIn);
    return intervalMillis;
  }

  /**
   * Says once how the rule read an {@code interval} of no stated unit, when the reading is not the
   * samples' (seconds) or may not be what the server meant.
   */
  private void warnOfUnit(double interval, boolean millis, double exact, long intervalMillis,
      long expiresIn) {
    if (millis) {
      tolerance.warnOnce("interval-ms", "device_code interval " + format(interval)
          + " is not below expires_in " + expiresIn + ", so it cannot be seconds: read as"
          + " milliseconds (polls every " + intervalMillis + " ms)");
    } else if (exact * MIN_USEFUL_POLLS > expiresIn * 1000.0) {
      // Seconds is the cautious reading, but milliseconds below expires_in look the same.
      tolerance.warnOnce("interval-few-polls", "device_code interval " + format(interval)
          + " read as seconds leaves time for " + (long) (expiresIn * 1000.0 / exact)
          + " poll(s) before the code expires in " + expiresIn + " s; if the server means"
          + " milliseconds, set intervalUnit(TimeUnit.MILLISECONDS) on the DeviceAuthorizer or"
          + " TokenManager builder");
    }
  }

  /** Reads a token endpoint answer, whatever its status. Never throws for what the server said. */
  Answer read(Response response) {
    return read(response, "access_token");
  }

  /**
   * Reads an answer, whatever its status; one with neither an error nor {@code answerField} (nor a
   * token) is unreadable, so transient. A token answer that only echoes a {@code device_code} is one.
   */
  private Answer read(Response response, String answerField) {
    long retryAfterMillis = HttpFailure.retryAfterMillis(response, config.correctedClock());
    try (ResponseBody body = response.body()) {
      String text = "";
      if (body != null) {
        BufferedSource source = body.source();
        if (source.request(MAX_BODY_BYTES + 1)) {
          return new Answer(response.code(), null, null, "", failure(response, "HTTP "
              + response.code() + " with a body larger than " + MAX_BODY_BYTES + " bytes"),
              retryAfterMillis, false, false);
        }
        text = source.getBuffer().readUtf8();
      }
      boolean serverDate = response.headers().getDate("Date") != null;
      WireJson json = WireJson.parse(text);
      // Told in exceptions and logs: a server may echo the refresh token or device code it refuses.
      Scrub.Echoes echoes = Scrub.echoesOf(response.request());
      String error = json != null ? json.string("error") : null;
      if (error != null) error = echoes.inServerText(error);
      String message = json == null ? "" : json.string("message") != null ? json.string("message")
          : json.string("error_description") != null ? json.string("error_description") : "";
      message = echoes.inServerText(message);
      IOException problem = null;
      if (response.isRedirect()) {
        problem = HttpFailure.redirect(response, "authorization requests", "their secrets");
      } else if (json == null) {
        problem = failure(response, "HTTP " + response.code() + " with "
            + (text.trim().isEmpty() ? "an empty body" : "a body that is not a JSON object"));
      } else if (error == null && json.string("access_token") == null
          && json.string(answerField) == null) {
        problem = failure(response, "HTTP " + response.code() + " with neither a token nor an error");
      }
      // Read whole, no OAuth answer, and a 4xx the server did not ask to be repeated after a while.
      boolean refusedWithoutError = problem != null && Answer.isClientError(response.code())
          && response.header("Retry-After") == null;
      return new Answer(response.code(), json, error, message, problem, retryAfterMillis,
          serverDate, refusedWithoutError);
    } catch (IOException e) {
      return new Answer(response.code(), null, null, "", e, retryAfterMillis, false, false);
    }
  }

  /**
   * The end of a device flow whose {@code endpoint} answered {@link Answer#refusedWithoutError}: a
   * 404 page at a mistyped address, which asking again for minutes cannot make an OAuth answer.
   */
  static MalformedResponseException notAnOAuthAnswer(Answer answer, String endpoint) {
    IOException problem = answer.problem;
    String what = problem != null ? problem.getMessage() : "HTTP " + answer.status;
    return new MalformedResponseException(what + "; a 4xx answer without an OAuth error is not"
        + " asked again: check the " + endpoint + "'s address", problem);
  }

  private IOException failure(Response response, String message) {
    return HttpFailure.of(response, message, config.correctedClock());
  }

  /**
   * Builds the record of a token answer ({@link Answer#hasToken()}), throwing {@link
   * MalformedResponseException} naming the field when it breaks protocol 2.2.
   *
   * <p>{@code expires_in} is seconds; a missing one means {@link #DEFAULT_EXPIRES_IN_SECONDS}, a
   * fraction is rounded down, and a value beyond ten years is read as the dialect reads it; the
   * dialect also decides what an answer to a new grant without a refresh token means, and spells
   * {@code token_type}, which must be {@code bearer} in any case. {@code created_at} is epoch
   * seconds, or milliseconds when it cannot be seconds; one outside 2001–2100 is ignored. It corrects
   * the clock only for the answer to a new grant ({@code newGrant}: a refresh answer's may be the
   * time of the original grant) that carries no {@code Date} header, which is always preferred.
   */
  TokenRecord tokenRecord(Answer answer, TokenRecord.Grant grant, String clientId, boolean newGrant)
      throws IOException {
    return tokenRecord(answer, dialect, grant, clientId, newGrant);
  }

  /**
   * As {@link #tokenRecord(Answer, TokenRecord.Grant, String, boolean)} for an answer of {@code
   * answerDialect}, which reads the parts its dialect reads its own way.
   */
  TokenRecord tokenRecord(Answer answer, OAuthDialect answerDialect, TokenRecord.Grant grant,
      String clientId, boolean newGrant) throws IOException {
    WireJson json = answer.json;
    String accessToken = json == null ? null : json.string("access_token");
    if (json == null || accessToken == null || accessToken.isEmpty()) {
      throw new MalformedResponseException("malformed token record: access_token is missing");
    }
    String tokenType = tokenType(json, answerDialect.bearer());
    String refreshToken = json.string("refresh_token");
    boolean renewable = refreshToken != null && !refreshToken.isEmpty();
    long expiresIn = newGrant && !renewable
        ? answerDialect.lifetimeWithoutRefreshToken(json, this)
        : expiresInSeconds(json, answerDialect);
    long createdAtMillis = createdAtMillis(json);
    if (createdAtMillis > 0 && newGrant && !answer.hasServerDate) {
      config.correctedClock().observeServerTime(createdAtMillis);
    }
    return answerDialect.stamp(TokenRecord.builder(), json)
        .grant(grant)
        .clientId(clientId)
        .tokenType(tokenType)
        .accessToken(accessToken)
        .refreshToken(renewable ? refreshToken : null)
        .expiresInSeconds(expiresIn)
        .createdAtEpochSeconds(createdAtMillis / 1000)
        .receivedAtEpochMillis(config.correctedClock().wallMillis())
        .build();
  }

  /**
   * The answer's {@code token_type}: {@code bearer} in any case, or, missing, {@code bearer} as the
   * dialect spells it, with a warning.
   */
  private String tokenType(WireJson json, String bearer) throws MalformedResponseException {
    String tokenType = json.string("token_type");
    if (tokenType == null || tokenType.isEmpty()) {
      tolerance.warnOnce("token_type-missing", "the token answer has no token_type: read as " + bearer);
      return bearer;
    }
    if (!tokenType.equalsIgnoreCase("bearer")) {
      throw new MalformedResponseException("malformed token record: token_type \"" + tokenType
          + "\" is not supported; expected " + bearer);
    }
    return tokenType;
  }

  /**
   * A number protocol 2.1 and 2.2 show as a JSON number, sent as a string: said once, for the first
   * field.
   */
  private void warnText(String what, double value) {
    tolerance.warnOnce("number-text", what + " is a number sent as text: read as " + format(value));
  }

  /**
   * A token answer's {@code expires_in} in seconds: {@link #DEFAULT_EXPIRES_IN_SECONDS} when missing,
   * a fraction rounded down, and a value beyond ten years as {@code answerDialect} reads it.
   */
  long expiresInSeconds(WireJson json, OAuthDialect answerDialect)
      throws MalformedResponseException {
    if (!json.has("expires_in")) {
      tolerance.warnOnce("expires_in-missing", "the token answer has no expires_in: the token is"
          + " taken to live " + DEFAULT_EXPIRES_IN_SECONDS + " s, and is refreshed sooner if a server"
          + " rejects it");
      return DEFAULT_EXPIRES_IN_SECONDS;
    }
    double value = json.decimal("expires_in");
    if (Double.isNaN(value) || value < 0) {
      throw new MalformedResponseException(
          "malformed token record: expires_in must be a number of seconds");
    }
    if (json.isText("expires_in")) warnText("token expires_in", value);
    if (value > TokenRecord.MAX_EXPIRES_IN_SECONDS) {
      return answerDialect.expiresInBeyondTenYears(value, tolerance);
    }
    long seconds = (long) value;
    if (seconds != value) {
      tolerance.warnOnce("expires_in-fraction", "token expires_in " + format(value) + " is not a"
          + " whole number: read as " + seconds + " s");
    }
    return seconds;
  }

  /** {@code created_at} in epoch milliseconds, or 0 when absent or implausible. */
  private long createdAtMillis(WireJson json) {
    if (!json.has("created_at")) return 0;
    double value = json.decimal("created_at");
    if (Double.isNaN(value)) {
      tolerance.warnOnce("created_at-implausible", "token created_at is not a number: ignored");
      return 0;
    }
    if (json.isText("created_at")) warnText("token created_at", value);
    boolean millis = value >= MIN_CREATED_AT_MILLIS;
    double seconds = millis ? value / 1000 : value;
    if (seconds < MIN_CREATED_AT || seconds >= MAX_CREATED_AT) {
      tolerance.warnOnce("created_at-implausible", "token created_at " + format(value)
          + " is not a time between 2001 and 2100: ignored");
      return 0;
    }
    if (millis) {
      tolerance.warnOnce("created_at-ms", "token created_at " + format(value) + " cannot be epoch"
          + " seconds: read as epoch milliseconds");
    }
    return (long) (seconds * 1000);
  }

  /** A number as the server wrote it: whole numbers without a fraction. */
  static String format(double value) {
    return value == Math.rint(value) && Math.abs(value) < 9.0e15
        ? Long.toString((long) value) : Double.toString(value);
  }

  /**
   * A field of a device authorization answer that breaks protocol 2.1: its message names the field,
   * and {@link #readDeviceCode} the answer.
   */
  static final class MalformedField extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedField(String message) {
      super(message);
    }
  }

  /** What the server answered, read whatever the HTTP status. */
  static final class Answer {
    /** RFC 9110: the server gave up waiting for the request, which may be sent again. */
    private static final int REQUEST_TIMEOUT = 408;
    /** A rate limiter's answer (RFC 6585): its error, whatever it is, is not the server's decision. */
    private static final int TOO_MANY_REQUESTS = 429;
    final int status;
    final @Nullable WireJson json;
    final @Nullable String error;
    final String message;
    final @Nullable IOException problem;
    /** The server's Retry-After in milliseconds, or -1 (see {@link HttpFailure#retryAfterMillis}). */
    final long retryAfterMillis;
    /** Whether the answer had a {@code Date} header, from which the clock skew was learnt. */
    final boolean hasServerDate;
    /**
     * A 4xx answer (not 408 or 429, without Retry-After), read whole, that is no OAuth answer: a web
     * server's page for a mistyped address. It ends a device flow at once instead of being retried.
     */
    final boolean refusedWithoutError;

    Answer(int status, @Nullable WireJson json, @Nullable String error, String message,
        @Nullable IOException problem, long retryAfterMillis, boolean hasServerDate,
        boolean refusedWithoutError) {
      this.status = status;
      this.json = json;
      this.error = error;
      this.message = message;
      this.problem = problem;
      this.retryAfterMillis = retryAfterMillis;
      this.hasServerDate = hasServerDate;
      this.refusedWithoutError = refusedWithoutError;
    }

    boolean hasToken() {
      return error == null && problem == null && json != null && json.string("access_token") != null;
    }

    /**
     * True for what is worth retrying: an unreadable answer, or an unknown error in a 5xx or 429
     * answer (a proxy, a rate limiter or a failing back end speaking, not the authorization logic).
     */
    boolean isTransient() {
      if (problem != null) return true;
      if (error == null) return false;
      if ("temporarily_unavailable".equals(error) || "server_error".equals(error)) return true;
      return (status >= 500 || status == TOO_MANY_REQUESTS) && !isFlowError(error);
    }

    /** A 4xx other than 408 and 429: the server's word on the request, not a passing state. */
    static boolean isClientError(int status) {
      return status >= 400 && status < 500 && status != REQUEST_TIMEOUT && status != TOO_MANY_REQUESTS;
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
