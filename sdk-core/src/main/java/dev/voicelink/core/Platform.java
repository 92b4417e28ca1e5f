package dev.voicelink.core;

import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * What differs on Android: the default callback executor (Android's main thread where there is one,
 * else the thread that finished the work), and whether {@link Clock#system()} is Android's. Found by
 * reflection, so this plain-Java module needs no Android classes to build.
 */
final class Platform {
  private Platform() {
  }

  static Executor callbackExecutor() {
    Executor main = androidMainThread();
    return main != null ? main : DirectExecutor.INSTANCE;
  }

  /** Posts to the main {@code Looper}; null where there is none (a JVM, or Android code not yet set up). */
  static @Nullable Executor androidMainThread() {
    try {
      Class<?> looperClass = Class.forName("android.os.Looper");
      final Object mainLooper = looperClass.getMethod("getMainLooper").invoke(null);
      if (mainLooper == null) return null;
      Class<?> handlerClass = Class.forName("android.os.Handler");
      final Object handler = handlerClass.getConstructor(looperClass).newInstance(mainLooper);
      final Method post = handlerClass.getMethod("post", Runnable.class);
      return new Executor() {
        @Override public void execute(Runnable command) {
          if (command == null) throw new NullPointerException("command == null");
          // Always posted, even from the main thread: running inline there would let this task
          // overtake tasks posted before it from other threads.
          Object posted;
          try {
            posted = post.invoke(handler, command);
          } catch (ReflectiveOperationException e) {
            throw new RejectedExecutionException("cannot post to the main thread", e);
          }
          if (!Boolean.TRUE.equals(posted)) {
            throw new RejectedExecutionException("the main looper is exiting");
          }
        }

        @Override public String toString() {
          return "main thread";
        }
      };
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * Whether this is Android's runtime (ART, which names itself Dalvik as Dalvik did), not a JVM.
   * Robolectric runs Android's classes on a JVM, where they can be used only once a test has set
   * them up: reading one before (a test class's set-up) would break them for the whole class.
   */
  static boolean onAndroidRuntime() {
    return "Dalvik".equals(System.getProperty("java.vm.name"));
  }

  private enum DirectExecutor implements Executor {
    INSTANCE;

    @Override public void execute(Runnable command) {
      command.run();
    }

    @Override public String toString() {
      return "the finishing thread";
    }
  }
}
