package dev.voicelink.auth;

import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.HttpFailure;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import okhttp3.Authenticator;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Asks a server's userinfo endpoint (OpenID Connect Core 1.0 section 5.3) who signed in: a GET with the
 * user's access token as a Bearer token (RFC 6750), answered with a JSON object whose {@code sub} names
 * the user. One call; a 401 invalidates the token and is tried once more with a fresh one.
 */
final class UserInfo extends BlockingCall<String> {
  private static final long MAX_BODY_BYTES = 64 * 1024;
  private static final Pattern BEARER_ERROR = Pattern.compile("error=\"([^\"]*)\"");

  private final HttpUrl endpoint;
  private final TokenSource tokens;
  private final OkHttpClient http;

  UserInfo(ClientCore core, HttpUrl endpoint, TokenSource tokens) {
    super(core);
    this.endpoint = endpoint;
    this.tokens = tokens;
    // OkHttp's cache keys on the address alone, so the app's cache would name the previous user; a
    // 401 is answered here with this credential's fresh token, not by the app's authenticator with
    // another one; a redirect would take the token to an address nobody configured.
    this.http = core.http().newBuilder()
        .cache(null)
        .authenticator(Authenticator.NONE)
        .followRedirects(false)
        .retryOnConnectionFailure(true) // a GET: safe to send again after a stale connection
        .build();
  }

  @Override protected String run() throws IOException, ServerRefusalException {
    for (int attempt = 1; ; attempt++) {
      String token = tokens.accessToken();
      Request request = new Request.Builder().url(endpoint)
          .header("Authorization", "Bearer " + token)
          .header("Accept", "application/json")
          .build();
      try (Response response = send(http.newCall(request))) {
        if (response.code() == 401 && attempt == 1) {
          tokens.invalidate(token); // expired or revoked early: one more try with a fresh one
          continue;
        }
        return subject(response);
      }
    }
  }

  private static String subject(Response response) throws IOException, AuthorizationException {
    if (response.isRedirect()) {
      throw HttpFailure.redirect(response, "userinfo requests", "the access token");
    }
    int code = response.code();
    if (code == 401 || code == 403) {
      // RFC 6750 puts the error in the challenge; some servers put it in a JSON body instead
      String error = bearerError(response.header("WWW-Authenticate"));
      if (error == null) error = bodyError(response.body());
      throw new AuthorizationException(error != null ? error
          : code == 401 ? "invalid_token" : "insufficient_scope",
          "the userinfo endpoint refused the access token (HTTP " + code + ")"
              + (code == 403 ? ": it takes the token of a user's sign-in whose scope includes openid" : ""));
    }
    if (code != 200) throw new IOException("the userinfo endpoint answered HTTP " + code);
    String type = response.header("Content-Type", "");
    if (!type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new MalformedResponseException("malformed userinfo answer: Content-Type " + type
          + " (a signed or encrypted answer is not read); it must be application/json");
    }
    Map<?, ?> json = WireJson.object(response.body(), MAX_BODY_BYTES);
    if (json == null) {
      throw new MalformedResponseException("malformed userinfo answer: not a JSON object of at most "
          + MAX_BODY_BYTES + " bytes");
    }
    Object sub = json.get("sub");
    if (!(sub instanceof String) || ((String) sub).isEmpty()) {
      throw new MalformedResponseException("malformed userinfo answer: sub must be a non-empty string");
    }
    return (String) sub;
  }

  private static @Nullable String bearerError(@Nullable String challenge) {
    if (challenge == null) return null;
    Matcher error = BEARER_ERROR.matcher(challenge);
    return error.find() && !error.group(1).isEmpty() ? error.group(1) : null;
  }

  private static @Nullable String bodyError(@Nullable ResponseBody body) {
    Map<?, ?> json;
    try {
      json = WireJson.object(body, MAX_BODY_BYTES);
    } catch (IOException unreadable) {
      return null; // the refusal stands; only its error code is unknown
    }
    Object error = json == null ? null : json.get("error");
    return error instanceof String && !((String) error).isEmpty() ? (String) error : null;
  }
}
