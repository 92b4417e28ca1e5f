package dev.voicelink.testing;

import java.util.EnumMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The faults currently armed on a server, per endpoint. Thread-safe. */
public final class Faults {
  private final Map<Endpoint, Fault> armed = new EnumMap<>(Endpoint.class);
  private final Map<Endpoint, Integer> remaining = new EnumMap<>(Endpoint.class);

  Faults() {
  }

  /** Arms {@code fault} on {@code endpoint}, replacing any fault armed there. */
  public synchronized Faults on(Endpoint endpoint, Fault fault) {
    armed.put(endpoint, fault);
    if (fault.times > 0) remaining.put(endpoint, fault.times); else remaining.remove(endpoint);
    return this;
  }

  public synchronized void clear(Endpoint endpoint) {
    armed.remove(endpoint);
    remaining.remove(endpoint);
  }

  public synchronized void clear() {
    armed.clear();
    remaining.clear();
  }

  /** The fault for this call, consuming one of its {@code times}; null when none is armed. */
  synchronized @Nullable Fault take(Endpoint endpoint) {
    Fault f = armed.get(endpoint);
    if (f == null) return null;
    Integer left = remaining.get(endpoint);
    if (left != null) {
      if (left <= 1) clear(endpoint); else remaining.put(endpoint, left - 1);
    }
    return f;
  }
}
