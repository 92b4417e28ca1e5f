package dev.voicelink.android;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.interact.InteractionChannel;
import java.io.IOException;
import java.util.Random;
import org.jspecify.annotations.Nullable;

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
      } catch (ServerRefusalException e) {
        refused = true;
        throw e;
      } catch (IllegalStateException e) {
        // A token manager that holds no token: retrying cannot help until the device is authorized,
        // so it ends the channel's attempts like a refusal does.
        refused = true;
        noToken = e.getMessage();
        throw new ServerRefusalException("not_authorized", String.valueOf(e.getMessage()), null);
      }
    }

    @Override public void invalidate(String rejectedToken) {
      refused = true;
      delegate.invalidate(rejectedToken);
    }
  }
}
