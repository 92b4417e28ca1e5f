package dev.voicelink.benchmarks.harness;

import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.SimulatedTester;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Polling economy of the device flow on a real clock: a child JVM (the device) polls the reference
 * server while this JVM plays the user and approves after T seconds. The server's journal counts the
 * token requests (ideal: ⌈T/i⌉ + 1); the child reports the CPU it used while waiting, next to an idle
 * JVM's CPU over the same time.
 *
 * <p>Usage: {@code PollingHarness [out=benchmarks/results/polling.json] [T:i ...]} (default 6:1 10:2)
 */
public final class PollingHarness {
  private PollingHarness() {
  }

  public static void main(String[] args) throws Exception {
    File out = new File(args.length > 0 ? args[0] : "benchmarks/results/polling.json");
    List<int[]> scenarios = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String[] parts = args[i].split(":");
      scenarios.add(new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])});
    }
    if (scenarios.isEmpty()) {
      scenarios.add(new int[] {6, 1});
      scenarios.add(new int[] {10, 2});
    }
    List<Object> runs = new ArrayList<>();
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      for (int[] scenario : scenarios) runs.add(scenario(server, scenario[0], scenario[1]));
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("scenarios", runs);
    Results.write(out, result);
    HeapHarness.log("wrote " + out);
  }

  private static Map<String, Object> scenario(ReferenceServer server, int approveAfterSeconds,
      int intervalSeconds) throws Exception {
    server.console().setPollIntervalSeconds(intervalSeconds);
    server.journal().clear();
    Process device = Children.start(Collections.singletonList("-Xmx64m"), PollingChild.class, "device",
        server.authUrl(), DefaultConsole.CLIENT_ID, DefaultConsole.DEVICE_ID);
    String result = null;
    long approvedAt = 0;
    long codeAt = 0;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(device.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("CODE ")) {
          codeAt = System.nanoTime();
          String userCode = line.split(" ")[1];
          Thread.sleep(approveAfterSeconds * 1000L);
          approvedAt = System.nanoTime();
          new SimulatedTester(server).approve(userCode);
        } else if (line.startsWith("RESULT ")) {
          result = line;
        }
      }
    } finally {
      if (!device.waitFor(60, TimeUnit.SECONDS)) device.destroyForcibly();
    }
    if (result == null) throw new IllegalStateException("the device reported no result");
    String[] parts = result.split(" ");
    int tokenRequests = 0;
    long firstPollMillis = -1;
    long lastPollMillis = -1;
    for (RecordedCall call : server.journal().snapshot()) {
      if (call.path().endsWith("/oauth/ivs/token")) {
        tokenRequests++;
        if (firstPollMillis < 0) firstPollMillis = call.receivedAtMillis();
        lastPollMillis = call.receivedAtMillis();
      }
    }
    Children.Result idle = Children.run(Collections.singletonList("-Xmx64m"), 60, PollingChild.class,
        "idle", Long.toString(Math.round(Long.parseLong(parts[4]) / 1e9)));
    String[] idleParts = idle.last("RESULT").split(" ");

    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("approveAfterSeconds", approveAfterSeconds);
    figures.put("intervalSeconds", intervalSeconds);
    figures.put("outcome", parts[1]);
    figures.put("tokenRequests", tokenRequests);
    figures.put("idealRequests", (int) Math.ceil((double) approveAfterSeconds / intervalSeconds) + 1);
    figures.put("pollSpanMillis", lastPollMillis - firstPollMillis);
    figures.put("waitWallMillis", Long.parseLong(parts[4]) / 1_000_000L);
    figures.put("waitProcessCpuMillis", Long.parseLong(parts[2]) / 1_000_000.0);
    figures.put("waitingThreadCpuMillis", Long.parseLong(parts[3]) / 1_000_000.0);
    figures.put("idleJvmProcessCpuMillis", Long.parseLong(idleParts[2]) / 1_000_000.0);
    figures.put("codeToApprovalMillis", TimeUnit.NANOSECONDS.toMillis(approvedAt - codeAt));
    HeapHarness.log("T=" + approveAfterSeconds + " s, i=" + intervalSeconds + " s: " + figures);
    return figures;
  }
}
