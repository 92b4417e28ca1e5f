package dev.voicelink.benchmarks.harness;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * What the SDK adds to an app: the sdk-core jar, the sdk-interact jar (the interaction channel, which
 * a firmware that only signs in and uploads leaves out), the AAR's classes.jar, the dex of our classes alone
 * (D8, release, min API 21), and minimal apps shrunk by R8 — one that only makes an OkHttp call (the
 * reference point), one that also opens an OkHttp WebSocket (what the interaction channel's transport
 * costs), one that uses sdk-core (device sign-in and an upload) and one that uses the Agent — plus
 * OkHttp's own dex.
 * Reads the build's outputs; run after {@code mvn package} with dexing on.
 *
 * <p>Usage: {@code FootprintHarness <repo root> <r8.jar> <android-all.jar> [out=benchmarks/results/footprint.json]}
 */
public final class FootprintHarness {
  private FootprintHarness() {
  }

  public static void main(String[] args) throws Exception {
    File root = new File(args[0]);
    File r8 = new File(args[1]);
    File androidAll = new File(args[2]);
    File out = new File(args.length > 3 ? args[3] : "benchmarks/results/footprint.json");
    File work = Files.createTempDirectory("footprint").toFile();

    File coreJar = find(new File(root, "sdk-core/target"), "voicelink-core-", ".jar");
    File interactJar = find(new File(root, "sdk-interact/target"), "voicelink-interact-", ".jar");
    File androidJar = find(new File(root, "sdk-android/target"), "voicelink-android-", ".jar");
    File aar = find(new File(root, "sdk-android/target"), "voicelink-android-", ".zip");
    List<File> deps = new ArrayList<>();
    for (File jar : listJars(new File(root, "sdk-android/target/dex-inputs"))) {
      if (!jar.getName().startsWith("voicelink-")) deps.add(jar);
    }
    List<File> okhttpAlone = filter(deps, "okhttp-");
    List<File> okhttpDeps = new ArrayList<>(deps);
    okhttpDeps.removeIf(f -> f.getName().startsWith("moshi-"));

    Map<String, Object> result = new LinkedHashMap<>();
    result.put("sdkCoreJarBytes", coreJar.length());
    result.put("sdkInteractJarBytes", interactJar.length());
    result.put("aarClassesJarBytes", entrySize(aar, "classes.jar"));
    result.put("aarBytes", aar.length());
    result.put("sdkCoreDexBytes", d8(r8, androidAll, work, "core", Collections.singletonList(coreJar), deps));
    result.put("ourDexBytes", d8(r8, androidAll, work, "ours",
        Arrays.asList(coreJar, interactJar, androidJar), deps));
    result.put("okhttpDexBytes", d8(r8, androidAll, work, "okhttp", okhttpAlone, okhttpDeps));
    result.put("okhttpWithDependenciesDexBytes", d8(r8, androidAll, work, "okhttp-all", okhttpDeps,
        Collections.<File>emptyList()));

    File sources = new File(root, "benchmarks/src/footprint");
    File rules = new File(sources, "app-rules.pro");
    List<File> okhttpProgram = new ArrayList<>(okhttpDeps);
    result.put("r8OkHttpAppDexBytes", r8App(r8, androidAll, work, new File(sources, "okhttp"),
        okhttpProgram, rules));
    result.put("r8OkHttpWebSocketAppDexBytes", r8App(r8, androidAll, work,
        new File(sources, "websocket"), okhttpProgram, rules));
    List<File> coreProgram = new ArrayList<>(deps);
    coreProgram.add(coreJar);
    result.put("r8SdkCoreAppDexBytes", r8App(r8, androidAll, work, new File(sources, "core"),
        coreProgram, rules));
    result.put("r8SdkCoreTokensAppDexBytes", r8App(r8, androidAll, work, new File(sources, "core-tokens"),
        coreProgram, rules));
    File agentSources = new File(sources, "agent");
    if (agentSources.isDirectory()) {
      List<File> agentProgram = new ArrayList<>(coreProgram);
      agentProgram.add(interactJar);
      agentProgram.add(androidJar);
      result.put("r8AgentAppDexBytes", r8App(r8, androidAll, work, agentSources, agentProgram, rules,
          new File(root, "sdk-android/src/main/resources/META-INF/proguard/voicelink-android.pro")));
    }
    Results.write(out, result);
    HeapHarness.log("footprint: " + result);
    HeapHarness.log("wrote " + out);
  }

  private static long d8(File r8, File androidAll, File work, String name, List<File> program,
      List<File> classpath) throws Exception {
    File dir = new File(work, "d8-" + name);
    if (!dir.mkdirs()) throw new IOException("cannot create " + dir);
    List<String> args = new ArrayList<>(Arrays.asList("--release", "--min-api", "21",
        "--lib", androidAll.getPath(), "--lib", System.getProperty("java.home"), "--output", dir.getPath()));
    for (File jar : classpath) {
      args.add("--classpath");
      args.add(jar.getPath());
    }
    for (File jar : program) args.add(jar.getPath());
    tool(r8, "com.android.tools.r8.D8", args);
    return dexSize(dir);
  }

  private static long r8App(File r8, File androidAll, File work, File appSources, List<File> program,
      File... rules) throws Exception {
    String name = appSources.getName();
    File classes = new File(work, "app-" + name);
    if (!classes.mkdirs()) throw new IOException("cannot create " + classes);
    List<String> javac = new ArrayList<>(Arrays.asList("--release", "8", "-d", classes.getPath(),
        "-cp", join(program) + File.pathSeparator + androidAll.getPath()));
    javac.add(new File(appSources, "app/App.java").getPath());
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    if (compiler.run(null, null, null, javac.toArray(new String[0])) != 0) {
      throw new IllegalStateException("the " + name + " app does not compile");
    }
    File appJar = new File(work, "app-" + name + ".jar");
    try (JarOutputStream jar = new JarOutputStream(new FileOutputStream(appJar))) {
      jar.putNextEntry(new ZipEntry("app/App.class"));
      jar.write(Files.readAllBytes(new File(classes, "app/App.class").toPath()));
      jar.closeEntry();
    }
    File dir = new File(work, "r8-" + name);
    if (!dir.mkdirs()) throw new IOException("cannot create " + dir);
    List<String> args = new ArrayList<>(Arrays.asList("--release", "--min-api", "21",
        "--lib", androidAll.getPath(), "--lib", System.getProperty("java.home"), "--output", dir.getPath()));
    for (File rule : rules) {
      args.add("--pg-conf");
      args.add(rule.getPath());
    }
    args.add(appJar.getPath());
    for (File jar : program) args.add(jar.getPath());
    tool(r8, "com.android.tools.r8.R8", args);
    return dexSize(dir);
  }

  private static void tool(File r8, String main, List<String> args) throws Exception {
    List<String> jvm = new ArrayList<>(Arrays.asList("-Xmx1g"));
    String[] all = args.toArray(new String[0]);
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    command.addAll(jvm);
    command.add("-cp");
    command.add(r8.getPath());
    command.add(main);
    command.addAll(Arrays.asList(all));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = readAll(process);
    if (process.waitFor() != 0) {
      throw new IllegalStateException(main + " failed: " + new String(output, "UTF-8"));
    }
  }

  private static byte[] readAll(Process process) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n; (n = process.getInputStream().read(buffer)) != -1; ) out.write(buffer, 0, n);
    return out.toByteArray();
  }

  private static long dexSize(File dir) {
    long total = 0;
    File[] files = dir.listFiles();
    if (files != null) {
      for (File file : files) if (file.getName().endsWith(".dex")) total += file.length();
    }
    if (total == 0) throw new IllegalStateException("no dex in " + dir);
    return total;
  }

  private static long entrySize(File zip, String entry) throws IOException {
    try (ZipFile file = new ZipFile(zip)) {
      ZipEntry found = file.getEntry(entry);
      if (found == null) throw new IllegalStateException(zip + " has no " + entry);
      return found.getSize();
    }
  }

  private static File find(File dir, String prefix, String suffix) {
    for (File file : listJarsAndZips(dir)) {
      String n = file.getName();
      if (n.startsWith(prefix) && n.endsWith(suffix) && !n.contains("-tests") && !n.contains("-javadoc")
          && !n.contains("-sources")) {
        return file;
      }
    }
    throw new IllegalStateException("no " + prefix + "*" + suffix + " in " + dir + "; build it first");
  }

  private static List<File> listJars(File dir) {
    List<File> jars = new ArrayList<>();
    for (File file : listJarsAndZips(dir)) if (file.getName().endsWith(".jar")) jars.add(file);
    return jars;
  }

  private static List<File> listJarsAndZips(File dir) {
    File[] files = dir.listFiles();
    if (files == null) throw new IllegalStateException(dir + " does not exist; build it first");
    List<File> list = new ArrayList<>(Arrays.asList(files));
    Collections.sort(list);
    return list;
  }

  private static List<File> filter(List<File> files, String prefix) {
    List<File> result = new ArrayList<>();
    for (File file : files) if (file.getName().startsWith(prefix)) result.add(file);
    return result;
  }

  private static String join(List<File> files) {
    StringBuilder path = new StringBuilder();
    for (File file : files) {
      if (path.length() > 0) path.append(File.pathSeparator);
      path.append(file.getPath());
    }
    return path.toString();
  }
}
