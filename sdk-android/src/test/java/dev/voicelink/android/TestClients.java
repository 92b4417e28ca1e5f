package dev.voicelink.android;

import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;

/** Clients for agents under test: the config's addresses, on virtual time. */
final class TestClients {
  private TestClients() {
  }

  static VoiceLinkClient forConfig(String configText, VirtualTime time) {
    return forConfig(configText, time, HttpLogLevel.NONE);
  }

  static VoiceLinkClient forConfig(String configText, VirtualTime time, HttpLogLevel logging) {
    AgentConfig config = AgentConfig.parse(configText);
    VoiceLinkClient.Builder client = VoiceLinkClient.builder().baseUrl(config.baseUrl())
        .clock(time).scheduler(time).httpLogging(logging);
    if (config.authUrl() != null) client.authUrl(config.authUrl());
    if (config.platformUrl() != null) client.platformUrl(config.platformUrl());
    return client.build();
  }

  /** Executes {@code call} where a checked exception cannot be thrown. */
  static <T> T execute(VoiceLinkCall<T> call) {
    try {
      return call.execute();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
