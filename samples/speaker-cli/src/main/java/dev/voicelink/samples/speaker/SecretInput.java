package dev.voicelink.samples.speaker;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;

/**
 * Reads a secret (client secret, account key) from a file or an environment variable, never from a
 * command-line argument: arguments are visible to every user of the machine in the process list.
 */
final class SecretInput {
  private SecretInput() {
  }

  /**
   * The secret from {@code file} if given, else from the environment variable {@code envVar}. Trailing
   * line breaks and spaces are removed. Throws {@link IllegalArgumentException} naming both sources
   * when neither yields a non-empty value.
   */
  static String read(File file, String fileOption, String envVar, Map<String, String> env)
      throws IOException {
    String value;
    if (file != null) {
      value = new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8);
      if (!value.isEmpty() && value.charAt(0) == '\uFEFF') value = value.substring(1);
      value = value.trim();
      if (value.isEmpty()) throw new IllegalArgumentException(fileOption + " " + file + " is empty");
    } else {
      value = env.get(envVar);
      if (value == null || value.trim().isEmpty()) {
        throw new IllegalArgumentException("the secret is missing: give " + fileOption
            + " FILE or set the environment variable " + envVar);
      }
      value = value.trim();
    }
    return value;
  }
}
