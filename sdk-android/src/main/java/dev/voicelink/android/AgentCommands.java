package dev.voicelink.android;

import dev.voicelink.core.internal.JsonText;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceEncoder;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.Map;
import okio.Buffer;
import okio.ByteString;
import org.jspecify.annotations.Nullable;

/**
 * Builds the {@link AgentMessage} of each command from typed values, so that an app writes neither
 * JSON, nor Base64, nor {@code key=value} text. The messages are exactly those the raw form of
 * {@code docs/agent.md} describes (the platform's contract, protocol 4.10), byte for byte: an app may
 * mix both forms.
 *
 * <pre>{@code
 * agent.sendMessage(AgentCommands.sync(contacts)             // a ResourceDefinition of the user level
 *     .records(contactList)                                  // maps of field to value
 *     .tag("contacts-1")
 *     .build());
 * agent.sendMessage(AgentCommands.querySyncStatus(sid));
 * agent.sendMessage(AgentCommands.setPersParam(PersParam.activation().user().build()));
 * agent.sendMessage(AgentCommands.writeText("call Zhang San")
 *     .persParam(PersParam.activation().user().build())
 *     .build());
 * }</pre>
 *
 * <p>Every value is checked where it is given or in {@code build()}, before anything is sent: a bad
 * one throws {@link IllegalArgumentException} naming the field, and a record that breaks its
 * definition an {@code InvalidResourceException} naming the record and the field. Building a sync
 * encodes its records on the calling thread: quick for the size of a contact list, but a resource of
 * many megabytes is better built off the main thread. The builders are not thread-safe; the messages
 * they build are immutable. Read an event with {@link SyncReturn}, {@link SyncStatus}, {@link
 * WriteResult}, {@link AgentError} and {@link ConnectionEvent}.
 */
public final class AgentCommands {
  private static final Charset UTF_8 = Charset.forName("UTF-8");

  private AgentCommands() {
  }

  /**
   * A {@link AgentConstants#CMD_SYNC} of a resource of {@code definition}: its name, and its dimension,
   * which says whose copy it is (the user's, the application's, or a custom group's).
   *
   * @throws IllegalArgumentException if {@code definition} is null or of the device level, which the
   *     web API behind CMD_SYNC does not take (upload it with {@code PlatformToolsClient})
   */
  public static SyncBuilder sync(ResourceDefinition definition) {
    if (definition == null) throw new IllegalArgumentException("definition must not be null");
    if (definition.dimension().equals(Dimension.DEVICE)) {
      throw new IllegalArgumentException("definition " + definition.name() + " is of the device level,"
          + " which CMD_SYNC does not upload: upload it with PlatformToolsClient.uploadEntities");
    }
    return new SyncBuilder(definition);
  }

  /**
   * A {@link AgentConstants#CMD_QUERY_SYNC_STATUS} of the upload {@code sid} (from its {@link
   * SyncReturn#sid()}). The agent waits until 10 s after an upload it made before it checks.
   *
   * @throws IllegalArgumentException if {@code sid} is empty or does not begin with {@code psn}
   */
  public static AgentMessage querySyncStatus(String sid) {
    return query(sid, null);
  }

  /** As {@link #querySyncStatus(String)}, with a {@code tag} that its reply carries back. */
  public static AgentMessage querySyncStatus(String sid, String tag) {
    return query(sid, checkTag(tag));
  }

  private static AgentMessage query(String sid, @Nullable String tag) {
    if (sid == null || sid.trim().isEmpty()) {
      throw new IllegalArgumentException("sid is required: the sid of the CMD_SYNC reply");
    }
    if (!sid.equals(sid.trim()) || !sid.startsWith("psn")) {
      throw new IllegalArgumentException("sid must begin with psn, as the sid of a CMD_SYNC reply"
          + " does; was: " + sid);
    }
    return AgentMessage.builder(AgentConstants.CMD_QUERY_SYNC_STATUS)
        .arg1(AgentConstants.SYNC_DATA_SCHEMA)
        .params(new JsonText().beginObject().name("sid").value(sid)
            .name("tag").value(tag) // left out when null
            .endObject().text())
        .build();
  }

  /**
   * A {@link AgentConstants#CMD_SET_PARAMS} that sets the {@code pers_param} of later audio writes
   * ({@code audioparams.pers_param}).
   *
   * @throws IllegalArgumentException if {@code activation} is null or not an activation ({@link
   *     PersParam#activation()}: an upload's owner, {@code auth_id}, activates nothing)
   */
  public static AgentMessage setPersParam(PersParam activation) {
    return setParams(activationJson(activation));
  }

  /**
   * A {@link AgentConstants#CMD_SET_PARAMS} that clears the {@code pers_param} of later audio writes:
   * they carry none, not even the config's {@code audioparams.pers_param}.
   */
  public static AgentMessage clearPersParam() {
    return setParams("");
  }

  private static AgentMessage setParams(String persParam) {
    return AgentMessage.builder(AgentConstants.CMD_SET_PARAMS)
        .params(new JsonText().beginObject()
            .name("audioparams").beginObject().name("pers_param").value(persParam).endObject()
            .endObject().text())
        .build();
  }

  /**
   * A {@link AgentConstants#CMD_WRITE} of {@code text}; its results come as {@link WriteResult}s.
   *
   * @throws IllegalArgumentException if {@code text} is null or empty
   */
  public static WriteBuilder writeText(String text) {
    if (text == null || text.isEmpty()) throw new IllegalArgumentException("text must not be empty");
    return new WriteBuilder("data_type=text", text.getBytes(UTF_8));
  }

  /**
   * A {@link AgentConstants#CMD_WRITE} of {@code audio}, 16-bit PCM at {@code sampleRate} Hz (16000 in
   * most devices); the bytes are copied.
   *
   * @throws IllegalArgumentException if {@code audio} is null or empty, or {@code sampleRate} is not
   *     positive
   */
  public static WriteBuilder writeAudio(byte[] audio, int sampleRate) {
    if (audio == null || audio.length == 0) throw new IllegalArgumentException("audio must not be empty");
    if (sampleRate <= 0) {
      throw new IllegalArgumentException("sampleRate must be positive, such as 16000; was: " + sampleRate);
    }
    return new WriteBuilder("data_type=audio,sample_rate=" + sampleRate, audio.clone());
  }

  /** Builds a {@link AgentConstants#CMD_SYNC}. Not thread-safe. */
  public static final class SyncBuilder {
    private final ResourceDefinition definition;
    /** The Base64 of the resource text, in ASCII bytes: a resource of megabytes is held once. */
    private @Nullable ByteString base64;
    private String ownerId = "";
    private @Nullable String appid;
    private @Nullable String tag;

    SyncBuilder(ResourceDefinition definition) {
      this.definition = definition;
    }

    /**
     * The records, each a map of field name to value: checked against the definition (its main field
     * present and not empty, its secondary fields present) and encoded as the platform takes them.
     *
     * @throws dev.voicelink.entity.InvalidResourceException naming the record and the field at fault
     */
    public SyncBuilder records(Iterable<? extends Map<String, String>> records) {
      if (records == null) throw new IllegalArgumentException("records must not be null");
      return encoded(RecordSource.of(records));
    }

    /**
     * The records as resource text: JSON objects, one per line (a leading byte-order mark is
     * dropped); checked and encoded as {@link #records} are.
     */
    public SyncBuilder recordsText(String jsonLines) {
      if (jsonLines == null) throw new IllegalArgumentException("recordsText must not be null");
      return encoded(RecordSource.fromText(jsonLines));
    }

    /**
     * Records the app has already encoded: the Base64 (no line breaks or tabs) of the UTF-8 resource text,
     * as the platform's established SDK takes it. The agent decodes and checks it before it uploads.
     *
     * @throws IllegalArgumentException if {@code base64} is empty or not Base64
     */
    public SyncBuilder base64Data(String base64) {
      if (base64 == null || base64.isEmpty()) {
        throw new IllegalArgumentException("base64Data must not be empty");
      }
      if (ByteString.decodeBase64(base64) == null || base64.indexOf('\n') >= 0
          || base64.indexOf('\r') >= 0 || base64.indexOf('\t') >= 0) {
        // okio takes them, but the message carries the Base64 as it is, inside a JSON string
        throw new IllegalArgumentException("base64Data must be Base64 without line breaks or tabs");
      }
      this.base64 = ByteString.encodeUtf8(base64);
      return this;
    }

    private SyncBuilder encoded(RecordSource records) {
      Buffer encoded = new Buffer();
      try {
        ResourceEncoder.writeBase64(definition, records, ResourceEncoder.DEFAULT_MAX_RESOURCE_BYTES,
            encoded.outputStream());
      } catch (IOException e) {
        throw new AssertionError(e); // records in memory cannot fail to be read
      }
      this.base64 = encoded.readByteString();
      return this;
    }

    /**
     * Whose copy the records are ({@code param.id_value}): for the user level, the user's {@code
     * auth_id}; for the application level, the {@code appid}; for a custom dimension, the group's
     * value. Required for a custom dimension. For the user and application levels it may be left out:
     * the agent fills in the connected user, or the config's {@code login.appid}.
     *
     * @throws IllegalArgumentException if {@code ownerId} is empty, has blanks at either end, or is
     *     not an owner of the resource's level (a user's {@code auth_id} is 32 lowercase letters or
     *     digits)
     */
    public SyncBuilder ownerId(String ownerId) {
      String checked = checkText(ownerId, "ownerId");
      String idName = idName(definition.dimension());
      try {
        WebApiEntityBackend.persParam(idName, checked); // the agent's own check, before it is sent
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("ownerId is not a valid " + idName + ": " + e.getMessage(),
            e);
      }
      this.ownerId = checked;
      return this;
    }

    /**
     * The {@code appid} the upload is made for ({@code param.appid}); without it, the config's {@code
     * login.appid}.
     */
    public SyncBuilder appid(String appid) {
      this.appid = checkText(appid, "appid");
      return this;
    }

    /** A tag that the reply ({@link SyncReturn#tag()}) carries back, to tell replies apart. */
    public SyncBuilder tag(String tag) {
      this.tag = checkTag(tag);
      return this;
    }

    /**
     * The message.
     *
     * @throws IllegalStateException if no records were given, or a custom dimension's {@code ownerId}
     *     is missing
     */
    public AgentMessage build() {
      final ByteString data = base64;
      if (data == null) {
        throw new IllegalStateException("records are required: records(...), recordsText(...) or"
            + " base64Data(...)");
      }
      final String idName = idName(definition.dimension());
      if (ownerId.isEmpty() && !idName.equals("uid") && !idName.equals("appid")) {
        throw new IllegalStateException("ownerId is required for the custom dimension " + idName
            + ": the value of the group the records belong to");
      }
      String params = tag == null ? ""
          : new JsonText().beginObject().name("tag").value(tag).endObject().text();
      // A null appid is left out with its name.
      String body = new JsonText().beginObject()
          .name("param").beginObject()
          .name("id_name").value(idName)
          .name("id_value").value(ownerId)
          .name("res_name").value(definition.name().value())
          .name("appid").value(appid)
          .endObject()
          .name("data").value("")
          .endObject().text();
      // The Base64 goes between the empty value's quotes, straight into the message's one array.
      byte[] head = body.substring(0, body.length() - 2).getBytes(UTF_8);
      byte[] message = new byte[head.length + data.size() + 2];
      System.arraycopy(head, 0, message, 0, head.length);
      data.copyInto(0, message, head.length, data.size());
      message[message.length - 2] = '"';
      message[message.length - 1] = '}';
      return AgentMessage.builder(AgentConstants.CMD_SYNC).arg1(AgentConstants.SYNC_DATA_SCHEMA)
          .params(params).ownData(message).build();
    }
  }

  /** Builds a {@link AgentConstants#CMD_WRITE}. Not thread-safe. */
  public static final class WriteBuilder {
    private final String dataType;
    private final byte[] data;
    private @Nullable String persParam;
    private @Nullable String tag;

    WriteBuilder(String dataType, byte[] data) {
      this.dataType = dataType;
      this.data = data;
    }

    /**
     * The {@code pers_param} of this write: the dynamic entities its results may hold. It overrides
     * the one of {@link #setPersParam} for this write; a text write uses only its own.
     *
     * @throws IllegalArgumentException if {@code activation} is not an activation ({@link
     *     PersParam#activation()})
     */
    public WriteBuilder persParam(PersParam activation) {
      this.persParam = activationJson(activation);
      return this;
    }

    /** A tag that the write's result or error carries back. */
    public WriteBuilder tag(String tag) {
      String checked = checkTag(tag);
      if (checked.indexOf(',') >= 0 || checked.startsWith("{")) {
        throw new IllegalArgumentException("tag of a write must not contain a comma nor start with {;"
            + " was: " + checked);
      }
      this.tag = checked;
      return this;
    }

    public AgentMessage build() {
      StringBuilder params = new StringBuilder(dataType);
      if (persParam != null) params.append(",pers_param=").append(persParam);
      if (tag != null) params.append(",tag=").append(tag);
      return AgentMessage.builder(AgentConstants.CMD_WRITE).params(params.toString()).data(data)
          .build();
    }
  }

  /** {@code param.id_name} of a dimension (protocol 4.10): {@code uid}, {@code appid}, or its name. */
  static String idName(Dimension dimension) {
    if (dimension.equals(Dimension.USER)) return "uid";
    if (dimension.equals(Dimension.APPLICATION)) return "appid";
    return dimension.name();
  }

  private static String activationJson(PersParam activation) {
    if (activation == null) throw new IllegalArgumentException("persParam must not be null");
    if (!activation.isActivation()) {
      throw new IllegalArgumentException("persParam must be an activation, made with"
          + " PersParam.activation(); was the owner of an upload: " + activation);
    }
    return activation.toJson();
  }

  private static String checkTag(String tag) {
    return checkText(tag, "tag");
  }

  private static String checkText(String value, String name) {
    if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " must not be empty");
    if (!value.equals(value.trim())) {
      throw new IllegalArgumentException(name + " must not have blanks at either end; was: \"" + value
          + "\"");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(name + " must not contain control characters");
      }
    }
    return value;
  }
}
