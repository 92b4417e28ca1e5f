package dev.voicelink.core;

/** For tests of app code written in Kotlin, which may throw a checked exception from any lambda. */
public final class KotlinThrows {
  private KotlinThrows() {
  }

  /**
   * Throws {@code e}, checked or not, where Java would refuse a checked one: {@code throw
   * KotlinThrows.checked(new IOException(...))}. It never returns.
   */
  public static RuntimeException checked(Exception e) {
    KotlinThrows.<RuntimeException>rethrow(e);
    return new IllegalStateException("unreachable");
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void rethrow(Throwable e) throws E {
    throw (E) e;
  }
}
