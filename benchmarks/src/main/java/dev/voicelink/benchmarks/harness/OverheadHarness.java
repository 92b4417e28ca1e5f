package dev.voicelink.benchmarks.harness;

import dev.voicelink.benchmarks.LoopbackServer;
import dev.voicelink.benchmarks.RequestOverheadBenchmark;
import dev.voicelink.benchmarks.Workloads;
import java.io.File;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import okhttp3.OkHttpClient;

/**
 * Per-request overhead measured paired, in one JVM: the same small POST through each client of
 * {@link RequestOverheadBenchmark#clients()}, one call of each in turn (rotating which goes first), so
 * that every variant meets the same moment-to-moment state of a shared machine. The figure for a
 * variant is the median of its calls' differences from the bare call made next to each, as a
 * fraction of the bare client's median latency; the spread is the 10th and 90th percentile of that
 * figure taken per block of calls. The ratio of plain medians is written too. JMH measures each
 * variant in its own fork, and one JVM's loopback round trip differs from another's by more than the
 * few microseconds measured, so only calls taken side by side tell the overhead.
 *
 * <p>Usage: {@code OverheadHarness [out=benchmarks/results/overhead.json] [blocks=40] [calls=400]}
 * (calls per variant per block).
 */
public final class OverheadHarness {
  private static final int WARM_UP_CALLS = 3000;

  private OverheadHarness() {
  }

  public static void main(String[] args) throws Exception {
    File out = new File(args.length > 0 ? args[0] : "benchmarks/results/overhead.json");
    int blocks = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    int calls = args.length > 2 ? Integer.parseInt(args[2]) : 400;
    String[] variants = RequestOverheadBenchmark.VARIANTS;
    Workloads.quietSdkLog();
    OkHttpClient[] clients = RequestOverheadBenchmark.clients();
    long[][] nanos = new long[variants.length][blocks * calls];
    try (LoopbackServer server = new LoopbackServer()) {
      String url = server.url("/v2/voicelink/entity/check-resource");
      for (int i = 0; i < WARM_UP_CALLS; i++) {
        for (OkHttpClient client : clients) RequestOverheadBenchmark.call(client, url);
      }
      for (int i = 0; i < blocks * calls; i++) {
        for (int k = 0; k < variants.length; k++) {
          int v = (i + k) % variants.length;
          long start = System.nanoTime();
          RequestOverheadBenchmark.call(clients[v], url);
          nanos[v][i] = System.nanoTime() - start;
        }
      }
    } finally {
      for (OkHttpClient client : clients) {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("blocks", blocks);
    result.put("callsPerBlock", calls);
    Map<String, Object> figures = new LinkedHashMap<>();
    double bareMedian = median(nanos[0], 0, nanos[0].length);
    for (int v = 0; v < variants.length; v++) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("medianMicros", median(nanos[v], 0, nanos[v].length) / 1000.0);
      if (v > 0) {
        f.put("medianAddedFraction", median(nanos[v], 0, nanos[v].length) / bareMedian - 1);
        f.put("pairedAddedFraction", pairedAdded(nanos[v], nanos[0], 0, nanos[v].length));
        double[] perBlock = new double[blocks];
        for (int b = 0; b < blocks; b++) perBlock[b] = pairedAdded(nanos[v], nanos[0], b * calls, calls);
        Arrays.sort(perBlock);
        f.put("pairedAddedP10", perBlock[blocks / 10]);
        f.put("pairedAddedP90", perBlock[blocks - 1 - blocks / 10]);
      }
      figures.put(variants[v], f);
    }
    result.put("variants", figures);
    Results.write(out, result);
    System.out.println("overhead: " + result);
  }

  /**
   * The median of the call-by-call differences (each call against the bare call made next to it),
   * as a fraction of the bare client's median latency.
   */
  private static double pairedAdded(long[] variant, long[] bare, int from, int length) {
    long[] differences = new long[length];
    for (int i = 0; i < length; i++) differences[i] = variant[from + i] - bare[from + i];
    return median(differences, 0, length) / median(bare, from, length);
  }

  private static double median(long[] values, int from, int length) {
    long[] sorted = Arrays.copyOfRange(values, from, from + length);
    Arrays.sort(sorted);
    return sorted[length / 2];
  }
}
