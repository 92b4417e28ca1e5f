package dev.voicelink.auth;

import dev.voicelink.core.Cancellable;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A running device flow, returned by {@link DeviceAuthorizer#start}. Cancel it at any moment from any
 * thread: the pending wait and any HTTP call in flight stop at once, and the listener receives {@link
 * DeviceFlowOutcome.Kind#CANCELLED} (unless another outcome came first).
 *
 * <p>Thread-safe.
 */
public final class DeviceFlow implements Cancellable {
  private final DevicePoller poller;

  DeviceFlow(DevicePoller poller) {
    this.poller = poller;
  }

  @Override public void cancel() {
    poller.cancel();
  }

  @Override public boolean isCancelled() {
    return poller.isCancelled();
  }

  /** The outcome, or null while the flow is running. */
  public @Nullable DeviceFlowOutcome outcome() {
    return poller.outcome();
  }

  /**
   * Blocks until the flow ends and returns its outcome. Interrupting the waiting thread cancels the
   * flow (the thread's interrupt flag stays set) and returns {@link DeviceFlowOutcome.Kind#CANCELLED}.
   */
  public DeviceFlowOutcome await() {
    return poller.await();
  }

  /** Blocks up to {@code timeout} for the flow to end; the outcome, or null if it is still running. */
  public @Nullable DeviceFlowOutcome await(long timeout, TimeUnit unit) throws InterruptedException {
    return poller.await(timeout, unit) ? poller.outcome() : null;
  }

  @Override public String toString() {
    DeviceFlowOutcome outcome = poller.outcome();
    return "DeviceFlow{" + (outcome == null ? "running" : outcome.kind()) + "}";
  }
}
