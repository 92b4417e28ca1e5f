package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okio.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference server serving many devices at once on loopback, each a complete SDK user: the device
 * flow (approved by a simulated tester), then per round a refresh, an upload of its own resource and
 * two checks of it (10 s after the upload: still processing; 5 minutes after: in effect, with its
 * record count). The devices run concurrently within each step; between steps the test moves the
 * device's and the server's clocks (the 10 s and 5-minute rules pass without waiting).
 *
 * <p>Size: {@code -Dsoak.devices} (default 200) and {@code -Dsoak.rounds} (default 1).
 */
class ServerSoakTest {
  private static final long START = 1_763_712_000_000L;
  static final int DEFAULT_DEVICES = 200;
  static final int DEFAULT_ROUNDS = 1;
  private static final int RECORDS = 3;
  private static final ResourceDefinition CONTACTS = ResourceDefinition.builder()
      .name(DefaultConsole.CONTACTS).mainField("name").secondaryFields("alias")
      .dimension(Dimension.USER).build();

  @TempDir File dir;
  private final VirtualTime time = new VirtualTime(START);
  private final ServerClock serverClock = ServerClock.manual(START);
  private final Map<String, ConcurrentLinkedQueue<Long>> latencies = new ConcurrentHashMap<>();
  private final List<String> errors = Collections.synchronizedList(new ArrayList<String>());
  private ExecutorService devicesPool;

  interface Step {
    void run(int device) throws Exception;
  }

  @Test @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void devicesAuthorizeRefreshUploadAndCheckWithoutAnError() throws Exception {
    final int devices = Integer.getInteger("soak.devices", DEFAULT_DEVICES);
    final int rounds = Integer.getInteger("soak.rounds", DEFAULT_ROUNDS);
    long started = System.nanoTime();

    Console console = Console.defaults();
    for (int i = 0; i < devices; i++) {
      console.importDeviceId(DefaultConsole.CLIENT_ID, deviceId(i));
      console.addTesterPhone(phone(i)); // one user per device: SMS codes go to different phones
    }
    ReferenceServer server = ReferenceServer.builder().console(console).clock(serverClock).build()
        .start();
    OkHttpClient http = new OkHttpClient.Builder().addInterceptor(chain -> {
      long begin = System.nanoTime();
      okhttp3.Response response = chain.proceed(chain.request());
      List<String> segments = chain.request().url().pathSegments();
      latencies.computeIfAbsent(segments.get(segments.size() - 1),
          k -> new ConcurrentLinkedQueue<Long>()).add(System.nanoTime() - begin);
      return response;
    }).build();
    AtomicInteger threads = new AtomicInteger();
    List<Thread> deviceThreads = Collections.synchronizedList(new ArrayList<>());
    devicesPool = Executors.newFixedThreadPool(Math.min(devices, 200), runnable -> {
      Thread thread = new Thread(runnable, "soak-device-" + threads.incrementAndGet());
      thread.setDaemon(true);
      deviceThreads.add(thread);
      return thread;
    });
    try {
      VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.authUrl())
          .baseUrl(server.baseUrl()).platformUrl(server.platformUrl()).httpClient(http)
          .clock(time).scheduler(time).build();
      final DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
          .clientId(DefaultConsole.CLIENT_ID).build();
      final List<BlockingQueue<DeviceFlowOutcome>> outcomes = new ArrayList<>();
      for (int i = 0; i < devices; i++) outcomes.add(new LinkedBlockingQueue<DeviceFlowOutcome>());

      int scheduledBefore = time.scheduledCount();
      step("device_code, tester approves, poll scheduled", devices, device -> {
        DeviceCode code = authorizer.requestCode(deviceId(device)).execute();
        new SimulatedTester(server, phone(device)).approve(code.userCode());
        authorizer.poll(code).enqueue(result -> outcomes.get(device).add(result.value()));
      });
      time.awaitScheduled(scheduledBefore + devices);
      advance(2);
      final List<TokenManager> managers = new ArrayList<>();
      for (int i = 0; i < devices; i++) {
        DeviceFlowOutcome outcome = outcomes.get(i).poll(60, TimeUnit.SECONDS);
        if (outcome == null || outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
          errors.add("device " + i + " device flow: " + outcome);
          managers.add(null);
          continue;
        }
        TokenManager manager = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
            .store(new FileTokenStore(new File(dir, "token-" + i + ".json"))).build();
        manager.setRecord(outcome.token());
        managers.add(manager);
      }
      assertThat(errors).isEmpty();

      final EntityWebApi api = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      final UploadReceipt[] receipts = new UploadReceipt[devices];
      for (int round = 1; round <= rounds; round++) {
        final int r = round;
        step("refresh", devices, device -> {
          TokenManager manager = managers.get(device);
          TokenRecord before = manager.record();
          TokenRecord after = manager.refresh().execute();
          check(!after.refreshToken().equals(before.refreshToken()), "refresh token rotated");
          check(new FileTokenStore(new File(dir, "token-" + device + ".json")).load().equals(after),
              "rotated record saved");
        });
        step("upload-resource", devices, device -> {
          StringBuilder records = new StringBuilder();
          for (int k = 0; k < RECORDS; k++) {
            records.append("{\"name\":\"device ").append(device).append(" round ").append(r)
                .append(" contact ").append(k).append("\",\"alias\":\"\"}\n");
          }
          receipts[device] = api.uploadResource(UploadRequest.builder().appid(DefaultConsole.APPID)
              .definition(CONTACTS).persParam(PersParam.user(authId(device)))
              .records(RecordSource.fromText(records.toString())).build()).execute();
        });
        advance(UploadReceipt.CHECK_DELAY_MILLIS / 1000);
        step("check-resource after 10 s", devices, device -> {
          CheckResult result = api.checkResource(receipts[device].sid()).execute();
          check(!result.processed() && result.reply().startsWith("still processing"),
              "still processing after 10 s: " + result.reply());
        });
        advance((UploadReceipt.IN_EFFECT_DELAY_MILLIS - UploadReceipt.CHECK_DELAY_MILLIS) / 1000);
        step("check-resource after 5 minutes", devices, device -> {
          CheckResult result = api.checkResource(receipts[device].sid()).execute();
          check(result.processed() && result.reply().endsWith("(" + RECORDS + " records)"),
              "in effect after 5 minutes with its records: " + result.reply());
        });
      }
    } finally {
      devicesPool.shutdown();
      http.dispatcher().executorService().shutdown();
      assertThat(devicesPool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      // A terminated pool's workers have left their loop, but a thread may still be ending: join.
      synchronized (deviceThreads) {
        for (Thread thread : deviceThreads) thread.join(TimeUnit.SECONDS.toMillis(10));
      }
      assertThat(http.dispatcher().executorService().awaitTermination(30, TimeUnit.SECONDS))
          .isTrue();
      http.connectionPool().evictAll();
      server.close();
    }
    long wallMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertThat(errors).isEmpty();

    // The server's journal: exactly the requests the devices' steps imply, all answered 200.
    Map<String, Integer> expected = new LinkedHashMap<>();
    expected.put("device_code", devices);
    expected.put("verification page (tester)", 4 * devices);
    expected.put("token (1 poll + 1 refresh per round)", devices * (1 + rounds));
    expected.put("upload-resource", devices * rounds);
    expected.put("check-resource", 2 * devices * rounds);
    Map<String, Integer> counted = new LinkedHashMap<>();
    Map<String, Integer> refused = new LinkedHashMap<>();
    for (String key : expected.keySet()) {
      counted.put(key, 0);
      refused.put(key, 0);
    }
    for (RecordedCall call : server.journal().snapshot()) {
      String key = endpointOf(call.path());
      counted.merge(key, 1, Integer::sum);
      boolean webApi = key.endsWith("-resource");
      if (call.responseStatus() != 200 || call.responseBody().contains("\"error\":\"")
          || webApi && !call.responseBody().contains("\"code\":\"00000\"")) {
        refused.merge(key, 1, Integer::sum);
      }
    }
    assertThat(counted).isEqualTo(expected);
    assertThat(refused.values()).allMatch(n -> n == 0);
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
        t -> t.isAlive() && t.getName().startsWith("soak-device-"));

    StringBuilder md = new StringBuilder();
    md.append("| Devices | Rounds | Errors | Wall time |\n|---|---|---|---|\n");
    md.append("| ").append(devices).append(" | ").append(rounds).append(" | ")
        .append(errors.size()).append(" | ")
        .append(DocSection.measured(String.format(Locale.ROOT, "%.1f s", wallMillis / 1000.0)))
        .append(" |\n\n");
    md.append("| Endpoint | Requests in the server's journal | Refused or failed | SDK p50 | SDK p99 |\n");
    md.append("|---|---|---|---|---|\n");
    for (Map.Entry<String, Integer> e : counted.entrySet()) {
      String[] percentiles = percentiles(e.getKey());
      md.append("| ").append(e.getKey()).append(" | ").append(e.getValue()).append(" | ")
          .append(refused.get(e.getKey())).append(" | ").append(percentiles[0]).append(" | ")
          .append(percentiles[1]).append(" |\n");
    }
    System.out.println("soak:\n" + md);
    if (devices == DEFAULT_DEVICES && rounds == DEFAULT_ROUNDS) {
      DocSection.check("reliability.md", "server-soak", md.toString());
    }
  }

  private void step(String name, int devices, final Step step) throws Exception {
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < devices; i++) {
      final int device = i;
      futures.add(devicesPool.submit(() -> {
        try {
          step.run(device);
        } catch (Exception | AssertionError e) {
          errors.add("device " + device + " " + name + ": " + e);
        }
      }));
    }
    for (Future<?> future : futures) future.get(5, TimeUnit.MINUTES);
    assertThat(errors).as(name).isEmpty();
  }

  /** Moves the server's clock, then the device's (which runs the device's due tasks). */
  private void advance(long seconds) {
    serverClock.advance(seconds, TimeUnit.SECONDS);
    time.advance(seconds, TimeUnit.SECONDS);
  }

  private static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
  }

  private String[] percentiles(String endpoint) {
    String key = endpoint.startsWith("token") ? "token" : endpoint;
    ConcurrentLinkedQueue<Long> samples = latencies.get(key);
    if (samples == null || samples.isEmpty()) return new String[] {"n/a", "n/a"};
    List<Long> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    return new String[] {
        DocSection.measured(ms(sorted.get((int) Math.floor(0.50 * (sorted.size() - 1))))),
        DocSection.measured(ms(sorted.get((int) Math.floor(0.99 * (sorted.size() - 1)))))};
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
  }

  private static String endpointOf(String path) {
    if (path.endsWith("/oauth/ivs/device_code")) return "device_code";
    if (path.endsWith("/oauth/ivs/token")) return "token (1 poll + 1 refresh per round)";
    if (path.endsWith("/upload-resource")) return "upload-resource";
    if (path.endsWith("/check-resource")) return "check-resource";
    if (path.contains("/verify")) return "verification page (tester)";
    return path;
  }

  static String deviceId(int device) {
    return String.format(Locale.ROOT, "SN-SOAK-%05d", device);
  }

  static String phone(int device) {
    return String.format(Locale.ROOT, "139%08d", device);
  }

  /** A 32-character lowercase hex auth_id of its own per device. */
  static String authId(int device) {
    return ByteString.encodeUtf8("soak-user-" + device).md5().hex();
  }
}
