package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The standalone jar's THIRD-PARTY-NOTICES.txt names each bundled component at the version this build
 * really bundles: a dependency upgrade that forgets the notices fails here. The versions are read from
 * the jars the classes are loaded from (Maven's repository layout: group/artifact/version/).
 */
class ThirdPartyNoticesTest {
  /** A class of each bundled component, its Maven coordinates, and its name in the notices. */
  private static final Object[][] COMPONENTS = {
      {okhttp3.OkHttpClient.class, "com.squareup.okhttp3:okhttp", "com.squareup.okhttp3:okhttp"},
      {okhttp3.mockwebserver.MockWebServer.class, "com.squareup.okhttp3:mockwebserver",
          "com.squareup.okhttp3:mockwebserver"},
      {okio.Buffer.class, "com.squareup.okio:okio-jvm", "com.squareup.okio:okio(-jvm)"},
      {com.squareup.moshi.Moshi.class, "com.squareup.moshi:moshi", "com.squareup.moshi:moshi"},
      {kotlin.Unit.class, "org.jetbrains.kotlin:kotlin-stdlib", "org.jetbrains.kotlin:kotlin-stdlib"},
      {org.jetbrains.annotations.NotNull.class, "org.jetbrains:annotations", "org.jetbrains:annotations"},
      {org.jspecify.annotations.Nullable.class, "org.jspecify:jspecify", "org.jspecify:jspecify"},
      {org.junit.Rule.class, "junit:junit", "junit:junit"},
      {org.hamcrest.Matcher.class, "org.hamcrest:hamcrest-core", "org.hamcrest:hamcrest-core"},
  };

  @Test void everyBundledComponentIsListedAtTheVersionOnTheClasspath() throws Exception {
    List<String> listed = componentLines();
    List<String> expected = new ArrayList<>();
    for (Object[] component : COMPONENTS) {
      expected.add(component[2] + " " + version((Class<?>) component[0], (String) component[1]));
    }
    List<String> named = new ArrayList<>();
    for (String line : listed) named.add(line.replaceAll("\\s{2,}.*$", ""));
    assertThat(named).as("components in src/shade/THIRD-PARTY-NOTICES.txt")
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** The lines of the notices' component table, between its heading and the next blank line. */
  private static List<String> componentLines() throws IOException {
    List<String> lines = Files.readAllLines(new File("src/shade/THIRD-PARTY-NOTICES.txt").toPath(),
        StandardCharsets.UTF_8);
    int heading = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("Component ")) heading = i;
    }
    assertThat(heading).as("the component table's heading").isNotNegative();
    List<String> table = new ArrayList<>();
    for (int i = heading + 1; i < lines.size() && !lines.get(i).trim().isEmpty(); i++) {
      table.add(lines.get(i));
    }
    return table;
  }

  /** The version of {@code coordinates} ({@code group:artifact}), whose jar {@code type} is loaded from. */
  private static String version(Class<?> type, String coordinates) throws URISyntaxException {
    File jar = new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    String version = jar.getParentFile().getName();
    String[] groupAndArtifact = coordinates.split(":");
    String layout = groupAndArtifact[0].replace('.', '/') + "/" + groupAndArtifact[1] + "/" + version
        + "/" + groupAndArtifact[1] + "-" + version;
    assertThat(jar.getPath().replace(File.separatorChar, '/')).as("the jar of " + type.getName())
        .contains(layout);
    return version;
  }
}
