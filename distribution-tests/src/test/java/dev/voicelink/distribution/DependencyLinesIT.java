package dev.voicelink.distribution;

import static dev.voicelink.distribution.Distribution.GROUP;
import static dev.voicelink.distribution.Distribution.readXml;
import static dev.voicelink.distribution.Distribution.releaseVersion;
import static dev.voicelink.distribution.Distribution.root;
import static dev.voicelink.distribution.Distribution.staged;
import static dev.voicelink.distribution.Distribution.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dependency lines that the {@link #PAGES} tell people to paste, for Gradle (Kotlin DSL and Groovy)
 * and Maven, on the JVM and on Android, name exactly what is published: the coordinates exist in
 * the staging repository at the version the docs show, and Maven asks for the type the POM's packaging says.
 * Gradle itself does not run here (it is not on Maven Central); what Gradle reads for these lines, the POM's
 * marker and the .module file, is checked by PublishedArtifactsIT.
 */
class DependencyLinesIT {
  /** The pages that show dependency lines to paste. */
  static final String[] PAGES = {"README.md", "docs/getting-started.md", "docs/kotlin.md",
      "docs/testing-your-app.md"};

  static String[] pages() {
    return PAGES;
  }

  private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\w+)\\n(.*?)^```");
  private static final Pattern GRADLE = Pattern.compile(
      "(\\w+)\\(?\\s*(platform\\()?\\s*[\"']" + Pattern.quote(GROUP) + ":([\\w-]+)(?::([^\"'@]*))?(@\\w+)?[\"']");
  private static final Pattern MAVEN = Pattern.compile("(?s)<dependency>(.*?)</dependency>");

  /** One dependency line of a page: its syntax, configuration or scope, artifact, version and type. */
  static final class Line {
    final String syntax;
    final String configuration;
    final String artifactId;
    final String version;
    final String type;

    Line(String syntax, String configuration, String artifactId, String version, String type) {
      this.syntax = syntax;
      this.configuration = configuration;
      this.artifactId = artifactId;
      this.version = version;
      this.type = type;
    }

    @Override public String toString() {
      return syntax + " " + configuration + " " + GROUP + ":" + artifactId + ":" + version + " (" + type + ")";
    }
  }

  static List<Line> lines(String page) throws Exception {
    String text = new String(Files.readAllBytes(root().resolve(page)), StandardCharsets.UTF_8);
    List<Line> lines = new ArrayList<>();
    Matcher fence = FENCE.matcher(text);
    while (fence.find()) {
      String syntax = fence.group(1);
      String body = fence.group(2);
      if (syntax.equals("kotlin") || syntax.equals("groovy")) {
        Matcher m = GRADLE.matcher(body);
        while (m.find()) {
          String type = m.group(5) != null ? m.group(5).substring(1) : m.group(2) != null ? "platform" : "";
          lines.add(new Line(syntax, m.group(1), m.group(3), m.group(4) == null ? "" : m.group(4), type));
        }
      } else if (syntax.equals("xml")) {
        Matcher m = MAVEN.matcher(body);
        while (m.find()) {
          String d = m.group(1);
          if (!tag(d, "groupId").equals(GROUP)) {
            continue;
          }
          String type = tag(d, "type").isEmpty() ? "jar" : tag(d, "type");
          String scope = tag(d, "scope").isEmpty() ? "compile" : tag(d, "scope");
          lines.add(new Line("maven", scope, tag(d, "artifactId"), tag(d, "version"), type));
        }
      }
    }
    return lines;
  }

  private static String tag(String xml, String name) {
    Matcher m = Pattern.compile("<" + name + ">\\s*([^<]*?)\\s*</" + name + ">").matcher(xml);
    return m.find() ? m.group(1) : "";
  }

  @ParameterizedTest
  @MethodSource("pages")
  void everyLineNamesAPublishedCoordinateAtTheDocumentedVersion(String page) throws Exception {
    List<Line> lines = lines(page);
    assertThat(lines).as(page + " shows dependency lines").isNotEmpty();
    for (Line line : lines) {
      assertThat(staged(line.artifactId, "", "pom")).as(page + ": " + line + " is published").isRegularFile();
      assertThat(line.version).as(page + ": " + line).isIn(releaseVersion(), "");
      if (line.syntax.equals("maven")) {
        String packaging = text(readXml(staged(line.artifactId, "", "pom")), "packaging");
        String expected = packaging.isEmpty() ? "jar" : packaging;
        if (expected.equals("pom")) {
          assertThat(line.type).as(page + ": " + line + " imports the BOM").isEqualTo("pom");
          assertThat(line.configuration).as(page + ": " + line).isEqualTo("import");
        } else {
          assertThat(line.type).as(page + ": " + line + ": Maven asks for the POM's packaging").isEqualTo(expected);
        }
      } else {
        assertThat(line.type).as(page + ": " + line + ": no @aar or @jar, which drops the dependencies")
            .isIn("", "platform");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "docs/getting-started.md"})
  void eachBuildToolGetsTheJvmAndTheAndroidLine(String page) throws Exception {
    Map<String, List<String>> bySyntax = new LinkedHashMap<>();
    for (Line line : lines(page)) {
      bySyntax.computeIfAbsent(line.syntax, s -> new ArrayList<>()).add(line.artifactId);
    }
    for (String syntax : new String[] {"kotlin", "groovy", "maven"}) {
      assertThat(bySyntax.get(syntax)).as(page + ": the " + syntax + " lines")
          .contains("voicelink-core", "voicelink-android");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"samples/android-app/gradle/build.gradle"})
  void theGradleSampleAppTakesTheAarByItsPlainCoordinate(String file) throws Exception {
    String text = new String(Files.readAllBytes(root().resolve(file)), StandardCharsets.UTF_8);
    Matcher version = Pattern.compile("def voicelinkVersion = \"([^\"]+)\"").matcher(text);
    assertThat(version.find()).as(file + " defines voicelinkVersion").isTrue();
    assertThat(version.group(1)).isEqualTo(releaseVersion());
    assertThat(text).contains("implementation \"" + GROUP + ":voicelink-android:${voicelinkVersion}\"")
        .doesNotContain("@aar")
        .doesNotContain("com.squareup.okhttp3")
        .doesNotContain("com.squareup.moshi");
  }
}
