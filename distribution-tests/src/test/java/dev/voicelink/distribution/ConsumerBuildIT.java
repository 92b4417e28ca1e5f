package dev.voicelink.distribution;

import static dev.voicelink.distribution.Distribution.GROUP;
import static dev.voicelink.distribution.Distribution.filesUnder;
import static dev.voicelink.distribution.Distribution.hex;
import static dev.voicelink.distribution.Distribution.root;
import static dev.voicelink.distribution.Distribution.version;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * Builds projects that know VoiceLink only by its published coordinates (src/consumers/), in their own Maven
 * runs outside the reactor. Their local repository starts as a copy of the staging repository; anything else
 * comes from Maven Central (read through this machine's Maven cache when it has it). No reactor class path
 * reaches them.
 */
class ConsumerBuildIT {
  private static Path localRepo;
  private static Path settings;

  @BeforeAll static void repository() throws Exception {
    Path work = Distribution.workDir("consumers");
    localRepo = work.resolve("repository");
    for (Map.Entry<String, Path> f : filesUnder(Distribution.stagingRepo()).entrySet()) {
      Path target = localRepo.resolve(f.getKey());
      Files.createDirectories(target.getParent());
      Files.copy(f.getValue(), target);
    }
    // Maven Central, read through the local Maven cache first (a file repository, read only) so that a
    // warm machine downloads nothing. The cache has no dev.voicelink artifacts; the test checks that every
    // one the consumers used is byte for byte the staging repository's.
    String cache = Paths.get(System.getProperty("maven.local.repo")).toUri().toString();
    String repositories = repository("repositories", "repository", cache)
        + repository("pluginRepositories", "pluginRepository", cache);
    settings = work.resolve("settings.xml");
    Files.write(settings, ("<settings><profiles><profile><id>consumer</id>" + repositories
        + "</profile></profiles><activeProfiles><activeProfile>consumer</activeProfile></activeProfiles>"
        + "</settings>\n").getBytes(StandardCharsets.UTF_8));
  }

  private static String repository(String list, String element, String cache) {
    String noSnapshots = "<snapshots><enabled>false</enabled></snapshots>";
    return "<" + list + ">"
        + "<" + element + "><id>maven-cache</id><url>" + cache + "</url>" + noSnapshots + "</" + element + ">"
        + "<" + element + "><id>central</id><url>https://repo.maven.apache.org/maven2</url>" + noSnapshots
        + "</" + element + ">"
        + "</" + list + ">";
  }

  private static Path consumer(String name) throws IOException {
    Path dir = Distribution.workDir("consumer-" + name);
    Files.copy(root().resolve("distribution-tests/src/consumers").resolve(name).resolve("pom.xml"),
        dir.resolve("pom.xml"), StandardCopyOption.REPLACE_EXISTING);
    return dir;
  }

  private static Distribution.MavenRun build(Path dir, String goal) throws Exception {
    return Distribution.maven(dir, dir.resolve("build.log"), 10, "-s", settings.toString(),
        "-Dmaven.repo.local=" + localRepo, "-Dvoicelink.version=" + version(),
        "-Dvoicelink.root=" + root(), goal);
  }

  @Test void theGettingStartedCodeCompilesAndRunsAgainstThePublishedCore() throws Exception {
    Path app = consumer("jvm-app");
    Distribution.MavenRun run = build(app, "verify");
    assertThat(run.exitCode).as(run.tail()).isZero();

    String report = new String(Files.readAllBytes(
        app.resolve("target/surefire-reports/TEST-dev.voicelink.docs.GettingStartedJvmTest.xml")),
        StandardCharsets.UTF_8);
    assertThat(report).contains("tests=\"1\"", "failures=\"0\"", "errors=\"0\"", "skipped=\"0\"");

    List<String> classpath = Arrays.asList(new String(Files.readAllBytes(app.resolve("target/test-classpath.txt")),
        StandardCharsets.UTF_8).trim().split(java.io.File.pathSeparator));
    String repo = localRepo.resolve(GROUP.replace('.', '/')).toString();
    assertThat(classpath).as("voicelink-core from the repository")
        .contains(repo + "/voicelink-core/" + version() + "/voicelink-core-" + version() + ".jar");
    assertThat(classpath).as("voicelink-testing from the repository")
        .contains(repo + "/voicelink-testing/" + version() + "/voicelink-testing-" + version() + ".jar");
    assertThat(classpath).as("a firmware that signs in and uploads does not carry the interaction channel")
        .noneMatch(e -> e.contains("/voicelink-interact/"));
    assertThat(classpath).as("every dependency from the consumer's repository, none from the reactor")
        .allMatch(e -> e.startsWith(localRepo.toString() + java.io.File.separator));
    assertThat(classpath).as("the runtime dependencies come through the POMs")
        .anyMatch(e -> e.contains("/com/squareup/okhttp3/okhttp/4.12.0/"))
        .anyMatch(e -> e.contains("/com/squareup/moshi/moshi/1.15.2/"));
    assertOursCameFromTheStagingRepository();
  }

  @Test void anAndroidAppGetsTheAarWithCoreInteractOkHttpAndMoshiThroughIt() throws Exception {
    Path app = consumer("android-app");
    Distribution.MavenRun run = build(app, "package");
    assertThat(run.exitCode).as(run.tail()).isZero();

    List<String> dependencies = dependencyList(app.resolve("target/dependencies.txt"));
    assertThat(dependencies).contains(
        GROUP + ":voicelink-android:aar:" + version() + ":compile",
        GROUP + ":voicelink-core:jar:" + version() + ":compile",
        GROUP + ":voicelink-interact:jar:" + version() + ":compile",
        "com.squareup.okhttp3:okhttp:jar:4.12.0:compile",
        "com.squareup.moshi:moshi:jar:1.15.2:compile");
    assertThat(dependencies).as("no framework stub, no test library reaches an app")
        .noneMatch(d -> d.startsWith("org.robolectric:") || d.startsWith("junit:") || d.endsWith(":test"));

    Path aar = app.resolve("target/libs/voicelink-android-" + version() + ".aar");
    try (ZipFile zip = new ZipFile(aar.toFile())) {
      assertThat(zip.stream().map(ZipEntry::getName)).as(aar + " is the AAR")
          .contains("AndroidManifest.xml", "classes.jar", "proguard.txt");
    }
    assertOursCameFromTheStagingRepository();
  }

  /**
   * A Kotlin device's build names voicelink-coroutines and no Kotlin of its own: the Kotlin getting-started
   * code and its coroutine test run on the Kotlin standard library OkHttp brings (1.8.21) and
   * kotlinx-coroutines 1.7.3, and the optional voicelink-android stays out.
   */
  @Test void aKotlinAppRunsTheCoroutineGettingStartedOnTheKotlinOkHttpBrings() throws Exception {
    Path app = consumer("kotlin-app");
    Distribution.MavenRun run = build(app, "verify");
    assertThat(run.exitCode).as(run.tail()).isZero();

    String report = new String(Files.readAllBytes(app.resolve(
        "target/surefire-reports/TEST-dev.voicelink.samples.kotlin.KotlinConsumerTest.xml")), StandardCharsets.UTF_8);
    assertThat(report).contains("tests=\"1\"", "failures=\"0\"", "errors=\"0\"", "skipped=\"0\"");

    List<String> dependencies = dependencyList(app.resolve("target/dependencies.txt"));
    assertThat(dependencies).contains(
        GROUP + ":voicelink-coroutines:jar:" + version() + ":compile",
        GROUP + ":voicelink-core:jar:" + version() + ":compile",
        "org.jetbrains.kotlin:kotlin-stdlib:jar:1.8.21:compile",
        "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:jar:1.7.3:compile");
    assertThat(dependencies).as("voicelink-coroutines' Android functions need no Agent in a JVM app")
        .noneMatch(d -> d.startsWith(GROUP + ":voicelink-android:"))
        .noneMatch(d -> d.startsWith("org.robolectric:"));
    assertOursCameFromTheStagingRepository();
  }

  /**
   * docs/building.md tells a user how to take the libraries from this checkout: one {@code install}
   * command. Every dependency line of {@link DependencyLinesIT#PAGES} must then resolve
   * from what that command installs and nothing else of ours: the artifacts of the modules it names
   * and of those it builds with them ({@code -am}), taken from the staging repository.
   */
  @Test void everyDocumentedDependencyLineResolvesFromWhatTheCheckoutInstallPuts() throws Exception {
    Set<String> installed = installedByTheDocumentedCommand();
    for (Distribution.Module m : Distribution.modules()) {
      if (m.published) {
        assertThat(installed).as("the install command puts every published module").contains(m.artifactId);
      }
    }
    Path repo = Distribution.workDir("checkout-install").resolve("repository");
    String ours = GROUP.replace('.', '/') + "/";
    for (Map.Entry<String, Path> f : filesUnder(Distribution.stagingRepo()).entrySet()) {
      String path = f.getKey();
      if (!path.startsWith(ours) || !installed.contains(path.substring(ours.length()).split("/")[0])) {
        continue;
      }
      Path target = repo.resolve(path);
      Files.createDirectories(target.getParent());
      Files.copy(f.getValue(), target);
    }

    Set<String> managed = new LinkedHashSet<>();
    Map<String, String> dependencies = new LinkedHashMap<>();
    for (String page : DependencyLinesIT.PAGES) {
      for (DependencyLinesIT.Line line : DependencyLinesIT.lines(page)) {
        if (line.type.equals("platform") || line.configuration.equals("import")) {
          managed.add(line.artifactId);
        } else {
          String packaging = Distribution.text(Distribution.readXml(
              Distribution.staged(line.artifactId, "", "pom")), "packaging");
          String type = packaging.isEmpty() ? "jar" : packaging;
          boolean test = line.configuration.startsWith("test");
          dependencies.merge(line.artifactId + ":" + type, test ? "test" : "compile",
              (a, b) -> a.equals("compile") || b.equals("compile") ? "compile" : "test");
        }
      }
    }
    assertThat(dependencies.keySet()).as("the pages show these lines")
        .contains("voicelink-core:jar", "voicelink-android:aar", "voicelink-fixtures:jar");

    StringBuilder pom = new StringBuilder("<project><modelVersion>4.0.0</modelVersion>"
        + "<groupId>com.example</groupId><artifactId>documented-lines</artifactId><version>1</version>"
        + "<dependencyManagement><dependencies>");
    for (String bom : managed) {
      pom.append(dependency(bom, "pom", "import"));
    }
    pom.append("</dependencies></dependencyManagement><dependencies>");
    for (Map.Entry<String, String> d : dependencies.entrySet()) {
      String[] artifactAndType = d.getKey().split(":");
      pom.append(dependency(artifactAndType[0], artifactAndType[1], d.getValue()));
    }
    pom.append("</dependencies></project>\n");
    Path project = Distribution.workDir("documented-lines");
    Files.write(project.resolve("pom.xml"), pom.toString().getBytes(StandardCharsets.UTF_8));

    Distribution.MavenRun run = Distribution.maven(project, project.resolve("build.log"), 10,
        "-s", settings.toString(), "-Dmaven.repo.local=" + repo,
        "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:resolve");
    assertThat(run.exitCode).as("the documented lines resolve from what " + installed
        + " installed; " + run.tail()).isZero();
  }

  private static String dependency(String artifactId, String type, String scope) {
    return "<dependency><groupId>" + GROUP + "</groupId><artifactId>" + artifactId
        + "</artifactId><version>" + version() + "</version><type>" + type + "</type><scope>" + scope
        + "</scope></dependency>";
  }

  /**
   * The artifactIds of the published modules that docs/building.md's install command builds: those
   * it names with {@code -pl}, and with {@code -am} the reactor modules they depend on, in any scope.
   */
  private static Set<String> installedByTheDocumentedCommand() throws Exception {
    String page = new String(Files.readAllBytes(root().resolve("docs/building.md")),
        StandardCharsets.UTF_8);
    Matcher command = Pattern.compile("(?m)^\\./mvnw .*\\binstall\\b.*$").matcher(page);
    assertThat(command.find()).as("docs/building.md shows the install command").isTrue();
    String line = command.group();
    Matcher list = Pattern.compile("-pl (\\S+)").matcher(line);
    assertThat(list.find()).as(line + " names its modules").isTrue();
    assertThat(line).as(line + " builds what they depend on").contains(" -am");

    Map<String, String> artifactOfFolder = new LinkedHashMap<>();
    Map<String, Distribution.Module> byArtifact = new LinkedHashMap<>();
    for (Distribution.Module m : Distribution.modules()) {
      artifactOfFolder.put(m.folder, m.artifactId);
      byArtifact.put(m.artifactId, m);
    }
    Deque<String> todo = new ArrayDeque<>();
    for (String folder : list.group(1).split(",")) {
      assertThat(artifactOfFolder).as("-pl " + folder + " is a module").containsKey(folder);
      todo.add(artifactOfFolder.get(folder));
    }
    Set<String> built = new LinkedHashSet<>();
    while (!todo.isEmpty()) {
      String artifactId = todo.remove();
      if (!built.add(artifactId)) continue;
      Element pom = Distribution.readXml(root().resolve(byArtifact.get(artifactId).folder)
          .resolve("pom.xml"));
      Element deps = Distribution.child(pom, "dependencies");
      if (deps == null) continue;
      for (Element d : Distribution.children(deps, "dependency")) {
        String dependency = Distribution.text(d, "artifactId");
        if (GROUP.equals(Distribution.text(d, "groupId")) && byArtifact.containsKey(dependency)) {
          todo.add(dependency);
        }
      }
    }
    Set<String> published = new LinkedHashSet<>();
    for (Distribution.Module m : Distribution.publishedModules()) {
      if (built.contains(m.artifactId)) published.add(m.artifactId);
    }
    return published;
  }

  /** "g:a:type:version:scope" of each line that dependency:list wrote. */
  private static List<String> dependencyList(Path file) throws IOException {
    Pattern line = Pattern.compile("^\\s+([\\w.-]+:[\\w.-]+:[\\w.-]+:[\\w.-]+:\\w+)");
    List<String> found = new ArrayList<>();
    for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      Matcher m = line.matcher(l);
      if (m.find()) {
        found.add(m.group(1));
      }
    }
    return found;
  }

  /** Every dev.voicelink file the consumers' repository holds is the staging repository's, byte for byte. */
  private static void assertOursCameFromTheStagingRepository() throws IOException {
    String ours = GROUP.replace('.', '/') + "/";
    Map<String, Path> staged = filesUnder(Distribution.stagingRepo());
    List<String> used = filesUnder(localRepo).keySet().stream()
        .filter(p -> p.startsWith(ours) && (p.endsWith(".jar") || p.endsWith(".aar") || p.endsWith(".pom")))
        .collect(Collectors.toList());
    assertThat(used).isNotEmpty();
    for (String p : used) {
      assertThat(staged).as(p + " is in the staging repository").containsKey(p);
      assertThat(hex(localRepo.resolve(p), "SHA-256")).as(p).isEqualTo(hex(staged.get(p), "SHA-256"));
    }
  }
}
