package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * A generated section of a committed Markdown page, between {@code <!-- name:begin -->} and {@code
 * <!-- name:end -->}. Every run writes the section to {@code target/reliability/}; the test then
 * requires the committed page to hold exactly that text, so the page cannot drift from the code.
 * {@code -Dreliability.write=true} rewrites the page instead.
 *
 * <p>Shared with the other modules' tests through sdk-core's test-jar, so that every module publishes
 * its figures into the same pages the same way. Not thread-safe: call it once per section, at the end
 * of a test class.
 */
public final class DocSection {
  private DocSection() {
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
    check(page, name, generated, false);
  }

  /**
   * Like {@link #check(String, String, String)} for measured figures (counts, times, heap) that differ
   * from run to run: the committed section shows the run that wrote it, and later runs must match it
   * in everything but the numbers. Each run asserts its own figures against its bounds.
   */
  public static void checkIgnoringNumbers(String page, String name, String generated)
      throws IOException {
    check(page, name, generated, true);
  }

  private static String numbersMasked(String text) {
    return text.replaceAll("\\d+(\\.\\d+)?", "#");
  }

  private static void check(String page, String name, String generated, boolean ignoreNumbers)
      throws IOException {
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
    assertThat(ignoreNumbers ? numbersMasked(committed) : committed)
        .as("docs/%s section %s matches the run (target/reliability/%s.md); regenerate with"
            + " -Dreliability.write=true", page, name, name)
        .isEqualTo(ignoreNumbers ? numbersMasked(generated) : generated);
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
