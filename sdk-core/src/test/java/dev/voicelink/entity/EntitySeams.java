package dev.voicelink.entity;

import java.util.Random;

/** Test access to the package's seams from other packages' tests. */
public final class EntitySeams {
  private EntitySeams() {
  }

  /** The builder with seeded nonces and jitter. */
  public static EntityWebApi.Builder seeded(EntityWebApi.Builder builder, Random random) {
    return builder.random(random);
  }
}
