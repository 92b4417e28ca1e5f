package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.PlatformVariant;
import org.junit.jupiter.api.Test;

class ReferenceServerSnippetsTest {
  @Test void theInTestsSnippetRuns() throws Exception {
    String[] seen = new String[1];
    ReferenceServerSnippets.inTests(server -> {
      try (VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl()).build()) {
        seen[0] = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build()
            .requestCode("SN-0001-DEMO").execute().userCode();
      }
      return seen[0];
    });
    assertThat(seen[0]).isNotEmpty();
  }

  @Test void theVariantsSnippetSwitchesThemOn() throws Exception {
    ReferenceServerSnippets.variants(server -> {
      assertThat(server.console().getVariants()).containsExactly(PlatformVariant.INTERVAL_MILLIS,
          PlatformVariant.AUTH_ERRORS_HTTP_401);
      try (VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl()).build()) {
        assertThat(DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build()
            .requestCode("SN-0001-DEMO").execute().intervalMillis()).isEqualTo(2000);
      }
    });
  }

  @Test void theConsoleSnippetBuilds() {
    Console console = ReferenceServerSnippets.console();
    assertThat(console.getTesterPhones()).containsExactly("13800000000");
  }
}
