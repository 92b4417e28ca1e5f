package dev.voicelink.samples.app;

import android.view.View;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.VoiceLinkCall;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The device flow on screen: <b>Authorize this device</b> starts a sign-in, the user code, the link
 * and its QR code appear, each poll shows in the status, then how the flow ended. The sign-in comes
 * through {@link SignIn}: the token manager's in the app, {@code FakeSignIn} of voicelink-fixtures in
 * {@code SignInPanelTest}. What a sign-in changes beyond this panel (the sign-out button, the Agent)
 * follows the token manager's state, in {@link MainActivity}.
 *
 * <p>Main thread only: the SDK calls the flow's listener and callback there.
 */
final class SignInPanel {
  /** Starts a device flow: {@code TokenManager.signIn}, which keeps the sign-in when it succeeds. */
  interface SignIn {
    VoiceLinkCall<DeviceFlowOutcome> signIn(DeviceFlowListener listener);
  }

  private final SampleScreen screen;
  /** The log line of a start, saying where the code is asked for. */
  private final String requesting;
  private final SignIn signIn;
  private @Nullable VoiceLinkCall<DeviceFlowOutcome> flow;

  SignInPanel(SampleScreen screen, String requesting, SignIn signIn) {
    this.screen = screen;
    this.requesting = requesting;
    this.signIn = signIn;
    screen.authorize.setOnClickListener(v -> start());
  }

  /** Starts a sign-in; Authorize stays disabled until it ends without one. */
  void start() {
    screen.authorize.setEnabled(false);
    screen.status.setText("Requesting a code…");
    screen.log(requesting);
    VoiceLinkCall<DeviceFlowOutcome> started = signIn.signIn(new DeviceFlowListener() {
      @Override public void onCodeIssued(DeviceCode code) {
        showCode(code);
      }

      @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
        screen.status.setText("Waiting for the user (poll " + pollNumber + ": " + result + ")");
      }
    });
    flow = started;
    started.enqueue(result -> { // on the main thread, like the listener; cancelled by cancel()
      flow = null;
      if (result.isCancelled()) return;
      Exception failure = result.failure();
      if (failure instanceof IOException) {
        // Signed in, but not saved: the token manager holds the sign-in and saves it first next time.
        screen.status.setText("Token not saved: " + failure.getMessage());
        screen.log("token not saved: " + failure.getMessage());
      } else if (failure != null) {
        screen.status.setText("Not authorized: " + failure);
        screen.authorize.setEnabled(true);
      } else {
        ended(result.value());
      }
    });
  }

  /** Stops a sign-in under way: the user left. */
  void cancel() {
    VoiceLinkCall<DeviceFlowOutcome> running = flow;
    if (running != null) running.cancel();
  }

  private void showCode(DeviceCode code) {
    screen.userCode.setText(code.userCode());
    screen.link.setText(code.link());
    try {
      screen.qr.setImageBitmap(QrCodes.bitmap(code.link()));
      screen.qr.setVisibility(View.VISIBLE);
    } catch (IllegalArgumentException e) {
      screen.log("no QR code: " + e.getMessage()); // the link and the code are on screen anyway
    }
    screen.status.setText("Open the link or scan the code, then authorize");
    screen.log("user code " + code.userCode() + ", link " + code.link());
  }

  private void ended(DeviceFlowOutcome outcome) {
    if (outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
      Exception failure = outcome.failure();
      screen.status.setText("Not authorized: " + outcome.kind());
      screen.log("authorization ended: " + outcome.kind()
          + (failure == null ? "" : " (" + failure.getMessage() + ")"));
      screen.authorize.setEnabled(true);
      return;
    }
    screen.userCode.setText("");
    screen.link.setText("");
    screen.qr.setVisibility(View.GONE);
    // Saved already: the token manager kept the sign-in before it reported the outcome.
    screen.status.setText("Authorized; connecting…");
    screen.log("authorized");
  }
}
