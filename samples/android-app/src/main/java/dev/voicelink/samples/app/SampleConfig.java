package dev.voicelink.samples.app;

import dev.voicelink.android.AgentConfig;
import dev.voicelink.core.VoiceLinkClient;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;

/**
 * The sample's settings, read from the same config text that is handed to the Agent (the platform's
 * cfg style: JSON that may start with a byte-order mark and may hold comments). The text is parsed
 * and checked by {@link AgentConfig}; the sample requires the addresses and the device identity on
 * top, and reads its own {@code sample.*} keys. With {@code sample.issuer} the device signs in at that
 * standard OAuth 2.0 server (third-party accounts, protocol 5.1.3) instead of the platform: then neither
 * {@code server.auth_url} nor {@code auth.device_id} is needed, and {@code sample.scope} is the scope
 * it asks for.
 *
 * <p>Immutable. An invalid text fails at once with a message naming the setting.
 */
final class SampleConfig {
  static final String DEFAULT_WRITE_TEXT = "call Old Zhang";

  final String text;
  final String appid;
  /** The platform's authorization service; null when the device signs in at {@link #issuer}. */
  final @Nullable String authUrl;
  final String baseUrl;
  final @Nullable String platformUrl;
  final String clientId;
  /** The device's ID at the platform; null when the device signs in at {@link #issuer}. */
  final @Nullable String deviceId;
  /** The issuer of the standard OAuth 2.0 server the device signs in at, or null for the platform. */
  final @Nullable String issuer;
  final @Nullable String scope;
  final String contactsResource;
  final String writeText;
  final @Nullable String namespace;
  final @Nullable HttpUrl checksumUrl;

  private SampleConfig(String text, AgentConfig agent) {
    this.text = text;
    this.appid = agent.appid();
    this.issuer = sampleSetting(agent, "issuer");
    this.scope = sampleSetting(agent, "scope");
    if (scope != null && issuer == null) {
      throw new IllegalArgumentException("sample.scope needs sample.issuer: the platform's scope is fixed");
    }
    this.authUrl = issuer != null ? agent.authUrl() : required(agent.authUrl(), "server", "auth_url");
    this.baseUrl = agent.baseUrl();
    this.platformUrl = agent.platformUrl();
    this.clientId = required(agent.clientId(), "auth", "client_id");
    this.deviceId = issuer != null ? null : required(agent.deviceId(), "auth", "device_id");
    this.contactsResource = required(sampleSetting(agent, "contacts_resource"), "sample",
        "contacts_resource");
    String write = sampleSetting(agent, "write_text");
    this.writeText = write != null ? write : DEFAULT_WRITE_TEXT;
    this.namespace = agent.namespace();
    String checksum = sampleSetting(agent, "checksum_url");
    this.checksumUrl = checksum == null ? null : HttpUrl.parse(checksum);
    if (checksum != null && checksumUrl == null) {
      throw new IllegalArgumentException("sample.checksum_url must be an http or https address; was: " + checksum);
    }
    if (checksumUrl != null && namespace == null) {
      throw new IllegalArgumentException("entity.namespace is missing from the config: the web API needs it"
          + " with sample.checksum_url; add \"entity\": {\"namespace\": \"...\"}");
    }
    // The SDK's own checks, so that a bad address is reported here and not at the first request.
    clientBuilder();
  }

  /**
   * Parses {@code text} as the Agent does ({@link AgentConfig#parse}: the same syntax, checks and
   * messages), then reads the settings the sample needs on top.
   */
  static SampleConfig parse(String text) {
    return new SampleConfig(text, AgentConfig.parse(text));
  }

  /** A client builder with the config's addresses. */
  VoiceLinkClient.Builder clientBuilder() {
    VoiceLinkClient.Builder builder = VoiceLinkClient.builder().baseUrl(baseUrl);
    if (authUrl != null) builder.authUrl(authUrl);
    if (platformUrl != null) builder.platformUrl(platformUrl);
    return builder;
  }

  private static String required(@Nullable String value, String section, String key) {
    if (value == null) {
      throw new IllegalArgumentException(section + "." + key + " is missing from the config; add \""
          + section + "\": {\"" + key + "\": \"...\"}");
    }
    return value;
  }

  /** A {@code sample.*} setting: a non-empty string, or null when absent. */
  private static @Nullable String sampleSetting(AgentConfig agent, String key) {
    Object section = agent.value("sample");
    if (section != null && !(section instanceof Map)) {
      throw new IllegalArgumentException("sample must be a JSON object");
    }
    Object value = agent.value("sample." + key);
    if (value == null) return null;
    if (!(value instanceof String) || ((String) value).trim().isEmpty()) {
      throw new IllegalArgumentException("sample." + key + " must be a non-empty string");
    }
    return ((String) value).trim();
  }

  @Override public String toString() {
    return "SampleConfig{" + (issuer != null ? "issuer=" + issuer : "auth_url=" + authUrl)
        + ", base_url=" + baseUrl + ", client_id=" + clientId + ", device_id=" + deviceId
        + ", contacts=" + contactsResource + "}";
  }
}
