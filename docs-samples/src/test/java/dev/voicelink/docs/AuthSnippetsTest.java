package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceFlowOutcome;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
      BlockingQueue<TokenManager.State> states = new LinkedBlockingQueue<>();
      tokens.addListener(states::add);
      ExecutorService storage = Executors.newSingleThreadExecutor();
      VoiceLinkCall<DeviceFlowOutcome> flow = AuthSnippets.deviceFlow(client,
          (userCode, link) -> shown.add(userCode), tokens, storage, Runnable::run);

      new SimulatedTester(server).approve(shown.poll(10, TimeUnit.SECONDS));
      // NO_TOKEN first, then VALID once the snippet saved the record; each news comes in time
      for (TokenManager.State state = states.poll(10, TimeUnit.SECONDS);
          state != TokenManager.State.VALID; state = states.poll(10, TimeUnit.SECONDS)) {
        assertThat(state).as("a state before VALID").isNotNull();
      }
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
      storage.shutdown();
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
