package dev.voicelink.auth;

import dev.voicelink.auth.TokenManager.SignOut;
import dev.voicelink.core.internal.Log;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import okhttp3.Call;
import okhttp3.Response;

/**
 * Revokes the tokens of a signed-out record where its server offers it (RFC 7009): one request,
 * bounded by {@link #TIMEOUT_MILLIS}. The sign-out does not wait for it to be signed out: this is the
 * server's part of it, best effort, and its failure is logged, never thrown.
 */
final class Revoker {
  private static final String TAG = "auth";
  /** The longest a revocation may take: a sign-out must end, reachable server or not. */
  static final long TIMEOUT_MILLIS = 10_000;

  /** Runs one HTTP exchange, as the call that asks for it does (a cancel aborts it). */
  interface Exchange {
    Response run(Call call) throws IOException;
  }

  private final AuthClient client;
  private final TokenExchange tokens;

  Revoker(AuthClient client, TokenExchange tokens) {
    this.client = client;
    this.tokens = tokens;
  }

  /** The revocation of {@code record}, or null when its server offers none (the platform's). */
  @Nullable Call call(TokenRecord record) {
    return client.revocationCall(tokens.dialectOf(record), record);
  }

  /**
   * What a sign-out whose store could not be read tells: the record it would have revoked is
   * unknown, so where the manager's server revokes, the tokens may still be valid there.
   */
  SignOut unreadStore() {
    return tokens.dialectOf(null).offersRevocation() ? SignOut.REVOCATION_FAILED : SignOut.NOT_OFFERED;
  }

  /** Revokes {@code record}'s tokens through {@code exchange}; what came of it. */
  SignOut revoke(@Nullable TokenRecord record, Exchange exchange) throws IOException {
    Call call = record == null ? null : call(record);
    if (call == null) return SignOut.NOT_OFFERED;
    try (Response response = exchange.run(call)) {
      if (response.isSuccessful()) {
        Log.info(TAG, "signing out: the server revoked the tokens of " + record);
        return SignOut.REVOKED;
      }
      AuthClient.Answer answer = client.read(response);
      Log.warn(TAG, "the server did not revoke the tokens (HTTP " + response.code()
          + (answer.error != null ? " " + answer.error : "")
          + (answer.message.isEmpty() ? "" : ": " + answer.message)
          + "); signed out here all the same", null);
      return SignOut.REVOCATION_FAILED;
    }
  }

  /** {@link #revoke} on a client worker, for a refresh a sign-out overtook; its outcome is logged. */
  void revokeLater(TokenRecord record) {
    try {
      client.config.workers().execute(() -> {
        try {
          revoke(record, Call::execute);
        } catch (IOException | RuntimeException e) {
          Log.warn(TAG, "the tokens of a refresh that a sign-out overtook were not revoked: "
              + e.getMessage(), null);
        }
      });
    } catch (RejectedExecutionException closed) {
      Log.warn(TAG, "the client is closed: the tokens of a refresh that a sign-out overtook are not"
          + " revoked", null);
    }
  }
}
