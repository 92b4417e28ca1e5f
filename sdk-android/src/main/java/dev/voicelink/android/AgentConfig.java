package dev.voicelink.android;

import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Identifiers;
import dev.voicelink.core.internal.Redact;
import dev.voicelink.entity.ChecksumSigner;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The parsed view of an agent config text: a JSON object in the style of the platform's cfg files,
 * which may start with a byte-order mark and may contain {@code //} and {@code /* *}{@code /} comments.
 *
 * <pre>{@code
 * {
 *   "login":       { "appid": "5f1a2b3c" },                     // required
 *   "server":      { "auth_url": "https://auth.example.com",
 *                    "platform_url": "https://platform.example.com",
 *                    "base_url": "https://api.example.com" },   // base_url required
 *   "auth":        { "client_id": "vl-speaker-01", "device_id": "SN-0001-DEMO" },
 *   "entity":      { "namespace": "OS123", "account_key": "..." },
 *   "audioparams": { "pers_param": "{\"uid\":\"\"}" }
 * }
 * }</pre>
 *
 * <p>{@code login.appid} is required: without it dynamic entities cannot take effect, so its absence
 * fails at once. Keys this SDK does not know are kept and can be read with {@link #value(String)}. The
 * {@code entity.account_key} may be left out when the app passes an {@code EntityWebApi} to {@link
 * Agent.Builder#entityWebApi}; given, it needs {@code entity.namespace} with it.
 *
 * <p>Instances are immutable and thread-safe. {@link #toString()} never shows the account key.
 */
public final class AgentConfig {
  private final Map<String, Object> root;
  private final String appid;
  private final @Nullable String authUrl;
  private final @Nullable String platformUrl;
  private final String baseUrl;
  private final @Nullable String clientId;
  private final @Nullable String deviceId;
  private final @Nullable TimeUnit intervalUnit;
  private final @Nullable String namespace;
  private final @Nullable String accountKey;
  private final @Nullable String audioPersParam;

  private AgentConfig(Map<String, Object> root) {
    Map<String, Object> login = section(root, "login");
    String appid = login == null ? null : JsonObjects.optString(login, "appid", "login.appid");
    if (appid == null || appid.trim().isEmpty()) {
      throw new IllegalArgumentException("login.appid is missing from the config: it is required "
          + "because dynamic entities cannot take effect without the application id; add "
          + "\"login\": {\"appid\": \"<your appid>\"}");
    }
    this.appid = appid.trim();

    Map<String, Object> server = section(root, "server");
    this.authUrl = address(server, "auth_url");
    this.platformUrl = address(server, "platform_url");
    String baseUrl = address(server, "base_url");
    if (baseUrl == null) {
      throw new IllegalArgumentException("server.base_url is missing from the config: the interaction"
          + " channel and the entity web API live there; add \"server\": {\"base_url\": \"https://...\"}");
    }
    this.baseUrl = baseUrl;

    Map<String, Object> auth = section(root, "auth");
    this.clientId = nonEmpty(auth, "client_id", "auth.client_id");
    String deviceId = nonEmpty(auth, "device_id", "auth.device_id");
    // As signIn will check it: a bad one is the config's fault, named so, not a throw at sign-in.
    this.deviceId = deviceId == null ? null : Identifiers.check(deviceId, "auth.device_id", false);
    this.intervalUnit = intervalUnit(nonEmpty(auth, "interval_unit", "auth.interval_unit"));

    Map<String, Object> entity = section(root, "entity");
    this.namespace = checkedNamespace(nonEmpty(entity, "namespace", "entity.namespace"));
    String accountKey = nonEmpty(entity, "account_key", "entity.account_key");
    if (accountKey != null) {
      Redact.checkSecret(accountKey, "entity.account_key");
      if (namespace == null) {
        // The reverse is fine: an app that signs on its backend gives the Agent an EntityWebApi.
        throw new IllegalArgumentException("entity.account_key is set without entity.namespace: an upload"
            + " is signed with both; add \"namespace\": \"<namespace>\" to \"entity\"");
      }
    }
    this.accountKey = accountKey;
    this.root = withoutAccountKey(root, entity);

    Map<String, Object> audioparams = section(root, "audioparams");
    String persParam = audioparams == null
        ? null : JsonObjects.optString(audioparams, "pers_param", "audioparams.pers_param");
    if (persParam != null) JsonObjects.checkPersParam(persParam, "audioparams.pers_param");
    this.audioPersParam = persParam;
  }

  /**
   * Parses a config text. Throws {@link IllegalArgumentException} naming the setting (or the JSON path
   * of a syntax error) when the text is not a valid config.
   */
  public static AgentConfig parse(String configText) {
    if (configText == null) throw new IllegalArgumentException("config must not be null");
    @SuppressWarnings("unchecked") // a copy of a JSON object is a map with String keys
    Map<String, Object> root = (Map<String, Object>) frozen(JsonObjects.parseConfig(configText));
    return new AgentConfig(root);
  }

  /** {@code login.appid}: the application id, used to fill {@code appid} in syncs. */
  public String appid() {
    return appid;
  }

  /** {@code server.auth_url}, or null. */
  public @Nullable String authUrl() {
    return authUrl;
  }

  /** {@code server.platform_url}, or null. */
  public @Nullable String platformUrl() {
    return platformUrl;
  }

  /** {@code server.base_url}: the interaction channel and the entity web API. */
  public String baseUrl() {
    return baseUrl;
  }

  /** {@code auth.client_id}, or null. */
  public @Nullable String clientId() {
    return clientId;
  }

  /** {@code auth.device_id}, or null. */
  public @Nullable String deviceId() {
    return deviceId;
  }

  /**
   * {@code auth.interval_unit}: the unit of the {@code interval} in the sign-in's device code answers
   * ({@code "seconds"} or {@code "milliseconds"}), or null for the SDK's reading (see {@link
   * dev.voicelink.auth.TokenManager.Builder#intervalUnit}).
   */
  public @Nullable TimeUnit intervalUnit() {
    return intervalUnit;
  }

  /** {@code entity.namespace}, or null. */
  public @Nullable String namespace() {
    return namespace;
  }

  /** True when {@code entity.account_key} is set. The key itself is never exposed. */
  public boolean hasAccountKey() {
    return accountKey != null;
  }

  @Nullable String accountKey() {
    return accountKey;
  }

  /** {@code audioparams.pers_param}: the JSON object text used by audio writes by default, or null. */
  public @Nullable String audioPersParam() {
    return audioPersParam;
  }

  /**
   * The value at a dotted path such as {@code "global.scene"}, known or not: a String, Double, Boolean,
   * unmodifiable List or Map, or null when absent. Lets apps keep their own settings in the same file.
   * {@code entity.account_key} is left out (null, and absent from the {@code entity} map): the key is
   * never exposed.
   */
  public @Nullable Object value(String dottedPath) {
    if (dottedPath == null) throw new IllegalArgumentException("dottedPath must not be null");
    Object current = root;
    for (String part : dottedPath.split("\\.", -1)) {
      if (!(current instanceof Map)) return null;
      current = ((Map<?, ?>) current).get(part);
    }
    return current;
  }

  /** The settings as {@link #value} shows them: all but the account key, which is never exposed. */
  private static Map<String, Object> withoutAccountKey(Map<String, Object> root,
      @Nullable Map<String, Object> entity) {
    if (entity == null || !entity.containsKey("account_key")) return root;
    Map<String, Object> shownEntity = new LinkedHashMap<>(entity);
    shownEntity.remove("account_key");
    Map<String, Object> shown = new LinkedHashMap<>(root);
    shown.put("entity", Collections.unmodifiableMap(shownEntity));
    return Collections.unmodifiableMap(shown);
  }

  /** An unmodifiable copy at every depth: the config is shared between threads and never changes. */
  private static @Nullable Object frozen(@Nullable Object value) {
    if (value instanceof Map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        copy.put(entry.getKey(), frozen(entry.getValue()));
      }
      return Collections.unmodifiableMap(copy);
    }
    if (value instanceof List) {
      List<Object> copy = new ArrayList<>();
      for (Object element : (List<?>) value) copy.add(frozen(element));
      return Collections.unmodifiableList(copy);
    }
    return value;
  }

  private static @Nullable Map<String, Object> section(Map<String, Object> root, String name) {
    return JsonObjects.optObject(root, name, name);
  }

  private static @Nullable String nonEmpty(@Nullable Map<String, Object> section, String key,
      String path) {
    if (section == null) return null;
    String value = JsonObjects.optString(section, key, path);
    if (value == null) return null;
    if (value.trim().isEmpty()) {
      throw new IllegalArgumentException(path + " must not be empty; remove it or give a value");
    }
    return value.trim();
  }

  private static @Nullable TimeUnit intervalUnit(@Nullable String unit) {
    if (unit == null) return null;
    if (unit.equals("seconds")) return TimeUnit.SECONDS;
    if (unit.equals("milliseconds")) return TimeUnit.MILLISECONDS;
    throw new IllegalArgumentException("auth.interval_unit must be \"seconds\" or \"milliseconds\"; was: "
        + unit);
  }

  /** Checked as the signer checks it, so that the message names the setting. */
  private static @Nullable String checkedNamespace(@Nullable String namespace) {
    if (namespace == null) return null;
    try {
      ChecksumSigner.builder().namespace(namespace);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("entity." + e.getMessage());
    }
    return namespace;
  }

  private static @Nullable String address(@Nullable Map<String, Object> server, String key) {
    String value = nonEmpty(server, key, "server." + key);
    if (value == null) return null;
    ClientCore.parseBaseAddress(value, "server." + key);
    return value;
  }

  @Override public String toString() {
    return "AgentConfig{appid=" + appid + ", base_url=" + baseUrl + ", auth_url=" + authUrl
        + ", platform_url=" + platformUrl + ", client_id=" + clientId + ", device_id=" + deviceId
        + (intervalUnit == null ? "" : ", interval_unit=" + intervalUnit.name().toLowerCase(Locale.ROOT))
        + ", namespace=" + namespace + ", account_key=" + (accountKey == null ? "none"
        : Redact.secret(accountKey)) + ", audioparams.pers_param=" + audioPersParam + "}";
  }
}
