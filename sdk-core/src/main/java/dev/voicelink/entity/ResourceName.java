package dev.voicelink.entity;

import org.jspecify.annotations.Nullable;

/**
 * The name of a dynamic entity resource: {@code <namespace>.<name>}, for example {@code
 * OS123.contacts}. The namespace is shown in the skill-studio console; a name without it is the most
 * common reason an upload fails, so {@link #parse} refuses one with a message that says so.
 *
 * <p>Immutable and thread-safe.
 */
public final class ResourceName {
  private final String namespace;
  private final String name;

  private ResourceName(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
  }

  /**
   * Parses {@code value} as {@code <namespace>.<name>}.
   *
   * @throws IllegalArgumentException if the namespace prefix or the name is missing, or either holds
   *     characters other than letters, digits, {@code _} and {@code -}
   */
  public static ResourceName parse(String value) {
    String expected = "res_name must be <namespace>.<name>, e.g. OS123.contacts; was: ";
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(expected + "empty");
    }
    int dot = value.indexOf('.');
    if (dot < 0) {
      throw new IllegalArgumentException(expected + value
          + " (the namespace prefix is missing; the console shows it on the entity keys page)");
    }
    String namespace = value.substring(0, dot);
    String name = value.substring(dot + 1);
    if (!isToken(namespace) || !isToken(name)) {
      throw new IllegalArgumentException(expected + value);
    }
    return new ResourceName(namespace, name);
  }

  static boolean isToken(String part) {
    if (part.isEmpty()) return false;
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '_' || c == '-';
      if (!ok) return false;
    }
    return true;
  }

  /** The namespace, for example {@code OS123}. */
  public String namespace() {
    return namespace;
  }

  /** The name within the namespace, for example {@code contacts}. */
  public String name() {
    return name;
  }

  /** The full name as sent: {@code OS123.contacts}. */
  public String value() {
    return namespace + "." + name;
  }

  @Override public boolean equals(@Nullable Object other) {
    return other instanceof ResourceName
        && ((ResourceName) other).namespace.equals(namespace)
        && ((ResourceName) other).name.equals(name);
  }

  @Override public int hashCode() {
    return namespace.hashCode() * 31 + name.hashCode();
  }

  @Override public String toString() {
    return value();
  }
}
