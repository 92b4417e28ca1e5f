package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the Java and Kotlin code of docs/*.md compiled: a fenced {@code java} or {@code kotlin} block
 * preceded by {@code <!-- snippet: NAME -->} must equal (whitespace-normalised) the region
 * {@code // snippet:NAME} … {@code // end-snippet} of a compiled source ({@code .java} or {@code
 * .kt}). A block that cannot be a snippet says so with {@code <!-- not-compiled: why -->}; every other
 * fence names its language.
 */
class DocsSnippetsTest {
  /**
   * Source trees that hold snippet regions: this module's tests, the Android module's tests, the
   * fixtures' tests (the Agent's events need Robolectric, which runs there), the Kotlin consumer
   * (compiled with warnings as errors and JSpecify read strictly; its code and its coroutine tests),
   * and the tests of voicelink-coroutines (run on virtual time).
   */
  static final List<String> SNIPPET_ROOTS = Arrays.asList(
      "docs-samples/src/test/java", "sdk-android/src/test/java", "sdk-fixtures/src/test/java",
      "samples/kotlin-consumer/src/main/kotlin", "samples/kotlin-consumer/src/test/kotlin",
      "sdk-coroutines/src/test/kotlin");
  static final List<String> CODE_LANGUAGES = Arrays.asList("java", "kotlin");

  private static final Pattern START = Pattern.compile("^\\s*// snippet:\\s*([A-Za-z0-9_.-]+)\\s*$");
  private static final Pattern END = Pattern.compile("^\\s*// end-snippet\\s*$");
  private static final Pattern MARKER = Pattern.compile("^<!-- snippet: ([A-Za-z0-9_.-]+) -->$");
  private static final Pattern NOT_COMPILED = Pattern.compile("^<!-- not-compiled: .+ -->$");
  /** A fence: its indentation, its run of three or more backticks or tildes, the info string. */
  private static final Pattern FENCE = Pattern.compile("^( *)(`{3,}|~{3,})(.*)$");

  private static Path root;
  private static Map<String, List<String>> regions;
  private static List<Block> blocks;

  @BeforeAll static void load() throws IOException {
    root = Paths.get(System.getProperty("voicelink.root", "..")).toAbsolutePath().normalize();
    regions = readRegions(root);
    blocks = readBlocks(root.resolve("docs"));
  }

  @Test void everyCodeBlockIsASnippetOrSaysWhyNot() {
    List<String> unmarked = new ArrayList<>();
    for (Block b : blocks) {
      if (CODE_LANGUAGES.contains(b.language) && b.snippet == null && !b.notCompiled) {
        unmarked.add(b.where());
      }
    }
    assertThat(unmarked)
        .as("java and kotlin blocks without <!-- snippet: NAME --> or <!-- not-compiled: why -->")
        .isEmpty();
  }

  @Test void indentedAndTildeFencesAreReadAsBlocks(@TempDir Path dir) throws IOException {
    File page = dir.resolve("page.md").toFile();
    Files.write(page.toPath(), Arrays.asList(
        "1. A step:",
        "",
        "   <!-- snippet: step -->",
        "   ```java",
        "   client.close();",
        "     // indented more",
        "   ```",
        "",
        "~~~kotlin",
        "val x = 1",
        "```",
        "~~~"), StandardCharsets.UTF_8);

    List<Block> read = readBlocks(page, "page.md");

    assertThat(read).hasSize(2);
    assertThat(read.get(0).language).isEqualTo("java");
    assertThat(read.get(0).snippet).isEqualTo("step");
    assertThat(read.get(0).lines).containsExactly("client.close();", "  // indented more");
    assertThat(read.get(1).language).isEqualTo("kotlin");
    assertThat(read.get(1).snippet).isNull();
    assertThat(read.get(1).lines).as("a backtick fence does not close a tilde one")
        .containsExactly("val x = 1", "```");
    assertThat(read.get(1).where()).isEqualTo("page.md:9");
  }

  @Test void everyFenceNamesItsLanguage() {
    List<String> bare = new ArrayList<>();
    for (Block b : blocks) {
      if (b.language.isEmpty()) bare.add(b.where());
    }
    assertThat(bare).as("fences without a language (use sh, text, json, jsonc, mermaid, xml, java,"
        + " kotlin)")
        .isEmpty();
  }

  @Test void everySnippetExistsAndMatchesItsSource() {
    List<String> problems = new ArrayList<>();
    for (Block b : blocks) {
      if (b.snippet == null) continue;
      List<String> source = regions.get(b.snippet);
      if (source == null) {
        problems.add(b.where() + ": no region // snippet:" + b.snippet + " in " + SNIPPET_ROOTS);
      } else if (!normalise(source).equals(normalise(b.lines))) {
        problems.add(b.where() + ": differs from // snippet:" + b.snippet + "; the source has:\n"
            + String.join("\n", source));
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test void everySnippetRegionIsShownSomewhere() {
    Set<String> shown = blocks.stream().filter(b -> b.snippet != null).map(b -> b.snippet)
        .collect(Collectors.toSet());
    Set<String> unused = new LinkedHashSet<>(regions.keySet());
    unused.removeAll(shown);
    assertThat(unused).as("snippet regions that no page shows").isEmpty();
  }

  @Test void theCheckerFindsRegionsAndBlocks() {
    // guards against a checker that passes because it read nothing
    assertThat(regions).containsKeys("getting-started-jvm", "getting-started-kotlin", "kotlin-cancellation");
    assertThat(blocks.stream().filter(b -> b.language.equals("kotlin") && b.snippet != null).count())
        .as("kotlin blocks shown from compiled sources").isGreaterThanOrEqualTo(3);
    assertThat(blocks.stream().filter(b -> b.snippet != null).count()).isGreaterThanOrEqualTo(5);
    assertThat(blocks.stream().filter(b -> b.where().startsWith("README.md:")).count())
        .as("the README's blocks read too").isGreaterThanOrEqualTo(3);
  }

  @Test void normalisingIgnoresIndentationAndBlankLinesOnly() {
    assertThat(normalise(Arrays.asList("    a(1,  2);", "", "  b();")))
        .isEqualTo(normalise(Arrays.asList("a(1, 2);", "b();")));
    assertThat(normalise(Arrays.asList("a(1, 2);"))).isNotEqualTo(normalise(Arrays.asList("a(1,2);")));
  }

  static List<String> normalise(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      String l = line.trim().replaceAll("\\s+", " ");
      if (!l.isEmpty()) out.add(l);
    }
    return out;
  }

  static Map<String, List<String>> readRegions(Path root) throws IOException {
    Map<String, List<String>> found = new LinkedHashMap<>();
    for (String dir : SNIPPET_ROOTS) {
      Path base = root.resolve(dir);
      if (!Files.isDirectory(base)) continue;
      List<Path> files;
      try (Stream<Path> walk = Files.walk(base)) {
        files = walk.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".kt"))
            .sorted().collect(Collectors.toList());
      }
      for (Path file : files) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String name = null;
        List<String> body = null;
        for (int i = 0; i < lines.size(); i++) {
          Matcher start = START.matcher(lines.get(i));
          if (start.matches()) {
            if (name != null) throw new IllegalStateException(file + ":" + (i + 1) + ": nested snippet");
            name = start.group(1);
            body = new ArrayList<>();
          } else if (END.matcher(lines.get(i)).matches()) {
            if (name == null) throw new IllegalStateException(file + ":" + (i + 1) + ": end without start");
            if (found.put(name, body) != null) {
              throw new IllegalStateException("snippet " + name + " defined twice; again in " + file);
            }
            name = null;
          } else if (name != null) {
            body.add(lines.get(i));
          }
        }
        if (name != null) throw new IllegalStateException(file + ": snippet " + name + " not ended");
      }
    }
    return found;
  }

  /** The code blocks of docs/*.md and of the README, whose links and first steps are docs too. */
  static List<Block> readBlocks(Path docs) throws IOException {
    File[] pages = docs.toFile().listFiles((d, n) -> n.endsWith(".md"));
    if (pages == null) throw new IOException("no docs directory at " + docs);
    Arrays.sort(pages);
    List<Block> out = new ArrayList<>();
    for (File page : pages) out.addAll(readBlocks(page, "docs/" + page.getName()));
    out.addAll(readBlocks(docs.resolveSibling("README.md").toFile(), "README.md"));
    return out;
  }

  /**
   * The fenced blocks of one page: a fence of backticks or tildes, indented too (inside a list item);
   * the block's lines lose the fence's indentation.
   */
  static List<Block> readBlocks(File page, String name) throws IOException {
    List<Block> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(page.toPath(), StandardCharsets.UTF_8);
    String previous = "";
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher fence = FENCE.matcher(line);
      if (fence.matches()) {
        int indent = fence.group(1).length();
        Block b = new Block(name, i + 1, fence.group(3).trim());
        Matcher m = MARKER.matcher(previous.trim());
        if (m.matches()) b.snippet = m.group(1);
        b.notCompiled = NOT_COMPILED.matcher(previous.trim()).matches();
        for (i++; i < lines.size() && !closes(lines.get(i), fence.group(2)); i++) {
          b.lines.add(dedent(lines.get(i), indent));
        }
        out.add(b);
        previous = "";
      } else if (!line.trim().isEmpty()) {
        previous = line;
      }
    }
    return out;
  }

  private static boolean closes(String line, String opening) {
    String trimmed = line.trim();
    return trimmed.startsWith(opening) && trimmed.replace(opening.substring(0, 1), "").isEmpty();
  }

  private static String dedent(String line, int indent) {
    int strip = 0;
    while (strip < indent && strip < line.length() && line.charAt(strip) == ' ') strip++;
    return line.substring(strip);
  }

  static final class Block {
    final String page;
    final int line;
    final String language;
    final List<String> lines = new ArrayList<>();
    String snippet;
    boolean notCompiled;

    Block(String page, int line, String language) {
      this.page = page;
      this.line = line;
      this.language = language;
    }

    String where() {
      return page + ":" + line;
    }
  }
}
