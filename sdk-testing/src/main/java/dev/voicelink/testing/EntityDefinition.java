package dev.voicelink.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A dynamic entity resource definition of the skill-studio console: resource name, fields and
 * dimension. Immutable. Added with {@link Console.Builder#entity} or {@link Console#putEntity}.
 */
public final class EntityDefinition {
  /** Dimension name of application-level resources. */
  public static final String APPLICATION = "os_client_id";
  /** Dimension name of user-level resources. */
  public static final String USER = "os_user_id";
  /** Dimension name of device-level resources. */
  public static final String DEVICE = "os_device_id";

  private static final Pattern RES_NAME = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
  private static final Pattern FIELD = Pattern.compile("[A-Za-z0-9_]+");

  private final String resName;
  private final String mainField;
  private final List<String> secondaryFields;
  private final String dimension;

  private EntityDefinition(String resName, String mainField, List<String> secondaryFields, String dimension) {
    if (resName == null || !RES_NAME.matcher(resName).matches()) {
      throw new IllegalArgumentException("resName must be <namespace>.<name>, e.g. OS123.contacts; was: " + resName);
    }
    if (mainField == null || !FIELD.matcher(mainField).matches()) {
      throw new IllegalArgumentException("mainField must be a field name; was: " + mainField);
    }
    if (secondaryFields == null) {
      throw new IllegalArgumentException("secondaryFields must be a list of field names, empty for none; was: null");
    }
    for (String f : secondaryFields) {
      if (f == null || !FIELD.matcher(f).matches() || f.equals(mainField)) {
        throw new IllegalArgumentException("secondaryFields must be field names other than the main field; was: " + secondaryFields);
      }
    }
    if (dimension == null || !FIELD.matcher(dimension).matches()) {
      throw new IllegalArgumentException("dimension must be os_client_id, os_user_id, os_device_id or a custom name; was: " + dimension);
    }
    this.resName = resName;
    this.mainField = mainField;
    this.secondaryFields = Collections.unmodifiableList(new ArrayList<>(secondaryFields));
    this.dimension = dimension;
  }

  public static EntityDefinition create(String resName, String mainField, List<String> secondaryFields,
      String dimension) {
    return new EntityDefinition(resName, mainField, secondaryFields, dimension);
  }

  public String resName() {
    return resName;
  }

  public String namespace() {
    return resName.substring(0, resName.indexOf('.'));
  }

  public String mainField() {
    return mainField;
  }

  public List<String> secondaryFields() {
    return secondaryFields;
  }

  /** All fields every record must contain: the main field first. */
  public List<String> fields() {
    List<String> all = new ArrayList<>();
    all.add(mainField);
    all.addAll(secondaryFields);
    return all;
  }

  public String dimension() {
    return dimension;
  }

  boolean isCustom() {
    return !APPLICATION.equals(dimension) && !USER.equals(dimension) && !DEVICE.equals(dimension);
  }

  @Override public String toString() {
    return "EntityDefinition{" + resName + ", fields=" + fields() + ", dimension=" + dimension + "}";
  }
}
