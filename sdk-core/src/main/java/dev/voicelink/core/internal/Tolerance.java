package dev.voicelink.core.internal;

import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the spec leaves a detail open and a server answered in a reading other than the reference
 * one, the SDK accepts it and says so once: one WARNING per kind of deviation for each client that
 * holds a {@code Tolerance}. Messages name the field and the reading taken, never a secret. Every
 * kind is a row of docs/platform-assumptions.md.
 *
 * <p>Thread-safe.
 */
public final class Tolerance {
  private final String tag;
  private final Set<String> warned =
      Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

  public Tolerance(String tag) {
    this.tag = tag;
  }

  /** Logs {@code message} at WARN the first time this client tolerates {@code kind}. */
  public void warnOnce(String kind, String message) {
    if (warned.add(kind)) {
      Log.warn(tag, message + " (docs/platform-assumptions.md)", null);
    }
  }
}
