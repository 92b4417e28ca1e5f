package dev.voicelink.interact;

import org.jspecify.annotations.Nullable;

/**
 * A dynamic-entity phrase that the platform found in a write: which resource it came from, the
 * record's main value, and the phrase (main value or alias) that matched. Immutable and thread-safe;
 * apps' tests make them with {@code voicelink-fixtures}.
 */
public final class RecognizedEntity {
  private final String resourceName;
  private final String value;
  private final String matched;

  RecognizedEntity(String resourceName, String value, String matched) {
    this.resourceName = resourceName;
    this.value = value;
    this.matched = matched;
  }

  /** The resource, {@code <namespace>.<name>}. */
  public String resourceName() {
    return resourceName;
  }

  /** The main field of the matching record. */
  public String value() {
    return value;
  }

  /** The phrase found in the text: the main value or one of its aliases. */
  public String matched() {
    return matched;
  }

  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof RecognizedEntity)) return false;
    RecognizedEntity that = (RecognizedEntity) other;
    return resourceName.equals(that.resourceName) && value.equals(that.value)
        && matched.equals(that.matched);
  }

  @Override public int hashCode() {
    return (resourceName.hashCode() * 31 + value.hashCode()) * 31 + matched.hashCode();
  }

  @Override public String toString() {
    return resourceName + ":" + value + (matched.equals(value) ? "" : " (\"" + matched + "\")");
  }
}
