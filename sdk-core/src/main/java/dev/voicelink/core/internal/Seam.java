package dev.voicelink.core.internal;

import org.jspecify.annotations.Nullable;

/**
 * Lets another package reach what a package keeps non-public (the constructors of its result types,
 * for {@code voicelink-fixtures}) without a public member on the package's own types. The owner class
 * installs the one implementation in its static initializer; {@link #get()} initializes the owner
 * first.
 */
public final class Seam<T> {
  private final String ownerClass;
  private volatile @Nullable T instance;

  public Seam(String ownerClass) {
    this.ownerClass = ownerClass;
  }

  /** Called once, by the owner class's static initializer. */
  public void install(T implementation) {
    synchronized (this) {
      if (instance != null) throw new IllegalStateException(ownerClass + " already installed");
      instance = implementation;
    }
  }

  public T get() {
    T result = instance;
    if (result != null) return result;
    try {
      Class.forName(ownerClass, true, Seam.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(ownerClass + " is missing", e);
    }
    result = instance;
    if (result == null) throw new IllegalStateException(ownerClass + " installed nothing");
    return result;
  }
}
