package dev.voicelink.core.internal;

import org.jspecify.annotations.Nullable;

/**
 * Lets another package reach what a package keeps non-public (a client's core for the services, the
 * constructors of result types for {@code voicelink-fixtures}) without a public member on the
 * package's own types. The owner class installs the one implementation in its static initializer;
 * {@link #get()} initializes the owner first, so the seam works before any of the owner's instances
 * exists.
 *
 * <p>The owner is named by its class literal: a renamed or moved owner fails to compile, and R8, which
 * renames the literal along with the class, needs no rule to keep its name.
 */
public final class Seam<T> {
  private final Class<?> owner;
  private volatile @Nullable T instance;

  public Seam(Class<?> owner) {
    this.owner = owner;
  }

  /** Called once, by the owner class's static initializer. */
  public void install(T implementation) {
    synchronized (this) {
      if (instance != null) throw new IllegalStateException(owner.getName() + " already installed");
      instance = implementation;
    }
  }

  public T get() {
    T result = instance;
    if (result != null) return result;
    initialize(owner);
    result = instance;
    if (result == null) throw new IllegalStateException(owner.getName() + " installed nothing");
    return result;
  }

  /**
   * Runs {@code type}'s static initializer unless it has run. A class literal alone does not (JLS
   * 12.4.1), and the one call that does it for a {@link Class} on Java 8 and Android 21 is {@code
   * Class.forName} with {@code initialize} true ({@code Lookup.ensureInitialized} is Java 15). The
   * name comes from the class itself, so it is right whatever the class is called, in the sources or
   * after R8.
   */
  private static void initialize(Class<?> type) {
    try {
      Class.forName(type.getName(), true, type.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError(type + " is loaded, so its loader finds it", e);
    }
  }
}
