package dev.voicelink.core;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.voicelink.reliability.DocSection;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What a process holds that a leak would grow: live threads (all, and the SDK's own), open file
 * descriptors (sockets among them) and the heap that survives a full collection. Leak cycles take one
 * census before and one after, and compare.
 *
 * <p>Shared with the Android module's tests through the test-jar.
 */
public final class ResourceCensus {
  /**
   * Threads the SDK starts: the client's, the Agent's, and OkHttp's dispatcher and socket threads
   * (a task runner's thread running a WebSocket task bears such a name too, and is not counted).
   */
  private static final String[] SDK_THREADS = {"voicelink-", "OkHttp Dispatcher", "OkHttp http",
      "OkHttp WebSocket", "OkHttp ws"};

  /**
   * Live threads, less OkHttp's and MockWebServer's task runners: one pool per library for the whole
   * process, shared by every client, whose idle threads end after 60 s (told by their stacks).
   */
  public final int threads;
  public final List<String> threadNames;
  public final int sdkThreads;
  private final Set<Thread> sdkThreadSet;
  public final long fileDescriptors;
  public final long heapBytes;

  private ResourceCensus(int threads, List<String> threadNames, Set<Thread> sdkThreads,
      long fileDescriptors, long heapBytes) {
    this.threads = threads;
    this.threadNames = threadNames;
    this.sdkThreads = sdkThreads.size();
    this.sdkThreadSet = sdkThreads;
    this.fileDescriptors = fileDescriptors;
    this.heapBytes = heapBytes;
  }

  /** A census of the process as it is: the baseline of a later {@link #take(ResourceCensus)}. */
  public static ResourceCensus take() throws InterruptedException {
    return take(null);
  }

  /**
   * A census once the SDK threads started since {@code baseline} have ended (each joined, at most
   * 10 s in all: whatever started them was closed, so they are on their way out, or leaked) and file
   * descriptors stopped falling (sockets the far side closes a moment after us). Threads alive at the
   * baseline (other tests' idle pools, in a shared test JVM) are counted, not waited for.
   */
  public static ResourceCensus take(@Nullable ResourceCensus baseline) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (Thread thread : sdkThreads()) {
      if (baseline == null || baseline.sdkThreadSet.contains(thread)) continue;
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) break;
      thread.join(left);
    }
    long fds = openFileDescriptors();
    while (System.nanoTime() - deadline < 0) {
      // Real time on purpose: the cycle soak counts the OS's real descriptors, and no event says when
      // the far side has closed its end of a socket; bounded by the deadline above.
      Thread.sleep(20);
      long now = openFileDescriptors();
      if (now >= fds) break;
      fds = now;
    }
    List<String> names = new ArrayList<>();
    int threads = 0;
    Map<Thread, StackTraceElement[]> live = Thread.getAllStackTraces();
    for (Map.Entry<Thread, StackTraceElement[]> thread : live.entrySet()) {
      names.add(thread.getKey().getName());
      if (!isTaskRunner(thread.getKey(), thread.getValue())) threads++;
    }
    java.util.Collections.sort(names);
    return new ResourceCensus(threads, names, new HashSet<>(sdkThreads(live)), fds, retainedHeap());
  }

  /**
   * Whether a thread belongs to OkHttp's task runner (MockWebServer's is one too): one pool for the
   * whole process, not the SDK's. Idle, it is named for the pool; while it runs a task it bears the
   * task's name ("OkHttp ConnectionPool connection closer", "OkHttp WebSocket … writer"), and its
   * stack says whose it is.
   */
  private static boolean isTaskRunner(Thread thread, StackTraceElement[] stack) {
    if (thread.getName().endsWith("TaskRunner")) return true;
    for (StackTraceElement frame : stack) {
      if (frame.getClassName().startsWith("okhttp3.internal.concurrent.TaskRunner")) return true;
    }
    return false;
  }

  /** The SDK threads alive now that were not at {@code baseline}. */
  public List<Thread> newSdkThreads(ResourceCensus baseline) {
    List<Thread> found = new ArrayList<>();
    for (Thread thread : sdkThreadSet) {
      if (thread.isAlive() && !baseline.sdkThreadSet.contains(thread)) found.add(thread);
    }
    return found;
  }

  public static List<Thread> sdkThreads() {
    return sdkThreads(Thread.getAllStackTraces());
  }

  private static List<Thread> sdkThreads(Map<Thread, StackTraceElement[]> live) {
    List<Thread> found = new ArrayList<>();
    for (Map.Entry<Thread, StackTraceElement[]> entry : live.entrySet()) {
      Thread thread = entry.getKey();
      if (isTaskRunner(thread, entry.getValue())) continue;
      for (String prefix : SDK_THREADS) {
        if (thread.getName().startsWith(prefix) && thread.isAlive()) {
          found.add(thread);
          break;
        }
      }
    }
    return found;
  }

  /** Open file descriptors of this process (sockets included), or -1 where the JVM cannot say. */
  public static long openFileDescriptors() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof UnixOperatingSystemMXBean
        ? ((UnixOperatingSystemMXBean) os).getOpenFileDescriptorCount() : -1;
  }

  /** Used heap after full collections, in bytes. */
  public static long retainedHeap() {
    Runtime runtime = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      System.runFinalization();
      used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
    }
    return used;
  }

  public static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }

  /**
   * A row of the lifecycle tables in docs/reliability.md: threads (the SDK's), file descriptors and
   * retained heap, before → after, each a measured figure.
   */
  public static String row(ResourceCensus before, ResourceCensus after) {
    return measured(before.threads) + " (" + measured(before.sdkThreads) + ") → "
        + measured(after.threads) + " (" + measured(after.sdkThreads) + ") | "
        + measured(before.fileDescriptors) + " → " + measured(after.fileDescriptors) + " | "
        + DocSection.measured(mib(before.heapBytes)) + " → "
        + DocSection.measured(mib(after.heapBytes));
  }

  private static String measured(long figure) {
    return DocSection.measured(String.valueOf(figure));
  }

  @Override public String toString() {
    return "threads=" + threads + " " + threadNames + " (SDK " + sdkThreads + "), fds=" + fileDescriptors + ", heap="
        + mib(heapBytes);
  }
}
