package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A clone with nothing beside it must build and pass its tests: no build file, script or test names
 * a relative path that leads out of the repository (the conformance vectors, say, read from a folder
 * next to the checkout). Build files resolve {@code ${project.basedir}} and {@code
 * ${maven.multiModuleProjectDirectory}}; test code and scripts resolve from the folder they run in
 * (a module's tests run in the module's folder, a script in its own).
 */
class RepositoryBoundaryTest {
  /** A path with at least one {@code ..} step, as it appears in a string, attribute or element. */
  private static final Pattern UPWARD = Pattern.compile(
      "(\\$\\{[A-Za-z.]+\\}/)?((?:[A-Za-z0-9_.-]+/)*\\.\\.(?:/[A-Za-z0-9_.${}-]*)*)");
  /** Maven's local repository at its usual place, as a script, build file or test would name it. */
  private static final Pattern USUAL_LOCAL_REPOSITORY =
      Pattern.compile("\\$HOME/\\.m2|\\$\\{(user\\.home|env\\.HOME)\\}/\\.m2|user\\.home\"\\), \"\\.m2");
  /** A path into the local repository by its layout (groupId folders), wherever it is. */
  private static final Pattern LOCAL_REPOSITORY_LAYOUT =
      Pattern.compile("\\$\\{settings\\.localRepository\\}/\\w");

  private final Path root = Paths.get(System.getProperty("voicelink.root", ".."))
      .toAbsolutePath().normalize();

  @Test void noBuildFileScriptOrTestReachesOutOfTheRepository() throws IOException {
    List<String> escapes = new ArrayList<>();
    for (Path file : files()) {
      String name = file.getFileName().toString();
      Path base = name.equals("pom.xml") || name.endsWith(".sh") || file.endsWith(".ci/run")
          ? file.getParent() : moduleOf(file);
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        for (String path : upwardPaths(lines.get(i))) {
          Path resolved = resolve(path, base);
          if (!resolved.startsWith(root)) {
            escapes.add(root.relativize(file) + ":" + (i + 1) + ": " + path + " leads to "
                + resolved);
          }
        }
      }
    }
    assertThat(escapes).as("paths that leave the repository %s", root).isEmpty();
  }

  /**
   * Nor does any read Maven's local repository at its usual place, or by its layout: settings or
   * {@code -Dmaven.repo.local} may put it elsewhere, and a split local repository (or one with a tail)
   * keeps a file elsewhere inside it (the build copies what a script or a test needs under target/).
   */
  @Test void noBuildFileScriptOrTestReadsTheLocalRepositoryAtItsUsualPlace() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : files()) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (USUAL_LOCAL_REPOSITORY.matcher(lines.get(i)).find()
            || LOCAL_REPOSITORY_LAYOUT.matcher(lines.get(i)).find()) {
          found.add(root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).trim());
        }
      }
    }
    assertThat(found).as("reads of ~/.m2 by path").isEmpty();
    assertThat(USUAL_LOCAL_REPOSITORY.matcher("\"$HOME/.m2/repository/org/x.jar\"").find()).isTrue();
    assertThat(USUAL_LOCAL_REPOSITORY.matcher("new File(System.getProperty(\"user.home\"), \".m2\")")
        .find()).isTrue();
    assertThat(LOCAL_REPOSITORY_LAYOUT.matcher("${settings.localRepository}/org/x.jar").find()).isTrue();
    assertThat(LOCAL_REPOSITORY_LAYOUT.matcher("<repo>${settings.localRepository}</repo>").find()).isFalse();
  }

  /** The check itself: a path out of the checkout is found, one that stays inside is not. */
  @Test void tellsAPathOutOfTheRepositoryFromOneInside() {
    Path module = root.resolve("sdk-core");
    assertThat(upwardPaths("new File(\"../../elsewhere/vectors.json\")"))
        .containsExactly("../../elsewhere/vectors.json");
    assertThat(resolve("../../elsewhere/vectors.json", module).startsWith(root)).isFalse();
    assertThat(resolve("${project.basedir}/../conformance", module).startsWith(root)).isTrue();
    assertThat(resolve("${maven.multiModuleProjectDirectory}/../x", module).startsWith(root))
        .isFalse();
    assertThat(upwardPaths("see docs/../README.md and ./x")).containsExactly("docs/../README.md");
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !root.relativize(p).toString().startsWith(".git"))
          .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
          .filter(RepositoryBoundaryTest::isChecked)
          // its own examples of paths that leave the repository are no such paths
          .filter(p -> !p.getFileName().toString().equals("RepositoryBoundaryTest.java"))
          .sorted().collect(Collectors.toList());
    }
  }

  private static boolean isChecked(Path file) {
    String name = file.getFileName().toString();
    String path = file.toString();
    return name.equals("pom.xml") || name.endsWith(".sh") || path.endsWith("/.ci/run")
        || (path.contains("/src/test/") && (name.endsWith(".java") || name.endsWith(".kt")
            || name.endsWith(".properties")));
  }

  /** The folder a test runs in: the module's, the one above its {@code src}. */
  private Path moduleOf(Path file) {
    Path dir = file.getParent();
    while (dir != null && !dir.getFileName().toString().equals("src")) dir = dir.getParent();
    return dir == null ? root : dir.getParent();
  }

  static List<String> upwardPaths(String line) {
    List<String> found = new ArrayList<>();
    Matcher m = UPWARD.matcher(line);
    while (m.find()) {
      String path = m.group(0);
      if (path.contains("../") || path.endsWith("/..") || path.equals("..")) found.add(path);
    }
    return found;
  }

  private Path resolve(String path, Path base) {
    String expanded = path
        .replace("${maven.multiModuleProjectDirectory}", root.toString())
        .replace("${project.basedir}", base.toString())
        .replace("${basedir}", base.toString());
    Path p = Paths.get(expanded);
    return (p.isAbsolute() ? p : base.resolve(p)).normalize();
  }
}
