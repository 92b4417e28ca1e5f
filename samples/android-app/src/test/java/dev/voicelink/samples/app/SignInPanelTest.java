package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;

import android.app.Activity;
import android.graphics.drawable.BitmapDrawable;
import android.view.View;
import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.fixtures.FakeSignIn;
import dev.voicelink.fixtures.VoiceLinkFixtures;
import java.io.IOException;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;

/**
 * The sample's sign-in panel without a server: a FakeSignIn of voicelink-fixtures plays the device flow
 * step by step (MainActivityTest plays it against the reference server's real verification page).
 */
@RunWith(RobolectricTestRunner.class)
public final class SignInPanelTest {
  private static final DeviceCode CODE = VoiceLinkFixtures.deviceCode(
      "http://127.0.0.1:8080/auth/oauth/ivs/verify", "8NQZ-4KXP", 2, 600, "device-code-1");
  private static final TokenRecord TOKEN = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
      .clientId("vl-speaker-01").accessToken("at-1").refreshToken("rt-1").expiresInSeconds(3600)
      .receivedAtEpochMillis(1_763_712_000_000L).build();

  private final FakeSignIn signIn = new FakeSignIn();
  private SampleScreen screen;
  private SignInPanel panel;

  @Before public void makeThePanel() {
    screen = new SampleScreen(Robolectric.buildActivity(Activity.class).setup().get());
    panel = new SignInPanel(screen, "requesting a device code for SN-0001-DEMO", signIn::signIn);
    screen.authorize.setEnabled(true); // as MainActivity does once it knows no sign-in is saved
  }

  private String text(android.widget.TextView view) {
    return view.getText().toString();
  }

  @Test public void showsTheCodeTheLinkAndTheQrCodeThenTheSignIn() throws Exception {
    screen.authorize.performClick();
    assertThat(screen.authorize.isEnabled()).as("one flow at a time").isFalse();
    assertThat(text(screen.status)).isEqualTo("Requesting a code…");
    FakeSignIn.Flow flow = signIn.lastFlow();
    assertThat(flow.isEnqueued()).as("enqueued, never executed on the main thread").isTrue();

    flow.issueCode(CODE);
    String link = "http://127.0.0.1:8080/auth/oauth/ivs/verify?user_code=8NQZ-4KXP";
    assertThat(text(screen.userCode)).isEqualTo("8NQZ-4KXP");
    assertThat(text(screen.link)).isEqualTo(link);
    assertThat(screen.qr.getVisibility()).isEqualTo(View.VISIBLE);
    assertThat(QrCodesTest.decode(((BitmapDrawable) screen.qr.getDrawable()).getBitmap())).isEqualTo(link);
    assertThat(text(screen.status)).isEqualTo("Open the link or scan the code, then authorize");

    flow.poll("authorization_pending");
    assertThat(text(screen.status)).isEqualTo("Waiting for the user (poll 1: authorization_pending)");

    flow.authorize(TOKEN);
    assertThat(text(screen.userCode)).isEmpty();
    assertThat(text(screen.link)).isEmpty();
    assertThat(screen.qr.getVisibility()).isEqualTo(View.GONE);
    assertThat(text(screen.status)).isEqualTo("Authorized; connecting…");
    assertThat(text(screen.eventLog)).isEqualTo("requesting a device code for SN-0001-DEMO\n"
        + "user code 8NQZ-4KXP, link " + link + "\nauthorized");
    assertThat(screen.authorize.isEnabled()).isFalse();
  }

  @Test public void aRefusalIsShownAndAuthorizeCanBePressedAgain() {
    screen.authorize.performClick();
    FakeSignIn.Flow flow = signIn.lastFlow();
    flow.issueCode(CODE);

    flow.end(VoiceLinkFixtures.ended(DeviceFlowOutcome.Kind.DENIED,
        new AuthorizationException("access_denied", "the user refused")));

    assertThat(text(screen.status)).isEqualTo("Not authorized: DENIED");
    assertThat(text(screen.eventLog))
        .endsWith("\nauthorization ended: DENIED (access_denied: the user refused)");
    assertThat(screen.authorize.isEnabled()).isTrue();
    screen.authorize.performClick();
    assertThat(signIn.flows()).hasSize(2);
  }

  @Test public void leavingCancelsTheFlowAndItsLateNewsIsDropped() {
    screen.authorize.performClick();
    FakeSignIn.Flow flow = signIn.lastFlow();
    flow.issueCode(CODE);

    panel.cancel();
    flow.authorize(TOKEN);

    assertThat(flow.isCancelled()).isTrue();
    assertThat(text(screen.status)).isEqualTo("Open the link or scan the code, then authorize");
    assertThat(text(screen.eventLog)).doesNotContain("authorized");
  }

  @Test public void aSignInThatCouldNotBeSavedSaysSo() {
    screen.authorize.performClick();
    FakeSignIn.Flow flow = signIn.lastFlow();
    flow.issueCode(CODE);

    flow.fail(new IOException("no space left on device"));

    assertThat(text(screen.status)).isEqualTo("Token not saved: no space left on device");
    assertThat(text(screen.eventLog)).endsWith("\ntoken not saved: no space left on device");
    assertThat(screen.authorize.isEnabled()).as("the manager holds the sign-in").isFalse();
  }
}
