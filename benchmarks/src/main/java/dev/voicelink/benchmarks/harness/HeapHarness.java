package dev.voicelink.benchmarks.harness;

import dev.voicelink.benchmarks.Workloads;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The smallest heap in which a large resource can be uploaded: the SDK (streaming from the file)
 * against the by-hand way (one String, its bytes, their Base64, a FormBody). Each attempt is a child
 * JVM with a fixed {@code -Xmx} uploading to the reference server, which runs in this JVM (give it
 * room: it keeps the whole request). First both are tried at the stated device heap, then the smallest
 * heap of each is found by a bounded binary search.
 *
 * <p>Usage: {@code HeapHarness [resourceMB=50] [deviceHeapMB=48] [out=benchmarks/results/heap.json]}
 */
public final class HeapHarness {
  private static final int MIN_MB = 8;
  private static final int MAX_MB = 1024;
  private static final int RESOLUTION_MB = 2;
  private static final int MAX_PROBES = 12;
  private static final long CHILD_TIMEOUT_SECONDS = 300;

  private HeapHarness() {
  }

  public static void main(String[] args) throws Exception {
    int resourceMb = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    int deviceHeapMb = args.length > 1 ? Integer.parseInt(args[1]) : 48;
    File out = new File(args.length > 2 ? args[2] : "benchmarks/results/heap.json");

    File file = File.createTempFile("resource-", ".jsonl");
    file.deleteOnExit();
    long textBytes = Workloads.writeResourceFile(file, resourceMb * 1_000_000L);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resourceBytes", textBytes);
    result.put("deviceHeapMB", deviceHeapMb);
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      for (String mode : Arrays.asList("sdk", "by-hand")) {
        Map<String, Object> figures = new LinkedHashMap<>();
        List<Object> probes = new ArrayList<>();
        boolean atDevice = attempt(server, mode, deviceHeapMb, file, probes);
        figures.put("succeedsAtDeviceHeap", atDevice);
        figures.put("smallestHeapMB", smallest(server, mode, file, atDevice, deviceHeapMb, probes));
        figures.put("probes", probes);
        result.put(mode, figures);
        log(mode + ": at " + deviceHeapMb + " MB " + (atDevice ? "succeeds" : "fails") + "; smallest heap "
            + figures.get("smallestHeapMB") + " MB");
      }
    } finally {
      if (!file.delete()) file.deleteOnExit();
    }
    Results.write(out, result);
    log("wrote " + out);
  }

  /** Binary search between a failing and a succeeding heap, at most {@value #MAX_PROBES} probes. */
  private static Object smallest(ReferenceServer server, String mode, File file, boolean atDevice,
      int deviceHeapMb, List<Object> probes) throws Exception {
    int fail = atDevice ? MIN_MB : deviceHeapMb;
    int ok = atDevice ? deviceHeapMb : -1;
    if (!atDevice) {
      for (int heap = deviceHeapMb * 2; heap <= MAX_MB && ok < 0; heap *= 2) {
        if (attempt(server, mode, heap, file, probes)) ok = heap; else fail = heap;
      }
      if (ok < 0) return "> " + MAX_MB;
    } else if (attempt(server, mode, MIN_MB, file, probes)) {
      return "<= " + MIN_MB;
    }
    for (int i = 0; i < MAX_PROBES && ok - fail > RESOLUTION_MB; i++) {
      int mid = (fail + ok) / 2;
      if (attempt(server, mode, mid, file, probes)) ok = mid; else fail = mid;
    }
    return ok;
  }

  private static boolean attempt(ReferenceServer server, String mode, int heapMb, File file,
      List<Object> probes) throws Exception {
    server.journal().clear();
    Children.Result run = Children.run(Arrays.asList("-Xmx" + heapMb + "m", "-XX:+ExitOnOutOfMemoryError",
        "-XX:+UseSerialGC"), CHILD_TIMEOUT_SECONDS, HeapChild.class, mode, server.baseUrl(), file.getPath());
    server.journal().clear();
    boolean ok = run.exitCode == 0 && run.last("OK") != null;
    Map<String, Object> probe = new LinkedHashMap<>();
    probe.put("heapMB", heapMb);
    probe.put("ok", ok);
    probe.put("exit", run.exitCode);
    probe.put("millis", run.wallMillis);
    if (!ok && !run.lines.isEmpty()) probe.put("lastLine", run.lines.get(run.lines.size() - 1));
    probes.add(probe);
    log("  " + mode + " -Xmx" + heapMb + "m: " + (ok ? "ok" : "fails (exit " + run.exitCode + ")")
        + " in " + run.wallMillis + " ms");
    return ok;
  }

  static void log(String line) {
    System.out.println(line);
  }
}
