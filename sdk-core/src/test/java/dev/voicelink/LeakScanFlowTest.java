package dev.voicelink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.Clock;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.internal.SystemScheduler;
import dev.voicelink.core.ToStringSweep;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.ChecksumSigner;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.entity.WebApiException;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole session of every sdk-core feature with every log level and HTTP logging at BODY (the
 * interaction channel's session is sdk-interact's InteractLeakScanTest): no secret
 * the reference server knows or handed out appears in a log line, an exception (message or cause),
 * or the {@code toString()} of any public type of the SDK, each built from the session's objects.
 */
class LeakScanFlowTest {
  private static final long START = 1_763_712_000_000L;

  @TempDir File dir;

  @Test void noSecretInLogsExceptionsOrToString() throws Exception {
    List<Object> objects = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    VirtualTime time = new VirtualTime(START);
    LeakScan scan;
    String logText;
    try (LogCapture log = LogCapture.install();
        ReferenceServer server = ReferenceServer.builder().console(Console.defaults())
            .clock(ServerClock.manual(START)).build().start()) {
      VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.authUrl())
          .platformUrl(server.platformUrl()).baseUrl(server.baseUrl()).clock(time).scheduler(time)
          .httpLogging(HttpLogLevel.BODY).build();
      Collections.addAll(objects, config, ClientCore.of(config).correctedClock(), Clock.system());

      // Device flow, one poll failing on the way.
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
          .clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
      BlockingQueue<CallResult<DeviceFlowOutcome>> outcomes = new LinkedBlockingQueue<>();
      int before = time.scheduledCount();
      VoiceLinkCall<DeviceFlowOutcome> flow = authorizer.poll(code);
      flow.enqueue(outcomes::add);
      time.awaitScheduled(before + 1);
      server.faults().on(Endpoint.TOKEN, Fault.status(503).times(1));
      time.advance(2, TimeUnit.SECONDS);
      time.awaitScheduled(before + 3); // the first wait, the poll's deadline, the retry's wait
      new SimulatedTester(server).approve(code.userCode());
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      CallResult<DeviceFlowOutcome> ended = outcomes.poll(10, TimeUnit.SECONDS);
      DeviceFlowOutcome outcome = ended.value();
      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      Collections.addAll(objects, authorizer, code, flow, ended, outcome, outcome.token());

      // Tokens: stored, refreshed, a stale copy refused, a cloud token.
      FileTokenStore file = new FileTokenStore(new File(dir, "token.json"));
      TokenManager device = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(file).build();
      List<Object> changes = Collections.synchronizedList(new ArrayList<>());
      device.addListener(changes::add);
      device.setRecord(outcome.token());
      TokenRecord refreshed = device.refresh().execute();
      InMemoryTokenStore staleStore = new InMemoryTokenStore(outcome.token());
      TokenManager stale = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(staleStore).build();
      errors.add(catching(() -> stale.refresh().execute(), ReauthorizationRequiredException.class));
      TokenManager cloud = TokenManager.builder(config)
          .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
          .store(new InMemoryTokenStore()).build();
      cloud.accessToken();
      // What an app's callback gets for an access token: logging it must not show the token.
      BlockingQueue<CallResult<String>> tokenResults = new LinkedBlockingQueue<>();
      device.accessTokenCall().enqueue(tokenResults::add);
      objects.add(tokenResults.poll(10, TimeUnit.SECONDS));
      errors.add(catching(() -> stale.accessToken(), ReauthorizationRequiredException.class));
      stale.signOut().execute();
      Collections.addAll(objects, file, device, refreshed, staleStore, stale, cloud,
          cloud.record(), device.state(), file.load());
      synchronized (changes) {
        objects.addAll(changes);
      }

      // The user the tester's approval signed in, as the reference server names it.
      String uid = md5Hex("user:" + DefaultConsole.TESTER_PHONE);
      // Entities: web API upload and check, a refused upload, a platform tools upload.
      ResourceDefinition contacts = ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
          .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
      ChecksumSigner signer = ChecksumSigner.builder().namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      EntityWebApi api = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      RecordSource records = RecordSource.fromText("{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n");
      PersParam persParam = PersParam.user(uid);
      UploadRequest request = UploadRequest.builder().appid(DefaultConsole.APPID)
          .definition(contacts).persParam(persParam).records(records).build();
      UploadReceipt receipt = api.uploadResource(request).execute();
      server.clock().advance(10, TimeUnit.SECONDS);
      time.advance(10, TimeUnit.SECONDS);
      CheckResult check = api.checkResource(receipt.sid()).execute();
      EntityWebApi wrongKey = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
          .accountKey("ffffffffffffffffffffffffffffffff").build();
      errors.add(catching(() -> wrongKey.uploadResource(request).execute(), WebApiException.class));
      ResourceDefinition songs = ResourceDefinition.builder().name(DefaultConsole.SONGS)
          .mainField("name").secondaryFields("alias").dimension(Dimension.APPLICATION).build();
      PlatformToolsClient platform = PlatformToolsClient.builder(config).cloudTokens(cloud).build();
      platform.uploadEntities(songs, RecordSource.fromText("{\"name\":\"Blue Lotus\",\"alias\":\"\"}"),
          DefaultConsole.APPID).execute();
      // Builders that hold the key print too.
      Collections.addAll(objects, ChecksumSigner.builder().namespace(DefaultConsole.NAMESPACE)
              .accountKey(DefaultConsole.ACCOUNT_KEY),
          EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
              .accountKey(DefaultConsole.ACCOUNT_KEY));
      Collections.addAll(objects, contacts, contacts.name(), Dimension.USER, signer, api, records,
          persParam, PersParam.activation().user().build(), request, receipt, check, wrongKey, songs,
          platform);

      scan = LeakScan.of(server);
      logText = log.text();
    }

    scan.scan("log", logText);
    for (Throwable error : errors) ToStringSweep.scanThrowable(scan, "exception", error);
    Map<String, String> noInstance = new LinkedHashMap<>();
    noInstance.put(SystemScheduler.class.getName(),
        "holds only a thread name; tests run on virtual time");
    java.util.TreeSet<String> missing = ToStringSweep.scan(scan,
        ToStringSweep.classesOverridingToString(new File("target/classes")), objects, noInstance);
    scan.assertNoLeak();

    assertThat(missing).as("public types with their own toString() and no object in this run")
        .isEmpty();
    assertThat(scan.counts()).containsKeys("client_secret", "account_key", "device_code",
        "access_token", "refresh_token", "sms_code", "x_checksum");
    assertThat(logText.contains("\"refresh_token\":\"‹secret ")).as("bodies were logged").isTrue();
    assertThat(logText.contains("X-CheckSum: ‹secret ")).as("headers were logged").isTrue();
    System.out.println("sdk-core leak scan: " + scan.secretCount() + " secrets " + scan.counts()
        + ", " + scan.totalScannedChars() + " characters scanned in " + scan.scannedChars().size()
        + " places");
  }

  interface Call {
    void run() throws Exception;
  }

  private static String md5Hex(String text) throws Exception {
    StringBuilder hex = new StringBuilder();
    for (byte b : MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8))) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }

  private static Throwable catching(Call call, Class<? extends Throwable> expected) {
    try {
      call.run();
    } catch (Throwable t) {
      assertThat(t).isInstanceOf(expected);
      return t;
    }
    throw new AssertionError("expected " + expected.getSimpleName());
  }
}
