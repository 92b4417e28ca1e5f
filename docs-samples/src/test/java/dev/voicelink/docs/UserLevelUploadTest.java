package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.PersParam;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import dev.voicelink.interact.RecognizedEntity;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the user-level program of docs/dynamic-entities.md against the reference server, its 5-minute
 * wait included: the device's clock and scheduler and the server's clock are simulated, and move only
 * while the program waits for time with nothing on the wire.
 */
class UserLevelUploadTest {
  private static final long START = 1_763_712_000_000L;

  @TempDir File dir;
  private final VirtualTime time = new VirtualTime(START);
  private final Dispatcher dispatcher = new Dispatcher();
  private ReferenceServer server;
  private VoiceLinkClient client;
  private final ExecutorService device = Executors.newSingleThreadExecutor();
  /** While the simulated user approves on the verification page, time stands still. */
  private final AtomicBoolean userActing = new AtomicBoolean();
  private volatile Thread programThread = Thread.currentThread();

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(ServerClock.manual(START)).build().start();
    client = VoiceLinkClient.builder().authUrl(server.authUrl()).baseUrl(server.baseUrl())
        .httpClient(new OkHttpClient.Builder().dispatcher(dispatcher).build())
        .clock(time).scheduler(time).build();
  }

  @AfterEach void stop() throws IOException {
    device.shutdownNow();
    client.close();
    server.close();
  }

  @Test void signsInLearnsTheUserUploadsForThemAndReturnsOnceInEffect() throws Exception {
    File tokenFile = new File(dir, "token.json");
    List<String> shown = new ArrayList<>();

    CheckResult result = runInSimulatedTime(() -> UserLevelUpload.uploadContacts(client, tokenFile,
        (userCode, link) -> {
          shown.add(link);
          approve(userCode);
        }, DefaultConsole.ACCOUNT_KEY));

    assertThat(result.processed()).isTrue();
    assertThat(shown).hasSize(1);
    assertThat(new FileTokenStore(tokenFile).load()).as("the sign-in is kept").isNotNull();
    assertThat(server.awaitInteractionSessionsClosed(5, TimeUnit.SECONDS))
        .as("the channel that named the user is closed").isTrue();
    String authId = uploadedAuthId();
    assertThat(authId).matches("[0-9a-z]{32}");
    List<RecordedCall> checks = server.journal().calls("/entity/check-resource");
    long uploadedAt = server.journal().calls("/entity/upload-resource").get(0).receivedAtMillis();
    assertThat(checks.get(checks.size() - 1).receivedAtMillis() - uploadedAt)
        .as("the wait ended at the first check in effect").isBetween(300_000L, 330_000L);

    // The same user, activated by an empty uid over the channel, has the entity.
    TokenManager tokens = TokenManager.builder(client).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new FileTokenStore(tokenFile)).build();
    assertThat(entitiesFor(tokens, "call laozhang", PersParam.activation().user().build().toJson()))
        .extracting(RecognizedEntity::value).containsExactly("Zhang Wei");
  }

  @Test void aSecondRunKeepsTheSignInAndNamesTheSameUser() throws Exception {
    File tokenFile = new File(dir, "token.json");
    runInSimulatedTime(() -> UserLevelUpload.uploadContacts(client, tokenFile,
        (userCode, link) -> approve(userCode), DefaultConsole.ACCOUNT_KEY));
    int deviceCodes = server.journal().count("/oauth/ivs/device_code");

    runInSimulatedTime(() -> UserLevelUpload.uploadContacts(client, tokenFile,
        (userCode, link) -> {
          throw new AssertionError("signed in again");
        }, DefaultConsole.ACCOUNT_KEY));

    assertThat(server.journal().count("/oauth/ivs/device_code")).isEqualTo(deviceCodes);
    List<String> owners = server.journal().calls("/entity/upload-resource").stream()
        .map(UserLevelUploadTest::authIdOf).collect(Collectors.toList());
    assertThat(owners).hasSize(2);
    assertThat(owners.get(1)).isEqualTo(owners.get(0));
  }

  private void approve(String userCode) {
    userActing.set(true);
    try {
      new SimulatedTester(server).approve(userCode);   // the user, on a phone
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      userActing.set(false);
    }
  }

  /**
   * Runs {@code program} on a thread of its own. Whenever nothing is on the wire (no HTTP exchange,
   * no open socket), the user is not on the verification page, and the program waits for a scheduled
   * task, both clocks move to that task, at most 5 s at a time, and the task runs; then the program
   * has up to 20 ms of real time to act on it before the next look.
   */
  private <T> T runInSimulatedTime(Callable<T> program) throws Exception {
    Future<T> run = device.submit(() -> {
      programThread = Thread.currentThread();
      return program.call();
    });
    long realDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!run.isDone()) {
      List<Long> waiting = time.pendingDelaysNanos();
      if (System.nanoTime() > realDeadline) throw stuck();
      if (dispatcher.runningCallsCount() == 0 && !userActing.get() && !waiting.isEmpty()) {
        // whole milliseconds, the server clock's unit: a task due in a fraction of one runs at its end
        long step = Math.min(TimeUnit.NANOSECONDS.toMillis(waiting.get(0) + 999_999), 5_000);
        server.clock().advance(step, TimeUnit.MILLISECONDS);
        time.advance(step, TimeUnit.MILLISECONDS);
      }
      time.awaitScheduledOr(time.scheduledCount() + 1, run::isDone, 20, TimeUnit.MILLISECONDS);
    }
    return run.get();
  }

  /** Where the program is, and what the clocks and the wire look like, for a run that does not end. */
  private AssertionError stuck() {
    StringBuilder where = new StringBuilder();
    for (StackTraceElement frame : programThread.getStackTrace()) where.append("\n  at ").append(frame);
    List<String> journal = server.journal().snapshot().stream()
        .map(c -> c.method() + " " + c.path() + " " + c.responseStatus()).collect(Collectors.toList());
    return new AssertionError("the program did not end within 60 s of real time; tasks waiting "
        + time.pendingDelaysMillis() + " ms, calls on the wire " + dispatcher.runningCallsCount()
        + ", server journal " + journal + "; the program is" + where);
  }

  private String uploadedAuthId() {
    List<RecordedCall> uploads = server.journal().calls("/entity/upload-resource");
    assertThat(uploads).hasSize(1);
    return authIdOf(uploads.get(0));
  }

  private static String authIdOf(RecordedCall upload) {
    for (String field : upload.body().split("&")) {
      if (field.startsWith("pers_param=")) {
        try {
          String persParam = URLDecoder.decode(field.substring("pers_param=".length()), "UTF-8");
          assertThat(persParam).startsWith("{\"auth_id\":\"").endsWith("\"}");
          return persParam.substring("{\"auth_id\":\"".length(), persParam.length() - 2);
        } catch (java.io.UnsupportedEncodingException e) {
          throw new AssertionError(e);
        }
      }
    }
    throw new AssertionError("no pers_param in " + upload.body());
  }

  private List<RecognizedEntity> entitiesFor(TokenManager tokens, String text, String persParam)
      throws Exception {
    BlockingQueue<Object> news = new LinkedBlockingQueue<>();
    InteractionChannel channel = InteractionChannel.builder(client, tokens)
        .listener(new InteractionChannel.Listener() {
          @Override public void onConnected(String uid) {
            news.add("connected");
          }

          @Override public void onResult(InteractionResult result) {
            news.add(result);
          }
        }).build();
    try {
      int scheduled = time.scheduledCount();
      channel.connect();
      time.awaitScheduled(scheduled + 1);
      time.runDueTasks();
      assertThat(news.poll(10, TimeUnit.SECONDS)).isEqualTo("connected");
      channel.writeText(text, persParam);
      Object result = news.poll(10, TimeUnit.SECONDS);
      assertThat(result).isInstanceOf(InteractionResult.class);
      return ((InteractionResult) result).entities();
    } finally {
      channel.close();
    }
  }
}
