package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceName;
import dev.voicelink.entity.WebApiException;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;
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

  @Test void oneLinePerEntryOnStandardError() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    Logger.getLogger("").getHandlers(); // java.util.logging's console handler keeps the real stderr
    System.setErr(new PrintStream(bytes, true, "UTF-8"));
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      LoggingSnippets.oneLinePerEntry();
      try (VoiceLinkClient config = VoiceLinkClient.builder().baseUrl(server.baseUrl()).build()) {
        EntityWebApi api = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
            .accountKey(DefaultConsole.ACCOUNT_KEY).build();
        // a res_name in another namespace is sent with a warning; the server refuses it
        assertThatThrownBy(() -> api.uploadResource(DefaultConsole.APPID,
            ResourceName.parse("SK777.contacts"), PersParam.application(DefaultConsole.APPID),
            RecordSource.fromText("{\"name\":\"Li Lei\"}")).execute())
            .isInstanceOf(WebApiException.class);
      }
    } finally {
      System.setErr(stderr);
    }
    String[] lines = new String(bytes.toByteArray(), StandardCharsets.UTF_8).split("\\R");
    assertThat(lines).isNotEmpty().allMatch(line -> line.matches(
        "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} [IWE]/[a-z]+: .+"), "one line per entry");
    assertThat(lines).anyMatch(line -> line.endsWith(" W/entity: res_name SK777.contacts is in"
        + " namespace SK777, not in OS123 that signs the request: sent as it is, the platform decides"
        + " (docs/platform-assumptions.md)"));
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
