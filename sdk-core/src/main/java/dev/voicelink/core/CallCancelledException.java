package dev.voicelink.core;

import java.io.InterruptedIOException;

/**
 * Thrown by {@link VoiceLinkCall#execute()} when the call was cancelled: by {@link
 * VoiceLinkCall#cancel()}, by closing its {@link VoiceLinkClient}, or by interrupting the thread
 * that waits in {@code execute()}. An enqueued call reports the same as {@link
 * CallResult#isCancelled()}.
 *
 * <p>It is an {@link InterruptedIOException}, as OkHttp reports a cancelled call with an I/O
 * exception; unlike a transport failure it is never worth retrying. Immutable.
 */
public final class CallCancelledException extends InterruptedIOException {
  private static final long serialVersionUID = 1L;

  public CallCancelledException() {
    super("the call was cancelled");
  }
}
