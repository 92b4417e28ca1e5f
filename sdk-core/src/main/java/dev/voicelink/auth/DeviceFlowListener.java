package dev.voicelink.auth;

/**
 * Follows an asynchronous device flow started with {@link DeviceAuthorizer#start}.
 *
 * <p>Calls arrive on the {@link java.util.concurrent.Executor} given to {@code start}, one at a
 * time and in order: {@link #onCodeIssued} once (unless the code request itself fails), {@link
 * #onPoll} after each poll, and {@link #onOutcome} exactly once, always last. An exception thrown by a
 * callback is logged and otherwise ignored.
 */
public interface DeviceFlowListener {
  /** The server issued a code: show {@link DeviceCode#userCode()} and {@link DeviceCode#link()}. */
  default void onCodeIssued(DeviceCode code) {
  }

  /**
   * A poll came back without an ending.
   *
   * @param pollNumber 1 for the first poll
   * @param result the server's {@code error} ({@code authorization_pending}, {@code slow_down}), or
   *     {@code transient_failure} when the poll failed in a way worth retrying
   * @param nextPollDelayMillis how long the flow waits before the next poll
   */
  default void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
  }

  /** The flow ended. Called exactly once. */
  void onOutcome(DeviceFlowOutcome outcome);
}
