package dev.voicelink.auth;

import dev.voicelink.core.internal.Log;
import java.io.IOException;
import okhttp3.Authenticator;
import okhttp3.Interceptor;

/** The OkHttp side of a {@link TokenManager}: what {@link TokenManager#interceptor()} and {@link TokenManager#authenticator()} return. */
final class TokenHttp {
  private static final String TAG = "auth";

  private TokenHttp() {
  }

  static Interceptor interceptor(final TokenManager tokens) {
    return chain -> {
      if (chain.request().header("Authorization") != null) return chain.proceed(chain.request());
      String authorization;
      try {
        authorization = TokenExchange.authorization(tokens.validRecord());
      } catch (IOException e) {
        throw e;
      } catch (Exception e) { // AuthorizationException, unchecked, or a Kotlin store's checked one
        // An unchecked exception in an OkHttp chain is rethrown on the dispatcher's thread for an
        // enqueued call, which ends an Android app: a closed client, say, fails the call instead.
        throw new IOException("no access token: " + e.getMessage(), e);
      }
      return chain.proceed(chain.request().newBuilder().header("Authorization", authorization).build());
    };
  }

  static Authenticator authenticator(final TokenManager tokens) {
    return (route, response) -> {
      if (response.priorResponse() != null) return null; // already retried once
      String sent = response.request().header("Authorization");
      // Another credential's 401 (another manager's token, the app's own) is not answered with ours.
      if (sent == null || !tokens.invalidateAuthorization(sent)) return null;
      String fresh;
      try {
        fresh = TokenExchange.authorization(tokens.validRecord());
      } catch (AuthorizationException | RuntimeException e) {
        Log.warn(TAG, "cannot answer HTTP 401: " + e.getMessage(), null);
        return null;
      }
      if (fresh.equals(sent)) return null;
      return response.request().newBuilder().header("Authorization", fresh).build();
    };
  }
}
