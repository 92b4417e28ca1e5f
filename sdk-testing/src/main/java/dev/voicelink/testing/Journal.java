package dev.voicelink.testing;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * Every request the server received, in arrival order. A live, thread-safe view: {@link #get(int)} and
 * {@link #size()} see calls as they arrive; iterate over {@link #snapshot()} when calls may still come in.
 */
public final class Journal extends AbstractList<RecordedCall> {
  private final List<RecordedCall> calls = new ArrayList<>();

  Journal() {
  }

  synchronized void record(RecordedCall call) {
    calls.add(call);
  }

  @Override public synchronized RecordedCall get(int index) {
    return calls.get(index);
  }

  @Override public synchronized int size() {
    return calls.size();
  }

  @Override public synchronized void clear() {
    calls.clear();
  }

  public synchronized List<RecordedCall> snapshot() {
    return new ArrayList<>(calls);
  }

  /** How many recorded calls have a path (query excluded) ending with {@code pathSuffix}. */
  public synchronized int count(String pathSuffix) {
    return calls(pathSuffix).size();
  }

  /** The calls whose path (query excluded) ends with {@code pathSuffix}, in order. */
  public synchronized List<RecordedCall> calls(String pathSuffix) {
    List<RecordedCall> out = new ArrayList<>();
    for (RecordedCall c : calls) {
      String p = c.path();
      int q = p.indexOf('?');
      if ((q < 0 ? p : p.substring(0, q)).endsWith(pathSuffix)) out.add(c);
    }
    return out;
  }
}
