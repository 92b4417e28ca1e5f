package dev.voicelink.core;

import java.io.IOException;

/**
 * One network operation of the SDK, ready to run: an upload, a check, a device-code request, a
 * device flow, a token request. Run it once, either blocking with {@link #execute()} or
 * asynchronously with {@link #enqueue(Callback)}; stop it at any time with {@link #cancel()}.
 *
 * <pre>{@code
 * VoiceLinkCall<UploadReceipt> upload = api.uploadResource(request);
 * upload.enqueue(result -> {          // on the main thread on Android
 *   if (result.isSuccess()) show(result.value().sid());
 *   else if (!result.isCancelled()) showError(result.failure());
 * });
 * // when the user leaves the screen:
 * upload.cancel();
 * }</pre>
 *
 * <p><b>Cancelling</b> aborts the HTTP exchange in flight and every wait the operation has scheduled
 * (the 10 seconds before a check, a polling interval, a retry backoff), then reports the call as
 * cancelled: {@link #execute()} throws {@link CallCancelledException}, an enqueued callback gets a
 * result whose {@link CallResult#isCancelled()} is true. Nothing is retried after a cancel. One
 * exception protects stored sign-ins: a token refresh already sent is left to finish and its rotated
 * refresh token is saved, because the server voids the old one when it answers (see {@code
 * docs/tokens.md}); the cancelled caller stops waiting for it at once.
 *
 * <p>Closing the {@link VoiceLinkClient} the call was made from cancels it.
 *
 * <p><b>Threading.</b> All methods may be called from any thread. {@link #execute()} blocks the
 * calling thread (never call it on Android's main thread); the work itself runs on SDK threads.
 * Implementations are thread-safe. A call runs at most once: a second {@code execute} or {@code
 * enqueue} throws {@link IllegalStateException}.
 *
 * @param <T> what the operation produces
 */
public interface VoiceLinkCall<T> {
  /**
   * Runs the operation and blocks until it ends. Interrupting the waiting thread cancels the call
   * (the thread's interrupt flag stays set).
   *
   * @return what the operation produced
   * @throws CallCancelledException if the call was cancelled, before or while it ran
   * @throws IOException on a transport failure or a malformed answer
   * @throws ServerRefusalException if a server refused (the subclass names the service)
   * @throws IllegalArgumentException if input turned out invalid before anything was sent (for
   *     example an {@code InvalidResourceException} found while reading the records)
   * @throws IllegalStateException if the call already ran, or its client was closed
   */
  T execute() throws IOException, ServerRefusalException;

  /**
   * Starts the operation in the background and returns at once. {@code callback} is called exactly
   * once, on the client's {@linkplain VoiceLinkClient.Builder#callbackExecutor callback executor}
   * (Android's main thread unless the app chose another), with the value, the failure, or the
   * cancellation.
   *
   * @throws IllegalStateException if the call already ran, or its client was closed
   */
  void enqueue(Callback<T> callback);

  /**
   * Stops the operation: the HTTP exchange in flight and any scheduled wait are aborted, and the call
   * ends as cancelled unless it had already ended. An enqueued call whose callback has not run yet
   * (its result waits on the main thread, say) has its callback told the cancellation instead of the
   * result, as Retrofit does: a screen that cancels when it stops hears no result afterwards, though
   * what the call did stays done (an upload made, a sign-in saved). Idempotent; never blocks.
   */
  void cancel();

  /**
   * True once {@link #cancel()} was called (or the client closed) before the call ended, or before
   * the callback of an enqueued call ran.
   */
  boolean isCancelled();

  /**
   * Receives the one result of an enqueued call. One abstract method, so a lambda will do.
   *
   * @param <T> what the operation produces
   */
  interface Callback<T> {
    /**
     * The call ended: {@link CallResult#isSuccess()}, {@link CallResult#isCancelled()}, or else
     * {@link CallResult#failure()} says why. Called exactly once, on the callback executor.
     */
    void onResult(CallResult<T> result);
  }
}
