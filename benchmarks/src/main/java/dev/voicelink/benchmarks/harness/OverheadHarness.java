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
 * Per-request overhead measured paired, in one JVM: rounds of the same small POST through the bare
 * client, the signer and signer + token interceptor, in rotating order, each round's median compared
 * with the bare client's median of the same round. JMH measures each variant in its own fork, and one
 * JVM's loopback round trip differs from another's by more than the few microseconds measured, so
 * only pairs taken side by side tell the overhead.
 *
 * <p>Usage: {@code OverheadHarness [out=benchmarks/results/overhead.json] [rounds=40] [calls=400]}
 */
public final class OverheadHarness {
  private static final String[] VARIANTS = {"bare", "checksumSigned", "sdkInterceptors"};

  private OverheadHarness() {
  }

  public static void main(String[] args) throws Exception {
    File out = new File(args.length > 0 ? args[0] : "benchmarks/results/overhead.json");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    int calls = args.length > 2 ? Integer.parseInt(args[2]) : 400;
    Workloads.quietSdkLog();
    OkHttpClient[] clients = RequestOverheadBenchmark.clients();
    double[][] roundMedians = new double[VARIANTS.length][rounds];
    try (LoopbackServer server = new LoopbackServer()) {
      String url = server.url("/v2/voicelink/entity/check-resource");
      for (int i = 0; i < 3000; i++) {
        for (OkHttpClient client : clients) RequestOverheadBenchmark.call(client, url);
      }
      long[] nanos = new long[calls];
      for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < VARIANTS.length; k++) {
          int v = (round + k) % VARIANTS.length;
          for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            RequestOverheadBenchmark.call(clients[v], url);
            nanos[i] = System.nanoTime() - start;
          }
          roundMedians[v][round] = median(nanos) / 1000.0;
        }
      }
    } finally {
      for (OkHttpClient client : clients) {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("rounds", rounds);
    result.put("callsPerRound", calls);
    Map<String, Object> variants = new LinkedHashMap<>();
    for (int v = 0; v < VARIANTS.length; v++) {
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("medianMicros", median(roundMedians[v]));
      if (v > 0) {
        double[] added = new double[rounds];
        for (int r = 0; r < rounds; r++) added[r] = roundMedians[v][r] / roundMedians[0][r] - 1;
        figures.put("medianAddedFraction", median(added));
      }
      variants.put(VARIANTS[v], figures);
    }
    result.put("variants", variants);
    Results.write(out, result);
    System.out.println("overhead: " + result);
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
