package dev.voicelink.benchmarks.harness;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.Clock;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The refresh stampede against the reference server: 64 threads ask for a token the moment it has
 * expired. Counts the refresh requests the server received (target: 1) and the time until all 64 hold
 * the new token, next to one thread's refresh round trip measured in alternate trials (target:
 * ≤ 1.5 ×). Expiry is reached by moving the SDK's injected clock, never by sleeping.
 *
 * <p>Usage: {@code StampedeHarness [out=benchmarks/results/stampede.json] [trials=15] [threads=64]}
 */
public final class StampedeHarness {
  private static final long SHIFT_MILLIS = TimeUnit.DAYS.toMillis(200);

  private StampedeHarness() {
  }

  /** The system clock moved forward by whatever the harness adds. */
  static final class ShiftedClock extends Clock {
    final AtomicLong offsetMillis = new AtomicLong();

    @Override public long wallMillis() {
      return System.currentTimeMillis() + offsetMillis.get();
    }

    @Override public long monotonicNanos() {
      return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(offsetMillis.get());
    }
  }

  public static void main(String[] args) throws Exception {
    File out = new File(args.length > 0 ? args[0] : "benchmarks/results/stampede.json");
    int trials = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    List<Long> single = new ArrayList<>();
    List<Long> stampede = new ArrayList<>();
    List<Integer> refreshes = new ArrayList<>();
    boolean allSameNewToken = true;
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      server.console().setPollIntervalSeconds(1);
      ShiftedClock clock = new ShiftedClock();
      VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(clock).build();
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config).clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
      new SimulatedTester(server).approve(code.userCode());
      DeviceFlowOutcome outcome = authorizer.poll(code).execute();
      if (outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
        throw new IllegalStateException("device flow ended " + outcome);
      }
      TokenManager tokens = TokenManager.builder(config)
          .deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore())
          .build();
      tokens.setRecord(outcome.token());
      tokens.accessToken();
      for (int warm = 0; warm < 3; warm++) singleRefresh(tokens, clock);

      for (int trial = 0; trial < trials; trial++) {
        single.add(singleRefresh(tokens, clock));
        String before = tokens.accessToken();
        int refreshesBefore = refreshCount(server);
        clock.offsetMillis.addAndGet(SHIFT_MILLIS);
        final Set<String> seen = Collections.synchronizedSet(new HashSet<String>());
        final AtomicLong start = new AtomicLong();
        final AtomicLong lastDone = new AtomicLong();
        final CyclicBarrier barrier = new CyclicBarrier(threads, () -> start.set(System.nanoTime()));
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          Thread worker = new Thread(() -> {
            try {
              barrier.await(30, TimeUnit.SECONDS);
              seen.add(tokens.accessToken());
              lastDone.accumulateAndGet(System.nanoTime(), Math::max);
            } catch (Exception e) {
              seen.add("failed: " + e);
            }
          }, "stampede-" + t);
          workers.add(worker);
          worker.start();
        }
        for (Thread worker : workers) worker.join(60_000);
        stampede.add(lastDone.get() - start.get());
        refreshes.add(refreshCount(server) - refreshesBefore);
        if (seen.size() != 1 || seen.contains(before)) allSameNewToken = false;
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("threads", threads);
    result.put("trials", trials);
    result.put("refreshRequestsPerTrial", refreshes);
    result.put("allThreadsGotTheSameNewToken", allSameNewToken);
    result.put("singleRefreshMicrosMedian", median(single) / 1000.0);
    result.put("stampedeMicrosMedian", median(stampede) / 1000.0);
    result.put("ratioMedian", (double) median(stampede) / median(single));
    result.put("singleRefreshMicros", micros(single));
    result.put("stampedeMicros", micros(stampede));
    Results.write(out, result);
    HeapHarness.log("stampede: " + result);
    HeapHarness.log("wrote " + out);
  }

  private static long singleRefresh(TokenManager tokens, ShiftedClock clock) throws Exception {
    clock.offsetMillis.addAndGet(SHIFT_MILLIS);
    long start = System.nanoTime();
    tokens.accessToken();
    return System.nanoTime() - start;
  }

  private static int refreshCount(ReferenceServer server) {
    int count = 0;
    for (RecordedCall call : server.journal().snapshot()) {
      if (call.path().endsWith("/oauth/ivs/token") && call.body().contains("refresh_token\"")
          && call.body().contains("\"grant_type\":\"refresh_token\"")) {
        count++;
      }
    }
    return count;
  }

  static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static List<Double> micros(List<Long> nanos) {
    List<Double> result = new ArrayList<>();
    for (long value : nanos) result.add(Math.round(value / 100.0) / 10.0);
    return result;
  }
}
