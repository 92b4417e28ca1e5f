package dev.voicelink.samples.app;

import com.squareup.moshi.JsonReader;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import okhttp3.HttpUrl;
import okio.Buffer;

/**
 * The sample's settings, read from the same config text that is handed to the Agent (the platform's
 * cfg style: JSON that may start with a byte-order mark and may hold comments). The sample reads the
 * addresses and the device identity the Agent does not act on, plus its own {@code sample.*} keys.
 *
 * <p>Immutable. An invalid text fails at once with a message naming the setting.
 */
final class SampleConfig {
  static final String DEFAULT_WRITE_TEXT = "call Old Zhang";

  final String text;
  final String appid;
  final String authUrl;
  final String baseUrl;
  final @Nullable String platformUrl;
  final String clientId;
  final String deviceId;
  final String contactsResource;
  final String writeText;
  final @Nullable String namespace;
  final @Nullable HttpUrl checksumUrl;

  private SampleConfig(String text, Map<?, ?> root) {
    this.text = text;
    this.appid = required(root, "login", "appid");
    this.authUrl = required(root, "server", "auth_url");
    this.baseUrl = required(root, "server", "base_url");
    this.platformUrl = optional(root, "server", "platform_url");
    this.clientId = required(root, "auth", "client_id");
    this.deviceId = required(root, "auth", "device_id");
    this.contactsResource = required(root, "sample", "contacts_resource");
    String write = optional(root, "sample", "write_text");
    this.writeText = write != null ? write : DEFAULT_WRITE_TEXT;
    this.namespace = optional(root, "entity", "namespace");
    String checksum = optional(root, "sample", "checksum_url");
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

  static SampleConfig parse(String text) {
    if (text == null) throw new IllegalArgumentException("config must not be null");
    String json = text.startsWith("\uFEFF") ? text.substring(1) : text;
    Object value;
    try {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(json));
      reader.setLenient(true); // the cfg format allows // and /* */ comments
      value = reader.readJsonValue();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("config is not valid JSON: " + e.getMessage(), e);
    }
    if (!(value instanceof Map)) throw new IllegalArgumentException("config must be a JSON object");
    return new SampleConfig(text, (Map<?, ?>) value);
  }

  /** A client builder with the config's addresses. */
  VoiceLinkClient.Builder clientBuilder() {
    VoiceLinkClient.Builder builder = VoiceLinkClient.builder().authUrl(authUrl).baseUrl(baseUrl);
    if (platformUrl != null) builder.platformUrl(platformUrl);
    return builder;
  }

  private static String required(Map<?, ?> root, String section, String key) {
    String value = optional(root, section, key);
    if (value == null) {
      throw new IllegalArgumentException(section + "." + key + " is missing from the config; add \""
          + section + "\": {\"" + key + "\": \"...\"}");
    }
    return value;
  }

  private static @Nullable String optional(Map<?, ?> root, String section, String key) {
    Object object = root.get(section);
    if (object == null) return null;
    if (!(object instanceof Map)) throw new IllegalArgumentException(section + " must be a JSON object");
    Object value = ((Map<?, ?>) object).get(key);
    if (value == null) return null;
    if (!(value instanceof String) || ((String) value).trim().isEmpty()) {
      throw new IllegalArgumentException(section + "." + key + " must be a non-empty string");
    }
    return ((String) value).trim();
  }

  @Override public String toString() {
    return "SampleConfig{auth_url=" + authUrl + ", base_url=" + baseUrl + ", client_id=" + clientId
        + ", device_id=" + deviceId + ", contacts=" + contactsResource + "}";
  }
}
