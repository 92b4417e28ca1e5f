package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceFlow;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkConfig;
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
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      server.console().pollIntervalSeconds(1);
      VoiceLinkConfig config = VoiceLinkConfig.builder().authUrl(server.authUrl()).build();
      TokenManager tokens = AuthSnippets.tokens(config, new File(dir, "token.json"));
      BlockingQueue<String> shown = new LinkedBlockingQueue<>();
      DeviceFlow flow = AuthSnippets.deviceFlow(server.authUrl(),
          (userCode, link) -> shown.add(userCode), tokens, Runnable::run);

      new SimulatedTester(server).approve(shown.poll(10, TimeUnit.SECONDS));
      assertThat(flow.await(10, TimeUnit.SECONDS).kind())
          .isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      assertThat(tokens.state()).isEqualTo(TokenManager.State.VALID);
      assertThat(tokens.accessToken()).isEqualTo(tokens.record().accessToken());
      OkHttpClient client = AuthSnippets.okHttp(new OkHttpClient(), tokens);
      assertThat(client.interceptors()).hasSize(1);
    }
  }

  @Test void theIntervalUnitSnippetReadsMilliseconds() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      server.console().pollIntervalSeconds(90); // 90000 ms: not below expires_in, either way
      server.console().variant(PlatformVariant.INTERVAL_MILLIS, true);
      VoiceLinkConfig config = VoiceLinkConfig.builder().authUrl(server.authUrl()).build();
      assertThat(AuthSnippets.intervalInMilliseconds(config).requestCode("SN-0001-DEMO")
          .intervalMillis()).isEqualTo(90_000);
    }
  }
}
