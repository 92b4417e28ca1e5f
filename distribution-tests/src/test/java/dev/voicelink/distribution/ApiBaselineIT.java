package dev.voicelink.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API baseline check ({@code build-support/Publication.java api-baseline}, run by every published library on
 * package): what it counts as API, that it stops the build naming each removed, added or changed member, that it
 * leaves changes outside the API alone, and that every published library has a baseline that matches the jar it
 * published.
 *
 * <p>The small libraries here are compiled for Java 8, as the SDK is, and the program runs as the build runs it:
 * a separate JVM with ASM on its class path, its verdict in its exit status and on stderr.
 */
class ApiBaselineIT {
  private static final String UPDATE = "./mvnw -B -ntp -Papi-dump package";
  private static final String TOKEN_MANAGER_V1 = "package dev.voicelink.auth;\n"
      + "public final class TokenManager {\n"
      + "  public TokenManager() {}\n"
      + "  public void refresh() {}\n"
      + "  public String token() { return \"\"; }\n"
      + "  void packagePrivate() {}\n"
      + "  private void hidden() {}\n"
      + "}\n";
  private static final String REFRESHER_V1 = "package dev.voicelink.auth.internal;\n"
      + "public final class Refresher {\n"
      + "  public void run() {}\n"
      + "}\n";
  private static final String HELPER_V1 = "package dev.voicelink.auth;\n"
      + "class Helper {\n"
      + "  public void help() {}\n"
      + "}\n";

  /** JSpecify's annotation, as the SDK's classes carry it (a TYPE_USE annotation kept in the class file). */
  private static final String NULLABLE = "package org.jspecify.annotations;\n"
      + "import java.lang.annotation.*;\n"
      + "@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.TYPE_USE)\n"
      + "public @interface Nullable {}\n";
  private static final String NULL_MARKED = "package org.jspecify.annotations;\n"
      + "import java.lang.annotation.*;\n"
      + "@Retention(RetentionPolicy.RUNTIME) @Target({ElementType.PACKAGE, ElementType.TYPE})\n"
      + "public @interface NullMarked {}\n";

  /** The annotation the Kotlin compiler marks a nullable type of a public declaration with (kept in the class file). */
  private static final String KOTLIN_NULLABLE = "package org.jetbrains.annotations;\n"
      + "import java.lang.annotation.*;\n"
      + "@Retention(RetentionPolicy.CLASS)"
      + " @Target({ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER, ElementType.LOCAL_VARIABLE})\n"
      + "public @interface Nullable {}\n";

  private static Path work;
  private static Path tool;
  /** The program's class path: ASM, as the build puts it there (exec-maven-plugin's dependencies). */
  private static String asm;

  @BeforeAll
  static void compileTheProgram() throws Exception {
    work = Distribution.workDir("api-baseline");
    tool = Files.createDirectories(work.resolve("tool"));
    asm = jarOf(org.objectweb.asm.ClassReader.class) + java.io.File.pathSeparator
        + jarOf(org.objectweb.asm.tree.ClassNode.class);
    javac(tool, Arrays.asList("--release", "17", "-cp", asm),
        Distribution.root().resolve("build-support/Publication.java"));
  }

  @Test
  void removingAPublicMethodFailsNamingIt() throws Exception {
    Path api = baseline("remove", TOKEN_MANAGER_V1, REFRESHER_V1, HELPER_V1);
    Path changed = library("remove-v2", TOKEN_MANAGER_V1.replace("  public void refresh() {}\n", ""),
        REFRESHER_V1, HELPER_V1);

    Run check = run(changed, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly(
        "API changed: removed method dev.voicelink.auth.TokenManager.refresh()  [public fun refresh ()V]",
        updateLine(api));
    assertThat(Files.readString(api)).contains("public fun refresh ()V"); // a check never rewrites it
  }

  @Test
  void addingAPublicMethodFailsTooUntilTheBaselineIsUpdated() throws Exception {
    Path api = baseline("add", TOKEN_MANAGER_V1, REFRESHER_V1, HELPER_V1);
    Path changed = library("add-v2", TOKEN_MANAGER_V1.replace("  public void refresh() {}\n",
        "  public void refresh() {}\n  public void revoke(String reason, long[] at) {}\n"), REFRESHER_V1, HELPER_V1);

    Run check = run(changed, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly(
        "API changed: added method dev.voicelink.auth.TokenManager.revoke(java.lang.String, long[])"
            + "  [public fun revoke (Ljava/lang/String;[J)V]",
        updateLine(api));

    Run dump = run(changed, api, "dump");
    assertThat(dump.exit).isZero();
    Run again = run(changed, api, "check");
    assertThat(again.exit).as(again.stderr).isZero();
    assertThat(again.stderr).isEmpty();
  }

  @Test
  void changesOutsideTheApiLeaveTheCheckGreen() throws Exception {
    Path api = baseline("outside", TOKEN_MANAGER_V1, REFRESHER_V1, HELPER_V1);
    Path changed = library("outside-v2",
        // private and package-private members come and go
        TOKEN_MANAGER_V1.replace("  void packagePrivate() {}\n", "  void other(int x) {}\n")
            .replace("  private void hidden() {}\n", "  private String hidden(String s) { return s; }\n"),
        // an internal package changes its public classes
        "package dev.voicelink.auth.internal;\n"
            + "public class Refresher {\n"
            + "  public Refresher(String name) {}\n"
            + "  public int runTwice() { return 2; }\n"
            + "}\n",
        "package dev.voicelink.auth.internal.store;\n"
            + "public interface Store { void save(); }\n",
        // a package-private class changes, another appears
        "package dev.voicelink.auth;\n"
            + "class Helper {\n"
            + "  public static Helper create() { return new Helper(); }\n"
            + "}\n",
        "package dev.voicelink.auth;\n"
            + "final class Helper2 { public void help() {} }\n");

    Run check = run(changed, api, "check");

    assertThat(check.exit).as(check.stderr).isZero();
    assertThat(check.stderr).isEmpty();
  }

  @Test
  void aChangedReturnTypeOrModifierIsNamedAsAChange() throws Exception {
    Path api = baseline("change", TOKEN_MANAGER_V1, REFRESHER_V1, HELPER_V1);
    Path changed = library("change-v2",
        TOKEN_MANAGER_V1.replace("public final class", "public class")
            .replace("public String token()", "public CharSequence token()")
            .replace("public void refresh()", "public final void refresh()"),
        REFRESHER_V1, HELPER_V1);

    Run check = run(changed, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly(
        "API changed: changed class dev.voicelink.auth.TokenManager:"
            + " `public final class dev/voicelink/auth/TokenManager` is now `public class dev/voicelink/auth/TokenManager`",
        "API changed: changed method dev.voicelink.auth.TokenManager.refresh():"
            + " `public fun refresh ()V` is now `public final fun refresh ()V`",
        "API changed: changed method dev.voicelink.auth.TokenManager.token():"
            + " `public fun token ()Ljava/lang/String;` is now `public fun token ()Ljava/lang/CharSequence;`",
        updateLine(api));
  }

  /** Kotlin reads JSpecify: a return that may now be null breaks its callers, though the descriptor is the same. */
  @Test
  void aChangeOfNullnessOrOfATypeArgumentIsNamedAsAChange() throws Exception {
    String store = "package dev.voicelink.auth;\n"
        + "import java.util.List;\n"
        + "import org.jspecify.annotations.Nullable;\n"
        + "public interface TokenStore {\n"
        + "  String load();\n"
        + "  List<String> keys(@Nullable String prefix);\n"
        + "}\n";
    Path api = baseline("nullness", store, NULLABLE);
    Path changed = library("nullness-v2", store.replace("  String load();", "  @Nullable String load();")
        .replace("List<String> keys", "List<CharSequence> keys"), NULLABLE);

    Run check = run(changed, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly(
        "API changed: changed method dev.voicelink.auth.TokenStore.keys(java.lang.String):"
            + " `public abstract fun keys (Ljava/lang/String;)Ljava/util/List;"
            + " // generic (Ljava/lang/String;)Ljava/util/List<Ljava/lang/String;>; @Nullable(param0)` is now"
            + " `public abstract fun keys (Ljava/lang/String;)Ljava/util/List;"
            + " // generic (Ljava/lang/String;)Ljava/util/List<Ljava/lang/CharSequence;>; @Nullable(param0)`",
        "API changed: changed method dev.voicelink.auth.TokenStore.load():"
            + " `public abstract fun load ()Ljava/lang/String;` is now"
            + " `public abstract fun load ()Ljava/lang/String; // @Nullable(return)`",
        updateLine(api));
  }

  /**
   * Kotlin marks its nullable types on the declarations (voicelink-coroutines): a parameter or a return that
   * becomes nullable, or stops being, is named as a change, in the notes JSpecify's nullness uses.
   */
  @Test
  void aChangeOfAKotlinNullableTypeIsNamedAsAChange() throws Exception {
    String calls = "package dev.voicelink.coroutines;\n"
        + "import org.jetbrains.annotations.Nullable;\n"
        + "public final class CallsKt {\n"
        + "  public static String await(String call, @Nullable String tag) { return call; }\n"
        + "  @Nullable public static String last() { return null; }\n"
        + "}\n";
    Path api = baseline("kotlin-nullness", calls, KOTLIN_NULLABLE);
    assertThat(Files.readString(api)).contains(
        "\tpublic static fun await (Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String; // @Nullable(param1)\n",
        "\tpublic static fun last ()Ljava/lang/String; // @Nullable(return)\n");
    Path changed = library("kotlin-nullness-v2", calls
        .replace("await(String call, @Nullable String tag)", "await(@Nullable String call, String tag)")
        .replace("@Nullable public static String last()", "public static String last()"), KOTLIN_NULLABLE);

    Run check = run(changed, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly(
        "API changed: changed method dev.voicelink.coroutines.CallsKt.await(java.lang.String, java.lang.String):"
            + " `public static fun await (Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String; // @Nullable(param1)`"
            + " is now `public static fun await (Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;"
            + " // @Nullable(param0)`",
        "API changed: changed method dev.voicelink.coroutines.CallsKt.last():"
            + " `public static fun last ()Ljava/lang/String; // @Nullable(return)` is now"
            + " `public static fun last ()Ljava/lang/String;`",
        updateLine(api));
  }

  /**
   * What callers compile in without the descriptor showing it: a constant's value (javac inlines it), a checked
   * exception (a caller must now catch it), and the package's @NullMarked (without it Kotlin sees platform types).
   */
  @Test
  void aConstantValueACheckedExceptionOrThePackagesNullnessScopeIsNamedAsAChange() throws Exception {
    String codes = "package dev.voicelink.agent;\n"
        + "public final class Codes {\n"
        + "  public static final int CMD_SYNC = 13;\n"
        + "  public static final String TAG = \"voicelink\";\n"
        + "  public void close() {}\n"
        + "}\n";
    String marked = "@org.jspecify.annotations.NullMarked\npackage dev.voicelink.agent;\n";
    Path api = baseline("constants", codes, marked, NULL_MARKED);
    Path changed = library("constants-v2", codes.replace("CMD_SYNC = 13", "CMD_SYNC = 14")
        .replace("\"voicelink\"", "\"voice\\u00e9\"").replace("void close()", "void close() throws java.io.IOException"),
        NULL_MARKED);

    Run check = run(changed, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly(
        "API changed: changed package dev.voicelink.agent: `package dev/voicelink/agent // @NullMarked` is now"
            + " `package dev/voicelink/agent`",
        "API changed: changed field dev.voicelink.agent.Codes.CMD_SYNC: `public static final field CMD_SYNC I = 13`"
            + " is now `public static final field CMD_SYNC I = 14`",
        "API changed: changed field dev.voicelink.agent.Codes.TAG: `public static final field TAG Ljava/lang/String;"
            + " = \"voicelink\"` is now `public static final field TAG Ljava/lang/String; = \"voice\\u00e9\"`",
        "API changed: changed method dev.voicelink.agent.Codes.close(): `public fun close ()V` is now"
            + " `public fun close ()V throws java/io/IOException`",
        updateLine(api));
  }

  @Test
  void removingAPublicTypeNamesIt() throws Exception {
    String session = "package dev.voicelink.auth;\npublic interface Session { void end(); }\n";
    Path api = baseline("type", TOKEN_MANAGER_V1, session);
    Path changed = library("type-v2", TOKEN_MANAGER_V1);

    Run check = run(changed, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly(
        "API changed: removed interface dev.voicelink.auth.Session", updateLine(api));
  }

  @Test
  void aPublishedLibraryWithoutABaselineFails() throws Exception {
    Path jar = library("missing", TOKEN_MANAGER_V1);
    Path api = work.resolve("missing/api/voicelink-missing.api");

    Run check = run(jar, api, "check");

    assertThat(check.exit).isEqualTo(1);
    assertThat(check.stderrLines()).containsExactly("API baseline missing: " + api
        + " (a published module needs one) — run " + UPDATE + " to create it, then commit it");
  }

  /** What the dump holds, and in which layout: that of the Kotlin binary-compatibility-validator. */
  @Test
  void theDumpListsTypesAndMembersOfThePublicApiInTheApiFileFormat() throws Exception {
    Path jar = library("format",
        "package dev.voicelink.sample;\n"
            + "import java.util.concurrent.Callable;\n"
            + "public class Widget implements Callable<String>, Comparable<Widget> {\n"
            + "  public static final int LIMIT = 3;\n"
            + "  public String name;\n"
            + "  protected long size;\n"
            + "  int packagePrivate;\n"
            + "  private int hidden;\n"
            + "  public Widget() {}\n"
            + "  protected Widget(String name) { this.name = name; }\n"
            + "  private Widget(int hidden) {}\n"
            + "  @Override public String call() { return name; }\n"
            + "  @Override public int compareTo(Widget o) { return 0; }\n"
            + "  public static Widget of(String... names) { return new Widget(); }\n"
            + "  protected void onChange() { Runnable r = new Runnable() { public void run() {} }; r.run(); }\n"
            + "  @ForTestsInternal public void reset() {}\n"
            + "  public static final class Builder { public Widget build() { return new Widget(); } }\n"
            + "  protected interface Listener { void changed(Widget w); }\n"
            + "  static class Hidden { public void notApi() {} }\n"
            + "  private static class Secret { public void notApi() {} }\n"
            + "  public enum Kind { SMALL, LARGE }\n"
            + "  public class Inner { public void touch() {} }\n"
            + "}\n",
        "package dev.voicelink.sample;\n"
            + "public final class Sealed {\n"
            + "  protected int notApiInAFinalClass;\n"
            + "  protected static final class NotApiEither {}\n"
            + "  public static int count() { return 0; }\n"
            + "}\n",
        "package dev.voicelink.sample;\n"
            + "import java.lang.annotation.*;\n"
            + "@Retention(RetentionPolicy.CLASS) @Target({ElementType.TYPE, ElementType.METHOD})\n"
            + "public @interface ForTestsInternal {}\n",
        "package dev.voicelink.sample;\n"
            + "@ForTestsInternal public final class Plumbing { public void notApi() {} }\n",
        "package dev.voicelink.sample;\n"
            + "public @interface Tag { String value() default \"\"; }\n",
        "package dev.voicelink.sample;\n"
            + "public abstract class Base { protected abstract Object value(); public abstract void close() throws Exception; }\n",
        "package dev.voicelink.sample;\n"
            + "final class PackagePrivate { public void notApi() {} }\n",
        "package dev.voicelink.sample.internal;\n"
            + "public final class Wiring { public void notApi() {} }\n",
        "package dev.voicelink.sample;\n"
            + "import java.util.List;\n"
            + "import org.jspecify.annotations.Nullable;\n"
            + "public final class Nulls<T extends @Nullable Object> {\n"
            + "  public @Nullable String name;\n"
            + "  public @Nullable T find(List<@Nullable String> keys, byte @Nullable [] data, String @Nullable ... more) {\n"
            + "    return null;\n"
            + "  }\n"
            + "  public static <E> List<? extends @Nullable E> wild(E e) { return null; }\n"
            + "}\n",
        "@org.jspecify.annotations.NullMarked\npackage dev.voicelink.sample;\n",
        NULLABLE, NULL_MARKED);
    Path api = work.resolve("format/api/voicelink-format.api");

    assertThat(run(jar, api, "dump").exit).isZero();

    // ForTestsInternal itself is public API (apps see the annotation); what it marks is not
    assertThat(Files.readString(api)).isEqualTo(""
        + "package dev/voicelink/sample // @NullMarked {\n"
        + "}\n"
        + "\n"
        + "package org/jspecify/annotations {\n"
        + "}\n"
        + "\n"
        + "public abstract class dev/voicelink/sample/Base {\n"
        + "\tpublic fun <init> ()V\n"
        + "\tpublic abstract fun close ()V throws java/lang/Exception\n"
        + "\tprotected abstract fun value ()Ljava/lang/Object;\n"
        + "}\n"
        + "\n"
        + "public abstract interface annotation class dev/voicelink/sample/ForTestsInternal : java/lang/annotation/Annotation {\n"
        + "}\n"
        + "\n"
        + "public final class dev/voicelink/sample/Nulls"
        + " // generic <T:Ljava/lang/Object;>Ljava/lang/Object; @Nullable(typeparam0.bound0) {\n"
        + "\tpublic field name Ljava/lang/String; // @Nullable(field)\n"
        + "\tpublic fun <init> ()V\n"
        + "\tpublic varargs fun find (Ljava/util/List;[B[Ljava/lang/String;)Ljava/lang/Object;"
        + " // generic (Ljava/util/List<Ljava/lang/String;>;[B[Ljava/lang/String;)TT;"
        + " @Nullable(param0<0>, param1, param2, return)\n"
        + "\tpublic static fun wild (Ljava/lang/Object;)Ljava/util/List;"
        + " // generic <E:Ljava/lang/Object;>(TE;)Ljava/util/List<+TE;>; @Nullable(return<0>?)\n"
        + "}\n"
        + "\n"
        + "public final class dev/voicelink/sample/Sealed {\n"
        + "\tpublic fun <init> ()V\n"
        + "\tpublic static fun count ()I\n"
        + "}\n"
        + "\n"
        + "public abstract interface annotation class dev/voicelink/sample/Tag : java/lang/annotation/Annotation {\n"
        + "\tpublic abstract fun value ()Ljava/lang/String;\n"
        + "}\n"
        + "\n"
        + "public class dev/voicelink/sample/Widget : java/lang/Comparable, java/util/concurrent/Callable"
        + " // generic Ljava/lang/Object;Ljava/util/concurrent/Callable<Ljava/lang/String;>;"
        + "Ljava/lang/Comparable<Ldev/voicelink/sample/Widget;>; {\n"
        + "\tpublic static final field LIMIT I = 3\n"
        + "\tpublic field name Ljava/lang/String;\n"
        + "\tprotected field size J\n"
        + "\tpublic fun <init> ()V\n"
        + "\tprotected fun <init> (Ljava/lang/String;)V\n"
        + "\tpublic synthetic bridge fun call ()Ljava/lang/Object; throws java/lang/Exception\n"
        + "\tpublic fun call ()Ljava/lang/String;\n"
        + "\tpublic fun compareTo (Ldev/voicelink/sample/Widget;)I\n"
        + "\tpublic synthetic bridge fun compareTo (Ljava/lang/Object;)I\n"
        + "\tpublic static varargs fun of ([Ljava/lang/String;)Ldev/voicelink/sample/Widget;\n"
        + "\tprotected fun onChange ()V\n"
        + "}\n"
        + "\n"
        + "public final class dev/voicelink/sample/Widget$Builder {\n"
        + "\tpublic fun <init> ()V\n"
        + "\tpublic fun build ()Ldev/voicelink/sample/Widget;\n"
        + "}\n"
        + "\n"
        + "public class dev/voicelink/sample/Widget$Inner {\n"
        + "\tpublic fun <init> (Ldev/voicelink/sample/Widget;)V\n"
        + "\tpublic fun touch ()V\n"
        + "}\n"
        + "\n"
        + "public final class dev/voicelink/sample/Widget$Kind : java/lang/Enum"
        + " // generic Ljava/lang/Enum<Ldev/voicelink/sample/Widget$Kind;>; {\n"
        + "\tpublic static final field LARGE Ldev/voicelink/sample/Widget$Kind;\n"
        + "\tpublic static final field SMALL Ldev/voicelink/sample/Widget$Kind;\n"
        + "\tpublic static fun valueOf (Ljava/lang/String;)Ldev/voicelink/sample/Widget$Kind;\n"
        + "\tpublic static fun values ()[Ldev/voicelink/sample/Widget$Kind;\n"
        + "}\n"
        + "\n"
        + "protected abstract interface class dev/voicelink/sample/Widget$Listener {\n"
        + "\tpublic abstract fun changed (Ldev/voicelink/sample/Widget;)V\n"
        + "}\n"
        + "\n"
        + "public abstract interface annotation class org/jspecify/annotations/NullMarked : java/lang/annotation/Annotation {\n"
        + "}\n"
        + "\n"
        + "public abstract interface annotation class org/jspecify/annotations/Nullable : java/lang/annotation/Annotation {\n"
        + "}\n"
        + "\n");
    assertThat(classFileMajorVersion(jar, "dev/voicelink/sample/Widget.class")).isEqualTo(52); // Java 8
  }

  /**
   * Each published library has its baseline at {@code <folder>/api/<artifactId>.api}, no other module has one,
   * and the jar each one put into the staging repository matches it: the check ran on every published library.
   */
  @Test
  void everyPublishedLibraryHasABaselineThatItsPublishedJarMatches() throws Exception {
    Set<String> expected = new TreeSet<>();
    for (Distribution.Module m : Distribution.publishedModules()) {
      Path pom = Distribution.staged(m.artifactId, "", "pom");
      if ("pom".equals(Distribution.text(Distribution.readXml(pom), "packaging"))) {
        continue; // the BOM: no classes
      }
      String baseline = m.folder + "/api/" + m.artifactId + ".api";
      expected.add(baseline);
      Run check = run(Distribution.staged(m.artifactId, "", "jar"), Distribution.root().resolve(baseline), "check");
      assertThat(check.exit).as(m.artifactId + ": " + check.stderr).isZero();
    }
    assertThat(expected).contains("sdk-core/api/voicelink-core.api", "sdk-android/api/voicelink-android.api",
        "sdk-testing/api/voicelink-testing.api", "sdk-fixtures/api/voicelink-fixtures.api",
        "sdk-coroutines/api/voicelink-coroutines.api");

    Set<String> committed = new TreeSet<>();
    for (Distribution.Module m : Distribution.modules()) {
      Path dir = Distribution.root().resolve(m.folder).resolve("api");
      if (Files.isDirectory(dir)) {
        try (Stream<Path> files = Files.list(dir)) {
          files.forEach(f -> committed.add(m.folder + "/api/" + f.getFileName()));
        }
      }
    }
    assertThat(committed).isEqualTo(expected);
  }

  // ---------------------------------------------------------------- helpers

  private static String updateLine(Path api) {
    return "The public API differs from its baseline " + api + " — if the change is intended, run " + UPDATE
        + " to update the baseline, and commit it with the change (docs/versioning.md)";
  }

  /** Compiles the sources into a library jar, dumps its API as the baseline and returns that file. */
  private static Path baseline(String name, String... sources) throws Exception {
    Path jar = library(name, sources);
    Path api = work.resolve(name).resolve("api/voicelink-" + name + ".api");
    Run dump = run(jar, api, "dump");
    assertThat(dump.exit).as(dump.stderr).isZero();
    return api;
  }

  /** The sources (one top-level type each) compiled for Java 8 into {@code <name>/library.jar}. */
  private static Path library(String name, String... sources) throws Exception {
    Path dir = Files.createDirectories(work.resolve(name));
    Path src = Files.createDirectories(dir.resolve("src"));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    List<Path> files = new ArrayList<>();
    for (String source : sources) {
      int declaration = source.indexOf("package ");
      String pkg = source.substring(declaration + "package ".length(), source.indexOf(';'));
      java.util.regex.Matcher type = java.util.regex.Pattern
          .compile("(?:class|interface|enum|@interface) (\\w+)").matcher(source);
      // annotations before the package declaration: a package-info
      String fileName = declaration > 0 ? "package-info" : type.find() ? type.group(1) : null;
      assertThat(fileName).as(source).isNotNull();
      Path file = src.resolve(pkg.replace('.', '/')).resolve(fileName + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source);
      files.add(file);
    }
    javac(classes, Arrays.asList("--release", "8"), files.toArray(new Path[0]));
    Path jar = dir.resolve("library.jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out);
         Stream<Path> walk = Files.walk(classes)) {
      for (Path f : walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList())) {
        zip.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        zip.write(Files.readAllBytes(f));
        zip.closeEntry();
      }
    }
    return jar;
  }

  private static void javac(Path out, List<String> options, Path... files) {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>(options);
    args.add("-d");
    args.add(out.toString());
    for (Path f : files) {
      args.add(f.toString());
    }
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int status = compiler.run(null, errors, errors, args.toArray(new String[0]));
    assertThat(status).as(errors.toString(StandardCharsets.UTF_8)).isZero();
  }

  private static String jarOf(Class<?> type) throws Exception {
    return Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  private static int classFileMajorVersion(Path jar, String entry) throws IOException {
    try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile());
         InputStream in = file.getInputStream(file.getEntry(entry))) {
      DataInputStream data = new DataInputStream(in);
      data.readInt();
      data.readUnsignedShort();
      return data.readUnsignedShort();
    }
  }

  /** The program as the build runs it, in its own JVM. */
  private static Run run(Path jar, Path api, String mode) throws Exception {
    Path stdout = Files.createTempFile(work, "out", ".txt");
    Path stderr = Files.createTempFile(work, "err", ".txt");
    Process process = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", tool + java.io.File.pathSeparator + asm, "Publication", "api-baseline", "--jar=" + jar,
        "--api=" + api, "--mode=" + mode)
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("Publication api-baseline still running after 60 s");
    }
    Run run = new Run(process.exitValue(), Files.readString(stderr));
    Files.delete(stdout);
    Files.delete(stderr);
    return run;
  }

  private static final class Run {
    final int exit;
    final String stderr;

    Run(int exit, String stderr) {
      this.exit = exit;
      this.stderr = stderr;
    }

    List<String> stderrLines() {
      return stderr.isEmpty() ? List.of() : Arrays.asList(stderr.split("\n"));
    }
  }
}
