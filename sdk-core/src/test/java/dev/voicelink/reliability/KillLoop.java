package dev.voicelink.reliability;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Kills a child JVM that rewrites a token store in a loop, again and again, each time at a random
 * moment, and after each kill asks the store what it holds.
 *
 * <p>The child's main takes {@code <store file> <first record number>}, saves record numbers
 * {@code first, first + 1, ...} for ever, and prints {@code saved <n>} once its first save returned.
 * The kill comes a random time after that line (0 to {@link #MAX_DELAY_NANOS}), while the child is
 * somewhere inside its save loop: encoding, writing the temporary file, forcing it to the device or
 * renaming it. The kill is SIGKILL ({@link Process#destroyForcibly()}): no shutdown hook, no finally.
 *
 * <p>Count: {@code -Dcrash.kills=N} per store (default {@link #DEFAULT_KILLS}).
 */
public final class KillLoop {
  public static final int DEFAULT_KILLS = 100;
  static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

  /** Reads the store after a kill. */
  public interface Probe {
    /**
     * The number of the record the store holds now; throws (or returns -1 for none) when the store is
     * unreadable, empty or holds something that is not exactly a record the child saved.
     */
    long recordNumber() throws Exception;
  }

  /** What a run found. */
  public static final class Result {
    public final int kills;
    public final int losses;
    /** Kills after which the store's temporary file was left: they hit a save in progress. */
    public final int midWrite;
    public final List<String> lossDetails;
    public final long wallMillis;

    Result(int kills, int losses, int midWrite, List<String> lossDetails, long wallMillis) {
      this.kills = kills;
      this.losses = losses;
      this.midWrite = midWrite;
      this.lossDetails = lossDetails;
      this.wallMillis = wallMillis;
    }
  }

  private KillLoop() {
  }

  /** Kills wanted for this run: {@code crash.kills}, or the default. */
  public static int kills() {
    return Integer.getInteger("crash.kills", DEFAULT_KILLS);
  }

  /** Whether this is the bounded CI run, whose figures the docs show. */
  public static boolean isDefaultRun() {
    return kills() == DEFAULT_KILLS;
  }

  /**
   * A class path of just the jars and folders that hold {@code anchors}: a child JVM with it starts
   * faster than with the whole test class path.
   */
  public static String classPathOf(Class<?>... anchors) throws Exception {
    java.util.LinkedHashSet<String> entries = new java.util.LinkedHashSet<>();
    for (Class<?> anchor : anchors) {
      entries.add(new File(anchor.getProtectionDomain().getCodeSource().getLocation().toURI())
          .getPath());
    }
    return String.join(File.pathSeparator, entries);
  }

  public static Result run(Class<?> childMain, String classPath, File store, File temp, int kills,
      long seed, Probe probe) throws Exception {
    Random random = new Random(seed);
    String java = new File(System.getProperty("java.home"), "bin/java").getPath();
    long started = System.nanoTime();
    long lastSeen = -1;
    int losses = 0;
    int midWrite = 0;
    List<String> details = new ArrayList<>();
    for (int i = 0; i < kills; i++) {
      long first = lastSeen + 1;
      // A small, quick child: what is measured is the store, not the JIT.
      List<String> command = new ArrayList<>(Arrays.asList(java, "-Xshare:auto",
          "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m",
          "-cp", classPath, childMain.getName(), store.getPath(),
          String.valueOf(first)));
      Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      try {
        String line = firstLine(child);
        if (!("saved " + first).equals(line)) {
          throw new IllegalStateException("child " + (i + 1) + " did not start saving; it said: "
              + line);
        }
        LockSupport.parkNanos((long) (random.nextDouble() * MAX_DELAY_NANOS));
      } finally {
        child.destroyForcibly();
        if (!child.waitFor(20, TimeUnit.SECONDS)) {
          throw new IllegalStateException("child " + (i + 1) + " outlived SIGKILL for 20 s");
        }
      }
      if (temp.exists()) midWrite++;
      long n;
      try {
        n = probe.recordNumber();
      } catch (Exception | AssertionError e) {
        losses++;
        details.add("kill " + (i + 1) + ": " + e);
        continue;
      }
      if (n < first) {
        losses++;
        details.add("kill " + (i + 1) + ": found record " + n + " after record " + first
            + " was saved");
        continue;
      }
      lastSeen = n;
    }
    return new Result(kills, losses, midWrite, details,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  private static String firstLine(Process child) throws IOException {
    BufferedReader reader = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    return reader.readLine();
  }

  /** One row of the crash-safety table; the measured cells in italics. */
  public static String row(String store, KillLoop.Result result) {
    return "| " + store + " | " + result.kills + " | "
        + DocSection.measured(String.valueOf(result.midWrite)) + " | " + result.losses + " | "
        + DocSection.measured(String.format(java.util.Locale.ROOT, "%.1f s",
            result.wallMillis / 1000.0)) + " |\n";
  }
}
