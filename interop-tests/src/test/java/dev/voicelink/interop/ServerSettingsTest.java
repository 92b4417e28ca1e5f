package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** What {@link StandardAuthServer.Builder} changes, each on a server of its own. */
class ServerSettingsTest {

  @Test void anAdvertisedIntervalAndLifetimes() {
    try (StandardAuthServer server = StandardAuthServer.builder().interval(Duration.ofSeconds(2))
        .deviceCodeTimeToLive(Duration.ofSeconds(90)).accessTokenTimeToLive(Duration.ofSeconds(120)).start()) {
      DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);

      assertThat(codes.json().keySet()).containsExactlyInAnyOrder("device_code", "user_code", "verification_uri",
          "verification_uri_complete", "expires_in", "interval");
      assertThat(codes.json()).containsEntry("interval", 2.0).containsEntry("expires_in", 90.0)
          .containsEntry("verification_uri", server.verificationUri())
          .containsEntry("verification_uri_complete", server.verificationUri() + "?user_code=" + codes.userCode());
      assertThat(Approver.approveAt(codes.verificationUriComplete(), ALICE).connected()).isTrue();
      Map<String, Object> token = DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode()).json();
      assertThat((Double) token.get("expires_in")).isBetween(119.0, 120.0);
    }
  }

  @Test void aDeviceCodeRunsOutOnItsOwn() {
    try (StandardAuthServer server = StandardAuthServer.builder().deviceCodeTimeToLive(Duration.ofSeconds(3)).start()) {
      // 3 s: the first poll must come while the code lives, on a loaded machine too
      DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_BASIC);
      assertThat(codes.json()).containsEntry("expires_in", 3.0);
      assertThat(DeviceFlow.poll(server, DEVICE_BASIC, codes.deviceCode()).json())
          .containsEntry("error", "authorization_pending");

      // the server's own clock: poll, bounded, until the 3 seconds are over
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      Map<String, Object> answer;
      do {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        answer = DeviceFlow.poll(server, DEVICE_BASIC, codes.deviceCode()).json();
      } while (answer.get("error").equals("authorization_pending") && System.nanoTime() < deadline);

      assertThat(answer).isEqualTo(Map.of("error", "expired_token", "error_uri", DeviceGrantTest.DEVICE_ERROR_URI));
    }
  }

  @Test void aRememberedConsentIsNotAskedAgain() {
    try (StandardAuthServer server = StandardAuthServer.builder().rememberConsent(true).start()) {
      DeviceFlow.signIn(server, DEVICE_PUBLIC, ALICE);
      DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);

      Approver.Outcome second = Approver.denyAt(codes.verificationUriComplete(), ALICE);

      // no consent page, so nothing to refuse: the code is approved as soon as it is entered
      assertThat(second.connected()).as("%s", second).isTrue();
      assertThat(second.steps()).doesNotContain("POST /oauth2/device_verification -> 302 /");
      assertThat(DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode()).status()).isEqualTo(200);
    }
  }

  @Test void withoutRotationTheSameRefreshTokenIsAnsweredAgain() {
    try (StandardAuthServer server = StandardAuthServer.builder().rotateRefreshTokens(false).start()) {
      String refreshToken = (String) DeviceFlow.signIn(server, DEVICE_BASIC, ALICE).get("refresh_token");

      Map<String, Object> first = DeviceFlow.refresh(server, DEVICE_BASIC, refreshToken).json();
      Map<String, Object> second = DeviceFlow.refresh(server, DEVICE_BASIC, refreshToken).json();

      assertThat(first).containsEntry("refresh_token", refreshToken).containsKey("access_token");
      assertThat(second).containsEntry("refresh_token", refreshToken);
      assertThat(second.get("access_token")).isNotEqualTo(first.get("access_token"));
    }
  }

  @Test void aTakenPortFailsTheStartWithItsNumber() {
    try (StandardAuthServer first = StandardAuthServer.builder().start()) {
      assertThatThrownBy(() -> StandardAuthServer.builder().port(first.port()).start())
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("the server did not start on 127.0.0.1:" + first.port());
      // the first one is untouched
      assertThat(Wire.get(first.url("/.well-known/openid-configuration")).status()).isEqualTo(200);
    }
  }

  @Test void settingsAreCheckedBeforeAnythingStarts() {
    assertThatThrownBy(() -> StandardAuthServer.builder().interval(Duration.ofMillis(500)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be a whole number of seconds, at least 1: PT0.5S");
    assertThatThrownBy(() -> StandardAuthServer.builder().deviceCodeTimeToLive(Duration.ZERO))
        .hasMessage("deviceCodeTimeToLive must be a whole number of seconds, at least 1: PT0S");
    assertThatThrownBy(() -> StandardAuthServer.builder().port(70000)).hasMessage("port must be 0..65535: 70000");
  }
}
