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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
