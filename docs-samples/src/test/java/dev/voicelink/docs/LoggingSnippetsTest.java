package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LoggingSnippetsTest {
  @AfterEach void restore() {
    VoiceLinkLog.setSink(VoiceLinkLog.javaUtilLogging());
  }

  @Test void debugBuildsLogTrafficWithTheDeviceCodeRedacted() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      VoiceLinkClient config = LoggingSnippets.debugClient(server.authUrl(), server.baseUrl(), true,
          new PrintStream(bytes, true, "UTF-8"));
      String deviceCode = DeviceAuthorizer.builder(config).clientId(DefaultConsole.CLIENT_ID).build()
          .requestCode(DefaultConsole.DEVICE_ID).execute().deviceCode();

      String logged = new String(bytes.toByteArray(), StandardCharsets.UTF_8);
      config.close();
      assertThat(logged).contains("DEBUG http: --> POST " + server.authUrl() + "/oauth/ivs/device_code")
          .contains("\"device_code\":\"‹secret ").doesNotContain(deviceCode);
    }
  }

  @Test void releaseBuildsLogNoTraffic() throws Exception {
    java.util.List<String> tags = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    VoiceLinkLog.setSink((level, tag, message, error) -> tags.add(tag));
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        VoiceLinkClient config = LoggingSnippets.debugClient(server.authUrl(), server.baseUrl(),
            false, System.out)) {
      DeviceAuthorizer.builder(config).clientId(DefaultConsole.CLIENT_ID).build()
          .requestCode(DefaultConsole.DEVICE_ID).execute();
    }
    assertThat(tags).isNotEmpty().doesNotContain("http"); // the SDK logged, but no traffic
  }
}
