package dev.voicelink.interact;

import java.util.Random;

/** Test access to the package's seams from other packages' tests. */
public final class InteractSeams {
  private InteractSeams() {
  }

  /** The builder with seeded reconnect jitter. */
  public static InteractionChannel.Builder seeded(InteractionChannel.Builder builder,
      Random random) {
    return builder.random(random);
  }
}
