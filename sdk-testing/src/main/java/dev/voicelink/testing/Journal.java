package dev.voicelink.testing;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Every request the server received, in arrival order. A live, thread-safe view: {@link #get(int)} and
 * {@link #size()} see calls as they arrive; iterate over {@link #snapshot()} when calls may still come in.
 * It keeps every call unless the server was built with {@link ReferenceServer.Builder#journalLimit}, as
 * the standalone server is: then the oldest calls are dropped, a tenth of the limit at a time, and each
 * request and response body is kept to its first 4,096 characters.
 */
public final class Journal extends AbstractList<RecordedCall> {
  private final List<RecordedCall> calls = new ArrayList<>();
  private final int limit;

  /** {@code limit}: how many calls it keeps; beyond it the oldest tenth is dropped at once. */
  Journal(int limit) {
    this.limit = limit;
  }

  synchronized void record(RecordedCall call) {
    if (limit != Integer.MAX_VALUE) {
      if (calls.size() >= limit) calls.subList(0, Math.max(1, limit / 10)).clear();
      call = call.withBodiesCutTo(KEPT_BODY_CHARS); // a bounded journal is bounded in bytes too
    }
    calls.add(call);
    notifyAll();
  }

  /** How much of each body a bounded journal keeps: enough to read a request, not a resource. */
  static final int KEPT_BODY_CHARS = 4096;

  /**
   * Waits until at least {@code count} calls have been recorded, up to {@code timeout} of real time:
   * a barrier for a test whose client sends from its own threads. Returns whether they came.
   */
  public synchronized boolean awaitSize(int count, long timeout, TimeUnit unit)
      throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    while (calls.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) return false;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
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
