package dev.voicelink.interact;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.AbstractVoiceLinkCall;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * {@link InteractionChannel#fetchUid}: one channel, one attempt, closed as soon as the server has
 * named the user or the attempt has failed. The channel's own rules apply (one refreshed token after
 * a 401, no redirects, the greeting timeout); only its reconnecting is turned off.
 */
final class UidCall extends AbstractVoiceLinkCall<String> {
  private final InteractionChannel.Builder builder;
  private final Object lock = new Object();
  private @Nullable InteractionChannel channel;
  /** What the app's token source threw, so that the caller gets it rather than a cause's name. */
  private volatile @Nullable Exception tokenFailure;

  UidCall(ClientCore core, TokenSource tokens, long greetingTimeoutMillis) {
    super(core);
    RememberingTokens remembering = new RememberingTokens(tokens);
    this.builder = new InteractionChannel.Builder(core, remembering)
        .maxReconnectAttempts(0)
        .greetingTimeout(greetingTimeoutMillis, TimeUnit.MILLISECONDS)
        .listener(new OneShot());
  }

  @Override protected void start() {
    synchronized (lock) {
      if (isCancelled()) return; // a cancel that comes later finds the channel and closes it
      InteractionChannel opened = builder.build();
      channel = opened;
      opened.connect();
    }
  }

  @Override protected void onCancel() {
    closeChannel();
  }

  private void closeChannel() {
    InteractionChannel open;
    synchronized (lock) {
      open = channel;
    }
    if (open != null) open.close();
  }

  private final class OneShot implements InteractionChannel.Listener {
    @Override public void onConnected(String uid) {
      closeChannel(); // the channel told an auth_id: it refuses a greeting with anything else
      succeed(uid);
    }

    @Override public void onDisconnected(Disconnect disconnect) {
      closeChannel();
      Exception fromTokens = tokenFailure;
      if (fromTokens != null) {
        if (fromTokens instanceof IOException || fromTokens instanceof ServerRefusalException
            || fromTokens instanceof RuntimeException) {
          fail(fromTokens);
        } else {
          endedByUndeclared(fromTokens);
        }
      } else if (disconnect.cause() == Disconnect.Cause.TOKEN_REFUSED) {
        fail(new AuthorizationException("invalid_token", "the interaction channel rejected the"
            + " access token (HTTP 401), also after a refresh"));
      } else {
        fail(new IOException("the interaction channel did not name the user: "
            + disconnect.detail()));
      }
    }

    @Override public void onResult(InteractionResult result) {
      // nothing is written
    }
  }

  /** The app's token source, remembering what it threw. */
  private final class RememberingTokens implements TokenSource {
    private final TokenSource tokens;

    RememberingTokens(TokenSource tokens) {
      this.tokens = tokens;
    }

    @Override public String accessToken() throws IOException, ServerRefusalException {
      try {
        tokenFailure = null;
        return tokens.accessToken();
      } catch (Exception e) { // a checked one too, from a Kotlin token source
        tokenFailure = e;
        throw e;
      }
    }

    @Override public void invalidate(String rejectedToken) {
      tokens.invalidate(rejectedToken);
    }
  }
}
