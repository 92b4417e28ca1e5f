package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.PlatformVariant;
import org.junit.jupiter.api.Test;

class ReferenceServerSnippetsTest {
  @Test void theInTestsSnippetRuns() throws Exception {
    String[] seen = new String[1];
    ReferenceServerSnippets.inTests(server -> {
      VoiceLinkConfig config = VoiceLinkConfig.builder().authUrl(server.authUrl()).build();
      seen[0] = DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build()
          .requestCode("SN-0001-DEMO").userCode();
      return seen[0];
    });
    assertThat(seen[0]).isNotEmpty();
  }

  @Test void theVariantsSnippetSwitchesThemOn() throws Exception {
    ReferenceServerSnippets.variants(server -> {
      assertThat(server.console().variants()).containsExactly(PlatformVariant.INTERVAL_MILLIS,
          PlatformVariant.AUTH_ERRORS_HTTP_401);
      VoiceLinkConfig config = VoiceLinkConfig.builder().authUrl(server.authUrl()).build();
      assertThat(DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build()
          .requestCode("SN-0001-DEMO").intervalMillis()).isEqualTo(2000);
    });
  }

  @Test void theConsoleSnippetBuilds() {
    Console console = ReferenceServerSnippets.console();
    assertThat(console.testerPhones()).containsExactly("13800000000");
  }
}
