package dev.voicelink.core;

import dev.voicelink.testing.LeakScan;
import java.io.File;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Finds every public class of the public API (not {@code internal}) that overrides {@code toString()},
 * and scans the {@code toString()} of the run's objects of those classes: each such class must be
 * represented by an object from the run, or be named with the reason why it cannot hold a secret.
 */
public final class ToStringSweep {
  private ToStringSweep() {
  }

  /** Public, non-internal classes under {@code classesDir} that declare {@code toString()}. */
  public static List<Class<?>> classesOverridingToString(File classesDir) throws Exception {
    List<Class<?>> out = new ArrayList<>();
    collect(classesDir, classesDir, out);
    if (out.isEmpty()) {
      // Run from another directory, or before compiling: a sweep of nothing would pass unseen.
      throw new AssertionError("no public class overrides toString() under " + classesDir.getAbsolutePath());
    }
    return out;
  }

  private static void collect(File root, File dir, List<Class<?>> out) throws Exception {
    File[] files = dir.listFiles();
    if (files == null) return;
    for (File file : files) {
      if (file.isDirectory()) {
        collect(root, file, out);
        continue;
      }
      String path = root.toURI().relativize(file.toURI()).getPath();
      if (!path.endsWith(".class") || path.contains("/internal/") || path.endsWith("package-info.class")) {
        continue;
      }
      Class<?> type = Class.forName(path.substring(0, path.length() - 6).replace('/', '.'), false,
          ToStringSweep.class.getClassLoader());
      if (!isPublic(type)) continue;
      try {
        type.getDeclaredMethod("toString");
        out.add(type);
      } catch (NoSuchMethodException notOverridden) {
        // inherits Object's or Enum's toString: nothing of its own to print
      }
    }
  }

  private static boolean isPublic(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass()) return false;
    }
    return true;
  }

  /**
   * Scans {@code toString()} of each object whose class (or a superclass) is one of {@code classes},
   * and returns the classes left without an object that are not in {@code noInstance}.
   */
  public static TreeSet<String> scan(LeakScan scan, List<Class<?>> classes, Collection<?> objects,
      Map<String, String> noInstance) {
    TreeSet<String> missing = new TreeSet<>();
    for (Class<?> type : classes) {
      boolean seen = false;
      for (Object object : objects) {
        if (object != null && type.isInstance(object)) {
          scan.scan(type.getSimpleName() + ".toString()", object.toString());
          seen = true;
        }
      }
      if (!seen && !noInstance.containsKey(type.getName())) missing.add(type.getName());
    }
    return missing;
  }

  /** Scans the message of {@code error} and of each of its causes and suppressed exceptions. */
  public static void scanThrowable(LeakScan scan, String where, Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      scan.scan(where + " " + t.getClass().getSimpleName() + " message", t.getMessage());
      scan.scan(where + " " + t.getClass().getSimpleName() + ".toString()", t.toString());
      for (Throwable s : t.getSuppressed()) scanThrowable(scan, where + " suppressed", s);
      if (t.getCause() == t) break;
    }
  }
}
