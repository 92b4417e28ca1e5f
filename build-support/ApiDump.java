/*
 * Copyright 2026 The VoiceLink SDK Authors
 * SPDX-License-Identifier: Apache-2.0
 */

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * The public API of one published module as text, and the check that it did not change unnoticed.
 *
 * <p>Run by every published library (root pom.xml, "API baseline") as a source-file program on the jar the module
 * has just packaged: {@code java ApiDump.java --jar=J --api=A --mode=check|dump}. {@code dump} writes the API of
 * the jar to A; {@code check} compares it with A and, when they differ, prints every added, removed or changed
 * type and member, and the command that updates A, then exits with status 1.
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
 * {@code Internal}. The class files are read directly (JDK only: nothing to resolve), so the same dump comes from
 * any bytecode version, Java 8 included.
 */
public final class ApiDump {
  static final String UPDATE_COMMAND = "./mvnw -B -ntp -Papi-dump package";

  private static final int ACC_PUBLIC = 0x0001;
  private static final int ACC_PROTECTED = 0x0004;
  private static final int ACC_STATIC = 0x0008;
  private static final int ACC_FINAL = 0x0010;
  private static final int ACC_BRIDGE = 0x0040;
  private static final int ACC_VARARGS = 0x0080;
  private static final int ACC_INTERFACE = 0x0200;
  private static final int ACC_ABSTRACT = 0x0400;
  private static final int ACC_SYNTHETIC = 0x1000;
  private static final int ACC_ANNOTATION = 0x2000;

  private ApiDump() {
  }

  public static void main(String[] args) throws IOException {
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got: " + arg);
      }
      options.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
    Path jar = Paths.get(required(options, "jar"));
    Path api = Paths.get(required(options, "api"));
    String mode = required(options, "mode");
    String dump = dump(readJar(jar));
    if ("dump".equals(mode)) {
      Files.createDirectories(api.toAbsolutePath().getParent());
      Files.write(api, dump.getBytes(StandardCharsets.UTF_8));
      System.out.println("API baseline written: " + api);
    } else if ("check".equals(mode)) {
      if (!check(api, dump, System.err)) {
        System.exit(1);
      }
    } else {
      throw new IllegalArgumentException("--mode must be check or dump, got: " + mode);
    }
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("missing --" + name + "=...");
    }
    return value;
  }

  /** Compares the dump of the jar with the baseline; prints the differences and returns false if there are any. */
  static boolean check(Path api, String actual, PrintStream err) throws IOException {
    if (!Files.exists(api)) {
      err.println("API baseline missing: " + api + " (a published module needs one)"
          + " — run " + UPDATE_COMMAND + " to create it, then commit it");
      return false;
    }
    String expected = new String(Files.readAllBytes(api), StandardCharsets.UTF_8).replace("\r\n", "\n");
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

  /** The API of the given class files, in the .api text format. */
  static String dump(Map<String, ClassFile> classes) {
    StringBuilder out = new StringBuilder();
    // Each package of the API, with the nullness scope of its package-info: without @NullMarked there,
    // Kotlin sees every type of the package as a platform type.
    Map<String, String> packages = new TreeMap<>();
    for (ClassFile c : classes.values()) {
      if (isApi(c, classes)) {
        String pkg = packageOf(c.name);
        ClassFile info = classes.get(pkg + "/package-info");
        packages.put(pkg, "package " + pkg + (info == null ? "" : scopeNotes(info.annotations)));
      }
    }
    for (String header : packages.values()) {
      out.append(header).append(" {\n}\n\n");
    }
    for (ClassFile c : new TreeMap<>(classes).values()) {
      if (!isApi(c, classes)) {
        continue;
      }
      out.append(header(c)).append(" {\n");
      boolean open = !isFinal(c);
      List<Member> fields = new ArrayList<>();
      List<Member> methods = new ArrayList<>();
      for (Member m : c.fields) {
        if (isApi(m, open)) {
          fields.add(m);
        }
      }
      for (Member m : c.methods) {
        if (isApi(m, open)) {
          methods.add(m);
        }
      }
      Comparator<Member> order = Comparator.<Member, String>comparing(m -> m.name).thenComparing(m -> m.descriptor);
      fields.sort(order);
      methods.sort(order);
      for (Member f : fields) {
        out.append('\t').append(modifiers(f.access, false)).append("field ").append(f.name).append(' ')
            .append(f.descriptor).append(f.constant == null ? "" : " = " + f.constant)
            .append(typeNotes(f.signature, f.nullness)).append('\n');
      }
      for (Member m : methods) {
        out.append('\t').append(modifiers(m.access, true)).append("fun ").append(m.name).append(' ')
            .append(m.descriptor).append(m.exceptions.isEmpty() ? "" : " throws " + String.join(", ", m.exceptions))
            .append(typeNotes(m.signature, m.nullness)).append('\n');
      }
      out.append("}\n\n");
    }
    return out.toString();
  }

  private static String header(ClassFile c) {
    int access = c.effectiveAccess();
    // whether a nested class is static shows in its constructors' descriptors
    StringBuilder line = new StringBuilder(modifiers(access & ~(ACC_SYNTHETIC | ACC_STATIC), false));
    if ((access & ACC_INTERFACE) != 0) {
      line.append("interface ");
    }
    if ((access & ACC_ANNOTATION) != 0) {
      line.append("annotation ");
    }
    line.append("class ").append(c.name);
    List<String> supertypes = new ArrayList<>();
    if (c.superName != null && !"java/lang/Object".equals(c.superName)) {
      supertypes.add(c.superName);
    }
    List<String> interfaces = new ArrayList<>(c.interfaces);
    Collections.sort(interfaces);
    supertypes.addAll(interfaces);
    if (!supertypes.isEmpty()) {
      line.append(" : ").append(String.join(", ", supertypes));
    }
    String notes = typeNotes(c.signature, c.nullness);
    String scope = scopeNotes(c.annotations);
    if (!scope.isEmpty()) {
      notes = notes.isEmpty() ? scope : notes + scope.substring(" //".length());
    }
    return line.append(notes).toString();
  }

  private static String packageOf(String className) {
    int slash = className.lastIndexOf('/');
    return slash < 0 ? "" : className.substring(0, slash);
  }

  /** The JSpecify nullness scope annotations among {@code annotations}, as a note, or nothing. */
  private static String scopeNotes(List<String> annotations) {
    StringBuilder notes = new StringBuilder();
    for (String annotation : annotations) {
      String label = NULLNESS_SCOPE.get(annotation);
      if (label != null) {
        notes.append(' ').append(label);
      }
    }
    return notes.length() == 0 ? "" : " //" + notes;
  }

  /**
   * What the erased descriptor does not say and Java and Kotlin callers compile against: the generic signature,
   * and the JSpecify nullness annotations by position ({@code return}, {@code param0}, {@code field},
   * {@code typeparam0.bound0}, ...) and path in the type ({@code <0>} a type argument, {@code []} an array's
   * component, {@code ?} a wildcard's bound, {@code .} an inner type).
   */
  private static String typeNotes(String signature, Map<String, List<String>> nullness) {
    StringBuilder notes = new StringBuilder();
    if (signature != null) {
      notes.append(" generic ").append(signature);
    }
    for (Map.Entry<String, List<String>> e : nullness.entrySet()) {
      List<String> positions = new ArrayList<>(new java.util.TreeSet<>(e.getValue()));
      notes.append(' ').append(e.getKey()).append('(').append(String.join(", ", positions)).append(')');
    }
    return notes.length() == 0 ? "" : " //" + notes;
  }

  private static String modifiers(int access, boolean method) {
    StringBuilder s = new StringBuilder();
    if ((access & ACC_PUBLIC) != 0) {
      s.append("public ");
    }
    if ((access & ACC_PROTECTED) != 0) {
      s.append("protected ");
    }
    if ((access & ACC_STATIC) != 0) {
      s.append("static ");
    }
    if ((access & ACC_FINAL) != 0) {
      s.append("final ");
    }
    if ((access & ACC_ABSTRACT) != 0) {
      s.append("abstract ");
    }
    if ((access & ACC_SYNTHETIC) != 0) {
      s.append("synthetic ");
    }
    if (method && (access & ACC_BRIDGE) != 0) {
      s.append("bridge ");
    }
    if (method && (access & ACC_VARARGS) != 0) {
      s.append("varargs ");
    }
    return s.toString();
  }

  private static boolean isApi(ClassFile c, Map<String, ClassFile> classes) {
    if (c.name.endsWith("/package-info") || c.name.equals("module-info") || c.internalAnnotation) {
      return false;
    }
    for (String segment : c.name.split("/")) {
      if ("internal".equals(segment)) {
        return false;
      }
    }
    if (!c.nested) {
      return (c.access & ACC_PUBLIC) != 0;
    }
    if (c.outerName == null) {
      return false; // local or anonymous
    }
    ClassFile outer = classes.get(c.outerName);
    if (outer == null || !isApi(outer, classes)) {
      return false;
    }
    int access = c.effectiveAccess();
    return (access & ACC_PUBLIC) != 0 || ((access & ACC_PROTECTED) != 0 && !isFinal(outer));
  }

  private static boolean isFinal(ClassFile c) {
    return (c.effectiveAccess() & ACC_FINAL) != 0;
  }

  private static boolean isApi(Member m, boolean openType) {
    if (m.internalAnnotation || "<clinit>".equals(m.name)) {
      return false;
    }
    if ((m.access & ACC_SYNTHETIC) != 0 && (m.access & ACC_BRIDGE) == 0) {
      return false;
    }
    return (m.access & ACC_PUBLIC) != 0 || ((m.access & ACC_PROTECTED) != 0 && openType);
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
        String header = line.substring(0, line.length() - 2);
        current = new Block(header);
        blocks.put(current.name, current);
      } else if ("}".equals(line)) {
        current = null;
      } else {
        Declaration member = new Declaration(line.trim());
        current.members.put(member.key(), member);
      }
    }
    return blocks;
  }

  static List<String> diff(Map<String, Block> expected, Map<String, Block> actual) {
    List<String> changes = new ArrayList<>();
    for (Block before : expected.values()) {
      Block after = actual.get(before.name);
      String type = readableType(before.name);
      if (after == null) {
        changes.add("removed " + before.kind() + " " + type);
        continue;
      }
      if (!before.header.equals(after.header)) {
        changes.add("changed " + before.kind() + " " + type + ": `" + before.header + "` is now `" + after.header + "`");
      }
      Map<String, List<Declaration>> removed = new TreeMap<>();
      Map<String, List<Declaration>> added = new TreeMap<>();
      for (Declaration m : before.members.values()) {
        Declaration now = after.members.get(m.key());
        if (now == null) {
          removed.computeIfAbsent(m.signature(), k -> new ArrayList<>()).add(m);
        } else if (!now.line.equals(m.line)) {
          changes.add("changed " + m.readable(type) + ": `" + m.line + "` is now `" + now.line + "`");
        }
      }
      for (Declaration m : after.members.values()) {
        if (!before.members.containsKey(m.key())) {
          added.computeIfAbsent(m.signature(), k -> new ArrayList<>()).add(m);
        }
      }
      for (List<Declaration> gone : removed.values()) {
        List<Declaration> replacement = added.get(gone.get(0).signature());
        if (gone.size() == 1 && replacement != null && replacement.size() == 1) {
          // the same member with another type (a method's return type, a field's type)
          Declaration m = gone.get(0);
          changes.add("changed " + m.readable(type) + ": `" + m.line + "` is now `" + replacement.get(0).line + "`");
          added.remove(m.signature());
        } else {
          for (Declaration m : gone) {
            changes.add("removed " + m.readable(type) + "  [" + m.line + "]");
          }
        }
      }
      for (List<Declaration> created : added.values()) {
        for (Declaration m : created) {
          changes.add("added " + m.readable(type) + "  [" + m.line + "]");
        }
      }
    }
    for (Block after : actual.values()) {
      if (!expected.containsKey(after.name)) {
        changes.add("added " + after.kind() + " " + readableType(after.name) + "  [" + after.header + "]");
      }
    }
    return changes;
  }

  static final class Block {
    final String header;
    final String name;
    final Map<String, Declaration> members = new TreeMap<>();

    Block(String header) {
      this.header = header;
      int notes = header.indexOf(" // ");
      String declaration = notes < 0 ? header : header.substring(0, notes);
      int colon = declaration.indexOf(" : ");
      String head = colon < 0 ? declaration : declaration.substring(0, colon);
      this.name = head.substring(head.lastIndexOf(' ') + 1);
    }

    String kind() {
      if (header.startsWith("package ")) {
        return "package";
      }
      String head = " " + header.substring(0, header.indexOf(" class ") + 1);
      return head.contains(" annotation ") ? "annotation" : head.contains(" interface ") ? "interface" : "class";
    }
  }

  static final class Declaration {
    final String line;
    final boolean field;
    final String name;
    final String descriptor;

    Declaration(String line) {
      this.line = line;
      String[] words = line.split(" ");
      int keyword = -1;
      for (int i = 0; i < words.length; i++) {
        if ("fun".equals(words[i]) || "field".equals(words[i])) {
          keyword = i;
          break;
        }
      }
      if (keyword < 0 || keyword + 2 >= words.length) {
        throw new IllegalArgumentException("not a member: " + line);
      }
      this.field = "field".equals(words[keyword]);
      this.name = words[keyword + 1];
      this.descriptor = words[keyword + 2];
    }

    /** A field by its name, a method by its name and descriptor (a bridge shares the name and parameters). */
    String key() {
      return field ? "field " + name : "fun " + name + descriptor;
    }

    /** What source code names: a field's name, a method's name and parameter types. */
    String signature() {
      return field ? "field " + name : "fun " + name + descriptor.substring(0, descriptor.indexOf(')') + 1);
    }

    String readable(String type) {
      if (field) {
        return "field " + type + "." + name;
      }
      String params = readableParameters(descriptor);
      if ("<init>".equals(name)) {
        return "constructor " + type + "(" + params + ")";
      }
      return "method " + type + "." + name + "(" + params + ")";
    }
  }

  static String readableType(String internalName) {
    return internalName.replace('/', '.');
  }

  /** {@code (Ljava/lang/String;[IJ)V} as {@code java.lang.String, int[], long}. */
  static String readableParameters(String descriptor) {
    List<String> types = new ArrayList<>();
    int i = 1;
    while (descriptor.charAt(i) != ')') {
      int dimensions = 0;
      while (descriptor.charAt(i) == '[') {
        dimensions++;
        i++;
      }
      String type;
      char c = descriptor.charAt(i);
      if (c == 'L') {
        int end = descriptor.indexOf(';', i);
        type = readableType(descriptor.substring(i + 1, end));
        i = end + 1;
      } else {
        type = primitive(c);
        i++;
      }
      StringBuilder t = new StringBuilder(type);
      for (int d = 0; d < dimensions; d++) {
        t.append("[]");
      }
      types.add(t.toString());
    }
    return String.join(", ", types);
  }

  private static String primitive(char c) {
    switch (c) {
      case 'Z': return "boolean";
      case 'B': return "byte";
      case 'C': return "char";
      case 'S': return "short";
      case 'I': return "int";
      case 'J': return "long";
      case 'F': return "float";
      case 'D': return "double";
      case 'V': return "void";
      default: throw new IllegalArgumentException("not a descriptor type: " + c);
    }
  }

  // ---------------------------------------------------------------- reading class files

  static Map<String, ClassFile> readJar(Path jar) throws IOException {
    Map<String, ClassFile> classes = new TreeMap<>();
    try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
      for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
        // META-INF/versions/... holds other releases' variants of the same classes: the base ones are the API
        if (e.isDirectory() || !e.getName().endsWith(".class") || e.getName().startsWith("META-INF/")) {
          continue;
        }
        ClassFile c = ClassFile.read(readAll(in));
        classes.put(c.name, c);
      }
    }
    return classes;
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) > 0; ) {
      bytes.write(buffer, 0, n);
    }
    return bytes.toByteArray();
  }

  static final class Member {
    final int access;
    final String name;
    final String descriptor;
    boolean internalAnnotation;
    String signature;
    final Map<String, List<String>> nullness = new TreeMap<>();
    /** A constant field's value (its ConstantValue attribute), as source would write it. */
    String constant;
    /** A method's declared exceptions (its Exceptions attribute), sorted. */
    final List<String> exceptions = new ArrayList<>();

    Member(int access, String name, String descriptor) {
      this.access = access;
      this.name = name;
      this.descriptor = descriptor;
    }
  }

  /** The JSpecify annotations whose positions the dump records, by descriptor. */
  private static final Map<String, String> NULLNESS = new LinkedHashMap<>();
  /** The JSpecify annotations that set the nullness of a whole package or class, by descriptor. */
  private static final Map<String, String> NULLNESS_SCOPE = new LinkedHashMap<>();

  static {
    NULLNESS.put("Lorg/jspecify/annotations/Nullable;", "@Nullable");
    NULLNESS.put("Lorg/jspecify/annotations/NonNull;", "@NonNull");
    NULLNESS_SCOPE.put("Lorg/jspecify/annotations/NullMarked;", "@NullMarked");
    NULLNESS_SCOPE.put("Lorg/jspecify/annotations/NullUnmarked;", "@NullUnmarked");
  }

  /** The parts of a class file (JVMS chapter 4) that make its API. */
  static final class ClassFile {
    int access;
    String name;
    String superName;
    final List<String> interfaces = new ArrayList<>();
    final List<Member> fields = new ArrayList<>();
    final List<Member> methods = new ArrayList<>();
    boolean internalAnnotation;
    /** The type descriptors of its declaration annotations. */
    final List<String> annotations = new ArrayList<>();
    String signature;
    final Map<String, List<String>> nullness = new TreeMap<>();
    /** From its own InnerClasses entry: a member, local or anonymous class. */
    boolean nested;
    /** The declaring class of a member class; null for a local or anonymous one. */
    String outerName;
    /** The access flags of the source declaration (private, protected, static), for a nested class. */
    int innerAccess;

    /** The declared access of a nested class, else that of the class file. */
    int effectiveAccess() {
      return nested ? innerAccess : access;
    }

    static ClassFile read(byte[] bytes) throws IOException {
      DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
      if (in.readInt() != 0xCAFEBABE) {
        throw new IOException("not a class file");
      }
      in.readUnsignedShort(); // minor
      in.readUnsignedShort(); // major
      int count = in.readUnsignedShort();
      Object[] pool = new Object[count];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1: // Utf8
            pool[i] = in.readUTF();
            break;
          case 7: // Class
            pool[i] = new int[] {in.readUnsignedShort()};
            break;
          case 8: // String
            pool[i] = new StringConstant(in.readUnsignedShort());
            break;
          case 3: // Integer
            pool[i] = in.readInt();
            break;
          case 4: // Float
            pool[i] = Float.intBitsToFloat(in.readInt());
            break;
          case 5: // Long
            pool[i] = in.readLong();
            i++;
            break;
          case 6: // Double
            pool[i] = Double.longBitsToDouble(in.readLong());
            i++;
            break;
          case 16: // MethodType
          case 19: // Module
          case 20: // Package
            in.readUnsignedShort();
            break;
          case 9: // Fieldref
          case 10: // Methodref
          case 11: // InterfaceMethodref
          case 12: // NameAndType
          case 17: // Dynamic
          case 18: // InvokeDynamic
            in.readInt();
            break;
          case 15: // MethodHandle
            in.readUnsignedByte();
            in.readUnsignedShort();
            break;
          default:
            throw new IOException("unknown constant pool tag " + tag);
        }
      }
      ClassFile c = new ClassFile();
      c.access = in.readUnsignedShort();
      c.name = className(pool, in.readUnsignedShort());
      int superIndex = in.readUnsignedShort();
      c.superName = superIndex == 0 ? null : className(pool, superIndex);
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        c.interfaces.add(className(pool, in.readUnsignedShort()));
      }
      readMembers(in, pool, c.fields);
      readMembers(in, pool, c.methods);
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        String attribute = (String) pool[in.readUnsignedShort()];
        int length = in.readInt();
        if ("InnerClasses".equals(attribute)) {
          for (int k = in.readUnsignedShort(); k > 0; k--) {
            int inner = in.readUnsignedShort();
            int outer = in.readUnsignedShort();
            int innerName = in.readUnsignedShort();
            int flags = in.readUnsignedShort();
            if (c.name.equals(className(pool, inner))) {
              c.nested = true;
              c.outerName = outer == 0 || innerName == 0 ? null : className(pool, outer);
              c.innerAccess = flags;
            }
          }
        } else if (isAnnotations(attribute)) {
          for (int k = in.readUnsignedShort(); k > 0; k--) {
            c.annotations.add(readAnnotation(in, pool));
          }
          c.internalAnnotation |= hasInternal(c.annotations);
        } else if ("Signature".equals(attribute)) {
          c.signature = (String) pool[in.readUnsignedShort()];
        } else if (isTypeAnnotations(attribute)) {
          readTypeAnnotations(in, pool, c.nullness);
        } else {
          in.skipBytes(length);
        }
      }
      return c;
    }

    private static void readMembers(DataInputStream in, Object[] pool, List<Member> into) throws IOException {
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        int access = in.readUnsignedShort();
        String name = (String) pool[in.readUnsignedShort()];
        String descriptor = (String) pool[in.readUnsignedShort()];
        Member member = new Member(access, name, descriptor);
        for (int a = in.readUnsignedShort(); a > 0; a--) {
          String attribute = (String) pool[in.readUnsignedShort()];
          int length = in.readInt();
          if (isAnnotations(attribute)) {
            member.internalAnnotation |= hasInternalAnnotation(in, pool);
          } else if ("Signature".equals(attribute)) {
            member.signature = (String) pool[in.readUnsignedShort()];
          } else if (isTypeAnnotations(attribute)) {
            readTypeAnnotations(in, pool, member.nullness);
          } else if ("ConstantValue".equals(attribute)) {
            member.constant = constant(pool[in.readUnsignedShort()], pool, descriptor);
          } else if ("Exceptions".equals(attribute)) {
            for (int k = in.readUnsignedShort(); k > 0; k--) {
              member.exceptions.add(className(pool, in.readUnsignedShort()));
            }
            Collections.sort(member.exceptions);
          } else {
            in.skipBytes(length); // Code (with its own type annotations, of locals), ...
          }
        }
        into.add(member);
      }
    }

    private static boolean isAnnotations(String attribute) {
      return "RuntimeVisibleAnnotations".equals(attribute) || "RuntimeInvisibleAnnotations".equals(attribute);
    }

    private static boolean isTypeAnnotations(String attribute) {
      return "RuntimeVisibleTypeAnnotations".equals(attribute) || "RuntimeInvisibleTypeAnnotations".equals(attribute);
    }

    /**
     * Reads a type annotations attribute of a class, field or method (JVMS 4.7.20) and adds the position and type
     * path of each nullness annotation to {@code into}, by annotation.
     */
    private static void readTypeAnnotations(DataInputStream in, Object[] pool, Map<String, List<String>> into)
        throws IOException {
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        int target = in.readUnsignedByte();
        String position;
        switch (target) {
          case 0x00: // class type parameter
          case 0x01: // method type parameter
            position = "typeparam" + in.readUnsignedByte();
            break;
          case 0x10: // extends or implements
            int supertype = in.readUnsignedShort();
            position = supertype == 0xFFFF ? "super" : "interface" + supertype;
            break;
          case 0x11: // bound of a class type parameter
          case 0x12: // bound of a method type parameter
            position = "typeparam" + in.readUnsignedByte() + ".bound" + in.readUnsignedByte();
            break;
          case 0x13:
            position = "field";
            break;
          case 0x14:
            position = "return";
            break;
          case 0x15:
            position = "this";
            break;
          case 0x16:
            position = "param" + in.readUnsignedByte();
            break;
          case 0x17:
            position = "throws" + in.readUnsignedShort();
            break;
          default: // the other targets are in Code attributes only
            throw new IOException("unexpected type annotation target 0x" + Integer.toHexString(target));
        }
        StringBuilder path = new StringBuilder(position);
        for (int steps = in.readUnsignedByte(); steps > 0; steps--) {
          int kind = in.readUnsignedByte();
          int argument = in.readUnsignedByte();
          path.append(kind == 0 ? "[]" : kind == 1 ? "." : kind == 2 ? "?" : "<" + argument + ">");
        }
        String label = NULLNESS.get(readAnnotation(in, pool));
        if (label != null) {
          into.computeIfAbsent(label, k -> new ArrayList<>()).add(path.toString());
        }
      }
    }

    /** Reads an annotations attribute; true if one of them is named {@code ...Internal}. */
    private static boolean hasInternalAnnotation(DataInputStream in, Object[] pool) throws IOException {
      List<String> annotations = new ArrayList<>();
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        annotations.add(readAnnotation(in, pool));
      }
      return hasInternal(annotations);
    }

    private static boolean hasInternal(List<String> annotations) {
      for (String annotation : annotations) {
        if (annotation.endsWith("Internal;")) {
          return true;
        }
      }
      return false;
    }

    /**
     * A constant field's value as source would write it: javac inlines it into the callers' class
     * files, so a new value is an incompatible change for code compiled against the old one.
     */
    private static String constant(Object value, Object[] pool, String descriptor) {
      if (value instanceof StringConstant) {
        return quote((String) pool[((StringConstant) value).utf8]);
      }
      switch (descriptor) {
        case "Z": return ((Integer) value) != 0 ? "true" : "false";
        case "C": return String.format("'\\u%04x'", (Integer) value);
        case "J": return value + "L";
        case "F": return value + "f";
        default: return String.valueOf(value);
      }
    }

    private static String quote(String text) {
      StringBuilder out = new StringBuilder("\"");
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c < 0x20 || c > 0x7e) {
          out.append(String.format("\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
      return out.append('"').toString();
    }

    /** Reads one annotation structure and returns its type descriptor. */
    private static String readAnnotation(DataInputStream in, Object[] pool) throws IOException {
      String type = (String) pool[in.readUnsignedShort()];
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        in.readUnsignedShort(); // element name
        skipElementValue(in, pool);
      }
      return type;
    }

    private static void skipElementValue(DataInputStream in, Object[] pool) throws IOException {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 'e':
          in.readUnsignedShort();
          in.readUnsignedShort();
          break;
        case '@':
          readAnnotation(in, pool);
          break;
        case '[':
          for (int n = in.readUnsignedShort(); n > 0; n--) {
            skipElementValue(in, pool);
          }
          break;
        default: // B C D F I J S Z s c: one constant pool index
          in.readUnsignedShort();
      }
    }

    /** A String entry of the constant pool: the index of its Utf8 entry, resolved when it is used. */
    private static final class StringConstant {
      final int utf8;

      StringConstant(int utf8) {
        this.utf8 = utf8;
      }
    }

    private static String className(Object[] pool, int index) {
      return (String) pool[((int[]) pool[index])[0]];
    }
  }
}
