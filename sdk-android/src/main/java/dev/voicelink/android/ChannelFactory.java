package dev.voicelink.android;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.interact.InteractionChannel;

/**
 * Makes the agent's {@link InteractionChannel}s, all on one client and one token source. Not final:
 * the engine's tests extend it to hear each channel's news beside the engine.
 */
class ChannelFactory {
  private final VoiceLinkClient client;
  private final TokenSource tokens;
  private final int maxReconnectAttempts;

  ChannelFactory(VoiceLinkClient client, TokenSource tokens, int maxReconnectAttempts) {
    this.client = client;
    this.tokens = tokens;
    this.maxReconnectAttempts = maxReconnectAttempts;
  }

  InteractionChannel create(InteractionChannel.Listener listener) {
    return InteractionChannel.builder(client, tokens)
        .listener(listener)
        .maxReconnectAttempts(maxReconnectAttempts)
        .build();
  }
}
