package dev.voicelink.android.buildcheck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Fails the build when R8, run with the SDK's consumer rules, would not keep what the SDK needs at
 * run time.
 *
 * <p>Reads R8's {@code -printseeds} and {@code -printusage} output and a list of required entries in
 * the seeds format: {@code com.example.Type} or {@code com.example.Type: void member(int)}. Every
 * required entry must be kept by a rule (listed in the seeds) and must not be listed as removed.
 * Blank lines and lines starting with {@code #} in the required list are ignored.
 *
 * <p>Build tooling, run by the build with {@code java}; not shipped.
 */
public final class R8SeedsCheck {
  private R8SeedsCheck() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: R8SeedsCheck <seeds.txt> <usage.txt> <required-members.txt>");
      System.exit(2);
    }
    List<String> problems;
    try (Reader seeds = open(args[0]); Reader usage = open(args[1]); Reader required = open(args[2])) {
      problems = check(seeds, usage, required);
    }
    if (!problems.isEmpty()) {
      System.err.println("R8 consumer-rule check failed (" + args[2] + "):");
      for (String problem : problems) {
        System.err.println("  " + problem);
      }
      System.exit(1);
    }
    System.out.println("R8 consumer-rule check passed: every entry of " + args[2] + " is kept.");
  }

  /** Returns one message per required entry that is not kept; empty when all are. */
  public static List<String> check(Reader seeds, Reader usage, Reader required) throws IOException {
    Set<String> kept = new LinkedHashSet<>();
    for (String line : lines(seeds)) {
      kept.add(normalize(line));
    }
    Set<String> removed = removedEntries(lines(usage));
    List<String> problems = new ArrayList<>();
    int wanted = 0;
    for (String line : lines(required)) {
      String entry = normalize(line);
      if (entry.isEmpty() || entry.startsWith("#")) {
        continue;
      }
      wanted++;
      if (removed.contains(entry)) {
        problems.add("removed by R8 (listed in -printusage): " + entry);
      } else if (!kept.contains(entry)) {
        problems.add("not kept by any rule (missing from -printseeds): " + entry);
      }
    }
    if (wanted == 0) {
      problems.add("the required list is empty: nothing would be checked");
    }
    return problems;
  }

  /**
   * -printusage lists a wholly removed class as a lone line, and partly shrunk classes as a class
   * line followed by indented removed members.
   */
  private static Set<String> removedEntries(List<String> usage) {
    Set<String> removed = new LinkedHashSet<>();
    String currentClass = null;
    boolean hadMembers = false;
    for (String line : usage) {
      if (line.trim().isEmpty()) {
        continue;
      }
      boolean member = Character.isWhitespace(line.charAt(0));
      if (member && currentClass != null) {
        removed.add(currentClass + ": " + normalize(line));
        hadMembers = true;
      } else if (!member) {
        if (currentClass != null && !hadMembers) {
          removed.add(currentClass);
        }
        currentClass = normalize(line);
        hadMembers = false;
      }
    }
    if (currentClass != null && !hadMembers) {
      removed.add(currentClass);
    }
    return removed;
  }

  private static String normalize(String line) {
    return line.trim().replaceAll("\\s+", " ");
  }

  private static List<String> lines(Reader reader) throws IOException {
    List<String> lines = new ArrayList<>();
    BufferedReader buffered = new BufferedReader(reader);
    for (String line; (line = buffered.readLine()) != null; ) {
      lines.add(line);
    }
    return lines;
  }

  private static Reader open(String path) throws IOException {
    return new InputStreamReader(Files.newInputStream(Paths.get(path)), StandardCharsets.UTF_8);
  }
}
