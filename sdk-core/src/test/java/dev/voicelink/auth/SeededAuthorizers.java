package dev.voicelink.auth;

import dev.voicelink.core.VoiceLinkClient;
import java.util.Random;

/**
 * Device authorizers whose backoff draws from a seeded random, for tests outside this package whose
 * published figures (the fault matrix's request counts) must be the same on every run.
 */
public final class SeededAuthorizers {
  private SeededAuthorizers() {
  }

  public static DeviceAuthorizer authorizer(VoiceLinkClient client, String clientId, long seed) {
    return DeviceAuthorizer.builder(client).clientId(clientId).random(new Random(seed)).build();
  }
}
