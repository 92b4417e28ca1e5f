package dev.voicelink.samples.speaker;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;

/**
 * Reads a secret (client secret, account key) from a file, standard input or an environment
 * variable, never from a command-line argument: arguments are visible to every user of the machine in
 * the process list.
 */
final class SecretInput {
  /** The file name that stands for standard input, as in {@code --client-secret-file -}. */
  static final String STDIN = "-";

  private SecretInput() {
  }

  /**
   * The secret from {@code file} if given ({@value #STDIN}: from standard input, to its end), else from
   * the environment variable {@code envVar}. A leading byte-order mark and surrounding white space
   * (the line break) are removed. Throws {@link IllegalArgumentException} naming both sources when
   * neither yields a non-empty value.
   */
  static String read(File file, String fileOption, String envVar, Map<String, String> env)
      throws IOException {
    return read(file, fileOption, envVar, env, System.in);
  }

  /** {@link #read(File, String, String, Map)} with {@code stdin} as standard input. */
  static String read(File file, String fileOption, String envVar, Map<String, String> env,
      InputStream stdin) throws IOException {
    String value;
    if (file != null) {
      boolean fromStdin = file.getPath().equals(STDIN);
      byte[] bytes = fromStdin ? readAll(stdin) : Files.readAllBytes(file.toPath());
      value = new String(bytes, StandardCharsets.UTF_8);
      if (!value.isEmpty() && value.charAt(0) == '\uFEFF') value = value.substring(1);
      value = value.trim();
      if (value.isEmpty()) {
        throw new IllegalArgumentException(fileOption + " " + (fromStdin ? "- (standard input)"
            : file) + " is empty");
      }
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

  /** Everything up to the end of {@code in}; the stream is the process's and stays open. */
  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    for (int n; (n = in.read(buffer)) != -1; ) bytes.write(buffer, 0, n);
    return bytes.toByteArray();
  }
}
