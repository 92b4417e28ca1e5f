package dev.voicelink.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What {@link StandardAuthServer} received and answered, in order. An exchange is recorded before its answer
 * reaches the client, so a client that got an answer finds it here. Thread-safe.
 */
public final class Journal {
  private final List<Exchange> exchanges = new ArrayList<>();
  private long sequence;

  synchronized long nextSequence() {
    return ++sequence;
  }

  synchronized void add(Exchange exchange) {
    exchanges.add(exchange);
  }

  /** Everything recorded since the last {@link #clear()}. */
  public synchronized List<Exchange> all() {
    return List.copyOf(exchanges);
  }

  /** The exchanges whose path is {@code path} (no query), in order. */
  public List<Exchange> at(String path) {
    return matching(e -> e.path().equals(path));
  }

  public synchronized List<Exchange> matching(Predicate<Exchange> filter) {
    List<Exchange> found = new ArrayList<>();
    for (Exchange e : exchanges) if (filter.test(e)) found.add(e);
    return found;
  }

  /** The last exchange at {@code path}; fails when there is none. */
  public Exchange last(String path) {
    List<Exchange> found = at(path);
    if (found.isEmpty()) throw new AssertionError("no request to " + path + " in " + this);
    return found.get(found.size() - 1);
  }

  /** Forgets what was recorded (sequence numbers go on). */
  public synchronized void clear() {
    exchanges.clear();
  }

  /** One line per exchange, secrets masked. */
  @Override public synchronized String toString() {
    StringBuilder out = new StringBuilder("Journal[");
    for (Exchange e : exchanges) out.append("\n  ").append(e);
    return out.append(exchanges.isEmpty() ? "]" : "\n]").toString();
  }
}
