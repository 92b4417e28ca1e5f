package dev.voicelink.interact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.ToStringSweep;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A session of the interaction channel with every log level and HTTP logging at BODY, frames
 * included: no secret the reference server knows or handed out appears in a log line or in the
 * {@code toString()} of any public type of this module, each built from the session's objects.
 */
class InteractLeakScanTest {
  private static final long START = 1_763_712_000_000L;

  @Test void noSecretInLogsOrToString() throws Exception {
    List<Object> objects = new ArrayList<>();
    VirtualTime time = new VirtualTime(START);
    LeakScan scan;
    String logText;
    try (LogCapture log = LogCapture.install();
        ReferenceServer server = ReferenceServer.builder().console(Console.defaults())
            .clock(ServerClock.manual(START)).build().start();
        VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.authUrl())
            .platformUrl(server.platformUrl()).baseUrl(server.baseUrl()).clock(time)
            .scheduler(time).httpLogging(HttpLogLevel.BODY).build()) {
      // A signed-in device, and a copy of its record left behind by a refresh (refused from now on).
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
          .clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
      new SimulatedTester(server).approve(code.userCode());
      BlockingQueue<CallResult<DeviceFlowOutcome>> outcomes = new LinkedBlockingQueue<>();
      int before = time.scheduledCount();
      authorizer.poll(code).enqueue(outcomes::add);
      time.awaitScheduled(before + 1);
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      CallResult<DeviceFlowOutcome> ended = outcomes.poll(10, TimeUnit.SECONDS);
      assertThat(ended).isNotNull();
      DeviceFlowOutcome outcome = ended.value();
      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      TokenManager device = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore()).build();
      device.setRecord(outcome.token());
      device.refresh().execute();
      TokenManager stale = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore(outcome.token())).build();
      try {
        stale.refresh().execute();
        throw new AssertionError("the rotated refresh token was accepted");
      } catch (ReauthorizationRequiredException expected) {
        // the stale manager now refuses to hand out a token
      }

      // The channel names the user; an entity uploaded for that user is recognized once in effect.
      BlockingQueue<Object> news = new LinkedBlockingQueue<>();
      InteractionChannel channel = InteractionChannel.builder(config, device)
          .listener(new InteractionChannel.Listener() {
            @Override public void onConnected(String uid) {
              news.add(uid);
            }

            @Override public void onResult(InteractionResult result) {
              news.add(result);
            }

            @Override public void onWriteError(int seq, String code, String description) {
              news.add(code + " " + description);
            }
          }).build();
      int scheduled = time.scheduledCount();
      channel.connect();
      time.awaitScheduled(scheduled + 1);
      time.runDueTasks();
      String uid = (String) news.poll(10, TimeUnit.SECONDS);
      assertThat(uid).isNotNull();
      EntityWebApi api = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      api.uploadResource(UploadRequest.builder().appid(DefaultConsole.APPID)
          .definition(ResourceDefinition.builder().name(DefaultConsole.CONTACTS).mainField("name")
              .secondaryFields("alias").dimension(Dimension.USER).build())
          .persParam(PersParam.user(uid))
          .records(RecordSource.fromText("{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n")).build())
          .execute();
      server.clock().advance(5, TimeUnit.MINUTES);
      time.advance(5, TimeUnit.MINUTES);
      channel.writeText("call 老张", "{\"uid\":\"\"}");
      Object result = news.poll(10, TimeUnit.SECONDS);
      assertThat(result).isInstanceOf(InteractionResult.class);
      assertThat(((InteractionResult) result).entities()).isNotEmpty();
      channel.close();
      Collections.addAll(objects, channel, result);
      objects.addAll(((InteractionResult) result).entities());

      // A channel whose token source was refused says why, without the token.
      BlockingQueue<Disconnect> lost = new LinkedBlockingQueue<>();
      InteractionChannel refused = InteractionChannel.builder(config, stale)
          .listener(new InteractionChannel.Listener() {
            @Override public void onResult(InteractionResult ignored) {
            }

            @Override public void onDisconnected(Disconnect disconnect) {
              lost.add(disconnect);
            }
          }).build();
      scheduled = time.scheduledCount();
      refused.connect();
      time.awaitScheduled(scheduled + 1);
      time.runDueTasks();
      Disconnect disconnect = lost.poll(10, TimeUnit.SECONDS);
      assertThat(disconnect).isNotNull();
      assertThat(disconnect.cause()).isEqualTo(Disconnect.Cause.TOKEN_REFUSED);
      refused.close();
      Collections.addAll(objects, refused, disconnect);

      // The one-shot: who signed in, and the refusal of a refused token source.
      objects.add(fetchUid(time, InteractionChannel.fetchUid(config, device)));
      CallResult<String> refusedUid = fetchUid(time, InteractionChannel.fetchUid(config, stale));
      assertThat(refusedUid.failure()).isInstanceOf(ReauthorizationRequiredException.class);
      Collections.addAll(objects, refusedUid, refusedUid.failure());

      scan = LeakScan.of(server);
      logText = log.text();
    }

    scan.scan("log", logText);
    java.util.TreeSet<String> missing = ToStringSweep.scan(scan,
        ToStringSweep.classesOverridingToString(new File("target/classes")), objects,
        Collections.emptyMap());
    scan.assertNoLeak();

    assertThat(missing).as("public types with their own toString() and no object in this run")
        .isEmpty();
    assertThat(scan.counts()).containsKeys("access_token", "refresh_token");
    assertThat(logText.contains("VERBOSE interact frame <-- ")).as("frames were logged").isTrue();
    assertThat(logText.contains("VERBOSE interact frame --> ")).as("frames were logged").isTrue();
  }

  private static CallResult<String> fetchUid(VirtualTime time, VoiceLinkCall<String> call)
      throws InterruptedException {
    BlockingQueue<CallResult<String>> results = new LinkedBlockingQueue<>();
    int scheduled = time.scheduledCount();
    call.enqueue(results::add);
    time.awaitScheduled(scheduled + 1);
    time.runDueTasks();
    CallResult<String> result = results.poll(10, TimeUnit.SECONDS);
    assertThat(result).as("fetchUid's result").isNotNull();
    return result;
  }
}
