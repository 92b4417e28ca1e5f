package dev.voicelink.entity;

import dev.voicelink.core.Clock;
import dev.voicelink.core.internal.ForwardingBody;
import dev.voicelink.core.internal.Log;
import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.RequestBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.ForwardingSink;
import okio.Okio;

/**
 * A request body that counts its bytes on their way to the connection and reports them to an {@link
 * UploadProgressListener}: at most one report per {@link #INTERVAL_NANOS} of the clock, plus the last
 * one. Reports are coalesced: at most one delivery is queued on the executor at a time, and it
 * delivers the newest figure, so deliveries never overlap and a slow executor never piles them up.
 */
final class ProgressBody extends ForwardingBody {
  static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final String TAG = "entity";
  private static final long NONE = -1;

  private final long total;
  private final Clock clock;
  private final Executor executor;
  private final UploadProgressListener listener;
  /** The figure waiting to be delivered, or {@link #NONE} when no delivery is queued. */
  private final AtomicLong pending = new AtomicLong(NONE);
  private final Runnable delivery = this::deliver;

  private ProgressBody(RequestBody delegate, long total, Clock clock, Executor executor,
      UploadProgressListener listener) {
    super(delegate);
    this.total = total;
    this.clock = clock;
    this.executor = executor;
    this.listener = listener;
  }

  /** {@code body} itself when the request has no listener, else {@code body} reporting to it. */
  static RequestBody of(RequestBody body, UploadRequest request, Clock clock) throws IOException {
    UploadProgressListener listener = request.progressListener();
    Executor executor = request.progressExecutor();
    if (listener == null || executor == null) return body;
    return new ProgressBody(body, body.contentLength(), clock, executor, listener);
  }

  @Override public long contentLength() {
    return total;
  }

  @Override public void writeTo(BufferedSink sink) throws IOException {
    Counter counter = new Counter(sink, clock.monotonicNanos());
    BufferedSink counted = Okio.buffer(counter);
    delegate.writeTo(counted);
    counted.emit();
    if (counter.reported != counter.written) report(counter.written);
  }

  private void report(long written) {
    if (pending.getAndSet(written) == NONE) schedule(); // else the queued delivery carries it
  }

  private void deliver() {
    long written = pending.get();
    try {
      listener.onProgress(written, total);
    } catch (Exception e) { // a checked one too, as Kotlin code may throw: never the upload's failure
      Log.warn(TAG, "an upload progress listener threw; ignored", e);
    }
    // A newer figure arrived meanwhile: deliver it next, after this one.
    if (!pending.compareAndSet(written, NONE)) schedule();
  }

  private void schedule() {
    try {
      executor.execute(delivery);
    } catch (RuntimeException e) {
      pending.set(NONE);
      Log.warn(TAG, "the upload progress executor refused a report", e);
    }
  }

  /** Counts what passes through one write of the body. */
  private final class Counter extends ForwardingSink {
    long written;
    long reported;
    private long reportedAtNanos;

    Counter(BufferedSink sink, long startNanos) {
      super(sink);
      this.reportedAtNanos = startNanos;
    }

    @Override public void write(Buffer source, long byteCount) throws IOException {
      super.write(source, byteCount);
      written += byteCount;
      long now = clock.monotonicNanos();
      if (written == total || now - reportedAtNanos >= INTERVAL_NANOS) {
        reportedAtNanos = now;
        reported = written;
        report(written);
      }
    }
  }
}
