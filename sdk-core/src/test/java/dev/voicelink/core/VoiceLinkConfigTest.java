package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;

class VoiceLinkConfigTest {
  @Test void endpointsAppendToTheConfiguredAddresses() {
    VoiceLinkConfig config = VoiceLinkConfig.builder()
        .authUrl("https://auth.example.com/")
        .platformUrl("https://platform.example.com/root")
        .baseUrl("http://127.0.0.1:8080/api/")
        .build();

    assertThat(config.authEndpoint("oauth/ivs/device_code").toString())
        .isEqualTo("https://auth.example.com/oauth/ivs/device_code");
    assertThat(config.platformEndpoint("tools/upload_entities").toString())
        .isEqualTo("https://platform.example.com/root/tools/upload_entities");
    assertThat(config.webApiUrl("entity/upload-resource").toString())
        .isEqualTo("http://127.0.0.1:8080/api/v2/voicelink/entity/upload-resource");
  }

  @Test void productSegmentIsOneConstant() {
    assertThat(VoiceLinkConfig.PRODUCT).isEqualTo("voicelink");
  }

  @Test void invalidAddressesNameTheSetting() {
    assertThatThrownBy(() -> VoiceLinkConfig.builder().authUrl("ftp://auth.example.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth_url must be an http or https address such as https://host[:port][/path];"
            + " was: ftp://auth.example.com");
    assertThatThrownBy(() -> VoiceLinkConfig.builder().baseUrl(" "))
        .hasMessage("base_url must be an http or https address such as https://host[:port][/path];"
            + " was empty");
    assertThatThrownBy(() -> VoiceLinkConfig.builder().platformUrl("https://p.example.com/?x=1"))
        .hasMessage("platform_url must not have a query or fragment; was: https://p.example.com/?x=1");
    assertThatThrownBy(() -> VoiceLinkConfig.builder().baseUrl("https://user:pw@h.example.com"))
        .hasMessage("base_url must not contain user credentials");
  }

  @Test void missingAddressIsReportedWhenAFeatureNeedsIt() {
    VoiceLinkConfig config = VoiceLinkConfig.builder().authUrl("https://auth.example.com").build();
    assertThatThrownBy(config::baseUrl)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("base_url is not configured; set it with VoiceLinkConfig.Builder.baseUrl(...)");
  }

  @Test void derivesFromTheAppsClientAndSharesItsPool() {
    OkHttpClient app = new OkHttpClient.Builder().connectTimeout(3, TimeUnit.SECONDS).build();
    VoiceLinkConfig config = VoiceLinkConfig.builder().httpClient(app).build();

    assertThat(config.httpClient()).isNotSameAs(app);
    assertThat(config.httpClient().connectionPool()).isSameAs(app.connectionPool());
    assertThat(config.httpClient().dispatcher()).isSameAs(app.dispatcher());
    assertThat(config.httpClient().connectTimeoutMillis()).isEqualTo(3000);
  }

  @Test void learnsClockSkewFromTheServersDateHeader() throws Exception {
    VirtualTime time = new VirtualTime(1_763_712_000_000L); // 2025-11-21T08:00:00Z
    VoiceLinkConfig config = VoiceLinkConfig.builder().clock(time).build();
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setHeader("Date", "Fri, 21 Nov 2025 09:00:00 GMT"));
      server.start();
      try (Response response = config.httpClient()
          .newCall(new Request.Builder().url(server.url("/")).build()).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
    }
    assertThat(config.correctedClock().offsetMillis()).isEqualTo(TimeUnit.HOURS.toMillis(1));
    assertThat(config.correctedClock().wallMillis()).isEqualTo(1_763_715_600_000L);
    assertThat(config.deviceClock().wallMillis()).isEqualTo(1_763_712_000_000L);
  }
}
