package dev.voicelink.samples.speaker;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import dev.voicelink.core.ServerRefusalException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a command reports: results on stdout, as human text or with {@code --json} one JSON object
 * per line (so that scripts read it line by line); problems on stderr as text, always, so that a
 * pipe or a redirect of stdout never swallows them.
 *
 * <p>Never pass a secret to it: tokens are shown as fingerprints by the commands themselves.
 */
final class Output {
  private static final JsonAdapter<Map<String, Object>> JSON = new Moshi.Builder().build()
      .adapter(Types.newParameterizedType(Map.class, String.class, Object.class));

  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;

  Output(PrintWriter out, PrintWriter err, boolean json) {
    this.out = out;
    this.err = err;
    this.json = json;
  }

  boolean json() {
    return json;
  }

  /** True when a person watches stdout: not JSON mode and stdout is a terminal. */
  boolean interactiveTerminal() {
    return !json && SpeakerCli.stdoutIsTerminal();
  }

  /** Replaces the current terminal line (for progress); only call when {@link #interactiveTerminal}. */
  void overwrite(String line) {
    out.print("\r\u001b[2K" + line);
    out.flush();
  }

  /** A line for people; silent in JSON mode. */
  void say(String text) {
    if (!json) out.println(text);
  }

  /** A machine-readable record in JSON mode, or {@code text} for people otherwise. */
  void record(Map<String, Object> fields, String text) {
    if (json) {
      out.println(JSON.toJson(fields));
    } else {
      out.println(text);
    }
  }

  /**
   * The outcome of a command that failed: {@code text} on stderr as a {@link #problem}, and in JSON
   * mode also the record on stdout, as the last line scripts read for the status.
   */
  void failure(Map<String, Object> fields, String text) {
    if (json) out.println(JSON.toJson(fields));
    problem(text);
  }

  /** A problem, always on stderr as text, prefixed with the program name. */
  void problem(String text) {
    err.println("speaker-cli: " + text);
  }

  /** The status record of a command the server refused: the last stdout line in JSON mode. */
  static Map<String, Object> refusal(ServerRefusalException e) {
    return fields("status", "refused", "error", e.code(), "message", e.description());
  }

  /** The status record of a command that failed otherwise. */
  static Map<String, Object> failed(String message) {
    return fields("status", "failed", "message", message);
  }

  /**
   * Reports a failure no command expects (an interrupt, a bug) as one line, never a stack trace, and
   * returns its exit code. An interrupt is set again.
   */
  int unexpected(Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      failure(failed("interrupted"), "interrupted");
    } else {
      failure(failed(e.toString()), "failed: " + e);
    }
    return ExitCodes.FAILURE;
  }

  /** An ordered map for {@link #record}: {@code fields("sid", sid, "csid", csid)}. */
  static Map<String, Object> fields(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
