package dev.voicelink.entity;

import org.jspecify.annotations.Nullable;

/**
 * Where a dynamic entity resource takes effect: for one application, one user, one device, or one
 * group of a custom dimension that the developer named on the entity definition.
 *
 * <p>The dimension decides the shape of the {@link PersParam} of a web API upload, the {@code type} and
 * the token of a platform upload, and the key that activates the resource. Immutable and thread-safe.
 */
public final class Dimension {
  /** Application (product) level: definition name {@code os_client_id}, platform type {@code client}. */
  public static final Dimension APPLICATION = new Dimension("os_client_id", "client", "application");
  /** User level: definition name {@code os_user_id}, platform type {@code user}. */
  public static final Dimension USER = new Dimension("os_user_id", "user", "user");
  /** Device level: definition name {@code os_device_id}, platform type {@code device}. */
  public static final Dimension DEVICE = new Dimension("os_device_id", "device", "device");

  private final String name;
  private final @Nullable String platformType;
  private final String level;

  private Dimension(String name, @Nullable String platformType, String level) {
    this.name = name;
    this.platformType = platformType;
    this.level = level;
  }

  /**
   * A custom dimension, named as on the entity definition (for example {@code family}).
   *
   * @throws IllegalArgumentException if the name is empty, holds characters other than letters,
   *     digits, {@code _} and {@code -}, or is one of the names the platform reserves
   */
  public static Dimension custom(String name) {
    if (name == null || !ResourceName.isToken(name)) {
      throw new IllegalArgumentException("custom dimension name must be letters, digits, _ or -; was: "
          + (name == null || name.isEmpty() ? "empty" : name));
    }
    if (name.equals(APPLICATION.name) || name.equals(USER.name) || name.equals(DEVICE.name)) {
      throw new IllegalArgumentException("custom dimension name " + name
          + " is a built-in dimension; use Dimension." + forName(name).level.toUpperCase(
              java.util.Locale.ROOT));
    }
    if (name.equals("appid") || name.equals("uid") || name.equals("auth_id")) {
      throw new IllegalArgumentException("custom dimension name must not be " + name
          + ": the platform reserves it for the application and user levels");
    }
    return new Dimension(name, null, "custom");
  }

  /** The dimension whose definition name is {@code name}: a built-in one or a custom one. */
  public static Dimension forName(String name) {
    if (APPLICATION.name.equals(name)) return APPLICATION;
    if (USER.name.equals(name)) return USER;
    if (DEVICE.name.equals(name)) return DEVICE;
    return custom(name);
  }

  /**
   * The name set on the entity definition: {@code os_client_id}, {@code os_user_id}, {@code
   * os_device_id}, or the custom name.
   */
  public String name() {
    return name;
  }

  /** True for a developer-named dimension. */
  public boolean isCustom() {
    return platformType == null;
  }

  /**
   * The {@code type} of a platform tools upload: {@code client}, {@code user} or {@code device}.
   *
   * @throws IllegalStateException for a custom dimension, which the platform upload does not take
   */
  public String platformType() {
    if (platformType == null) {
      throw new IllegalStateException("custom dimension " + name
          + " has no platform upload type (only user, client, device); upload it with EntityWebApi");
    }
    return platformType;
  }

  /** {@code application}, {@code user}, {@code device} or {@code custom}. */
  String level() {
    return level;
  }

  @Override public boolean equals(@Nullable Object other) {
    return other instanceof Dimension && ((Dimension) other).name.equals(name);
  }

  @Override public int hashCode() {
    return name.hashCode();
  }

  @Override public String toString() {
    return isCustom() ? "custom(" + name + ")" : level;
  }
}
