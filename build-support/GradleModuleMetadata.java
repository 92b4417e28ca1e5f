/*
 * Copyright 2026 The VoiceLink SDK Authors
 * SPDX-License-Identifier: Apache-2.0
 */

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Writes the Gradle Module Metadata (format 1.1) of one published module from its published POM, and marks
 * that POM so that Gradle reads the metadata instead.
 *
 * <p>Run by every published module (root pom.xml, "Publication") as a source-file program:
 * {@code java GradleModuleMetadata.java --pom=P --out=M --elements=jar|aar [--library=F --jvm-version=N
 * --platform=G:A] [--sources=F] [--javadoc=F]}.
 *
 * <ul>
 *   <li>A library (jar or AAR) gets four variants: the API and the runtime of the library file with the
 *       POM's compile (API) and compile + runtime (runtime) dependencies and the project's BOM as a
 *       platform ({@code --platform=group:artifact}, for version alignment; {@code none} for a library
 *       that calls no other), and its sources and javadoc.</li>
 *   <li>A BOM (packaging {@code pom}) gets the two variants of a Gradle platform: a dependency constraint for
 *       every artifact its {@code dependencyManagement} names.</li>
 * </ul>
 *
 * <p>The POM is the single source: the dependencies of the metadata are those of the POM, so the two can never
 * disagree. A library POM gets the packaging of its variants' file ({@code --elements}): the Android
 * library's build packages a jar and publishes an AAR, so its POM says {@code aar}. Both files are written byte for byte the same for the same inputs.
 */
public final class GradleModuleMetadata {
  static final String MARKER = "do_not_remove: published-with-gradle-metadata";

  private GradleModuleMetadata() {
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got: " + arg);
      }
      options.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
    Path pom = Paths.get(required(options, "pom"));
    Pom model = Pom.read(pom);
    if (!"pom".equals(model.packaging) && !model.packaging.equals(required(options, "elements"))) {
      // The Android library's build packages a jar and publishes an AAR: its POM must say aar.
      setPackaging(pom, options.get("elements"));
      model = Pom.read(pom);
    }
    markPom(pom);
    String json = "pom".equals(model.packaging) ? platform(model) : library(model, options);
    Path out = Paths.get(required(options, "out"));
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, json.getBytes(StandardCharsets.UTF_8));
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("missing --" + name + "=...");
    }
    return value;
  }

  /** Gradle looks for this comment in a POM before it looks for the .module file next to it. */
  static void markPom(Path pom) throws IOException {
    String text = new String(Files.readAllBytes(pom), StandardCharsets.UTF_8);
    if (text.contains(MARKER)) {
      return;
    }
    int at = text.indexOf("<modelVersion>");
    if (at < 0) {
      throw new IllegalStateException(pom + " has no <modelVersion>");
    }
    String comment = "<!-- This module is also published with Gradle Module Metadata (the .module file next to"
        + " this POM), which Gradle reads instead. -->\n  <!-- " + MARKER + " -->\n  ";
    Files.write(pom, (text.substring(0, at) + comment + text.substring(at)).getBytes(StandardCharsets.UTF_8));
  }

  static void setPackaging(Path pom, String packaging) throws IOException {
    String text = new String(Files.readAllBytes(pom), StandardCharsets.UTF_8);
    String element = "<packaging>" + packaging + "</packaging>";
    String updated;
    if (text.contains("<packaging>")) {
      updated = text.replaceFirst("<packaging>[^<]*</packaging>", element);
    } else {
      int version = text.indexOf("</version>");
      if (version < 0) {
        throw new IllegalStateException(pom + " has no <version>");
      }
      int end = version + "</version>".length();
      updated = text.substring(0, end) + "\n  " + element + text.substring(end);
    }
    Files.write(pom, updated.getBytes(StandardCharsets.UTF_8));
  }

  private static String library(Pom pom, Map<String, String> options) throws IOException {
    String elements = required(options, "elements");
    Path library = Paths.get(required(options, "library"));
    Json json = header(pom);
    json.name("variants").beginArray();
    for (String usage : new String[] {"java-api", "java-runtime"}) {
      json.beginObject();
      json.name("name").value(usage.equals("java-api") ? "apiElements" : "runtimeElements");
      json.name("attributes").beginObject();
      json.name("org.gradle.category").value("library");
      json.name("org.gradle.dependency.bundling").value("external");
      if ("jar".equals(elements)) {
        // An AAR says nothing about a JVM version (the Android Gradle plugin publishes none either).
        json.name("org.gradle.jvm.version").number(Integer.parseInt(required(options, "jvm-version")));
      }
      json.name("org.gradle.libraryelements").value(elements);
      json.name("org.gradle.usage").value(usage);
      json.endObject();
      List<Dependency> dependencies = new ArrayList<>();
      for (Dependency d : pom.dependencies) {
        if (!d.optional && ("compile".equals(d.scope) || ("runtime".equals(d.scope) && usage.equals("java-runtime")))) {
          dependencies.add(d);
        }
      }
      json.name("dependencies").beginArray();
      for (Dependency d : dependencies) {
        dependency(json, d);
      }
      String platform = required(options, "platform");
      if (!platform.equals("none")) alignment(json, pom, platform);
      json.endArray();
      files(json, pom, library, "", elements);
      json.endObject();
    }
    documentation(json, pom, options, "sources");
    documentation(json, pom, options, "javadoc");
    json.endArray();
    return json.end();
  }

  /**
   * The project's BOM as a platform of the same version (Gradle's published-platform alignment): the
   * libraries call each other's internal classes, so a newer one of them, pulled in by any path, brings
   * the others to its version instead of running against older ones.
   */
  private static void alignment(Json json, Pom pom, String platform) {
    int colon = platform.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("--platform must be group:artifact; was: " + platform);
    }
    json.beginObject();
    json.name("group").value(platform.substring(0, colon));
    json.name("module").value(platform.substring(colon + 1));
    json.name("version").beginObject().name("requires").value(pom.version).endObject();
    json.name("attributes").beginObject().name("org.gradle.category").value("platform").endObject();
    json.endObject();
  }

  private static void documentation(Json json, Pom pom, Map<String, String> options, String kind)
      throws IOException {
    String file = options.get(kind);
    if (file == null || !Files.isRegularFile(Paths.get(file))) {
      return;   // not built (-Dmaven.javadoc.skip): no variant; the distribution tests then fail on it
    }
    json.beginObject();
    json.name("name").value(kind + "Elements");
    json.name("attributes").beginObject();
    json.name("org.gradle.category").value("documentation");
    json.name("org.gradle.dependency.bundling").value("external");
    json.name("org.gradle.docstype").value(kind);
    json.name("org.gradle.usage").value("java-runtime");
    json.endObject();
    files(json, pom, Paths.get(file), "-" + kind, "jar");
    json.endObject();
  }

  private static String platform(Pom pom) {
    Json json = header(pom);
    json.name("variants").beginArray();
    for (String usage : new String[] {"java-api", "java-runtime"}) {
      json.beginObject();
      json.name("name").value(usage.equals("java-api") ? "apiElements" : "runtimeElements");
      json.name("attributes").beginObject();
      json.name("org.gradle.category").value("platform");
      json.name("org.gradle.usage").value(usage);
      json.endObject();
      json.name("dependencyConstraints").beginArray();
      List<String> seen = new ArrayList<>();
      for (Dependency d : pom.managed) {
        String key = d.groupId + ":" + d.artifactId;
        if (seen.contains(key)) {
          continue;   // the same module managed once per type (an AAR and its classes jar): one constraint
        }
        seen.add(key);
        json.beginObject();
        json.name("group").value(d.groupId);
        json.name("module").value(d.artifactId);
        json.name("version").beginObject().name("requires").value(d.version).endObject();
        json.endObject();
      }
      json.endArray();
      json.endObject();
    }
    json.endArray();
    return json.end();
  }

  private static Json header(Pom pom) {
    Json json = new Json();
    json.beginObject();
    json.name("formatVersion").value("1.1");
    json.name("component").beginObject();
    json.name("group").value(pom.groupId);
    json.name("module").value(pom.artifactId);
    json.name("version").value(pom.version);
    json.name("attributes").beginObject();
    json.name("org.gradle.status").value(pom.version.endsWith("-SNAPSHOT") ? "integration" : "release");
    json.endObject();
    json.endObject();
    return json;
  }

  private static void dependency(Json json, Dependency d) {
    json.beginObject();
    json.name("group").value(d.groupId);
    json.name("module").value(d.artifactId);
    json.name("version").beginObject().name("requires").value(d.version).endObject();
    if (!d.exclusions.isEmpty()) {
      json.name("excludes").beginArray();
      for (String[] exclusion : d.exclusions) {
        json.beginObject().name("group").value(exclusion[0]).name("module").value(exclusion[1]).endObject();
      }
      json.endArray();
    }
    if (!"jar".equals(d.type) || !d.classifier.isEmpty()) {
      json.name("thirdPartyCompatibility").beginObject().name("artifactSelector").beginObject();
      json.name("name").value(d.artifactId);
      json.name("type").value(d.type);
      if (!d.classifier.isEmpty()) {
        json.name("classifier").value(d.classifier);
      }
      json.endObject().endObject();
    }
    json.endObject();
  }

  private static void files(Json json, Pom pom, Path file, String classifier, String extension)
      throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException("no such file: " + file);
    }
    String name = pom.artifactId + "-" + pom.version + classifier + "." + extension;
    json.name("files").beginArray().beginObject();
    json.name("name").value(name);
    json.name("url").value(name);
    json.name("size").number(Files.size(file));
    for (String algorithm : new String[] {"SHA-512", "SHA-256", "SHA-1", "MD5"}) {
      json.name(algorithm.toLowerCase().replace("-", "")).value(digest(file, algorithm));
    }
    json.endObject().endArray();
  }

  private static String digest(Path file, String algorithm) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
      byte[] buffer = new byte[8192];
      while (in.read(buffer) >= 0) {
        // the digest reads along
      }
    }
    StringBuilder hex = new StringBuilder();
    for (byte b : digest.digest()) {
      hex.append(String.format("%02x", b & 0xff));
    }
    return hex.toString();
  }

  /** The parts of a published (flattened) POM that the metadata is made of. */
  static final class Pom {
    String groupId;
    String artifactId;
    String version;
    String packaging = "jar";
    final List<Dependency> dependencies = new ArrayList<>();
    final List<Dependency> managed = new ArrayList<>();

    static Pom read(Path file) throws Exception {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      Document document = factory.newDocumentBuilder().parse(file.toFile());
      Element project = document.getDocumentElement();
      Pom pom = new Pom();
      pom.groupId = text(project, "groupId", null);
      pom.artifactId = text(project, "artifactId", null);
      pom.version = text(project, "version", null);
      pom.packaging = text(project, "packaging", "jar");
      if (pom.groupId == null || pom.artifactId == null || pom.version == null) {
        throw new IllegalStateException(file + " lacks its own groupId, artifactId or version: publish a flattened POM");
      }
      Element dependencies = child(project, "dependencies");
      if (dependencies != null) {
        pom.dependencies.addAll(Dependency.all(dependencies, pom.version));
      }
      Element management = child(project, "dependencyManagement");
      if (management != null && child(management, "dependencies") != null) {
        pom.managed.addAll(Dependency.all(child(management, "dependencies"), pom.version));
      }
      return pom;
    }
  }

  static final class Dependency {
    String groupId;
    String artifactId;
    String version;
    String type;
    String classifier;
    String scope;
    boolean optional;
    final List<String[]> exclusions = new ArrayList<>();

    static List<Dependency> all(Element dependencies, String projectVersion) {
      List<Dependency> all = new ArrayList<>();
      for (Element e : children(dependencies, "dependency")) {
        Dependency d = new Dependency();
        d.groupId = text(e, "groupId", null);
        d.artifactId = text(e, "artifactId", null);
        d.version = text(e, "version", null);
        if (d.version != null) {
          d.version = d.version.replace("${project.version}", projectVersion);   // how a BOM names its own version
        }
        if (d.version == null || d.version.contains("${")) {
          throw new IllegalStateException(d.groupId + ":" + d.artifactId + " has no resolved version");
        }
        d.type = text(e, "type", "jar");
        d.classifier = text(e, "classifier", "");
        d.scope = text(e, "scope", "compile");
        d.optional = Boolean.parseBoolean(text(e, "optional", "false"));
        Element exclusions = child(e, "exclusions");
        if (exclusions != null) {
          for (Element x : children(exclusions, "exclusion")) {
            d.exclusions.add(new String[] {text(x, "groupId", "*"), text(x, "artifactId", "*")});
          }
        }
        all.add(d);
      }
      return all;
    }
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && name.equals(n.getNodeName())) {
        found.add((Element) n);
      }
    }
    return found;
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static String text(Element parent, String name, String absent) {
    Element e = child(parent, name);
    return e == null ? absent : e.getTextContent().trim();
  }

  /** A small pretty-printing JSON writer: two-space indents, one value per line, Gradle's own layout. */
  static final class Json {
    private final StringBuilder out = new StringBuilder();
    private final List<Boolean> first = new ArrayList<>();
    private boolean afterName;

    Json name(String name) {
      separate();
      string(name);
      out.append(": ");
      afterName = true;
      return this;
    }

    Json value(String value) {
      separate();
      string(value);
      return this;
    }

    Json number(long value) {
      separate();
      out.append(value);
      return this;
    }

    Json beginObject() {
      return open('{');
    }

    Json endObject() {
      return close('}');
    }

    Json beginArray() {
      return open('[');
    }

    Json endArray() {
      return close(']');
    }

    String end() {
      endObject();
      return out.append('\n').toString();
    }

    private void separate() {
      if (afterName) {
        afterName = false;
        return;
      }
      if (first.isEmpty()) {
        return;
      }
      int last = first.size() - 1;
      if (!first.get(last)) {
        out.append(',');
      }
      first.set(last, false);
      newline(first.size());
    }

    private Json open(char bracket) {
      separate();
      out.append(bracket);
      first.add(true);
      return this;
    }

    private Json close(char bracket) {
      boolean empty = first.remove(first.size() - 1);
      if (!empty) {
        newline(first.size());
      }
      out.append(bracket);
      return this;
    }

    private void newline(int depth) {
      out.append('\n');
      for (int i = 0; i < depth; i++) {
        out.append("  ");
      }
    }

    private void string(String s) {
      out.append('"');
      for (char c : s.toCharArray()) {
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c < 0x20) {
          out.append(String.format("\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
      out.append('"');
    }
  }
}
