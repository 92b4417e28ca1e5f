package dev.voicelink.distribution;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What the distribution tests share: where the build put things (system properties set by this module's
 * pom.xml), which modules are published, the staging repository's layout, POM reading and a forked Maven.
 */
final class Distribution {
  static final String GROUP = "dev.voicelink";
  static final String MARKER = "do_not_remove: published-with-gradle-metadata";

  private Distribution() {
  }

  static Path root() {
    return Paths.get(property("voicelink.root")).toAbsolutePath().normalize();
  }

  static Path stagingRepo() {
    return Paths.get(property("voicelink.staging.repo"));
  }

  /** The version being built, such as 0.1.0-SNAPSHOT. */
  static String version() {
    return property("voicelink.version");
  }

  /** The version the docs show: the release this build leads to. */
  static String releaseVersion() {
    return version().replace("-SNAPSHOT", "");
  }

  static Path workDir(String name) throws IOException {
    Path dir = Paths.get(property("voicelink.work.dir"), name);
    deleteRecursively(dir);
    return Files.createDirectories(dir);
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException("system property " + name + " is not set: run through mvn verify");
    }
    return value;
  }

  /** A reactor module: its folder, its artifactId and whether its pom.xml opts into publication. */
  static final class Module {
    final String folder;
    final String artifactId;
    final boolean published;

    Module(String folder, String artifactId, boolean published) {
      this.folder = folder;
      this.artifactId = artifactId;
      this.published = published;
    }

    @Override public String toString() {
      return artifactId;
    }
  }

  /** Every module the root pom.xml lists, read from the POMs themselves. */
  static List<Module> modules() throws Exception {
    List<Module> modules = new ArrayList<>();
    Element root = readXml(root().resolve("pom.xml"));
    for (Element module : children(child(root, "modules"), "module")) {
      String folder = module.getTextContent().trim();
      Element pom = readXml(root().resolve(folder).resolve("pom.xml"));
      Element properties = child(pom, "properties");
      boolean published = properties != null
          && "false".equals(text(properties, "voicelink.publish.skip"));
      modules.add(new Module(folder, text(pom, "artifactId"), published));
    }
    return modules;
  }

  static List<Module> publishedModules() throws Exception {
    return modules().stream().filter(m -> m.published).collect(Collectors.toList());
  }

  /** The folder of a module's version in the staging repository. */
  static Path stagedDir(String artifactId) {
    return stagingRepo().resolve(GROUP.replace('.', '/')).resolve(artifactId).resolve(version());
  }

  static Path staged(String artifactId, String classifier, String extension) {
    String name = artifactId + "-" + version() + (classifier.isEmpty() ? "" : "-" + classifier) + "." + extension;
    return stagedDir(artifactId).resolve(name);
  }

  static Element readXml(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
  }

  static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    if (parent == null) {
      return found;
    }
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && name.equals(n.getNodeName())) {
        found.add((Element) n);
      }
    }
    return found;
  }

  static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  /** The trimmed text of a child element, "" when there is none. */
  static String text(Element parent, String name) {
    Element e = child(parent, name);
    return e == null ? "" : e.getTextContent().trim();
  }

  /** A dependency of a POM as "groupId:artifactId:type:version:scope". */
  static List<String> dependencies(Element dependenciesElement) {
    List<String> all = new ArrayList<>();
    for (Element d : children(dependenciesElement, "dependency")) {
      String type = text(d, "type").isEmpty() ? "jar" : text(d, "type");
      String scope = text(d, "scope").isEmpty() ? "compile" : text(d, "scope");
      all.add(text(d, "groupId") + ":" + text(d, "artifactId") + ":" + type + ":" + text(d, "version") + ":" + scope);
    }
    return all;
  }

  static String hex(Path file, String algorithm) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        digest.update(buffer, 0, n);
      }
    }
    StringBuilder hex = new StringBuilder();
    for (byte b : digest.digest()) {
      hex.append(String.format("%02x", b & 0xff));
    }
    return hex.toString();
  }

  /** A finished forked run of Maven, or of a script that runs it. */
  static final class MavenRun {
    final int exitCode;
    final Path log;

    MavenRun(int exitCode, Path log) {
      this.exitCode = exitCode;
      this.log = log;
    }

    /** The end of the log, for an assertion message. */
    String tail() throws IOException {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "exit " + exitCode + ", last lines of " + log + ":\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
  }

  /**
   * Runs the Maven that runs this build ({@code maven.home}) in {@code dir} with {@code args}, bounded by
   * {@code timeoutMinutes}, its output in {@code log}; on this build's local repository unless {@code
   * args} name another.
   */
  static MavenRun maven(Path dir, Path log, long timeoutMinutes, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(property("maven.home"), "bin", "mvn").toString());
    command.add("-B");
    command.add("-ntp");
    command.add("-Dstyle.color=never");
    if (Arrays.stream(args).noneMatch(a -> a.startsWith("-Dmaven.repo.local="))) {
      command.add("-Dmaven.repo.local=" + property("maven.local.repo"));
    }
    Collections.addAll(command, args);
    return run(dir, log, timeoutMinutes, command);
  }

  /**
   * Runs {@code command} in {@code dir}, bounded by {@code timeoutMinutes}, its output in {@code log}. The
   * MAVEN_ARGS this build was started with are not passed on; its local repository is, to a script, as
   * VOICELINK_MAVEN_REPO_LOCAL (build-support/release-dry-run.sh reads it).
   */
  static MavenRun run(Path dir, Path log, long timeoutMinutes, List<String> command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().remove("MAVEN_ARGS");
    builder.environment().put("VOICELINK_MAVEN_REPO_LOCAL", property("maven.local.repo"));
    Process process = builder.start();
    if (!process.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      throw new AssertionError(String.join(" ", command) + " still running after " + timeoutMinutes
          + " min; log: " + log);
    }
    return new MavenRun(process.exitValue(), log);
  }

  /** Every regular file under {@code dir}, by its path relative to it. */
  static Map<String, Path> filesUnder(Path dir) throws IOException {
    Map<String, Path> files = new LinkedHashMap<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
        files.put(dir.relativize(p).toString().replace(File.separatorChar, '/'), p);
      }
    }
    return files;
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Collections.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
