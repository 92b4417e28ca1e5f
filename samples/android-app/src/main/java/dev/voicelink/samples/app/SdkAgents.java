package dev.voicelink.samples.app;

import android.content.Context;
import dev.voicelink.auth.TokenRecord;

/** Connects {@link AgentPort} to the SDK's Agent. */
final class SdkAgents {
  static final AgentPort.Factory FACTORY = new AgentPort.Factory() {
    @Override public AgentPort create(Context context, String configText, TokenRecord token,
        AgentPort.Listener listener) {
      // Replaced by dev.voicelink.android.Agent once it is part of voicelink-android.
      throw new IllegalStateException("this build of voicelink-android has no Agent yet");
    }
  };

  private SdkAgents() {
  }
}
