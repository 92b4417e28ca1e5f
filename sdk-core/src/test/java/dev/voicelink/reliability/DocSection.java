package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A generated section of a committed Markdown page, between {@code <!-- name:begin -->} and {@code
 * <!-- name:end -->}. Every run writes the section to {@code target/reliability/}; the test then
 * requires the committed page to hold exactly that text, so the page cannot drift from the code.
 * {@code -Dreliability.write=true} rewrites the page instead.
 *
 * <p>Measured figures (times, counts that depend on scheduling) are written in italics, {@code
 * _12.3 s_}, {@code _42_}, by {@link #measured}: the comparison accepts any number there, so the page
 * shows the figure of its last regeneration while everything else is checked exactly.
 *
 * <p>Shared with the other modules' tests through sdk-core's test-jar, so that every module publishes
 * its figures into the same pages the same way. Not thread-safe: call it once per section, at the end
 * of a test class.
 */
public final class DocSection {
  private static final Pattern MEASURED = Pattern.compile("_\\d[\\d.,]*(?: ms| s| %| MiB)?_");

  private DocSection() {
  }

  /** A measured figure, shown in italics and compared as "some number". */
  public static String measured(String figure) {
    if (!MEASURED.matcher("_" + figure + "_").matches()) {
      throw new IllegalArgumentException("not a measured figure: " + figure);
    }
    return "_" + figure + "_";
  }

  /**
   * The project's {@code docs/} directory: the nearest one above the working directory (the module's
   * base directory under Maven), so a module at any depth finds it.
   */
  public static File docs() {
    File dir = new File("").getAbsoluteFile();
    for (File at = dir; at != null; at = at.getParentFile()) {
      File docs = new File(at, "docs");
      if (docs.isDirectory() && new File(at, "pom.xml").isFile()
          && new File(docs, "index.md").isFile()) {
        return docs;
      }
    }
    throw new IllegalStateException("no docs/ directory above " + dir);
  }

  /** Checks (or, with {@code -Dreliability.write=true}, writes) section {@code name} of {@code page}. */
  public static void check(String page, String name, String generated) throws IOException {
    File out = new File("target/reliability/" + name + ".md");
    out.getParentFile().mkdirs();
    Files.write(out.toPath(), generated.getBytes(StandardCharsets.UTF_8));

    File file = new File(docs(), page);
    String begin = "<!-- " + name + ":begin -->\n";
    String end = "<!-- " + name + ":end -->";
    String text = file.exists()
        ? new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8)
        : "";
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    if (Boolean.getBoolean("reliability.write")) {
      String updated;
      if (from < 0 || to < from) {
        updated = text + (text.isEmpty() || text.endsWith("\n") ? "" : "\n") + begin + generated
            + end + "\n";
      } else {
        updated = text.substring(0, from + begin.length()) + generated + text.substring(to);
      }
      Files.write(file.toPath(), updated.getBytes(StandardCharsets.UTF_8));
      return;
    }
    assertThat(from).as("docs/%s has the %s section; regenerate with"
        + " -Dreliability.write=true", page, name).isGreaterThanOrEqualTo(0);
    assertThat(to).as("docs/%s closes the %s section", page, name).isGreaterThan(from);
    String committed = text.substring(from + begin.length(), to);
    assertThat(committed)
        .as("docs/%s section %s matches the run (target/reliability/%s.md); regenerate with"
            + " -Dreliability.write=true", page, name, name)
        .isEqualTo(masked(committed, generated));
  }

  /**
   * {@code generated} with each measured figure replaced by the committed page's figure at the same
   * place, when the page has one: so only a change of the unmeasured text is a difference.
   */
  private static String masked(String committed, String generated) {
    Matcher page = MEASURED.matcher(committed);
    Matcher run = MEASURED.matcher(generated);
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (run.find()) {
      out.append(generated, at, run.start());
      out.append(page.find() ? page.group() : run.group());
      at = run.end();
    }
    return out.append(generated.substring(at)).toString();
  }

  /** A Markdown table cell: pipes escaped, control characters, BOM and U+FFFD shown as U+XXXX. */
  public static String cell(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '|') {
        out.append("\\|");
      } else if (c < 0x20 || c == 0x7f || c == '\uFEFF' || c == '\uFFFD') {
        out.append(String.format("U+%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
