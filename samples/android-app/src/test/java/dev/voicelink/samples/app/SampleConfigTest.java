package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class SampleConfigTest {
  private static final String MINIMAL = "{\"login\":{\"appid\":\"5f1a2b3c\"},"
      + "\"server\":{\"auth_url\":\"http://h:1/auth\",\"base_url\":\"http://h:1/api\"},"
      + "\"auth\":{\"client_id\":\"c\",\"device_id\":\"d\"},"
      + "\"sample\":{\"contacts_resource\":\"OS123.contacts\"}}";

  @Test
  void shippedAssetTargetsTheReferenceServerSeenFromTheEmulator() throws Exception {
    File asset = new File(System.getProperty("sample.assets.dir"), MainActivity.CONFIG_ASSET);
    SampleConfig config = SampleConfig.parse(new String(Files.readAllBytes(asset.toPath()), StandardCharsets.UTF_8));

    assertThat(config.authUrl).isEqualTo("http://10.0.2.2:8080/auth");
    assertThat(config.baseUrl).isEqualTo("http://10.0.2.2:8080/api");
    assertThat(config.platformUrl).isEqualTo("http://10.0.2.2:8080/platform");
    assertThat(config.appid).isEqualTo("5f1a2b3c");
    assertThat(config.clientId).isEqualTo("vl-speaker-01");
    assertThat(config.deviceId).isEqualTo("SN-0001-DEMO");
    assertThat(config.contactsResource).isEqualTo("OS123.contacts");
    assertThat(config.writeText).isEqualTo("call Old Zhang");
    assertThat(config.namespace).isEqualTo("OS123");
    assertThat(config.checksumUrl).as("no backend by default").isNull();
  }

  @Test
  void checksumUrlNeedsTheNamespace() {
    String withBackend = MINIMAL.replace("\"contacts_resource\"", "\"checksum_url\":\"https://backend.example/sign\",\"contacts_resource\"");
    assertThatThrownBy(() -> SampleConfig.parse(withBackend))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("entity.namespace is missing from the config: the web API needs it with sample.checksum_url;"
            + " add \"entity\": {\"namespace\": \"...\"}");
    assertThat(SampleConfig.parse(withBackend.replace("\"auth\":", "\"entity\":{\"namespace\":\"OS123\"},\"auth\":"))
        .checksumUrl.toString()).isEqualTo("https://backend.example/sign");
  }

  @Test
  void byteOrderMarkAndCommentsAreAccepted() {
    SampleConfig config = SampleConfig.parse("\uFEFF// cfg\n/* block */" + MINIMAL);

    assertThat(config.authUrl).isEqualTo("http://h:1/auth");
    assertThat(config.platformUrl).isNull();
    assertThat(config.writeText).isEqualTo(SampleConfig.DEFAULT_WRITE_TEXT);
  }

  @Test
  void missingSettingIsNamed() {
    assertThatThrownBy(() -> SampleConfig.parse(MINIMAL.replace("\"device_id\":\"d\"", "\"x\":\"d\"")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth.device_id is missing from the config; add \"auth\": {\"device_id\": \"...\"}");
  }

  @Test
  void emptySettingIsRefused() {
    assertThatThrownBy(() -> SampleConfig.parse(MINIMAL.replace("\"client_id\":\"c\"", "\"client_id\":\" \"")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth.client_id must not be empty; remove it or give a value");
  }

  @Test
  void badAddressIsRefusedBySdkRules() {
    assertThatThrownBy(() -> SampleConfig.parse(MINIMAL.replace("http://h:1/auth", "ftp://h/auth")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("server.auth_url must be an http or https address such as https://host[:port][/path]; was: ftp://h/auth");
  }

  @Test
  void emptySampleSettingIsRefused() {
    assertThatThrownBy(() -> SampleConfig.parse(MINIMAL.replace("\"OS123.contacts\"", "\" \"")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sample.contacts_resource must be a non-empty string");
  }

  @Test
  void syntaxErrorsAreTheAgentsOwn() {
    assertThatThrownBy(() -> SampleConfig.parse(MINIMAL + " {}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config is not valid JSON: malformed JSON (not a quoted string, number, object, array,"
            + " true, false or null) at path $");
    assertThatThrownBy(() -> SampleConfig.parse("[" + MINIMAL + "]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config must be a JSON object; was an array");
  }

  @Test
  void anIssuerNeedsNeitherAuthUrlNorDeviceId() {
    SampleConfig config = SampleConfig.parse(MINIMAL.replace("\"auth_url\":\"http://h:1/auth\",", "")
        .replace(",\"device_id\":\"d\"", "")
        .replace("\"contacts_resource\"", "\"issuer\":\"https://login.example.com/realms/speakers\","
            + "\"scope\":\"openid profile\",\"contacts_resource\""));

    assertThat(config.issuer).isEqualTo("https://login.example.com/realms/speakers");
    assertThat(config.scope).isEqualTo("openid profile");
    assertThat(config.authUrl).isNull();
    assertThat(config.deviceId).isNull();
    assertThat(config.toString()).startsWith("SampleConfig{issuer=https://login.example.com/realms/speakers,");
  }

  @Test
  void aScopeWithoutAnIssuerIsRefused() {
    assertThatThrownBy(() -> SampleConfig.parse(MINIMAL.replace("\"contacts_resource\"",
        "\"scope\":\"openid\",\"contacts_resource\"")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sample.scope needs sample.issuer: the platform's scope is fixed");
  }

  @Test
  void toStringLeavesTheKeyOut() {
    SampleConfig config = SampleConfig.parse(MINIMAL.replace("\"auth\":",
        "\"entity\":{\"namespace\":\"OS123\",\"account_key\":\"0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a\"},"
            + "\"auth\":"));

    assertThat(config.toString()).doesNotContain("0f3c9e8a").contains("client_id=c");
  }
}
