package dev.voicelink.core.internal;

import dev.voicelink.core.ServerRefusalException;
import java.io.IOException;

/** A call whose work is blocking code, run on one of the client's worker threads. */
public abstract class BlockingCall<T> extends AbstractVoiceLinkCall<T> {
  protected BlockingCall(ClientCore core) {
    super(core);
  }

  /** The work. HTTP goes through {@link #send(okhttp3.Call)} so that a cancel aborts it. */
  protected abstract T run() throws IOException, ServerRefusalException;

  /**
   * Whether {@link #run} still runs when the call was cancelled while it waited for a worker: work
   * that must be done once asked for, whose cancel only cuts its network part short ({@link #send}
   * refuses). The cancel has told the caller already; what {@code run} returns or throws is dropped.
   */
  protected boolean runsWhenCancelled() {
    return false;
  }

  @Override protected final void start() {
    core.runBlocking(new Runnable() {
      @Override public void run() {
        // cancelled while queued: the work never starts, unless it must be done all the same
        if (isCancelled() && !runsWhenCancelled()) return;
        try {
          succeed(BlockingCall.this.run());
        } catch (IOException | ServerRefusalException | RuntimeException e) {
          fail(e);
        } catch (Exception e) { // checked, yet undeclared: thrown by app code in Kotlin
          endedByUndeclared(e);
        } catch (Error e) {
          throw endedBy(e);
        }
      }
    });
  }
}
