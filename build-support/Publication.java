/*
 * Copyright 2026 The VoiceLink SDK Authors
 * SPDX-License-Identifier: Apache-2.0
 */

import static java.util.Comparator.comparing;
import static java.util.stream.Collectors.joining;
import static org.objectweb.asm.Opcodes.*;

import java.io.*;
import java.nio.file.*;
import java.security.MessageDigest;
import java.util.*;
import java.util.jar.*;
import javax.xml.parsers.DocumentBuilderFactory;
import org.objectweb.asm.*;
import org.objectweb.asm.tree.*;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The two steps of publication that the build runs itself (root pom.xml, exec-maven-plugin), one command each:
 *
 * <pre>
 * java -cp ASM build-support/Publication.java api-baseline --jar=J --api=A --mode=check|dump
 * java -cp ASM build-support/Publication.java gradle-module-metadata --pom=P --out=M --elements=jar|aar
 *     [--library=F --jvm-version=N --platform=G:A|none] [--sources=F] [--javadoc=F]
 * </pre>
 *
 * <p>A source-file program: ASM ({@code org.ow2.asm:asm} and {@code asm-tree}, the plugin's dependencies) is its
 * only class path. See {@link ApiDump} and {@link GradleModuleMetadata}.
 */
public final class Publication {
  public static void main(String[] args) throws Exception {
    String command = args.length == 0 ? "" : args[0];
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : Arrays.asList(args).subList(Math.min(1, args.length), args.length)) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got: " + arg);
      }
      options.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
    switch (command) {
      case "api-baseline" -> ApiDump.run(new Options(options));
      case "gradle-module-metadata" -> GradleModuleMetadata.run(new Options(options));
      default -> throw new IllegalArgumentException("expected api-baseline or gradle-module-metadata, got: " + command);
    }
  }

  /** A Java or JSON string literal: quotes, backslashes, control characters and those above {@code last} escaped. */
  static String quote(String text, int last) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > last) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}

/** A command's {@code --name=value} options. */
record Options(Map<String, String> values) {
  String required(String name) {
    String value = values.get(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("missing --" + name + "=...");
    }
    return value;
  }
}

/**
 * The public API of one published module as text, and the check that it did not change unnoticed.
 *
 * <p>Run by every published library (root pom.xml, "API baseline") on the jar the module has just packaged.
 * {@code dump} writes the API of the jar to A; {@code check} compares it with A and, when they differ, prints every
 * added, removed or changed type and member, and the command that updates A, then exits with status 1.
 *
 * <p>The format is that of the Kotlin binary-compatibility-validator's {@code .api} files (OkHttp's
 * {@code api/okhttp.api}): one block per type, sorted by binary name, with its modifiers, superclass (unless
 * {@code java/lang/Object}) and interfaces; in it the fields sorted by name, then the constructors and methods
 * sorted by name and descriptor, each with its modifiers and erased JVM descriptor.
 *
 * <p>What is API: public types, and protected nested types of public non-final types, whose enclosing types are
 * API too; their public members, and their protected members when the type is not final. Left out: every type
 * of a package that has a segment named {@code internal}; local and anonymous classes; synthetic members other
 * than bridge methods; and every type or member annotated with an annotation whose simple name ends in
 * {@code Internal}. ASM reads the class files as they are (nothing is loaded or resolved), so the same dump comes
 * from any bytecode version, Java 8 included; it counts the Synthetic attribute of pre-Java 5 members as synthetic.
 */
final class ApiDump {
  static final String UPDATE_COMMAND = "./mvnw -B -ntp -Papi-dump package";

  /** The JSpecify annotations whose positions the dump records, by descriptor. */
  private static final Map<String, String> NULLNESS = Map.of(
      "Lorg/jspecify/annotations/Nullable;", "@Nullable", "Lorg/jspecify/annotations/NonNull;", "@NonNull");
  /**
   * Kotlin's nullable types, as the Kotlin compiler marks them on public declarations (a declaration
   * annotation kept in the class file, not a type annotation): recorded as JSpecify's are, so that a
   * Kotlin type that becomes nullable, or stops being, is a change too.
   */
  private static final String KOTLIN_NULLABLE = "Lorg/jetbrains/annotations/Nullable;";
  /** The JSpecify annotations that set the nullness of a whole package or class, by descriptor. */
  private static final Map<String, String> NULLNESS_SCOPE = Map.of("Lorg/jspecify/annotations/NullMarked;",
      "@NullMarked", "Lorg/jspecify/annotations/NullUnmarked;", "@NullUnmarked");

  static void run(Options options) throws IOException {
    Path jar = Paths.get(options.required("jar"));
    Path api = Paths.get(options.required("api"));
    String mode = options.required("mode");
    String dump = dump(readJar(jar));
    if ("dump".equals(mode)) {
      Files.createDirectories(api.toAbsolutePath().getParent());
      Files.writeString(api, dump);
      System.out.println("API baseline written: " + api);
    } else if ("check".equals(mode)) {
      if (!check(api, dump, System.err)) {
        System.exit(1);
      }
    } else {
      throw new IllegalArgumentException("--mode must be check or dump, got: " + mode);
    }
  }

  /** Compares the dump of the jar with the baseline; prints the differences and returns false if there are any. */
  static boolean check(Path api, String actual, PrintStream err) throws IOException {
    if (!Files.exists(api)) {
      err.println("API baseline missing: " + api + " (a published module needs one)"
          + " — run " + UPDATE_COMMAND + " to create it, then commit it");
      return false;
    }
    String expected = Files.readString(api).replace("\r\n", "\n");
    if (expected.equals(actual)) {
      return true;
    }
    List<String> changes = diff(parse(expected), parse(actual));
    if (changes.isEmpty()) {
      // same declarations in another order or layout: the file was edited by hand
      changes.add("the baseline is not in the generated layout");
    }
    for (String change : changes) {
      err.println("API changed: " + change);
    }
    err.println("The public API differs from its baseline " + api + " — if the change is intended, run "
        + UPDATE_COMMAND + " to update the baseline, and commit it with the change (docs/versioning.md)");
    return false;
  }

  // ---------------------------------------------------------------- the text format

  /** The API of the given classes, by name, in the .api text format. */
  static String dump(Map<String, ClassNode> classes) {
    StringBuilder out = new StringBuilder();
    // Each package of the API, with the nullness scope of its package-info: without @NullMarked there,
    // Kotlin sees every type of the package as a platform type.
    Map<String, String> packages = new TreeMap<>();
    for (ClassNode c : classes.values()) {
      if (isApi(c, classes)) {
        String pkg = c.name.substring(0, Math.max(0, c.name.lastIndexOf('/')));
        ClassNode info = classes.get(pkg + "/package-info");
        packages.put(pkg, "package " + pkg + (info == null ? "" : scopeNotes(annotations(info))));
      }
    }
    for (String header : packages.values()) {
      out.append(header).append(" {\n}\n\n");
    }
    for (ClassNode c : classes.values()) {
      if (!isApi(c, classes)) {
        continue;
      }
      out.append(header(c)).append(" {\n");
      boolean open = !isFinal(c);
      c.fields.stream()
          .filter(f -> isApi(f.access, f.name, annotations(f.visibleAnnotations, f.invisibleAnnotations), open))
          .sorted(comparing((FieldNode f) -> f.name).thenComparing(f -> f.desc))
          .forEach(f -> out.append('\t').append(modifiers(f.access, false)).append("field ").append(f.name)
              .append(' ').append(f.desc).append(f.value == null ? "" : " = " + constant(f.value, f.desc))
              .append(typeNotes(f.signature, withKotlinNullable(
                  nullness(f.visibleTypeAnnotations, f.invisibleTypeAnnotations),
                  annotations(f.visibleAnnotations, f.invisibleAnnotations), "field")))
              .append('\n'));
      c.methods.stream()
          .filter(m -> isApi(m.access, m.name, annotations(m.visibleAnnotations, m.invisibleAnnotations), open))
          .sorted(comparing((MethodNode m) -> m.name).thenComparing(m -> m.desc))
          .forEach(m -> out.append('\t').append(modifiers(m.access, true)).append("fun ").append(m.name)
              .append(' ').append(m.desc)
              .append(m.exceptions.isEmpty() ? "" : " throws " + m.exceptions.stream().sorted().collect(joining(", ")))
              .append(typeNotes(m.signature, kotlinParameterNullness(m, withKotlinNullable(
                  nullness(m.visibleTypeAnnotations, m.invisibleTypeAnnotations),
                  annotations(m.visibleAnnotations, m.invisibleAnnotations), "return"))))
              .append('\n'));
      out.append("}\n\n");
    }
    return out.toString();
  }

  private static String header(ClassNode c) {
    int access = access(c);
    // whether a nested class is static shows in its constructors' descriptors
    StringBuilder line = new StringBuilder(modifiers(access & ~(ACC_SYNTHETIC | ACC_STATIC), false))
        .append((access & ACC_INTERFACE) != 0 ? "interface " : "")
        .append((access & ACC_ANNOTATION) != 0 ? "annotation " : "").append("class ").append(c.name);
    List<String> supertypes = new ArrayList<>();
    if (c.superName != null && !"java/lang/Object".equals(c.superName)) {
      supertypes.add(c.superName);
    }
    c.interfaces.stream().sorted().forEach(supertypes::add);
    if (!supertypes.isEmpty()) {
      line.append(" : ").append(String.join(", ", supertypes));
    }
    String notes = typeNotes(c.signature, nullness(c.visibleTypeAnnotations, c.invisibleTypeAnnotations));
    String scope = scopeNotes(annotations(c));
    if (!scope.isEmpty()) {
      notes = notes.isEmpty() ? scope : notes + scope.substring(" //".length());
    }
    return line.append(notes).toString();
  }

  /** The JSpecify nullness scope annotations among {@code annotations}, as a note, or nothing. */
  private static String scopeNotes(List<String> annotations) {
    String notes = annotations.stream().filter(NULLNESS_SCOPE::containsKey).map(a -> " " + NULLNESS_SCOPE.get(a))
        .collect(joining());
    return notes.isEmpty() ? "" : " //" + notes;
  }

  /**
   * What the erased descriptor does not say and Java and Kotlin callers compile against: the generic signature,
   * and the JSpecify nullness annotations by position ({@code return}, {@code param0}, {@code field},
   * {@code typeparam0.bound0}, ...) and path in the type ({@code <0>} a type argument, {@code []} an array's
   * component, {@code ?} a wildcard's bound, {@code .} an inner type).
   */
  private static String typeNotes(String signature, Map<String, Set<String>> nullness) {
    StringBuilder notes = new StringBuilder();
    if (signature != null) {
      notes.append(" generic ").append(signature);
    }
    nullness.forEach((label, positions) -> notes.append(' ').append(label).append('(')
        .append(String.join(", ", positions)).append(')'));
    return notes.length() == 0 ? "" : " //" + notes;
  }

  /** The modifiers that access flags say, each followed by a space; a method's also bridge and varargs. */
  private static String modifiers(int access, boolean method) {
    String[] words = {"public", "protected", "static", "final", "abstract", "synthetic", "bridge", "varargs"};
    int[] flags = {ACC_PUBLIC, ACC_PROTECTED, ACC_STATIC, ACC_FINAL, ACC_ABSTRACT, ACC_SYNTHETIC, ACC_BRIDGE,
        ACC_VARARGS};
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < (method ? words.length : words.length - 2); i++) {
      if ((access & flags[i]) != 0) {
        s.append(words[i]).append(' ');
      }
    }
    return s.toString();
  }

  /**
   * A constant field's value as source would write it: javac inlines it into the callers' class
   * files, so a new value is an incompatible change for code compiled against the old one.
   */
  private static String constant(Object value, String descriptor) {
    if (value instanceof String text) {
      return Publication.quote(text, 0x7e);
    }
    return switch (descriptor) {
      case "Z" -> (Integer) value != 0 ? "true" : "false";
      case "C" -> String.format("'\\u%04x'", (Integer) value);
      case "J" -> value + "L";
      case "F" -> value + "f";
      default -> String.valueOf(value);
    };
  }

  private static boolean isApi(ClassNode c, Map<String, ClassNode> classes) {
    if (c.name.endsWith("/package-info") || c.name.equals("module-info") || isInternal(annotations(c))
        || Arrays.asList(c.name.split("/")).contains("internal")) {
      return false;
    }
    InnerClassNode nested = nesting(c);
    if (nested == null) {
      return (c.access & ACC_PUBLIC) != 0;
    }
    if (nested.outerName == null || nested.innerName == null) {
      return false; // local or anonymous
    }
    ClassNode outer = classes.get(nested.outerName);
    if (outer == null || !isApi(outer, classes)) {
      return false;
    }
    return (nested.access & ACC_PUBLIC) != 0 || ((nested.access & ACC_PROTECTED) != 0 && !isFinal(outer));
  }

  private static boolean isApi(int access, String name, List<String> annotations, boolean openType) {
    if (isInternal(annotations) || "<clinit>".equals(name)) {
      return false;
    }
    if ((access & ACC_SYNTHETIC) != 0 && (access & ACC_BRIDGE) == 0) {
      return false;
    }
    return (access & ACC_PUBLIC) != 0 || ((access & ACC_PROTECTED) != 0 && openType);
  }

  private static boolean isInternal(List<String> annotations) {
    return annotations.stream().anyMatch(a -> a.endsWith("Internal;"));
  }

  private static boolean isFinal(ClassNode c) {
    return (access(c) & ACC_FINAL) != 0;
  }

  /** The entry of the InnerClasses attribute that describes the class itself: a member, local or anonymous class. */
  private static InnerClassNode nesting(ClassNode c) {
    return c.innerClasses.stream().filter(i -> i.name.equals(c.name)).reduce((a, b) -> b).orElse(null);
  }

  /** The declared access of a nested class (private, protected, static), else that of the class file. */
  private static int access(ClassNode c) {
    InnerClassNode nested = nesting(c);
    return nested == null ? c.access : nested.access;
  }

  // ---------------------------------------------------------------- reading class files

  static Map<String, ClassNode> readJar(Path jar) throws IOException {
    Map<String, ClassNode> classes = new TreeMap<>();
    try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
      for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
        // META-INF/versions/... holds other releases' variants of the same classes: the base ones are the API
        if (e.isDirectory() || !e.getName().endsWith(".class") || e.getName().startsWith("META-INF/")) {
          continue;
        }
        ClassNode c = new ClassNode();
        // declarations only: no code (nor its type annotations, of locals), no debug information
        new ClassReader(in.readAllBytes()).accept(c, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG);
        classes.put(c.name, c);
      }
    }
    return classes;
  }

  /** The type descriptors of a class's declaration annotations, visible and invisible at run time. */
  private static List<String> annotations(ClassNode c) {
    return annotations(c.visibleAnnotations, c.invisibleAnnotations);
  }

  private static List<String> annotations(List<AnnotationNode> visible, List<AnnotationNode> invisible) {
    List<String> descriptors = new ArrayList<>();
    for (List<AnnotationNode> list : Arrays.asList(visible, invisible)) {
      if (list != null) {
        list.forEach(a -> descriptors.add(a.desc));
      }
    }
    return descriptors;
  }

  /** The position and type path of each JSpecify nullness annotation of a class, field or method, by annotation. */
  private static Map<String, Set<String>> nullness(List<TypeAnnotationNode> visible,
      List<TypeAnnotationNode> invisible) {
    Map<String, Set<String>> positions = new TreeMap<>();
    for (List<TypeAnnotationNode> list : Arrays.asList(visible, invisible)) {
      for (TypeAnnotationNode a : list == null ? List.<TypeAnnotationNode>of() : list) {
        String label = NULLNESS.get(a.desc);
        if (label != null) {
          positions.computeIfAbsent(label, k -> new TreeSet<>()).add(position(a.typeRef) + path(a.typePath));
        }
      }
    }
    return positions;
  }

  /** {@code positions} with {@code position} added to its nullable ones when {@code annotations} has Kotlin's. */
  private static Map<String, Set<String>> withKotlinNullable(Map<String, Set<String>> positions,
      List<String> annotations, String position) {
    if (annotations.contains(KOTLIN_NULLABLE)) {
      positions.computeIfAbsent(NULLNESS.get("Lorg/jspecify/annotations/Nullable;"), k -> new TreeSet<>())
          .add(position);
    }
    return positions;
  }

  /**
   * {@code positions} with the parameters of {@code m} that Kotlin marks nullable. A parameter's annotations are
   * counted from the first one that can have any (javac leaves out the leading synthetic ones of an enum's or an
   * inner class's constructor): its position is its index in the descriptor.
   */
  private static Map<String, Set<String>> kotlinParameterNullness(MethodNode m, Map<String, Set<String>> positions) {
    int parameters = Type.getArgumentTypes(m.desc).length;
    for (List<AnnotationNode>[] byParameter : Arrays.asList(m.visibleParameterAnnotations, m.invisibleParameterAnnotations)) {
      if (byParameter == null) {
        continue;
      }
      int first = parameters - byParameter.length;
      for (int i = 0; i < byParameter.length; i++) {
        List<String> descriptors = annotations(byParameter[i], null);
        withKotlinNullable(positions, descriptors, "param" + (first + i));
      }
    }
    return positions;
  }

  private static String position(int typeRef) {
    TypeReference ref = new TypeReference(typeRef);
    return switch (ref.getSort()) {
      case TypeReference.CLASS_TYPE_PARAMETER, TypeReference.METHOD_TYPE_PARAMETER ->
          "typeparam" + ref.getTypeParameterIndex();
      case TypeReference.CLASS_EXTENDS -> ref.getSuperTypeIndex() < 0 ? "super" : "interface" + ref.getSuperTypeIndex();
      case TypeReference.CLASS_TYPE_PARAMETER_BOUND, TypeReference.METHOD_TYPE_PARAMETER_BOUND ->
          "typeparam" + ref.getTypeParameterIndex() + ".bound" + ref.getTypeParameterBoundIndex();
      case TypeReference.FIELD -> "field";
      case TypeReference.METHOD_RETURN -> "return";
      case TypeReference.METHOD_RECEIVER -> "this";
      case TypeReference.METHOD_FORMAL_PARAMETER -> "param" + ref.getFormalParameterIndex();
      case TypeReference.THROWS -> "throws" + ref.getExceptionIndex();
      // the other targets are in Code attributes only
      default -> throw new IllegalStateException("unexpected type annotation target 0x"
          + Integer.toHexString(ref.getSort()));
    };
  }

  private static String path(TypePath path) {
    StringBuilder steps = new StringBuilder();
    for (int i = 0; path != null && i < path.getLength(); i++) {
      steps.append(switch (path.getStep(i)) {
        case TypePath.ARRAY_ELEMENT -> "[]";
        case TypePath.INNER_TYPE -> ".";
        case TypePath.WILDCARD_BOUND -> "?";
        default -> "<" + path.getStepArgument(i) + ">";
      });
    }
    return steps.toString();
  }

  // ---------------------------------------------------------------- comparing two dumps

  /** Each type's header line and its member lines, by binary name. */
  static Map<String, Block> parse(String dump) {
    Map<String, Block> blocks = new TreeMap<>();
    Block current = null;
    for (String line : dump.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      if (current == null) {
        if (!line.endsWith(" {")) {
          throw new IllegalArgumentException("not a type header: " + line);
        }
        current = Block.of(line.substring(0, line.length() - 2));
        blocks.put(current.name(), current);
      } else if ("}".equals(line)) {
        current = null;
      } else {
        Declaration member = Declaration.of(line.trim());
        current.members().put(member.key(), member);
      }
    }
    return blocks;
  }

  static List<String> diff(Map<String, Block> expected, Map<String, Block> actual) {
    List<String> changes = new ArrayList<>();
    for (Block before : expected.values()) {
      Block after = actual.get(before.name());
      String type = before.name().replace('/', '.');
      if (after == null) {
        changes.add("removed " + before.kind() + " " + type);
        continue;
      }
      if (!before.header().equals(after.header())) {
        changes.add("changed " + before.kind() + " " + type + ": `" + before.header() + "` is now `"
            + after.header() + "`");
      }
      Map<String, List<Declaration>> removed = new TreeMap<>();
      Map<String, List<Declaration>> added = new TreeMap<>();
      for (Declaration m : before.members().values()) {
        Declaration now = after.members().get(m.key());
        if (now == null) {
          removed.computeIfAbsent(m.signature(), k -> new ArrayList<>()).add(m);
        } else if (!now.line().equals(m.line())) {
          changes.add("changed " + m.readable(type) + ": `" + m.line() + "` is now `" + now.line() + "`");
        }
      }
      for (Declaration m : after.members().values()) {
        if (!before.members().containsKey(m.key())) {
          added.computeIfAbsent(m.signature(), k -> new ArrayList<>()).add(m);
        }
      }
      for (List<Declaration> gone : removed.values()) {
        List<Declaration> replacement = added.get(gone.get(0).signature());
        if (gone.size() == 1 && replacement != null && replacement.size() == 1) {
          // the same member with another type (a method's return type, a field's type)
          Declaration m = gone.get(0);
          changes.add("changed " + m.readable(type) + ": `" + m.line() + "` is now `" + replacement.get(0).line()
              + "`");
          added.remove(m.signature());
        } else {
          for (Declaration m : gone) {
            changes.add("removed " + m.readable(type) + "  [" + m.line() + "]");
          }
        }
      }
      for (List<Declaration> created : added.values()) {
        for (Declaration m : created) {
          changes.add("added " + m.readable(type) + "  [" + m.line() + "]");
        }
      }
    }
    for (Block after : actual.values()) {
      if (!expected.containsKey(after.name())) {
        changes.add("added " + after.kind() + " " + after.name().replace('/', '.') + "  [" + after.header() + "]");
      }
    }
    return changes;
  }

  /** A type's header line and its members' lines, by {@link Declaration#key()}. */
  record Block(String header, String name, Map<String, Declaration> members) {
    static Block of(String header) {
      String head = header.replaceFirst(" // .*", "").replaceFirst(" : .*", "");
      return new Block(header, head.substring(head.lastIndexOf(' ') + 1), new TreeMap<>());
    }

    String kind() {
      if (header.startsWith("package ")) {
        return "package";
      }
      String head = " " + header.substring(0, header.indexOf(" class ") + 1);
      return head.contains(" annotation ") ? "annotation" : head.contains(" interface ") ? "interface" : "class";
    }
  }

  /** A field or method line of the dump. */
  record Declaration(String line, boolean field, String name, String descriptor) {
    static Declaration of(String line) {
      String[] words = line.split(" ");
      int keyword = 0;
      while (keyword < words.length && !"fun".equals(words[keyword]) && !"field".equals(words[keyword])) {
        keyword++;
      }
      if (keyword + 2 >= words.length) {
        throw new IllegalArgumentException("not a member: " + line);
      }
      return new Declaration(line, "field".equals(words[keyword]), words[keyword + 1], words[keyword + 2]);
    }

    /** A field by its name, a method by its name and descriptor (a bridge shares the name and parameters). */
    String key() {
      return field ? "field " + name : "fun " + name + descriptor;
    }

    /** What source code names: a field's name, a method's name and parameter types. */
    String signature() {
      return field ? "field " + name : "fun " + name + descriptor.substring(0, descriptor.indexOf(')') + 1);
    }

    /** {@code method a.B.c(java.lang.String, int[], long)}, {@code constructor a.B(...)}, {@code field a.B.d}. */
    String readable(String type) {
      if (field) {
        return "field " + type + "." + name;
      }
      String params = Arrays.stream(Type.getArgumentTypes(descriptor)).map(Type::getClassName).collect(joining(", "));
      return ("<init>".equals(name) ? "constructor " + type : "method " + type + "." + name) + "(" + params + ")";
    }
  }
}

/**
 * Writes the Gradle Module Metadata (format 1.1) of one published module from its published POM, and marks
 * that POM so that Gradle reads the metadata instead.
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
 * library's build packages a jar and publishes an AAR, so its POM says {@code aar}. Both files are written byte
 * for byte the same for the same inputs. Why not gradle-module-metadata-maven-plugin: docs/building.md.
 */
final class GradleModuleMetadata {
  static final String MARKER = "do_not_remove: published-with-gradle-metadata";

  static void run(Options options) throws Exception {
    Path pom = Paths.get(options.required("pom"));
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Element project = factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
    String version = text(project, "version", null);
    if (text(project, "groupId", null) == null || text(project, "artifactId", null) == null || version == null) {
      throw new IllegalStateException(pom + " lacks its own groupId, artifactId or version: publish a flattened POM");
    }
    String text = Files.readString(pom);
    String packaging = text(project, "packaging", "jar");
    if (!"pom".equals(packaging) && !packaging.equals(options.required("elements"))) {
      // The Android library's build packages a jar and publishes an AAR: its POM must say aar.
      packaging = options.required("elements");
      String element = "<packaging>" + packaging + "</packaging>";
      text = text.contains("<packaging>") ? text.replaceFirst("<packaging>[^<]*</packaging>", element)
          : text.replaceFirst("</version>", "</version>\n  " + element);
    }
    if (!text.contains(MARKER)) {
      // Gradle looks for this comment in a POM before it looks for the .module file next to it.
      text = text.replaceFirst("<modelVersion>", "<!-- This module is also published with Gradle Module Metadata"
          + " (the .module file next to this POM), which Gradle reads instead. -->\n  <!-- " + MARKER
          + " -->\n  <modelVersion>");
    }
    Files.writeString(pom, text);
    Object json = object("formatVersion", "1.1", "component", object("group", text(project, "groupId", null),
            "module", text(project, "artifactId", null), "version", version,
            "attributes", object("org.gradle.status", version.endsWith("-SNAPSHOT") ? "integration" : "release")),
        "variants", "pom".equals(packaging) ? platform(project) : library(project, packaging, options));
    Path out = Paths.get(options.required("out"));
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, json(json, "") + "\n");
  }

  private static List<Object> library(Element project, String elements, Options options) throws Exception {
    List<Object> variants = new ArrayList<>();
    for (String usage : List.of("java-api", "java-runtime")) {
      Map<String, Object> attributes = object("org.gradle.category", "library",
          "org.gradle.dependency.bundling", "external");
      if ("jar".equals(elements)) {
        // An AAR says nothing about a JVM version (the Android Gradle plugin publishes none either).
        attributes.put("org.gradle.jvm.version", Integer.parseInt(options.required("jvm-version")));
      }
      attributes.put("org.gradle.libraryelements", elements);
      attributes.put("org.gradle.usage", usage);
      List<Object> dependencies = new ArrayList<>();
      for (Element d : children(child(project, "dependencies"), "dependency")) {
        Object dependency = dependency(d, project);
        String scope = text(d, "scope", "compile");
        if (!Boolean.parseBoolean(text(d, "optional", "false"))
            && ("compile".equals(scope) || ("runtime".equals(scope) && usage.equals("java-runtime")))) {
          dependencies.add(dependency);
        }
      }
      String platform = options.required("platform");
      if (!platform.equals("none")) {
        dependencies.add(alignment(project, platform));
      }
      variants.add(object("name", usage.equals("java-api") ? "apiElements" : "runtimeElements",
          "attributes", attributes, "dependencies", dependencies,
          "files", files(project, Paths.get(options.required("library")), "." + elements)));
    }
    for (String kind : List.of("sources", "javadoc")) {
      String file = options.values().get(kind);
      if (file == null || !Files.isRegularFile(Paths.get(file))) {
        continue;   // not built (-Dmaven.javadoc.skip): no variant; the distribution tests then fail on it
      }
      variants.add(object("name", kind + "Elements", "attributes", object("org.gradle.category", "documentation",
              "org.gradle.dependency.bundling", "external", "org.gradle.docstype", kind,
              "org.gradle.usage", "java-runtime"),
          "files", files(project, Paths.get(file), "-" + kind + ".jar")));
    }
    return variants;
  }

  /**
   * The project's BOM as a platform of the same version (Gradle's published-platform alignment): the
   * libraries call each other's internal classes, so a newer one of them, pulled in by any path, brings
   * the others to its version instead of running against older ones.
   */
  private static Object alignment(Element project, String platform) {
    int colon = platform.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("--platform must be group:artifact; was: " + platform);
    }
    return object("group", platform.substring(0, colon), "module", platform.substring(colon + 1),
        "version", object("requires", text(project, "version", null)),
        "attributes", object("org.gradle.category", "platform"));
  }

  /** A BOM's two variants of a Gradle platform: a constraint for every module it manages. */
  private static List<Object> platform(Element project) {
    List<Object> variants = new ArrayList<>();
    for (String usage : List.of("java-api", "java-runtime")) {
      // the same module managed once per type (an AAR and its classes jar): one constraint
      Map<String, Object> constraints = new LinkedHashMap<>();
      for (Element d : children(child(child(project, "dependencyManagement"), "dependencies"), "dependency")) {
        constraints.putIfAbsent(text(d, "groupId", null) + ":" + text(d, "artifactId", null),
            object("group", text(d, "groupId", null), "module", text(d, "artifactId", null),
                "version", object("requires", version(d, project))));
      }
      variants.add(object("name", usage.equals("java-api") ? "apiElements" : "runtimeElements",
          "attributes", object("org.gradle.category", "platform", "org.gradle.usage", usage),
          "dependencyConstraints", new ArrayList<>(constraints.values())));
    }
    return variants;
  }

  /** A POM dependency as Gradle's: its version resolved, its exclusions, its artifact when not the plain jar. */
  private static Map<String, Object> dependency(Element d, Element project) {
    Map<String, Object> json = object("group", text(d, "groupId", null), "module", text(d, "artifactId", null),
        "version", object("requires", version(d, project)));
    List<Element> exclusions = children(child(d, "exclusions"), "exclusion");
    if (!exclusions.isEmpty()) {
      json.put("excludes", exclusions.stream()
          .map(x -> object("group", text(x, "groupId", "*"), "module", text(x, "artifactId", "*"))).toList());
    }
    String type = text(d, "type", "jar");
    String classifier = text(d, "classifier", "");
    if (!"jar".equals(type) || !classifier.isEmpty()) {
      Map<String, Object> selector = object("name", text(d, "artifactId", null), "type", type);
      if (!classifier.isEmpty()) {
        selector.put("classifier", classifier);
      }
      json.put("thirdPartyCompatibility", object("artifactSelector", selector));
    }
    return json;
  }

  /** A dependency's version; a BOM names its own as ${project.version}. */
  private static String version(Element d, Element project) {
    String version = text(d, "version", "${}").replace("${project.version}", text(project, "version", null));
    if (version.contains("${")) {
      throw new IllegalStateException(text(d, "groupId", null) + ":" + text(d, "artifactId", null)
          + " has no resolved version");
    }
    return version;
  }

  /** The file as the repository names it beside the POM, with its size and checksums. */
  private static List<Object> files(Element project, Path file, String suffix) throws Exception {
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException("no such file: " + file);
    }
    String name = text(project, "artifactId", null) + "-" + text(project, "version", null) + suffix;
    Map<String, Object> json = object("name", name, "url", name, "size", Files.size(file));
    byte[] bytes = Files.readAllBytes(file);
    for (String algorithm : List.of("SHA-512", "SHA-256", "SHA-1", "MD5")) {
      json.put(algorithm.toLowerCase(Locale.ROOT).replace("-", ""),
          HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes)));
    }
    return List.of(json);
  }

  /** A JSON object of the given names and values, in that order. */
  private static Map<String, Object> object(Object... namesAndValues) {
    Map<String, Object> object = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      object.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return object;
  }

  /** JSON in Gradle's own layout: two-space indents, one value per line. */
  private static String json(Object value, String indent) {
    String inner = indent + "  ";
    if (value instanceof Map<?, ?> map) {
      StringJoiner out = new StringJoiner(",\n" + inner, "{\n" + inner, "\n" + indent + "}").setEmptyValue("{}");
      map.forEach((name, v) -> out.add(json(name, inner) + ": " + json(v, inner)));
      return out.toString();
    }
    if (value instanceof List<?> list) {
      StringJoiner out = new StringJoiner(",\n" + inner, "[\n" + inner, "\n" + indent + "]").setEmptyValue("[]");
      list.forEach(v -> out.add(json(v, inner)));
      return out.toString();
    }
    return value instanceof String text ? Publication.quote(text, Character.MAX_VALUE) : String.valueOf(value);
  }

  /** The child elements of that name; none of an absent parent. */
  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent == null ? null : parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && name.equals(e.getNodeName())) {
        found.add(e);
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
}
