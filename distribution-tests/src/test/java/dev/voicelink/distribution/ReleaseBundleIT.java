package dev.voicelink.distribution;

import static dev.voicelink.distribution.Distribution.GROUP;
import static dev.voicelink.distribution.Distribution.filesUnder;
import static dev.voicelink.distribution.Distribution.releaseVersion;
import static dev.voicelink.distribution.Distribution.root;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The release dry run (build-support/release-dry-run.sh) builds the Central Portal bundle the way a release does:
 * from a copy of the sources set to the release version, without a signing key and without uploading. The bundle
 * must hold, with their checksums, exactly the files the published modules stage in this build, at the release
 * version, except the test jar: no test jar, no module that is not published, no SNAPSHOT left in a POM or a
 * .module file. The release profile itself refuses a build that would make the test jar.
 */
class ReleaseBundleIT {
  private static final List<String> CHECKSUMS = Arrays.asList("md5", "sha1", "sha256", "sha512");

  @Test void theDryRunBundlesWhatThePublishedModulesStageAndNothingElse() throws Exception {
    Path log = Distribution.workDir("release").resolve("dry-run.log");
    Distribution.MavenRun run = Distribution.run(root(), log, 20,
        Arrays.asList("bash", "build-support/release-dry-run.sh"));
    assertThat(run.exitCode).as(run.tail()).isZero();

    Set<String> expected = new TreeSet<>();
    for (Distribution.Module m : Distribution.publishedModules()) {
      String dir = GROUP.replace('.', '/') + "/" + m.artifactId + "/" + releaseVersion() + "/";
      for (String staged : filesUnder(Distribution.stagedDir(m.artifactId)).keySet()) {
        if (staged.equals("_remote.repositories") || staged.startsWith("maven-metadata")
            || staged.endsWith("-tests.jar")) {
          continue;
        }
        String file = dir + staged.replace(Distribution.version(), releaseVersion());
        expected.add(file);
        for (String checksum : CHECKSUMS) {
          expected.add(file + "." + checksum);
        }
      }
    }

    Set<String> bundled = new TreeSet<>();
    List<String> snapshots = new ArrayList<>();
    try (ZipFile bundle = new ZipFile(root().resolve("target/release-dry-run/central-bundle.zip").toFile())) {
      for (ZipEntry e : Collections.list(bundle.entries())) {
        if (e.isDirectory()) {
          continue;
        }
        bundled.add(e.getName());
        if ((e.getName().endsWith(".pom") || e.getName().endsWith(".module")) && mentionsSnapshot(bundle, e)) {
          snapshots.add(e.getName());
        }
      }
    }
    assertThat(bundled).as("no test jar in the bundle").noneMatch(n -> n.contains("-tests.jar"));
    assertThat(bundled).isEqualTo(expected);
    assertThat(snapshots).as("POMs and .module files that still name a SNAPSHOT").isEmpty();
  }

  @Test void theReleaseProfileRefusesToRunWithTheTests() throws Exception {
    Path log = Distribution.workDir("release-with-tests").resolve("validate.log");
    Distribution.MavenRun run = Distribution.maven(root(), log, 5, "-N", "-Prelease", "-Dgpg.skip", "validate");
    assertThat(run.exitCode).as(run.tail()).isNotZero();
    assertThat(new String(Files.readAllBytes(log), StandardCharsets.UTF_8)).contains("A release is built without"
        + " tests, so that no test jar is published: add -Dmaven.test.skip=true after ./verify.sh has passed on"
        + " the commit (docs/building.md, \"Releasing to Maven Central\").");
  }

  private static boolean mentionsSnapshot(ZipFile zip, ZipEntry entry) throws Exception {
    try (InputStream in = zip.getInputStream(entry)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).contains("SNAPSHOT");
    }
  }
}
