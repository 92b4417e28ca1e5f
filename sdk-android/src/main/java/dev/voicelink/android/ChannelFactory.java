package dev.voicelink.android;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.interact.InteractionChannel;
import java.io.IOException;
import java.util.Random;

/**
 * Makes the agent's {@link InteractionChannel}s, all on one token source, and remembers whether that
 * source was refused, so that a channel giving up can be told apart from one whose token is gone.
 */
final class ChannelFactory {
  private final VoiceLinkConfig config;
  private final WatchedTokens tokens;
  private final int maxReconnectAttempts;
  private final Random random;

  ChannelFactory(VoiceLinkConfig config, TokenSource tokens, int maxReconnectAttempts,
      Random random) {
    this.config = config;
    this.tokens = new WatchedTokens(tokens);
    this.maxReconnectAttempts = maxReconnectAttempts;
    this.random = random;
  }

  InteractionChannel create(InteractionChannel.Listener listener) {
    return InteractionChannel.builder(config, tokens)
        .listener(listener)
        .maxReconnectAttempts(maxReconnectAttempts)
        .random(random)
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

  private static final class WatchedTokens implements TokenSource {
    private final TokenSource delegate;
    volatile boolean refused;

    WatchedTokens(TokenSource delegate) {
      this.delegate = delegate;
    }

    @Override public String accessToken() throws IOException, ServerRefusalException {
      try {
        return delegate.accessToken();
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
