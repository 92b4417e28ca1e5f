package dev.voicelink.android;

import dev.voicelink.auth.NotSignedInException;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.interact.InteractionChannel;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Makes the agent's {@link InteractionChannel}s, all on one token source, and remembers whether that
 * source was refused, so that a channel giving up can be told apart from one whose token is gone.
 */
final class ChannelFactory {
  private final VoiceLinkClient client;
  private final WatchedTokens tokens;
  private final int maxReconnectAttempts;

  ChannelFactory(VoiceLinkClient client, TokenSource tokens, int maxReconnectAttempts) {
    this.client = client;
    this.tokens = new WatchedTokens(tokens);
    this.maxReconnectAttempts = maxReconnectAttempts;
  }

  InteractionChannel create(InteractionChannel.Listener listener) {
    return InteractionChannel.builder(client, tokens)
        .listener(listener)
        .maxReconnectAttempts(maxReconnectAttempts)
        .build();
  }

  /** A channel connected: the token works. */
  void connected() {
    tokens.refused = false;
  }

  /** Whether the token source refused, or a server rejected its token, since the last connection. */
  boolean tokenRefused() {
    return tokens.refused;
  }

  /** Why the token source had no token at all (the device was never authorized), or null. */
  @Nullable String noToken() {
    return tokens.noToken;
  }

  private static final class WatchedTokens implements TokenSource {
    private final TokenSource delegate;
    volatile boolean refused;
    volatile @Nullable String noToken;

    WatchedTokens(TokenSource delegate) {
      this.delegate = delegate;
    }

    @Override public String accessToken() throws IOException, ServerRefusalException {
      try {
        String token = delegate.accessToken();
        noToken = null;
        return token;
      } catch (NotSignedInException e) {
        // Retrying cannot help until the device is authorized; as a refusal it ends the attempts.
        refused = true;
        noToken = e.getMessage();
        throw e;
      } catch (ServerRefusalException e) {
        refused = true;
        throw e;
      }
    }

    @Override public void invalidate(String rejectedToken) {
      refused = true;
      delegate.invalidate(rejectedToken);
    }
  }
}
