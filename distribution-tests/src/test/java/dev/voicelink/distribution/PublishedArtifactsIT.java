package dev.voicelink.distribution;

import static dev.voicelink.distribution.Distribution.GROUP;
import static dev.voicelink.distribution.Distribution.MARKER;
import static dev.voicelink.distribution.Distribution.child;
import static dev.voicelink.distribution.Distribution.children;
import static dev.voicelink.distribution.Distribution.dependencies;
import static dev.voicelink.distribution.Distribution.hex;
import static dev.voicelink.distribution.Distribution.readXml;
import static dev.voicelink.distribution.Distribution.staged;
import static dev.voicelink.distribution.Distribution.stagedDir;
import static dev.voicelink.distribution.Distribution.text;
import static dev.voicelink.distribution.Distribution.version;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;

/**
 * What each published module put into the staging repository, as Maven Central and Gradle would read it:
 * the POM and its metadata, the archives, and the Gradle Module Metadata, validated against the format 1.1
 * schema and checked file by file.
 */
class PublishedArtifactsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  static List<Distribution.Module> published() throws Exception {
    return Distribution.publishedModules();
  }

  /** Modules whose published POM is a library (not the BOM). */
  static List<Distribution.Module> libraries() throws Exception {
    List<Distribution.Module> libraries = new ArrayList<>();
    for (Distribution.Module m : published()) {
      if (!"pom".equals(packaging(m))) {
        libraries.add(m);
      }
    }
    return libraries;
  }

  private static String packaging(Distribution.Module m) throws Exception {
    String packaging = text(pom(m), "packaging");
    return packaging.isEmpty() ? "jar" : packaging;
  }

  private static Element pom(Distribution.Module m) throws Exception {
    return readXml(staged(m.artifactId, "", "pom"));
  }

  /**
   * The reference server's standalone jar bundles other projects' classes, some not under Apache 2.0 (JUnit, which
   * comes with MockWebServer, is EPL 1.0): each bundled class belongs to a component its notices file names, and
   * the project's own LICENSE and NOTICE are there too. A new bundled dependency fails here until it is listed.
   */
  @Test void theStandaloneServerJarNamesEveryComponentItBundlesAndItsLicense() throws Exception {
    String[][] components = {
        // package prefix of its classes, the component as THIRD-PARTY-NOTICES.txt names it
        {"dev/voicelink/", null},
        {"META-INF/versions/", null}, // multi-release variants of the classes below
        {"okhttp3/mockwebserver/", "com.squareup.okhttp3:mockwebserver 4.12.0        Apache License, Version 2.0"},
        {"okhttp3/", "com.squareup.okhttp3:okhttp 4.12.0               Apache License, Version 2.0"},
        {"okio/", "com.squareup.okio:okio(-jvm) 3.7.0               Apache License, Version 2.0"},
        {"com/squareup/moshi/", "com.squareup.moshi:moshi 1.15.2                  Apache License, Version 2.0"},
        {"kotlin/", "org.jetbrains.kotlin:kotlin-stdlib 1.8.21        Apache License, Version 2.0"},
        {"org/jetbrains/annotations/", "org.jetbrains:annotations 26.1.0                 Apache License, Version 2.0"},
        {"org/intellij/lang/annotations/", "org.jetbrains:annotations 26.1.0                 Apache License, Version 2.0"},
        {"org/jspecify/", "org.jspecify:jspecify 1.0.1                      Apache License, Version 2.0"},
        {"junit/", "junit:junit 4.13.2                               Eclipse Public License 1.0 (text: LICENSE-junit.txt)"},
        {"org/junit/", "junit:junit 4.13.2                               Eclipse Public License 1.0 (text: LICENSE-junit.txt)"},
        {"org/hamcrest/", "org.hamcrest:hamcrest-core 1.3                   BSD 3-Clause License (text: LICENSE.txt)"},
    };
    try (ZipFile jar = new ZipFile(staged("voicelink-testing", "standalone", "jar").toFile())) {
      String notices = read(jar, "META-INF/THIRD-PARTY-NOTICES.txt");
      assertThat(read(jar, "META-INF/LICENSE")).contains("Apache License").contains("Version 2.0");
      assertThat(read(jar, "META-INF/NOTICE")).startsWith("VoiceLink SDK");
      assertThat(jar.getEntry("LICENSE-junit.txt")).as("JUnit's license text").isNotNull();
      assertThat(jar.getEntry("LICENSE.txt")).as("Hamcrest's license text").isNotNull();
      // data under another license than its classes: OkHttp's compiled Public Suffix List (MPL 2.0)
      assertThat(jar.getEntry("okhttp3/internal/publicsuffix/publicsuffixes.gz")).isNotNull();
      assertThat(notices).contains("okhttp3/internal/publicsuffix/publicsuffixes.gz  Mozilla Public License 2.0");
      Set<String> unlisted = new TreeSet<>();
      Set<String> used = new TreeSet<>();
      for (ZipEntry e : java.util.Collections.list(jar.entries())) {
        if (!e.getName().endsWith(".class")) continue;
        String component = "";
        for (String[] c : components) {
          if (e.getName().startsWith(c[0])) {
            component = c[1];
            break;
          }
        }
        if (component == null) continue; // ours
        if (component.isEmpty()) {
          unlisted.add(e.getName().substring(0, e.getName().lastIndexOf('/') + 1));
        } else {
          used.add(component);
        }
      }
      assertThat(unlisted).as("packages of bundled classes that belong to no listed component").isEmpty();
      for (String component : used) {
        assertThat(notices).as("THIRD-PARTY-NOTICES.txt").contains(component);
      }
      assertThat(used).as("every listed component is really bundled").hasSize(9);
    }
  }

  @Test void theStagingRepositoryHoldsThePublishedModulesAndNothingElseOfOurs() throws Exception {
    Path group = Distribution.stagingRepo().resolve(GROUP.replace('.', '/'));
    Set<String> staged;
    try (Stream<Path> list = Files.list(group)) {
      staged = list.filter(Files::isDirectory).map(p -> p.getFileName().toString())
          .collect(Collectors.toCollection(TreeSet::new));
    }
    Set<String> expected = new TreeSet<>();
    for (Distribution.Module m : published()) {
      expected.add(m.artifactId);
    }
    // Installing a module also installs the POM of its parent; the published POMs are flattened and name
    // no parent, so voicelink-parent is never deployed (its own publication is skipped).
    expected.add("voicelink-parent");
    assertThat(staged).as("dev.voicelink artifacts in " + group).isEqualTo(expected);
    assertThat(expected).as("the published modules").contains(
        "voicelink-bom", "voicelink-core", "voicelink-interact", "voicelink-android",
        "voicelink-testing", "voicelink-fixtures", "voicelink-coroutines");
    for (Distribution.Module m : Distribution.modules()) {
      if (!m.published) {
        assertThat(group.resolve(m.artifactId)).as(m.artifactId + " is not published").doesNotExist();
      }
    }
  }

  @ParameterizedTest @MethodSource("published")
  void thePomIsFlattenedAndCarriesTheProjectMetadata(Distribution.Module m) throws Exception {
    Path file = staged(m.artifactId, "", "pom");
    String raw = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    Element pom = readXml(file);
    assertThat(raw).as(file + " tells Gradle to read the .module").contains("<!-- " + MARKER + " -->");
    assertThat(child(pom, "parent")).as(file + ": flattened, no parent to publish").isNull();
    assertThat(text(pom, "groupId")).isEqualTo(GROUP);
    assertThat(text(pom, "artifactId")).isEqualTo(m.artifactId);
    assertThat(text(pom, "version")).isEqualTo(version());
    assertThat(text(pom, "name")).as("name").isNotEmpty();
    assertThat(text(pom, "description")).as("description").isNotEmpty();
    assertThat(text(pom, "url")).isEqualTo("https://github.com/voicelink/voicelink-sdk");
    Element license = child(child(pom, "licenses"), "license");
    assertThat(license).as("licenses/license").isNotNull();
    assertThat(text(license, "name")).isEqualTo("Apache-2.0");
    assertThat(text(license, "url")).isEqualTo("https://www.apache.org/licenses/LICENSE-2.0.txt");
    Element scm = child(pom, "scm");
    assertThat(text(scm, "url")).isEqualTo("https://github.com/voicelink/voicelink-sdk");
    assertThat(text(scm, "connection")).isEqualTo("scm:git:https://github.com/voicelink/voicelink-sdk.git");
    assertThat(text(scm, "developerConnection")).startsWith("scm:git:");
    assertThat(children(child(pom, "developers"), "developer")).as("developers").isNotEmpty();
    assertThat(text(child(pom, "issueManagement"), "url"))
        .isEqualTo("https://github.com/voicelink/voicelink-sdk/issues");
    assertThat(dependencies(child(pom, "dependencies"))).as("no test dependency is published")
        .noneMatch(d -> d.endsWith(":test"));
    assertThat(raw).as("every version resolved").doesNotContain("${project.parent");
  }

  @ParameterizedTest @MethodSource("libraries")
  void aLibraryShipsItsArchiveItsSourcesAndItsJavadoc(Distribution.Module m) throws Exception {
    String packaging = packaging(m);
    assertThat(staged(m.artifactId, "", packaging)).as("the main artifact, ." + packaging).isRegularFile();
    try (ZipFile sources = new ZipFile(staged(m.artifactId, "sources", "jar").toFile())) {
      assertThat(sources.stream().map(ZipEntry::getName)).as("sources jar")
          .anyMatch(n -> n.startsWith("dev/voicelink/") && (n.endsWith(".java") || n.endsWith(".kt")));
    }
    try (ZipFile javadoc = new ZipFile(staged(m.artifactId, "javadoc", "jar").toFile())) {
      assertThat(javadoc.getEntry("index.html")).as("javadoc jar").isNotNull();
      assertThat(javadoc.stream().map(ZipEntry::getName)).as("internal packages are not documented")
          .noneMatch(n -> n.contains("/internal/"));
    }
  }

  @ParameterizedTest @MethodSource("libraries")
  void everyJarNamesItsModule(Distribution.Module m) throws Exception {
    String expected = "dev." + m.artifactId.replace('-', '.');
    Path jar = staged(m.artifactId, "", "jar");
    try (JarFile file = new JarFile(jar.toFile())) {
      assertThat(file.getManifest().getMainAttributes().getValue("Automatic-Module-Name"))
          .as(jar + " Automatic-Module-Name").isEqualTo(expected);
    }
    // The name is a legal module name: the module system derives the module from the jar.
    Set<ModuleReference> found = ModuleFinder.of(jar).findAll();
    assertThat(found).extracting(r -> r.descriptor().name()).containsExactly(expected);
    assertThat(found.iterator().next().descriptor().isAutomatic()).isTrue();
  }

  @Test void theAndroidLibraryIsAnAarWhoseRuntimeDependenciesAreOrdinary() throws Exception {
    Element pom = readXml(staged("voicelink-android", "", "pom"));
    assertThat(text(pom, "packaging")).isEqualTo("aar");
    assertThat(dependencies(child(pom, "dependencies")))
        .contains(GROUP + ":voicelink-core:jar:" + version() + ":compile",
            GROUP + ":voicelink-interact:jar:" + version() + ":compile");
    Path aar = staged("voicelink-android", "", "aar");
    try (ZipFile zip = new ZipFile(aar.toFile())) {
      assertThat(zip.stream().map(ZipEntry::getName))
          .containsExactlyInAnyOrder("classes.jar", "AndroidManifest.xml", "R.txt", "proguard.txt");
      String manifest = read(zip, "AndroidManifest.xml");
      assertThat(manifest).contains("package=\"dev.voicelink.android\"", "android:minSdkVersion=\"21\"",
          "android.permission.INTERNET", "android.permission.ACCESS_NETWORK_STATE");
      // classes.jar is the module jar: the same bytes as the published classes jar beside the AAR.
      Path classes = Files.createTempFile("classes", ".jar");
      try (InputStream in = zip.getInputStream(zip.getEntry("classes.jar"))) {
        Files.copy(in, classes, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      assertThat(hex(classes, "SHA-256")).isEqualTo(hex(staged("voicelink-android", "", "jar"), "SHA-256"));
      Files.delete(classes);
    }
  }

  @ParameterizedTest @MethodSource("published")
  void theGradleModuleMetadataIsValidAndDescribesTheFilesBesideIt(Distribution.Module m) throws Exception {
    Path file = staged(m.artifactId, "", "module");
    JsonNode module = JSON.readTree(file.toFile());
    JsonSchema schema;
    try (InputStream in = getClass().getResourceAsStream("/gradle-module-metadata-1.1.schema.json")) {
      schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
    }
    Set<ValidationMessage> problems = schema.validate(module);
    assertThat(problems).as(file + " against the Gradle Module Metadata 1.1 schema").isEmpty();

    assertThat(module.path("component").path("group").asText()).isEqualTo(GROUP);
    assertThat(module.path("component").path("module").asText()).isEqualTo(m.artifactId);
    assertThat(module.path("component").path("version").asText()).isEqualTo(version());
    Set<String> names = new TreeSet<>();
    for (JsonNode variant : module.path("variants")) {
      assertThat(names.add(variant.path("name").asText())).as("unique variant names").isTrue();
      for (JsonNode f : variant.path("files")) {
        Path beside = stagedDir(m.artifactId).resolve(f.path("url").asText());
        assertThat(beside).as(variant.path("name") + " file").isRegularFile();
        assertThat(f.path("name").asText()).isEqualTo(f.path("url").asText());
        assertThat(f.path("size").asLong()).isEqualTo(Files.size(beside));
        assertThat(f.path("sha512").asText()).isEqualTo(hex(beside, "SHA-512"));
        assertThat(f.path("sha256").asText()).isEqualTo(hex(beside, "SHA-256"));
        assertThat(f.path("sha1").asText()).isEqualTo(hex(beside, "SHA-1"));
        assertThat(f.path("md5").asText()).isEqualTo(hex(beside, "MD5"));
      }
    }
  }

  @ParameterizedTest @MethodSource("libraries")
  void theLibraryVariantsPointAtTheMainArtifactWithThePomsDependencies(Distribution.Module m) throws Exception {
    String packaging = packaging(m);
    JsonNode module = JSON.readTree(staged(m.artifactId, "", "module").toFile());
    List<Element> pomDependencies = children(child(pom(m), "dependencies"), "dependency");
    for (String usage : new String[] {"java-api", "java-runtime"}) {
      JsonNode variant = variant(module, "library", usage);
      assertThat(variant.path("attributes").path("org.gradle.libraryelements").asText()).isEqualTo(packaging);
      assertThat(variant.path("attributes").path("org.gradle.dependency.bundling").asText()).isEqualTo("external");
      assertThat(variant.path("files")).hasSize(1);
      assertThat(variant.path("files").get(0).path("url").asText())
          .isEqualTo(m.artifactId + "-" + version() + "." + packaging);
      List<String> expected = new ArrayList<>();
      for (Element d : pomDependencies) {
        if (Boolean.parseBoolean(text(d, "optional"))) {
          continue; // Gradle does not read an optional POM dependency, so no variant has it
        }
        String scope = text(d, "scope").isEmpty() ? "compile" : text(d, "scope");
        if (scope.equals("compile") || (scope.equals("runtime") && usage.equals("java-runtime"))) {
          expected.add(text(d, "groupId") + ":" + text(d, "artifactId") + ":" + text(d, "version"));
        }
      }
      // Then the BOM as a platform of the same version: Gradle then keeps the VoiceLink libraries on
      // one version, as their internal calls to each other need. Not the reference server, which
      // calls none: aligning it would move an app's SDK to the test server's version.
      if (!m.artifactId.equals("voicelink-testing")) {
        expected.add(GROUP + ":voicelink-bom:" + version() + " platform");
      }
      List<String> actual = new ArrayList<>();
      for (JsonNode d : variant.path("dependencies")) {
        String category = d.path("attributes").path("org.gradle.category").asText();
        actual.add(d.path("group").asText() + ":" + d.path("module").asText() + ":"
            + d.path("version").path("requires").asText() + (category.isEmpty() ? "" : " " + category));
      }
      assertThat(actual).as(m.artifactId + " " + usage + " dependencies = the POM's and the BOM")
          .isEqualTo(expected);
    }
    for (String docs : new String[] {"sources", "javadoc"}) {
      JsonNode variant = null;
      for (JsonNode v : module.path("variants")) {
        if (docs.equals(v.path("attributes").path("org.gradle.docstype").asText())) {
          variant = v;
        }
      }
      assertThat(variant).as(docs + " variant").isNotNull();
      assertThat(variant.path("attributes").path("org.gradle.category").asText()).isEqualTo("documentation");
      assertThat(variant.path("files").get(0).path("url").asText())
          .isEqualTo(m.artifactId + "-" + version() + "-" + docs + ".jar");
    }
  }

  @Test void theBomIsAGradlePlatformOfEveryVoiceLinkArtifact() throws Exception {
    Element pom = readXml(staged("voicelink-bom", "", "pom"));
    Set<String> managed = new TreeSet<>();
    for (Element d : children(child(child(pom, "dependencyManagement"), "dependencies"), "dependency")) {
      assertThat(text(d, "groupId")).as("the BOM manages VoiceLink artifacts only").isEqualTo(GROUP);
      managed.add(text(d, "artifactId"));
    }
    Set<String> libraries = new TreeSet<>();
    for (Distribution.Module m : libraries()) {
      libraries.add(m.artifactId);
    }
    assertThat(managed).as("the BOM names every published library").isEqualTo(libraries);

    JsonNode module = JSON.readTree(staged("voicelink-bom", "", "module").toFile());
    for (String usage : new String[] {"java-api", "java-runtime"}) {
      JsonNode variant = variant(module, "platform", usage);
      Set<String> constraints = new TreeSet<>();
      for (JsonNode c : variant.path("dependencyConstraints")) {
        assertThat(c.path("version").path("requires").asText()).isEqualTo(version());
        constraints.add(c.path("module").asText());
      }
      assertThat(constraints).isEqualTo(libraries);
    }
  }

  private static JsonNode variant(JsonNode module, String category, String usage) {
    JsonNode found = null;
    for (JsonNode v : module.path("variants")) {
      JsonNode a = v.path("attributes");
      if (category.equals(a.path("org.gradle.category").asText()) && usage.equals(a.path("org.gradle.usage").asText())) {
        assertThat(found).as("one " + category + " variant for " + usage).isNull();
        found = v;
      }
    }
    assertThat(found).as(category + " variant for " + usage).isNotNull();
    return found;
  }

  private static String read(ZipFile zip, String entry) throws Exception {
    assertThat(zip.getEntry(entry)).as(entry).isNotNull();
    try (InputStream in = zip.getInputStream(zip.getEntry(entry))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
