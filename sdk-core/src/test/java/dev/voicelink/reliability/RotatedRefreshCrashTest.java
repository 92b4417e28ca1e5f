package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenStore;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one moment a crash can cost the device its authorization: the server has rotated the refresh
 * token (the old one is void from then on) and the process dies before the store wrote the new one.
 * What the next start gets must be "re-authorization required" at worst: no crash, no loop, no record
 * deleted by the way.
 */
class RotatedRefreshCrashTest {
  private static final long START = 1_763_712_000_000L;
  private static final String UNKNOWN = "invalid_refresh_token: refresh_token is unknown or was"
      + " already used";

  @TempDir File dir;
  private final VirtualTime time = new VirtualTime(START);
  private final ServerClock serverClock = ServerClock.manual(START);
  private ReferenceServer server;
  private VoiceLinkClient config;

  @BeforeEach void setUp() throws Exception {
    server = ReferenceServer.builder().clock(serverClock).build().start();
    config = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time).scheduler(time).build();
  }

  @AfterEach void tearDown() throws Exception {
    server.close();
  }

  @Test void deathAfterTheServerRotatedMeansReauthorizationAtWorst() throws Exception {
    File file = new File(dir, "token.json");
    TokenRecord before = authorize(server, config, time, serverClock, DefaultConsole.DEVICE_ID);
    new FileTokenStore(file).save(before);
    byte[] bytesBefore = Files.readAllBytes(file.toPath());

    // Process 1 refreshes; the server rotates; the process dies before saving.
    String java = new File(System.getProperty("java.home"), "bin/java").getPath();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        DiesBeforeSavingRotation.class.getName(), server.authUrl(), file.getPath(),
        DefaultConsole.CLIENT_ID).redirectErrorStream(true)
        .redirectOutput(new File(dir, "child.log")).start();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).isEqualTo(DiesBeforeSavingRotation.EXIT_CODE);
    List<RecordedCall> refreshes = refreshes();
    assertThat(refreshes).hasSize(1);
    assertThat(refreshes.get(0).body()).contains("\"refresh_token\":\"" + before.refreshToken() + "\"");
    assertThat(refreshes.get(0).responseStatus()).isEqualTo(200);
    assertThat(refreshes.get(0).responseBody()).contains("\"refresh_token\":")
        .doesNotContain(before.refreshToken());
    assertThat(Files.readAllBytes(file.toPath())).as("nothing was written").isEqualTo(bytesBefore);

    // Process 2 starts from the old record. A transient failure first: the stored token is kept.
    TokenManager second = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new FileTokenStore(file)).build();
    assertThat(second.accessToken()).as("read from the store").isEqualTo(before.accessToken());
    assertThat(second.state()).isEqualTo(TokenManager.State.VALID);
    server.faults().on(Endpoint.TOKEN, Fault.status(503).times(1));
    assertThatThrownBy(() -> second.refresh().execute()).isInstanceOf(IOException.class)
        .hasMessage("token refresh failed: HTTP 503 server_error: injected fault");
    assertThat(second.accessToken()).as("the still valid token is served").isEqualTo(before.accessToken());
    assertThat(Files.readAllBytes(file.toPath())).isEqualTo(bytesBefore);

    // Then the server's answer to the voided refresh token: re-authorization, once, without a loop.
    assertThatThrownBy(() -> second.refresh().execute()).isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage(UNKNOWN);
    assertThat(second.state()).isEqualTo(TokenManager.State.REAUTHORIZATION_REQUIRED);
    int requests = refreshes().size();
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(second::accessToken).isInstanceOf(ReauthorizationRequiredException.class)
          .hasMessage(UNKNOWN);
      assertThatThrownBy(() -> second.refresh().execute()).isInstanceOf(ReauthorizationRequiredException.class);
    }
    assertThat(refreshes()).as("asking again sends nothing").hasSize(requests);
    assertThat(Files.readAllBytes(file.toPath())).as("the record is kept for the app to decide")
        .isEqualTo(bytesBefore);

    // Process 3, the same file: one request per start, the same answer.
    TokenManager third = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new FileTokenStore(file)).build();
    assertThat(third.accessToken()).as("a start serves the stored access token while it is valid")
        .isEqualTo(before.accessToken());
    assertThat(refreshes()).hasSize(requests);
    assertThatThrownBy(() -> third.refresh().execute()).isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage(UNKNOWN);
    assertThat(refreshes()).hasSize(requests + 1);

    // The app authorizes the device again and all is well.
    TokenRecord again = authorize(server, config, time, serverClock, DefaultConsole.DEVICE_ID);
    third.setRecord(again);
    assertThat(third.state()).isEqualTo(TokenManager.State.VALID);
    TokenRecord rotated = third.refresh().execute();
    assertThat(new FileTokenStore(file).load()).isEqualTo(rotated);
  }

  private List<RecordedCall> refreshes() {
    List<RecordedCall> result = new ArrayList<>();
    for (RecordedCall call : server.journal().calls("/oauth/ivs/token")) {
      if (call.body().contains("\"grant_type\":\"refresh_token\"")) result.add(call);
    }
    return result;
  }

  /**
   * How long the window is: from the token response's arrival (the server rotated just before
   * sending it) until the store's rename made the new record durable.
   */
  @Test void theWindowIsMeasured() throws Exception {
    final AtomicLong responseArrived = new AtomicLong();
    OkHttpClient http = new OkHttpClient.Builder().addNetworkInterceptor(chain -> {
      okhttp3.Response response = chain.proceed(chain.request());
      responseArrived.set(System.nanoTime());
      return response;
    }).build();
    VoiceLinkClient timed = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time)
        .scheduler(time).httpClient(http).build();
    final FileTokenStore file = new FileTokenStore(new File(dir, "token.json"));
    final List<Long> windows = Collections.synchronizedList(new ArrayList<Long>());
    TokenStore timing = new TokenStore() {
      @Override public @Nullable TokenRecord load() throws IOException {
        return file.load();
      }

      @Override public void save(TokenRecord record) throws IOException {
        file.save(record);
        long arrived = responseArrived.getAndSet(0);
        if (arrived != 0) windows.add(System.nanoTime() - arrived);
      }

      @Override public void clear() throws IOException {
        file.clear();
      }
    };
    TokenManager manager = TokenManager.builder(timed).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(timing).build();
    manager.setRecord(authorize(server, config, time, serverClock, DefaultConsole.DEVICE_ID));
    int refreshes = 50;
    for (int i = 0; i < refreshes; i++) manager.refresh().execute();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();

    assertThat(windows).hasSize(refreshes);
    List<Long> sorted = new ArrayList<>(windows);
    Collections.sort(sorted);
    String row = "| " + refreshes + " | " + DocSection.measured(ms(sorted.get(refreshes / 2)))
        + " | " + DocSection.measured(ms(sorted.get(refreshes - 1))) + " |\n";
    System.out.println("rotation window: " + row);
    DocSection.check("reliability.md", "rotation-window", row);
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
  }

  /** The device flow against the reference server, its one poll interval passed on both clocks. */
  static TokenRecord authorize(ReferenceServer server, VoiceLinkClient config, VirtualTime time,
      ServerClock serverClock, String deviceId) throws Exception {
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
        .clientId(DefaultConsole.CLIENT_ID).build();
    DeviceCode code = authorizer.requestCode(deviceId).execute();
    new SimulatedTester(server).approve(code.userCode());
    final java.util.concurrent.BlockingQueue<DeviceFlowOutcome> outcome =
        new java.util.concurrent.LinkedBlockingQueue<>();
    int before = time.scheduledCount();
    authorizer.poll(code).enqueue(result -> outcome.add(result.value()));
    time.awaitScheduled(before + 1);
    serverClock.advance(code.intervalSeconds(), TimeUnit.SECONDS);
    time.advance(code.intervalSeconds(), TimeUnit.SECONDS);
    // the poll's answer arrives on OkHttp's thread
    DeviceFlowOutcome ended = outcome.poll(30, TimeUnit.SECONDS);
    assertThat(ended).isNotNull();
    assertThat(ended.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    return ended.token();
  }
}
