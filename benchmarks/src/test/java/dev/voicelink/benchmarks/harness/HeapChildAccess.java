package dev.voicelink.benchmarks.harness;

import java.io.File;

/** Lets the smoke test call the package-private upload of {@link HeapChild}. */
public final class HeapChildAccess {
  private HeapChildAccess() {
  }

  public static String upload(String mode, String baseUrl, File file) throws Exception {
    return HeapChild.upload(mode, baseUrl, file);
  }
}
