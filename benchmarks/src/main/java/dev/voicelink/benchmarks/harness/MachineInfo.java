package dev.voicelink.benchmarks.harness;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

/** Records what the figures were measured on. Usage: {@code MachineInfo [out=benchmarks/results/machine.json]} */
public final class MachineInfo {
  private MachineInfo() {
  }

  public static void main(String[] args) throws Exception {
    File out = new File(args.length > 0 ? args[0] : "benchmarks/results/machine.json");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cpu", procField("/proc/cpuinfo", "model name"));
    m.put("cores", Runtime.getRuntime().availableProcessors());
    String mem = procField("/proc/meminfo", "MemTotal");
    m.put("memory", mem.isEmpty() ? "unknown memory"
        : (Long.parseLong(mem.replaceAll("[^0-9]", "")) / (1024 * 1024)) + " GB RAM");
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
        + System.getProperty("os.arch"));
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    m.put("date", new SimpleDateFormat("yyyy-MM-dd").format(new Date()));
    Results.write(out, m);
  }

  private static String procField(String path, String name) {
    try {
      for (String line : Files.readAllLines(new File(path).toPath(), StandardCharsets.UTF_8)) {
        if (line.startsWith(name)) return line.substring(line.indexOf(':') + 1).trim();
      }
    } catch (Exception e) {
      return "";
    }
    return "";
  }
}
