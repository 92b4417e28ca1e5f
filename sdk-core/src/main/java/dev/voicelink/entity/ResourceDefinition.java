package dev.voicelink.entity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A dynamic entity resource as defined in the skill-studio console: its {@linkplain ResourceName
 * name}, the field from which phrases are extracted (the main field), further extracted fields such as
 * an alias (the secondary fields), and the {@linkplain Dimension dimension} in which it takes effect.
 *
 * <p>Every record uploaded for the resource must carry the main field with a non-empty string and
 * every secondary field with a string, which may be empty. Other fields are allowed and ignored.
 *
 * <pre>{@code
 * ResourceDefinition contacts = ResourceDefinition.builder()
 *     .name("OS123.contacts")
 *     .mainField("name")
 *     .secondaryFields("alias")
 *     .dimension(Dimension.USER)
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class ResourceDefinition {
  private final ResourceName name;
  private final String mainField;
  private final List<String> secondaryFields;
  private final Dimension dimension;

  private ResourceDefinition(Builder builder) {
    this.name = builder.name;
    this.mainField = builder.mainField;
    this.secondaryFields = Collections.unmodifiableList(new ArrayList<>(builder.secondaryFields));
    this.dimension = builder.dimension;
  }

  public static Builder builder() {
    return new Builder();
  }

  public ResourceName name() {
    return name;
  }

  public String mainField() {
    return mainField;
  }

  /** The secondary fields in definition order; possibly empty. */
  public List<String> secondaryFields() {
    return secondaryFields;
  }

  public Dimension dimension() {
    return dimension;
  }

  /** The main field followed by the secondary fields. */
  public List<String> fields() {
    List<String> all = new ArrayList<>(secondaryFields.size() + 1);
    all.add(mainField);
    all.addAll(secondaryFields);
    return Collections.unmodifiableList(all);
  }

  /** Definitions are equal when name, fields (in order) and dimension are. */
  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof ResourceDefinition)) return false;
    ResourceDefinition that = (ResourceDefinition) other;
    return name.equals(that.name) && mainField.equals(that.mainField)
        && secondaryFields.equals(that.secondaryFields) && dimension.equals(that.dimension);
  }

  @Override public int hashCode() {
    return ((name.hashCode() * 31 + mainField.hashCode()) * 31 + secondaryFields.hashCode()) * 31
        + dimension.hashCode();
  }

  @Override public String toString() {
    return "ResourceDefinition{" + name + ", fields=" + fields() + ", dimension=" + dimension + "}";
  }

  /** Builds a {@link ResourceDefinition}; every setter checks its argument at once. Not thread-safe. */
  public static final class Builder {
    private @Nullable ResourceName name;
    private @Nullable String mainField;
    private final List<String> secondaryFields = new ArrayList<>();
    private @Nullable Dimension dimension;

    Builder() {
    }

    /** The resource name, {@code <namespace>.<name>}; see {@link ResourceName#parse}. */
    public Builder name(String name) {
      this.name = ResourceName.parse(name);
      return this;
    }

    public Builder name(ResourceName name) {
      if (name == null) throw new IllegalArgumentException("name must not be null");
      this.name = name;
      return this;
    }

    /** The field whose value is the phrase; every record must carry it non-empty. */
    public Builder mainField(String field) {
      this.mainField = checkField(field, "mainField");
      return this;
    }

    /** Fields every record must carry, possibly empty (an alias, for example). Replaces earlier ones. */
    public Builder secondaryFields(String... fields) {
      if (fields == null) throw new IllegalArgumentException("secondaryFields must not be null");
      secondaryFields.clear();
      for (String field : fields) {
        String checked = checkField(field, "secondaryFields");
        if (secondaryFields.contains(checked)) {
          throw new IllegalArgumentException("secondaryFields names " + checked + " twice");
        }
        secondaryFields.add(checked);
      }
      return this;
    }

    public Builder dimension(Dimension dimension) {
      if (dimension == null) throw new IllegalArgumentException("dimension must not be null");
      this.dimension = dimension;
      return this;
    }

    public ResourceDefinition build() {
      if (name == null) throw new IllegalStateException("name is required, e.g. OS123.contacts");
      if (mainField == null) throw new IllegalStateException("mainField is required, e.g. name");
      if (dimension == null) {
        throw new IllegalStateException("dimension is required: Dimension.APPLICATION, USER, DEVICE"
            + " or Dimension.custom(name), as set on the entity definition");
      }
      if (secondaryFields.contains(mainField)) {
        throw new IllegalStateException("field " + mainField + " is both main and secondary");
      }
      return new ResourceDefinition(this);
    }

    private static String checkField(@Nullable String field, String setting) {
      if (field == null || field.trim().isEmpty()) {
        throw new IllegalArgumentException(setting + " must be a non-empty field name");
      }
      return field;
    }
  }
}
