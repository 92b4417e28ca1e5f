package dev.voicelink.entity;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Answers "my dynamic entity does not take effect" (or "my upload fails"): given what was uploaded and
 * how it is activated, lists which of the platform's known causes apply, each with its remedy.
 *
 * <pre>{@code
 * List<EntityDiagnostics.Cause> causes = EntityDiagnostics.builder()
 *     .resName("contacts")                       // as the app wrote it
 *     .definition(contacts)
 *     .records(RecordSource.fromFile(file))
 *     .uploadedWith(PersParam.user(authId))
 *     .activation(null)                          // nothing passed in the interaction
 *     .clientAppid(config.appid())
 *     .build()
 *     .causes();
 * }</pre>
 *
 * <p>Reads the record source once. Not thread-safe; use one per diagnosis.
 */
public final class EntityDiagnostics {
  /** A known cause (protocol 7.3) and what to do about it. */
  public enum Cause {
    MISSING_NAMESPACE_PREFIX("res_name lacks the namespace prefix",
        "write it as <namespace>.<name>, e.g. OS123.contacts; the namespace is on the console's entity"
            + " keys page"),
    FIELDS_MISMATCH("uploaded records do not carry the fields defined for the resource",
        "give every record the main field (non-empty) and every secondary field (may be empty)"),
    BYTE_ORDER_MARK("the resource text read from a file starts with a byte-order mark",
        "save the file as UTF-8 without BOM, or upload it through this SDK, which strips it"),
    PERS_PARAM_NOT_SET("no pers_param is passed in the interaction, so dynamic entities are not used",
        "pass PersParam.activation()...toJson() with every write: in CMD_WRITE's pers_param (a text"
            + " write takes it from there alone), or with CMD_SET_PARAMS for the audio writes after it"),
    APPID_MISSING("the application identifier is not set in the client configuration",
        "set login.appid in the configuration"),
    DIMENSION_MISMATCH("the activation pers_param does not name the owner the data was uploaded for",
        "activate with the key of the resource's dimension: appid for application, uid for user, the"
            + " custom name with the uploaded value for a custom dimension");

    private final String description;
    private final String remedy;

    Cause(String description, String remedy) {
      this.description = description;
      this.remedy = remedy;
    }

    public String description() {
      return description;
    }

    public String remedy() {
      return remedy;
    }
  }

  private final @Nullable String resName;
  private final @Nullable ResourceDefinition definition;
  private final @Nullable RecordSource records;
  private final @Nullable PersParam uploadedWith;
  private final @Nullable PersParam activation;
  private final @Nullable String clientAppid;

  private EntityDiagnostics(Builder builder) {
    this.resName = builder.resName;
    this.definition = builder.definition;
    this.records = builder.records;
    this.uploadedWith = builder.uploadedWith;
    this.activation = builder.activation;
    this.clientAppid = builder.clientAppid;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The known causes that apply, in the order of the platform's table; empty if none does.
   *
   * @throws IOException if the record source cannot be read
   */
  public List<Cause> causes() throws IOException {
    List<Cause> causes = new ArrayList<>();
    if (resName != null) {
      try {
        ResourceName.parse(resName);
      } catch (IllegalArgumentException e) {
        causes.add(Cause.MISSING_NAMESPACE_PREFIX);
      }
    }
    if (definition != null && records != null) {
      try {
        ResourceEncoder.check(definition, records, Long.MAX_VALUE);
      } catch (InvalidResourceException e) {
        if (e.field() != null) causes.add(Cause.FIELDS_MISMATCH);
      }
    }
    if (records != null && records.startsWithByteOrderMark()) causes.add(Cause.BYTE_ORDER_MARK);
    if (activation == null) causes.add(Cause.PERS_PARAM_NOT_SET);
    if (clientAppid == null || clientAppid.trim().isEmpty()) causes.add(Cause.APPID_MISSING);
    if (dimensionMismatch()) causes.add(Cause.DIMENSION_MISMATCH);
    return Collections.unmodifiableList(causes);
  }

  private boolean dimensionMismatch() {
    if (definition == null) return false;
    Dimension dimension = definition.dimension();
    if (uploadedWith != null && !dimension.equals(uploadedWith.dimension())) return true;
    if (activation == null) return false;
    if (dimension.equals(Dimension.APPLICATION)) return !activation.entries().containsKey("appid");
    if (dimension.equals(Dimension.USER)) return !activation.entries().containsKey("uid");
    if (dimension.isCustom()) {
      String value = activation.entries().get(dimension.name());
      if (value == null) return true;
      return uploadedWith != null && !value.equals(uploadedWith.entries().get(dimension.name()));
    }
    return false;
  }

  /**
   * Describes the upload and activation to diagnose; give what you know, leave out the rest (a null
   * is the same as leaving a value out). Not thread-safe.
   */
  public static final class Builder {
    private @Nullable String resName;
    private @Nullable ResourceDefinition definition;
    private @Nullable RecordSource records;
    private @Nullable PersParam uploadedWith;
    private @Nullable PersParam activation;
    private @Nullable String clientAppid;

    Builder() {
    }

    /** The resource name exactly as the app wrote it. */
    public Builder resName(@Nullable String resName) {
      this.resName = resName;
      return this;
    }

    /** The resource's definition, as registered on the platform. */
    public Builder definition(@Nullable ResourceDefinition definition) {
      this.definition = definition;
      return this;
    }

    /** The records as they were uploaded (the raw file, to see a byte-order mark). */
    public Builder records(@Nullable RecordSource records) {
      this.records = records;
      return this;
    }

    /** The upload's pers_param (as given to the upload; not an activation one). */
    public Builder uploadedWith(@Nullable PersParam uploadedWith) {
      if (uploadedWith != null && uploadedWith.isActivation()) {
        throw new IllegalArgumentException("uploadedWith is the upload's pers_param, such as"
            + " PersParam.user(authId); was " + uploadedWith);
      }
      this.uploadedWith = uploadedWith;
      return this;
    }

    /** The activation pers_param passed in the interaction, or null if none is passed. */
    public Builder activation(@Nullable PersParam activation) {
      if (activation != null && !activation.isActivation()) {
        throw new IllegalArgumentException("activation must be built with PersParam.activation();"
            + " was " + activation);
      }
      this.activation = activation;
      return this;
    }

    /** The appid of the client configuration, or null if it has none. */
    public Builder clientAppid(@Nullable String clientAppid) {
      this.clientAppid = clientAppid;
      return this;
    }

    public EntityDiagnostics build() {
      return new EntityDiagnostics(this);
    }
  }
}
