package dev.voicelink.auth;

/**
 * Follows a device flow started with {@link DeviceAuthorizer#authorize}: shows the user code, and
 * optionally hears of each poll. One abstract method, so a lambda that shows the code will do:
 *
 * <pre>{@code
 * authorizer.authorize("SN-0001-DEMO", code -> screen.showQr(code.link())).enqueue(result -> ...);
 * }</pre>
 *
 * <p>Calls arrive on the client's callback executor (Android's main thread by default), one at a
 * time and in order: {@link #onCodeIssued} once (unless the code request itself fails), then {@link
 * #onPoll} after each poll. The call's own callback, with the outcome, always comes after them. An
 * exception thrown by a listener method is logged and otherwise ignored.
 */
public interface DeviceFlowListener {
  /** The server issued a code: show {@link DeviceCode#userCode()} and {@link DeviceCode#link()}. */
  void onCodeIssued(DeviceCode code);

  /**
   * A poll came back without an ending. Does nothing unless overridden.
   *
   * @param pollNumber 1 for the first poll
   * @param result the server's {@code error} ({@code authorization_pending}, {@code slow_down}), or
   *     {@code transient_failure} when the poll failed in a way worth retrying
   * @param nextPollDelayMillis how long the flow waits before the next poll
   */
  default void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
  }
}
