package dev.voicelink.benchmarks.harness;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts a child JVM on this jar's class path and collects its output, within a time limit. */
final class Children {
  private Children() {
  }

  static final class Result {
    final int exitCode;
    final List<String> lines;
    final long wallMillis;

    Result(int exitCode, List<String> lines, long wallMillis) {
      this.exitCode = exitCode;
      this.lines = lines;
      this.wallMillis = wallMillis;
    }

    String last(String prefix) {
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (lines.get(i).startsWith(prefix)) return lines.get(i).substring(prefix.length()).trim();
      }
      return null;
    }
  }

  static Process start(List<String> jvmArgs, Class<?> main, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(Arrays.asList(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  static Result run(List<String> jvmArgs, long timeoutSeconds, Class<?> main, String... args)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    Process process = start(jvmArgs, main, args);
    List<String> lines = new ArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          synchronized (lines) {
            if (lines.size() < 1000) lines.add(line);
          }
        }
      } catch (IOException ignored) {
        // the process ended
      }
    });
    reader.start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    reader.join(5000);
    long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    synchronized (lines) {
      return new Result(process.isAlive() ? -1 : process.exitValue(), new ArrayList<>(lines), wall);
    }
  }
}
