package dev.voicelink.distribution;

import static dev.voicelink.distribution.Distribution.GROUP;
import static dev.voicelink.distribution.Distribution.filesUnder;
import static dev.voicelink.distribution.Distribution.hex;
import static dev.voicelink.distribution.Distribution.root;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * Two clean builds make the same bytes: the published modules are built a second time from a fresh copy of
 * the sources (no target folders), without tests and D8, and every file they publish (POM, jars, AAR, sources,
 * javadoc, .module) must equal the first build's in the staging repository.
 */
class ReproducibleBuildIT {
  /** Never copied: build output and what is not source. */
  private static final List<String> SKIPPED = Arrays.asList(
      "target", ".git", ".flattened-pom.xml", "dependency-reduced-pom.xml", ".cifuzz-corpus", ".idea");

  @Test void aSecondCleanBuildPublishesTheSameBytes() throws Exception {
    Path copy = Distribution.workDir("rebuild");
    copySources(root(), copy);

    List<Distribution.Module> published = Distribution.publishedModules();
    String modules = published.stream().map(m -> m.folder).collect(Collectors.joining(","));
    Distribution.MavenRun run = Distribution.maven(copy, copy.resolve("rebuild.log"), 20,
        "-o", "-DskipTests", "-Dskip.dex=true", "-Dskip.fuzz=true", "-pl", modules, "-am", "verify");
    assertThat(run.exitCode).as(run.tail()).isZero();

    Path rebuilt = copy.resolve("target/staging-repo");
    List<String> differences = new ArrayList<>();
    int compared = 0;
    for (Distribution.Module m : published) {
      String dir = GROUP.replace('.', '/') + "/" + m.artifactId + "/" + Distribution.version();
      Map<String, Path> first = published(Distribution.stagingRepo().resolve(dir));
      Map<String, Path> second = published(rebuilt.resolve(dir));
      assertThat(second.keySet()).as(m.artifactId + ": the same files").isEqualTo(first.keySet());
      assertThat(first.keySet()).as(m.artifactId).anyMatch(n -> n.endsWith(".pom"));
      for (Map.Entry<String, Path> f : first.entrySet()) {
        compared++;
        if (!hex(f.getValue(), "SHA-256").equals(hex(second.get(f.getKey()), "SHA-256"))) {
          differences.add(m.artifactId + "/" + f.getKey() + describe(f.getValue(), second.get(f.getKey())));
        }
      }
    }
    assertThat(differences).as("files that differ between two clean builds (of " + compared + ")").isEmpty();
  }

  /** The files a module publishes: everything but the repository's own bookkeeping. */
  private static Map<String, Path> published(Path dir) throws IOException {
    Map<String, Path> files = new TreeMap<>(filesUnder(dir));
    files.keySet().removeIf(n -> n.equals("_remote.repositories") || n.startsWith("maven-metadata"));
    return files;
  }

  /** For archives, which entries differ: enough to find the cause without unpacking by hand. */
  private static String describe(Path a, Path b) throws IOException {
    String name = a.getFileName().toString();
    if (!(name.endsWith(".jar") || name.endsWith(".aar"))) {
      return "";
    }
    Map<String, String> left = entries(a);
    Map<String, String> right = entries(b);
    List<String> entries = new ArrayList<>();
    for (String e : left.keySet()) {
      if (!left.get(e).equals(right.get(e))) {
        entries.add(e + " " + left.get(e) + " / " + right.get(e));
      }
    }
    for (String e : right.keySet()) {
      if (!left.containsKey(e)) {
        entries.add(e + " only in the second build");
      }
    }
    return " " + entries;
  }

  private static Map<String, String> entries(Path zip) throws IOException {
    Map<String, String> entries = new TreeMap<>();
    try (ZipFile z = new ZipFile(zip.toFile())) {
      for (ZipEntry e : java.util.Collections.list(z.entries())) {
        entries.put(e.getName(), "crc=" + Long.toHexString(e.getCrc()) + " size=" + e.getSize()
            + " time=" + e.getTime());
      }
    }
    return entries;
  }

  private static void copySources(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<Path>() {
      @Override public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        if (!dir.equals(from) && SKIPPED.contains(dir.getFileName().toString())) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        if (!SKIPPED.contains(file.getFileName().toString())) {
          Files.copy(file, to.resolve(from.relativize(file).toString()));
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
