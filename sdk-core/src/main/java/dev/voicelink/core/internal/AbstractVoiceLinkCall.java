package dev.voicelink.core.internal;

import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import okhttp3.Call;
import okhttp3.Response;

/**
 * The SDK's {@link VoiceLinkCall}: runs once, ends once (value, failure or cancellation), and knows
 * the HTTP exchanges in flight for it so that {@link #cancel()} can abort them. Subclasses start the
 * work in {@link #start()} and end it with {@link #succeed} or {@link #fail}; {@link #onCancel()}
 * stops work that is not an HTTP exchange (a scheduled wait).
 *
 * <p>{@link #execute()} waits for the end on the calling thread; the work itself never runs there,
 * so a cancel releases the caller at once.
 */
public abstract class AbstractVoiceLinkCall<T> implements VoiceLinkCall<T> {
  protected final ClientCore core;
  private final Object lock = new Object();
  private final CountDownLatch done = new CountDownLatch(1);
  private final List<Call> exchanges = new ArrayList<>();
  private boolean started;
  private boolean cancelled;
  private @Nullable CallResult<T> result;
  private @Nullable Callback<T> callback;
  /** The callback was handed to its executor and has not run yet: a cancel still reaches it. */
  private boolean delivering;
  /** The callback executor a caller chose for this call, or null: the client's. Guarded by lock. */
  private @Nullable Executor ownCallbackExecutor;

  protected AbstractVoiceLinkCall(ClientCore core) {
    core.checkOpen();
    this.core = core;
  }

  /** Starts the work; it must end with {@link #succeed} or {@link #fail} unless cancelled. */
  protected abstract void start();

  /** Stops work other than HTTP exchanges; called once, on the cancelling thread. */
  protected void onCancel() {
  }

  /**
   * Where the callback runs: the executor given to {@link #enqueue(VoiceLinkCall, Executor,
   * Callback)}, else the client's. A subclass that delivers other news first overrides it to keep
   * them in order.
   */
  protected Executor callbackExecutor() {
    Executor own;
    synchronized (lock) {
      own = ownCallbackExecutor;
    }
    return own != null ? own : core.callbackExecutor();
  }

  /**
   * Enqueues {@code call}, one of the SDK's, with its callback run on {@code callbackExecutor} instead
   * of the client's callback executor: for SDK code with a thread of its own, such as the Android
   * Agent's worker, whose results would otherwise pass through the main thread on their way to it.
   * Otherwise as {@link VoiceLinkCall#enqueue}: the callback is called exactly once, with the value,
   * the failure or the cancellation, and nothing waits for it. A call that orders its callback after
   * news of its own (the device flow's, after its listener's) keeps delivering on its own executor.
   * {@code callbackExecutor} should not refuse: a result it refuses is logged and dropped.
   *
   * @throws IllegalArgumentException if {@code call} is not one of the SDK's (an app's own {@code
   *     VoiceLinkCall}, a test double), or an argument is null
   * @throws IllegalStateException if the call already ran, or its client was closed
   */
  public static <T> void enqueue(VoiceLinkCall<T> call, Executor callbackExecutor,
      Callback<T> callback) {
    if (callbackExecutor == null) {
      throw new IllegalArgumentException("callbackExecutor must not be null");
    }
    if (callback == null) throw new IllegalArgumentException("callback must not be null");
    if (!(call instanceof AbstractVoiceLinkCall)) {
      throw new IllegalArgumentException("not a call of the SDK: " + call);
    }
    ((AbstractVoiceLinkCall<T>) call).begin(callback, callbackExecutor);
  }

  @Override public final T execute() throws IOException, ServerRefusalException {
    if (Thread.currentThread().isInterrupted()) {
      // Already interrupted: the work would start, only to be cancelled at once; an upload might be
      // on the wire while its caller hears it was cancelled. The flag stays set.
      cancel();
      throw new CallCancelledException();
    }
    begin(null, null);
    try {
      done.await();
    } catch (InterruptedException e) {
      cancel();
      Thread.currentThread().interrupt();
    }
    CallResult<T> ended;
    synchronized (lock) {
      ended = result;
    }
    if (ended == null) throw new CallCancelledException();
    return ended.get();
  }

  @Override public final void enqueue(Callback<T> callback) {
    if (callback == null) throw new IllegalArgumentException("callback must not be null");
    begin(callback, null);
  }

  private void begin(@Nullable Callback<T> callback, @Nullable Executor callbackExecutor) {
    synchronized (lock) {
      if (started) throw new IllegalStateException("the call already ran; make a new one");
      started = true;
      this.callback = callback;
      this.ownCallbackExecutor = callbackExecutor;
    }
    try {
      core.register(this);
    } catch (RuntimeException closed) {
      // The caller gets the exception: the call has ended, and a later cancel() calls nobody back.
      synchronized (lock) {
        this.callback = null;
        result = CallResult.failure(closed);
      }
      done.countDown();
      throw closed;
    }
    if (isDone()) {
      // A cancel() between started and register() ended the call already; its unregister came first.
      core.unregister(this);
      return;
    }
    if (isCancelled()) {
      complete(CallResult.<T>cancelled());
      return;
    }
    try {
      start();
    } catch (RuntimeException e) {
      fail(e);
    }
  }

  @Override public final void cancel() {
    List<Call> inFlight;
    synchronized (lock) {
      if (cancelled || (result != null && !delivering)) return;
      // Ended, its callback not run yet (queued on the main thread, say): the callback tells the
      // cancellation, not a result for a screen the app has left, and onCancel silences other news.
      cancelled = true;
      inFlight = new ArrayList<>(exchanges);
      exchanges.clear();
    }
    for (Call call : inFlight) call.cancel();
    try {
      onCancel();
    } finally {
      boolean running;
      synchronized (lock) {
        running = started;
      }
      if (running) complete(CallResult.<T>cancelled());
    }
  }

  @Override public final boolean isCancelled() {
    synchronized (lock) {
      return cancelled;
    }
  }

  /** True once the call ended, whichever way. */
  public final boolean isDone() {
    synchronized (lock) {
      return result != null;
    }
  }

  protected final void succeed(T value) {
    complete(CallResult.success(value));
  }

  protected final void fail(Exception failure) {
    complete(CallResult.<T>failure(failure));
  }

  /**
   * Ends the call with an {@link IOException} naming {@code error}, and returns the error for the
   * caller to rethrow: whoever waits for the call is released, and the thread's handler still sees
   * the Error (OkHttp's async calls do the same).
   */
  protected final Error endedBy(Error error) {
    fail(new IOException("the call ended on an error: " + error, error));
    return error;
  }

  /**
   * Ends the call with an {@link IOException} for {@code thrown}, a checked exception its work does
   * not declare: app code in Kotlin (a checksum source, a token source, an interceptor) may throw
   * one, and the call must still end rather than leave its callers waiting.
   */
  protected final void endedByUndeclared(Exception thrown) {
    fail(new IOException("the call ended on an exception from app code: " + thrown, thrown));
  }

  private void complete(final CallResult<T> ended) {
    final Callback<T> target;
    synchronized (lock) {
      if (result != null) return;
      if (cancelled && !ended.isCancelled()) return; // cancel() ends it
      result = ended;
      exchanges.clear(); // answered, their bodies read: nothing left to abort
      target = callback;
      callback = null;
      delivering = target != null;
    }
    try {
      if (target != null) {
        callbackExecutor().execute(new Runnable() {
          @Override public void run() {
            CallResult<T> told;
            synchronized (lock) {
              delivering = false;
              told = cancelled ? CallResult.<T>cancelled() : ended;
            }
            try {
              target.onResult(told);
            } catch (Exception e) { // a checked one too, as Kotlin code may throw
              Log.warn("core", "a call's callback threw; ignored", e);
            }
          }
        });
      }
    } catch (RuntimeException e) {
      Log.warn("core", "the callback executor refused the result of " + this + "; dropped", e);
    } finally {
      // Only now does the call stop running: its result is in the callback executor's hands (queued
      // there, when that executor delivers in order).
      core.unregister(this);
      done.countDown();
    }
  }

  /**
   * Runs an HTTP exchange for this call: {@link #cancel()} aborts it, also while its answer's body is
   * read after this returns (a slow body would otherwise hold a worker until the read timeout). Throws
   * {@link CallCancelledException} if the call is cancelled before or while it runs.
   */
  public final Response send(Call exchange) throws IOException {
    synchronized (lock) {
      if (cancelled) throw new CallCancelledException();
      exchanges.add(exchange);
    }
    try {
      return exchange.execute();
    } catch (IOException e) {
      forget(exchange);
      if (isCancelled()) throw new CallCancelledException();
      throw e;
    } catch (RuntimeException | Error e) {
      forget(exchange);
      throw e;
    }
  }

  private void forget(Call exchange) {
    synchronized (lock) {
      exchanges.remove(exchange);
    }
  }

  /** Throws {@link CallCancelledException} once the call was cancelled. */
  public final void checkNotCancelled() throws CallCancelledException {
    if (isCancelled()) throw new CallCancelledException();
  }
}
