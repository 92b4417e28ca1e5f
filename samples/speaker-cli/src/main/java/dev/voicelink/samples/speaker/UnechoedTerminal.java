package dev.voicelink.samples.speaker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns the echo of the terminal at standard input off, through {@code stty}, while a secret is
 * typed. It is for when {@link System#console()} cannot help: up to Java 21 there is no console when
 * stdout is redirected, yet in {@code cloud-token --client-secret-file - | jq} the secret is still
 * typed at the terminal, which would show it.
 */
final class UnechoedTerminal {
  private UnechoedTerminal() {
  }

  /** Reads what the user types while the echo is off. */
  interface Typing {
    String read() throws IOException;
  }

  /**
   * Prompts on {@code promptTo}, then runs {@code typing} with the echo off and puts the terminal's
   * settings back, also when the JVM is stopped while the user types. Returns null, having read
   * nothing, when standard input is not a terminal or there is no {@code stty}.
   */
  static @Nullable String read(String prompt, PrintStream promptTo, Typing typing) throws IOException {
    @Nullable String settings = stty("-g");
    if (settings == null) return null;
    Thread restoreOnExit = new Thread(() -> stty(settings), "voicelink-stty-restore");
    Runtime.getRuntime().addShutdownHook(restoreOnExit);
    try {
      if (stty("-echo") == null) return null;
      promptTo.print(prompt);
      promptTo.flush();
      String typed = typing.read();
      promptTo.println(); // the Enter that was not echoed
      return typed;
    } finally {
      stty(settings);
      try {
        Runtime.getRuntime().removeShutdownHook(restoreOnExit);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs anyway, and restores what is restored already
      }
    }
  }

  /**
   * Runs {@code stty} on this process's standard input; its output, or null when it failed: standard
   * input is not a terminal, or the system has no {@code stty} (Windows).
   */
  private static @Nullable String stty(String... args) {
    List<String> command = new ArrayList<>();
    command.add("stty");
    command.addAll(Arrays.asList(args));
    try {
      Process stty = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT)
          .redirectErrorStream(true).start();
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      try (InputStream out = stty.getInputStream()) {
        byte[] buffer = new byte[1024];
        for (int n; (n = out.read(buffer)) != -1; ) output.write(buffer, 0, n);
      }
      return stty.waitFor() == 0 ? new String(output.toByteArray(), StandardCharsets.UTF_8).trim() : null;
    } catch (IOException noStty) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
