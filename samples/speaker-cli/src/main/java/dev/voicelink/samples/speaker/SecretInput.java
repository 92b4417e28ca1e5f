package dev.voicelink.samples.speaker;

import java.io.ByteArrayOutputStream;
import java.io.Console;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads a secret (client secret, account key) from a file, standard input or an environment
 * variable, never from a command-line argument: arguments are visible to every user of the machine in
 * the process list.
 */
final class SecretInput {
  /** The file name that stands for standard input, as in {@code --client-secret-file -}. */
  static final String STDIN = "-";
  /** Longer than any secret: a mistaken file (an image, a log) is refused, not read whole. */
  static final int MAX_SECRET_BYTES = 64 * 1024;

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
      value = fromStdin ? fromStdin(stdin, fileOption) : fromFile(file, fileOption);
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

  /**
   * The secret typed at the terminal without echo when standard input is one (with a prompt, so the
   * command does not seem to hang), else everything up to the end of {@code in}, which stays open.
   */
  private static String fromStdin(InputStream in, String fileOption) throws IOException {
    String source = fileOption + " - (standard input)";
    if (in == System.in) {
      String prompt = fileOption + " - (not shown, then Enter): ";
      // System.console() alone exists for redirected streams too from Java 22: ask isTerminal() as well
      Console console = SpeakerCli.stdoutIsTerminal() ? System.console() : null;
      if (console != null) {
        char[] typed = console.readPassword("%s", prompt);
        if (typed == null) throw new IllegalArgumentException(source + " is empty");
        return new String(typed);
      }
      @Nullable String typed = UnechoedTerminal.read(prompt, System.err, () -> firstLine(in, source));
      if (typed != null) return typed;
    }
    return readBounded(in, source);
  }

  /**
   * The file's text: a regular file, or a pipe such as {@code <(pass show key)}. A file that is missing,
   * a folder, unreadable or too long is the user's input.
   */
  private static String fromFile(File file, String fileOption) throws IOException {
    if (file.isDirectory()) throw new IllegalArgumentException(fileOption + " " + file + " is a folder");
    if (!file.exists()) throw new IllegalArgumentException(namesNoFile(fileOption));
    try (InputStream in = Files.newInputStream(file.toPath())) {
      return readBounded(in, fileOption + " " + file);
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException(fileOption + " " + file + " cannot be read: permission denied");
    }
  }

  /**
   * The message for a {@code fileOption} path that names nothing. The path is not repeated: it may be
   * the secret itself, typed in the wrong place.
   */
  static String namesNoFile(String fileOption) {
    return fileOption + " names no file (the path given is not repeated, in case it is the secret"
        + " itself)";
  }

  /** Everything up to the end of {@code in}, refused past {@link #MAX_SECRET_BYTES}. */
  private static String readBounded(InputStream in, String source) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    for (int n; (n = in.read(buffer)) != -1; ) {
      bytes.write(buffer, 0, n);
      if (bytes.size() > MAX_SECRET_BYTES) throw tooLong(source);
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }

  /**
   * Up to the first line break of {@code in} (a terminal, where a line ends the typing), or to its end;
   * refused past {@link #MAX_SECRET_BYTES}. Reads byte by byte, so nothing after the line is taken.
   */
  private static String firstLine(InputStream in, String source) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int b; (b = in.read()) != -1 && b != '\n'; ) {
      if (bytes.size() == MAX_SECRET_BYTES) throw tooLong(source);
      bytes.write(b);
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }

  private static IllegalArgumentException tooLong(String source) {
    return new IllegalArgumentException(source + " is longer than " + MAX_SECRET_BYTES
        + " bytes: it is not a secret");
  }
}
