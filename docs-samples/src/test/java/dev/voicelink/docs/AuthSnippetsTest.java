package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.NotSignedInException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthSnippetsTest {
  @TempDir File dir;

  @Test void theDeviceFlowAndTokenSnippetsSignADeviceIn() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl()).build()) {
      server.console().setPollIntervalSeconds(1);
      TokenManager tokens = AuthSnippets.tokens(client, new File(dir, "token.json"));
      assertThat(awaitResult(tokens.accessTokenCall()).failure())
          .isInstanceOf(NotSignedInException.class);
      BlockingQueue<String> shown = new LinkedBlockingQueue<>();
      BlockingQueue<String> screen = new LinkedBlockingQueue<>();
      AuthSnippets.followState(tokens, new AuthSnippets.Screen() {
        @Override public void showSignedIn() {
          screen.add("signed in");
        }

        @Override public void showSignIn(String why) {
          screen.add("sign in: " + why);
        }
      });
      assertThat(screen.poll(10, TimeUnit.SECONDS)).isEqualTo("sign in: STORE_READ");
      VoiceLinkCall<DeviceFlowOutcome> flow = AuthSnippets.deviceFlow(tokens,
          (userCode, link) -> shown.add(userCode.isEmpty() ? link : "code " + userCode));

      String code = shown.poll(10, TimeUnit.SECONDS);
      assertThat(code).startsWith("code ");
      new SimulatedTester(server).approve(code.substring("code ".length()));
      assertThat(shown.poll(10, TimeUnit.SECONDS)).as("told after it was saved").isEqualTo("signed in");
      assertThat(screen.poll(10, TimeUnit.SECONDS)).isEqualTo("signed in");
      assertThat(new FileTokenStore(new File(dir, "token.json")).load()).isEqualTo(tokens.record());
      assertThat(flow.isCancelled()).isFalse();
      assertThat(tokens.accessToken()).isEqualTo(tokens.record().accessToken());
      BlockingQueue<String> used = new LinkedBlockingQueue<>();
      AuthSnippets.tokenCall(tokens, new AuthSnippets.App() {
        @Override public void useToken(String accessToken) {
          used.add(accessToken);
        }

        @Override public void signIn() {
          used.add("sign in");
        }
      });
      assertThat(used.poll(10, TimeUnit.SECONDS)).isEqualTo(tokens.record().accessToken());
      OkHttpClient okHttp = AuthSnippets.okHttp(new OkHttpClient(), tokens);
      assertThat(okHttp.interceptors()).hasSize(1);

      BlockingQueue<String> told = new LinkedBlockingQueue<>();
      AuthSnippets.signOut(tokens, (userCode, link) -> told.add(link));
      assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo("signed out");
      assertThat(screen.poll(10, TimeUnit.SECONDS)).isEqualTo("sign in: SIGNED_OUT");
      assertThat(new File(dir, "token.json")).doesNotExist();
    }
  }

  @Test void theIntervalUnitSnippetReadsMilliseconds() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl()).build()) {
      server.console().setPollIntervalSeconds(90); // 90000 ms: not below expires_in, either way
      server.console().setVariant(PlatformVariant.INTERVAL_MILLIS, true);
      assertThat(AuthSnippets.intervalInMilliseconds(client).requestCode("SN-0001-DEMO").execute()
          .intervalMillis()).isEqualTo(90_000);
    }
  }

  private static <T> CallResult<T> awaitResult(VoiceLinkCall<T> call) throws InterruptedException {
    BlockingQueue<CallResult<T>> results = new LinkedBlockingQueue<>();
    call.enqueue(results::add);
    CallResult<T> result = results.poll(10, TimeUnit.SECONDS);
    assertThat(result).isNotNull();
    return result;
  }
}
