package dev.voicelink.entity;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.internal.JsonText;
import dev.voicelink.core.internal.JsonValues;
import dev.voicelink.core.internal.Utf8Line;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import okio.Buffer;

/**
 * The {@code pers_param} JSON text that ties a dynamic entity resource to its owner.
 *
 * <p>Two kinds exist, and they are not interchangeable:
 *
 * <ul>
 *   <li>Upload: the owner of uploaded data in a web API upload. {@link #application(String)} gives
 *       {@code {"appid":"<appid>"}}, {@link #user(String)} gives {@code {"auth_id":"<auth_id>"}} (32
 *       lowercase letters and digits) and {@link #custom(String, String)} gives {@code
 *       {"<dimension>":"<value>"}}. The dimension must match the resource definition's.
 *   <li>Activation: which uploaded data a voice interaction uses, passed with {@code CMD_SET_PARAMS} or
 *       {@code CMD_WRITE}. {@link #activation()} builds {@code {"appid":""}} for the application level,
 *       {@code {"uid":""}} for the user level (the platform fills the empty values), {@code
 *       {"<dimension>":"<value>"}} for a custom one, or several of them in one object.
 * </ul>
 *
 * <p>Without an activation {@code pers_param} the platform does not use dynamic entities at all.
 *
 * <p>Immutable and thread-safe.
 */
public final class PersParam {
  private final Map<String, String> entries;
  private final @Nullable Dimension uploadDimension;

  private PersParam(Map<String, String> entries, @Nullable Dimension uploadDimension) {
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      if (entry.getValue() != null) {
        Utf8Line.checkNoLoneSurrogate("pers_param." + entry.getKey(), entry.getValue());
      }
    }
    this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    this.uploadDimension = uploadDimension;
  }

  /** Upload owner for an application-level resource: {@code {"appid":"<appid>"}}. */
  public static PersParam application(String appid) {
    if (appid == null || appid.trim().isEmpty()) {
      throw new IllegalArgumentException("appid must not be empty: the application-level pers_param "
          + "of an upload is {\"appid\":\"<appid>\"}");
    }
    return new PersParam(Collections.singletonMap("appid", appid), Dimension.APPLICATION);
  }

  /**
   * Upload owner for a user-level resource: {@code {"auth_id":"<authId>"}}, where {@code authId} is 32
   * lowercase letters or digits, one per end user (protocol 2.4). Where it comes from depends on who
   * signed the user in (docs/dynamic-entities.md, "The user's auth_id"):
   *
   * <ul>
   *   <li>the platform's own account: the platform names its user when the interaction channel
   *       connects, and nowhere else; {@code InteractionChannel.fetchUid(client, tokens)} of {@code
   *       voicelink-interact} reads it and closes the connection;
   *   <li>a third-party account (protocol 5.1.3) at a standard OAuth 2.0 server: {@link
   *       AuthId#fromThirdPartyIdentity} of the server's issuer and the user's subject, from {@link
   *       dev.voicelink.auth.OAuthServer#subject};
   *   <li>any other account service of the manufacturer's: {@link AuthId#fromThirdPartyIdentity} of an
   *       address that names the service and the user's own id there.
   * </ul>
   *
   * <p>An id that is not the platform's own user is activated by name: {@link Activation#user(String)}.
   *
   * @throws IllegalArgumentException if {@code authId} is not 32 lowercase letters or digits
   */
  public static PersParam user(String authId) {
    checkAuthId(authId);
    return new PersParam(Collections.singletonMap("auth_id", authId), Dimension.USER);
  }

  /** Upload owner for a custom dimension: {@code {"<dimension>":"<value>"}}. */
  public static PersParam custom(String dimension, String value) {
    Dimension custom = Dimension.custom(dimension);
    checkCustomValue(dimension, value);
    return new PersParam(Collections.singletonMap(dimension, value), custom);
  }

  /** Starts an activation {@code pers_param}. */
  public static Activation activation() {
    return new Activation();
  }

  /**
   * Reads an activation {@code pers_param} from its JSON text (protocol 4.10), for example one kept in an
   * app's configuration or received in a command: one JSON object of strings naming at least one
   * level. {@code appid} and {@code uid} may be empty (the platform fills them in) or name the owner
   * ({@code uid} as an {@code auth_id}); any other key is a custom dimension name (see {@link
   * Dimension#custom}) whose value names the group and must not be empty or blank.
   *
   * @throws IllegalArgumentException naming the key and what is expected; every message starts with
   *     {@code pers_param}
   */
  public static PersParam parseActivation(String json) {
    if (json == null) throw new IllegalArgumentException("pers_param must not be null");
    String expected = "pers_param must be the text of a JSON object such as {\"uid\":\"\"}; was: ";
    Object parsed;
    try {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(json));
      parsed = JsonValues.read(reader);
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) throw new JsonDataException("more text");
    } catch (IOException | JsonDataException e) {
      throw new IllegalArgumentException(expected + json);
    }
    if (!(parsed instanceof Map)) throw new IllegalArgumentException(expected + json);
    Map<String, String> entries = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : ((Map<?, ?>) parsed).entrySet()) {
      String key = (String) entry.getKey();
      if (!(entry.getValue() instanceof String)) {
        throw new IllegalArgumentException("pers_param." + key + " must be a string; was "
            + describe(entry.getValue()));
      }
      entries.put(key, checkActivationEntry(key, (String) entry.getValue()));
    }
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("pers_param must name at least one level (appid, uid or a"
          + " custom dimension): an empty one activates nothing");
    }
    return new PersParam(entries, null);
  }

  private static String describe(@Nullable Object json) {
    if (json == null) return "null";
    if (json instanceof Number) return "a number";
    if (json instanceof Boolean) return "a boolean";
    return json instanceof Map ? "an object" : "an array";
  }

  private static String checkActivationEntry(String key, String value) {
    if (key.equals("appid")) return value;
    if (key.equals("uid")) {
      String problem = value.isEmpty() ? null : authIdProblem(value);
      if (problem != null) {
        throw new IllegalArgumentException("pers_param.uid must be empty (the platform fills it in) or"
            + " an auth_id of 32 lowercase letters or digits; " + problem);
      }
      return value;
    }
    try {
      Dimension.custom(key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("pers_param." + key + " is not a level: a key is appid, uid"
          + " or a custom dimension name (" + e.getMessage() + ")");
    }
    if (value.trim().isEmpty()) {
      throw new IllegalArgumentException("pers_param." + key + " must not be empty: it names the"
          + " group that owns the data");
    }
    return value;
  }

  /**
   * Checks an {@code auth_id}: 32 characters, lowercase letters and digits.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static void checkAuthId(@Nullable String authId) {
    String problem = authId == null || authId.isEmpty() ? "was empty" : authIdProblem(authId);
    if (problem != null) {
      throw new IllegalArgumentException("auth_id must be 32 lowercase letters or digits; " + problem);
    }
  }

  /** What is wrong with a non-empty {@code auth_id}, or null. */
  private static @Nullable String authIdProblem(String authId) {
    if (authId.length() != 32) return "was " + authId.length() + " characters";
    for (int i = 0; i < authId.length(); i++) {
      char c = authId.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
        return "has '" + c + "' at index " + i;
      }
    }
    return null;
  }

  private static void checkCustomValue(String dimension, @Nullable String value) {
    if (value == null || value.trim().isEmpty()) {
      throw new IllegalArgumentException("the value of custom dimension " + dimension
          + " must not be empty: it names the group that owns the data");
    }
  }

  /** The keys and values, in order. */
  public Map<String, String> entries() {
    return entries;
  }

  /** True for an activation {@code pers_param}, false for an upload one. */
  public boolean isActivation() {
    return uploadDimension == null;
  }

  /** The dimension of an upload {@code pers_param}; null for an activation one. */
  public @Nullable Dimension dimension() {
    return uploadDimension;
  }

  /** The JSON text, e.g. {@code {"appid":"","uid":""}}. */
  public String toJson() {
    JsonText writer = new JsonText().beginObject();
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      writer.name(entry.getKey()).value(entry.getValue());
    }
    return writer.endObject().text();
  }

  /** Throws if this is an activation {@code pers_param}: an upload names its data's owner. */
  void checkUpload() {
    if (uploadDimension == null) {
      throw new IllegalArgumentException("pers_param " + toJson() + " is an activation pers_param;"
          + " an upload needs one made by PersParam.application, PersParam.user or"
          + " PersParam.custom");
    }
  }

  /** Throws unless this upload {@code pers_param} fits {@code definition}'s dimension. */
  void checkUploadFor(ResourceDefinition definition) {
    Dimension expected = definition.dimension();
    if (uploadDimension == null) {
      throw new IllegalArgumentException("pers_param " + toJson() + " is an activation pers_param; "
          + "an upload needs " + uploadShape(expected));
    }
    if (expected.equals(Dimension.DEVICE)) {
      throw new IllegalArgumentException(definition.name() + " is a device-level resource: the web API"
          + " has no device pers_param; upload it with PlatformToolsClient (type device)");
    }
    if (!uploadDimension.equals(expected)) {
      throw new IllegalArgumentException("pers_param " + toJson() + " is for the " + uploadDimension
          + " dimension but " + definition.name() + " is defined with the " + expected
          + " dimension; use " + uploadShape(expected));
    }
  }

  static String uploadShape(Dimension dimension) {
    if (dimension.equals(Dimension.APPLICATION)) return "PersParam.application(appid) {\"appid\":..}";
    if (dimension.equals(Dimension.USER)) return "PersParam.user(authId) {\"auth_id\":..}";
    if (dimension.equals(Dimension.DEVICE)) return "PlatformToolsClient (type device)";
    return "PersParam.custom(\"" + dimension.name() + "\", value) {\"" + dimension.name() + "\":..}";
  }

  @Override public boolean equals(@Nullable Object other) {
    return other instanceof PersParam && ((PersParam) other).entries.equals(entries)
        && (uploadDimension == null
            ? ((PersParam) other).uploadDimension == null
            : uploadDimension.equals(((PersParam) other).uploadDimension));
  }

  @Override public int hashCode() {
    return entries.hashCode();
  }

  @Override public String toString() {
    return (isActivation() ? "activation " : "upload ") + "pers_param " + toJson();
  }

  /**
   * Builds an activation {@code pers_param}: one key per level that the interaction should use. Not
   * thread-safe.
   *
   * <pre>{@code
   * String json = PersParam.activation().application().user().custom("family", "f-01").build().toJson();
   * // {"appid":"","uid":"","family":"f-01"}
   * }</pre>
   */
  public static final class Activation {
    private final Map<String, String> entries = new LinkedHashMap<>();

    Activation() {
    }

    /** Uses the application-level resources: {@code "appid":""}, filled in by the platform. */
    public Activation application() {
      return put("appid", "");
    }

    /**
     * Uses the user-level resources of the signed-in user: {@code "uid":""}, filled in by the platform
     * with the user it knows from the connection.
     */
    public Activation user() {
      return put("uid", "");
    }

    /**
     * Uses the user-level resources uploaded for {@code authId}: {@code "uid":"<authId>"}. For an id the
     * platform cannot fill in itself: one derived from a third-party or the manufacturer's own account
     * ({@link AuthId}).
     *
     * @throws IllegalArgumentException if {@code authId} is not 32 lowercase letters or digits
     */
    public Activation user(String authId) {
      checkAuthId(authId);
      return put("uid", authId);
    }

    /** Uses the custom dimension's resources uploaded for {@code value}. */
    public Activation custom(String dimension, String value) {
      Dimension.custom(dimension);
      checkCustomValue(dimension, value);
      return put(dimension, value);
    }

    private Activation put(String key, String value) {
      if (entries.containsKey(key)) {
        throw new IllegalArgumentException("pers_param already has the key " + key);
      }
      entries.put(key, value);
      return this;
    }

    /** @throws IllegalStateException if no level was added: an empty pers_param activates nothing */
    public PersParam build() {
      if (entries.isEmpty()) {
        throw new IllegalStateException("an activation pers_param needs at least one level: "
            + "application(), user() or custom(name, value)");
      }
      return new PersParam(entries, null);
    }
  }
}
