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
 */
final class DocSection {
  static final File DOCS = new File("../docs");

  private DocSection() {
  }

  static void check(String page, String name, String generated) throws IOException {
    File out = new File("target/reliability/" + name + ".md");
    out.getParentFile().mkdirs();
    Files.write(out.toPath(), generated.getBytes(StandardCharsets.UTF_8));

    File file = new File(DOCS, page);
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
        + " mvn -pl sdk-core -am verify -Dreliability.write=true", page, name).isGreaterThanOrEqualTo(0);
    assertThat(to).as("docs/%s closes the %s section", page, name).isGreaterThan(from);
    assertThat(text.substring(from + begin.length(), to))
        .as("docs/%s section %s matches the run (target/reliability/%s.md); regenerate with"
            + " -Dreliability.write=true", page, name, name)
        .isEqualTo(generated);
  }
}
