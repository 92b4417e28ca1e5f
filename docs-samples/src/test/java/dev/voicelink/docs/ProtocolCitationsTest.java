package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the citations of the platform's specification resolvable from the repository alone. Code cites
 * a section as {@code protocol 4.3} (or a list item as {@code protocol 5.1.3}), which must be an anchor
 * {@code <a id="4-3"></a>} of docs/platform-protocol.md; the numbers are the specification's own. The
 * word {@code spec} before a section number in code, or {@code ARCHITECTURE} before one anywhere, or
 * the build notes' name anywhere, cites a document the repository does not hold, and fails. Links to
 * {@code platform-protocol.md#…} and {@code platform-assumptions.md#…}, in code and in the docs, must
 * name an anchor of that page. Every failure names its file and line.
 */
class ProtocolCitationsTest {
  /** The source files scanned, by their ending: code, build files and scripts. */
  static final List<String> SOURCE_ENDINGS = Arrays.asList(".java", ".kt", ".kts", ".xml", ".sh");
  /** The pages, besides docs/*.md, whose links and citations are checked. */
  static final List<String> ROOT_PAGES = Arrays.asList("README.md", "CHANGELOG.md");

  /** {@code protocol 4.1, 4.3–4.6 and 7.1}: every number of the list is a citation. */
  static final Pattern PROTOCOL = Pattern.compile(
      "\\b[Pp]rotocol (\\d+(?:\\.\\d+)*)((?:(?:,\\s*|\\s+and\\s+|\\s*[–-]\\s*)\\d+(?:\\.\\d+)*)*)");
  static final Pattern NUMBER = Pattern.compile("\\d+(?:\\.\\d+)*");
  /** "spec", "Spec" or "spec section", then a number; not "the spec's", nor a number joined to a word. */
  static final Pattern SPEC = Pattern.compile(
      "\\b[Ss]pec(?:ification)?(?: sections?)? \\d+(?:\\.\\d+)*(?![\\w-])");
  /** The design notes by a section number, or the build notes by name (written apart, so as not to cite). */
  static final Pattern ARCHITECTURE = Pattern.compile(
      "\\bARCHITECTURE(?:\\.md)?(?: section)? \\d+(?:\\.\\d+)*|\\bBUILD-FACT" + "S(?:\\.md)?\\b");
  static final Pattern LINK = Pattern.compile("\\b(platform-(?:protocol|assumptions)\\.md)#([A-Za-z0-9_-]+)");
  /** {@code [protocol 4.3](platform-protocol.md#4-3)}: the text and the anchor name one section. */
  static final Pattern LINKED_CITATION = Pattern.compile(
      "\\[[Pp]rotocol (\\d+(?:\\.\\d+)*)\\]\\([^)#]*platform-protocol\\.md#([A-Za-z0-9_-]+)\\)");
  private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a id=\"([^\"]+)\"></a>");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *$");

  private static Path root;
  private static Map<String, Set<String>> anchors;
  private static List<String> sources;
  private static List<String> pages;

  @BeforeAll static void load() throws IOException {
    root = Paths.get(System.getProperty("voicelink.root", "..")).toAbsolutePath().normalize();
    anchors = new LinkedHashMap<>();
    for (String page : Arrays.asList("platform-protocol.md", "platform-assumptions.md")) {
      anchors.put(page, anchorsOf(read(root.resolve("docs").resolve(page))));
    }
    sources = sourceFiles(root);
    pages = new ArrayList<>();
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted()
          .forEach(p -> pages.add(root.relativize(p).toString().replace('\\', '/')));
    }
    for (String page : ROOT_PAGES) {
      if (Files.isRegularFile(root.resolve(page))) pages.add(page);
    }
  }

  @Test void codeCitesTheRepositoryAndEveryCitationResolves() throws IOException {
    List<String> problems = new ArrayList<>();
    for (String file : sources) {
      problems.addAll(problems(file, read(root.resolve(file)), true, anchors));
    }
    assertThat(problems).as("citations in code that do not resolve in docs/platform-protocol.md"
        + " (one per line: file:line: what)").isEmpty();
  }

  @Test void docsLinkAnchorsThatExist() throws IOException {
    List<String> problems = new ArrayList<>();
    for (String page : pages) {
      problems.addAll(problems(page, read(root.resolve(page)), false, anchors));
    }
    assertThat(problems).as("citations and links in the docs that do not resolve").isEmpty();
  }

  @Test void theCheckerReadsTheRepository() throws IOException {
    // guards against a check that passes because it read nothing
    assertThat(anchors.get("platform-protocol.md")).contains("2-1", "4-3", "4-10", "5-1-3", "7-2-3", "8", "9");
    assertThat(anchors.get("platform-assumptions.md")).contains("interval-unit", "authorization-service");
    assertThat(sources).contains("sdk-core/src/main/java/dev/voicelink/auth/AuthClient.java");
    assertThat(sources).noneMatch(f -> f.startsWith("target/") || f.contains("/target/"));
    int citations = 0;
    for (String file : sources) {
      for (String line : read(root.resolve(file))) {
        Matcher m = PROTOCOL.matcher(line);
        while (m.find()) citations++;
      }
    }
    assertThat(citations).as("protocol citations in code").isGreaterThanOrEqualTo(50);
  }

  @Test void theCheckerFindsEachKindOfBrokenCitation() {
    Map<String, Set<String>> known = new LinkedHashMap<>();
    known.put("platform-protocol.md", new LinkedHashSet<>(Arrays.asList("4-1", "4-3", "4-6", "5-1-3", "8")));
    known.put("platform-assumptions.md", Collections.singleton("interval-unit"));
    List<String> fine = fixture(
        "/** The authorization service (protocol 4.1, 4.3–4.6 and 8). */",
        "  // Protocol 5.1.3: see docs/platform-protocol.md#5-1-3 and platform-assumptions.md#interval-unit",
        "  // the spec's 5-minute window; jspecify 1.0.1; PROCESSOR_ARCHITECTURE§3",
        "[protocol 4.3](platform-protocol.md#4-3)");
    assertThat(problems("A.java", fine, true, known)).isEmpty();

    List<String> broken = fixture(
        "/** The poll (spec§4.3). */",
        "// Spec section§7 says so (ARCHITECTURE§3.5)",
        "<!-- as BUILD-FACT" + "S.md says -->",
        "// protocol 4.1,§4.99 and 5.1.3",
        "// docs/platform-protocol.md¤4-2 and platform-assumptions.md¤nowhere",
        "[protocol 4.3](platform-protocol.md¤4-6)");
    assertThat(problems("B.java", broken, true, known)).containsExactlyElementsOf(fixture(
        "B.java:1: \"spec§4.3\" cites a document the repository does not hold; write \"protocol 4.3\""
            + " (docs/platform-protocol.md)",
        "B.java:2: \"Spec section§7\" cites a document the repository does not hold; write"
            + " \"protocol 7\" (docs/platform-protocol.md)",
        "B.java:2: \"ARCHITECTURE§3.5\" cites design notes the repository does not hold; cite the"
            + " repository's doc that says the same",
        "B.java:3: \"BUILD-FACT" + "S.md\" cites design notes the repository does not hold; cite the"
            + " repository's doc that says the same",
        "B.java:4: protocol§4.99 has no anchor <a id=\"4-99\"></a> in docs/platform-protocol.md",
        "B.java:5: platform-protocol.md#4-2 has no such anchor in docs/platform-protocol.md",
        "B.java:5: platform-assumptions.md¤nowhere has no such anchor in docs/platform-assumptions.md",
        "B.java:6: [protocol 4.3] links platform-protocol.md#4-6, not #4-3"));
    // in the docs, a spec citation is prose; the rest is checked as in code
    assertThat(problems("docs/x.md", broken, false, known)).hasSize(6);
  }

  /**
   * Lines to check, written with {@code §} for a space and {@code ¤} for {@code #}, so that this file
   * itself holds no broken citation for the scan, or for a search of the repository, to find.
   */
  private static List<String> fixture(String... lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) out.add(line.replace('§', ' ').replace('¤', '#'));
    return out;
  }

  /** What is wrong with the citations and links of {@code lines}; "spec N" counts only in code. */
  static List<String> problems(String file, List<String> lines, boolean code,
      Map<String, Set<String>> anchors) {
    List<String> out = new ArrayList<>();
    Set<String> sections = anchors.get("platform-protocol.md");
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String where = file + ":" + (i + 1) + ": ";
      Matcher m;
      if (code) {
        for (m = SPEC.matcher(line); m.find(); ) {
          out.add(where + "\"" + m.group() + "\" cites a document the repository does not hold; write"
              + " \"protocol " + m.group().replaceAll("^.* ", "") + "\" (docs/platform-protocol.md)");
        }
      }
      for (m = ARCHITECTURE.matcher(line); m.find(); ) {
        out.add(where + "\"" + m.group() + "\" cites design notes the repository does not hold; cite"
            + " the repository's doc that says the same");
      }
      for (m = PROTOCOL.matcher(line); m.find(); ) {
        for (Matcher n = NUMBER.matcher(m.group(1) + m.group(2)); n.find(); ) {
          String anchor = n.group().replace('.', '-');
          if (!sections.contains(anchor)) {
            out.add(where + "protocol " + n.group() + " has no anchor <a id=\"" + anchor
                + "\"></a> in docs/platform-protocol.md");
          }
        }
      }
      for (m = LINK.matcher(line); m.find(); ) {
        if (!anchors.get(m.group(1)).contains(m.group(2))) {
          out.add(where + m.group() + " has no such anchor in docs/" + m.group(1));
        }
      }
      for (m = LINKED_CITATION.matcher(line); m.find(); ) {
        String anchor = m.group(1).replace('.', '-');
        if (!anchor.equals(m.group(2))) {
          out.add(where + "[protocol " + m.group(1) + "] links platform-protocol.md#" + m.group(2)
              + ", not #" + anchor);
        }
      }
    }
    return out;
  }

  /** The explicit anchors of a page, and the ones its headings get (GitHub's rule). */
  static Set<String> anchorsOf(List<String> lines) {
    Set<String> out = new LinkedHashSet<>();
    boolean fenced = false;
    for (String line : lines) {
      if (line.startsWith("```")) fenced = !fenced;
      if (fenced) continue;
      for (Matcher m = EXPLICIT_ANCHOR.matcher(line); m.find(); ) out.add(m.group(1));
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String text = EXPLICIT_ANCHOR.matcher(heading.group(1)).replaceAll("");
        out.add(text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return out;
  }

  /**
   * The repository's tracked source files ({@code git ls-files}), relative to the root; without git
   * (a source archive), every such file outside {@code target/} and hidden folders.
   */
  static List<String> sourceFiles(Path root) throws IOException {
    List<String> names = gitLsFiles(root);
    if (names == null) {
      try (Stream<Path> walk = Files.walk(root)) {
        names = walk.filter(Files::isRegularFile)
            .map(p -> root.relativize(p).toString().replace('\\', '/'))
            .filter(n -> !n.startsWith(".") && !n.contains("/."))
            .collect(Collectors.toList());
      }
    }
    List<String> out = new ArrayList<>();
    for (String name : names) {
      if (name.startsWith("target/") || name.contains("/target/")) continue;
      if (SOURCE_ENDINGS.stream().noneMatch(name::endsWith)) continue;
      if (Files.isRegularFile(root.resolve(name))) out.add(name);
    }
    Collections.sort(out);
    return out;
  }

  /** {@code git ls-files} at {@code root}, or null when git cannot say. */
  private static List<String> gitLsFiles(Path root) {
    try {
      Process git = new ProcessBuilder("git", "ls-files", "-z").directory(root.toFile())
          .redirectErrorStream(false).start();
      git.getOutputStream().close();
      byte[] out = readAll(git.getInputStream());
      drain(git.getErrorStream());
      if (git.waitFor() != 0) return null;
      List<String> names = new ArrayList<>();
      for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
        if (!name.isEmpty()) names.add(name);
      }
      return names.isEmpty() ? null : names;
    } catch (IOException e) {
      return null; // no git here
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) != -1; ) out.write(buffer, 0, n);
    return out.toByteArray();
  }

  private static void drain(InputStream in) throws IOException {
    readAll(in);
  }

  private static List<String> read(Path file) throws IOException {
    return Arrays.asList(new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\r?\n", -1));
  }
}
