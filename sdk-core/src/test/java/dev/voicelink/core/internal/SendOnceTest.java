package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VoiceLinkClient;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

class SendOnceTest {
  /**
   * Authorization requests, web API uploads and checks and upload_entities all go out through
   * SendOnce: an app client that streams (no read timeout) must not let a silent server hold any of
   * them for ever.
   */
  @Test void anAppClientWithoutAReadTimeoutGetsTheSilenceLimitAndAnyOtherKeepsItsOwn() {
    OkHttpClient streaming = new OkHttpClient.Builder().readTimeout(0, TimeUnit.SECONDS).build();
    ClientCore core = ClientCore.of(VoiceLinkClient.builder().baseUrl("https://api.example/")
        .httpClient(streaming).build());
    assertThat(SendOnce.client(core, streaming).readTimeoutMillis()).isEqualTo(30_000);

    OkHttpClient patient = streaming.newBuilder().readTimeout(90, TimeUnit.SECONDS).build();
    assertThat(SendOnce.client(core, patient).readTimeoutMillis()).as("the app's own read timeout")
        .isEqualTo(90_000);
    core.close();
  }
}
