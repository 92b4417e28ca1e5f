package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.json;
import static dev.voicelink.auth.AuthServerScript.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.TokenManager.State;
import dev.voicelink.core.KotlinThrows;
import dev.voicelink.core.ServerBusyException;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TokenManagerTest {
  private static final long DAY_SECONDS = TimeUnit.DAYS.toSeconds(1);

  private final VirtualTime time = new VirtualTime();
  private final AuthServerScript script = new AuthServerScript(time);
  private final MockWebServer server = new MockWebServer();
  private final StateLog states = new StateLog();
  private VoiceLinkClient config;

  @BeforeEach void setUp() throws IOException {
    server.setDispatcher(script);
    server.start();
    config = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .clock(time).scheduler(time).build();
  }

  @AfterEach void tearDown() throws IOException {
    server.shutdown();
  }

  private TokenRecord deviceRecord(String access, String refresh, long expiresIn) {
    return script.deviceRecord(access, refresh, expiresIn);
  }

  private TokenManager deviceManager(TokenStore store) {
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01").store(store)
        .random(new Random(3)).build();
    manager.addListener(states);
    return manager;
  }

  @Test void servesTheTokenUntilTheMarginThenRefreshesOnce() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 8_640_000));
    TokenManager manager = deviceManager(store);
    script.enqueue(token("at-2", "rt-2", 8_640_000, time.wallMillis() / 1000));

    // 100 days, 10% is 10 days: capped at one day of margin
    time.advance(8_640_000 - DAY_SECONDS - 1, TimeUnit.SECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(server.getRequestCount()).isZero();
    time.advance(1, TimeUnit.SECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(manager.accessToken()).isEqualTo("at-2");

    assertThat(server.getRequestCount()).isEqualTo(1);
    RecordedRequest refresh = server.takeRequest();
    assertThat(refresh.getPath()).isEqualTo("/oauth/ivs/token");
    assertThat(refresh.getHeader("Content-Type")).isEqualTo("application/json");
    assertThat(refresh.getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-1\"}");
    assertThat(store.load().refreshToken()).isEqualTo("rt-2");
    states.awaitExactly(State.LOADING, State.VALID, State.REFRESHING, State.VALID);
  }

  @Test void aRecordItsStoreCouldNotReadIsReadAgainByTheNextTokenRequest() throws Exception {
    TokenRecord kept = deviceRecord("at-1", "rt-1", 3600);
    AtomicInteger loads = new AtomicInteger();
    TokenStore keystoreOutOfReachAtFirst = new TokenStore() {
      @Override public @Nullable TokenRecord load() throws IOException {
        if (loads.incrementAndGet() <= 2) {
          throw new RecordLostException("the stored sign-in of token store default is lost: its key is"
              + " gone (wiped, or a backup from elsewhere); sign in again");
        }
        return kept;
      }

      @Override public void save(TokenRecord record) {
      }

      @Override public void clear() {
      }
    };
    TokenManager manager = deviceManager(keystoreOutOfReachAtFirst);
    states.awaitExactly(State.LOADING, State.REAUTHORIZATION_REQUIRED);
    assertThatThrownBy(manager::accessToken).isInstanceOfSatisfying(
        ReauthorizationRequiredException.class,
        e -> assertThat(e.code()).isEqualTo(ReauthorizationRequiredException.RECORD_LOST));
    assertThat(loads).as("the store read again by that request").hasValue(2);

    assertThat(manager.accessToken()).as("the Keystore is back").isEqualTo("at-1");
    assertThat(loads).hasValue(3);
    states.awaitExactly(State.LOADING, State.REAUTHORIZATION_REQUIRED, State.VALID);
    assertThat(states.changes().get(2).cause()).isEqualTo(TokenManager.Cause.STORE_READ);
    assertThat(server.getRequestCount()).isZero();
  }

  /** A store whose first {@code failures} reads throw {@code failure}, and which then holds {@code kept}. */
  private static TokenStore readableAfter(int failures, IOException failure, @Nullable TokenRecord kept,
      AtomicInteger loads) {
    return new TokenStore() {
      @Override public @Nullable TokenRecord load() throws IOException {
        if (loads.incrementAndGet() <= failures) throw failure;
        return kept;
      }

      @Override public void save(TokenRecord record) {
      }

      @Override public void clear() {
      }
    };
  }

  /** Waits for the next read of the store that the manager schedules by itself, and lets it run. */
  private long runScheduledStoreRead(int scheduled) throws InterruptedException {
    time.awaitScheduled(scheduled);
    assertThat(time.pendingDelaysMillis()).as("one read of the store waits").hasSize(1);
    long delay = time.pendingDelaysMillis().get(0);
    time.advance(delay, TimeUnit.MILLISECONDS);
    return delay;
  }

  @Test void aStoreThatFailsItsFirstReadsIsReadAgainByItselfUntilItReads() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    TokenManager manager = deviceManager(readableAfter(2, new IOException("storage not mounted yet"),
        deviceRecord("at-1", "rt-1", 3600), loads));
    states.awaitCause(TokenManager.Cause.STORE_FAILED);

    assertThat(runScheduledStoreRead(1)).as("the first wait, 0.5 to 1 s").isBetween(500L, 1_000L);
    assertThat(runScheduledStoreRead(2)).as("the second, 1 to 2 s").isBetween(1_000L, 2_000L);

    assertThat(states.awaitCause(TokenManager.Cause.STORE_READ).state()).isEqualTo(State.VALID);
    assertThat(loads).hasValue(3);
    List<TokenManager.Cause> causes = new ArrayList<>();
    for (TokenManager.StateChange change : states.changes()) causes.add(change.cause());
    assertThat(causes).containsExactly(TokenManager.Cause.READING_STORE, TokenManager.Cause.STORE_FAILED,
        TokenManager.Cause.STORE_FAILED, TokenManager.Cause.STORE_READ);
    assertThat(states.changes().get(1).failure()).hasMessage("storage not mounted yet");
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aStoreThatNeverReadsIsReadAgainByItselfEightTimesAtMost() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    java.util.concurrent.Semaphore failedReads = new java.util.concurrent.Semaphore(0);
    // One listener, so one first read: each listener added starts a read of a store not read yet.
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(readableAfter(Integer.MAX_VALUE, new IOException("disk failed"), null, loads))
        .random(new Random(3)).build();
    manager.addListener(change -> {
      if (change.cause() == TokenManager.Cause.STORE_FAILED) failedReads.release();
    });

    for (int retry = 1; retry <= 8; retry++) {
      long ceiling = Math.min(60_000L, 1_000L << (retry - 1));
      assertThat(runScheduledStoreRead(retry)).as("wait %s", retry).isBetween(ceiling / 2, ceiling);
    }
    assertThat(failedReads.tryAcquire(9, 10, TimeUnit.SECONDS)).as("nine failed reads told").isTrue();
    assertThat(loads).hasValue(9);
    assertThat(time.pendingDelaysMillis()).as("no tenth read by itself").isEmpty();
    assertThat(time.scheduledCount()).isEqualTo(8);
    assertThatThrownBy(manager::accessToken).as("a token request still reads it, and says why")
        .isInstanceOf(IOException.class).hasMessage("disk failed");
    assertThat(loads).hasValue(10);
  }

  @Test void aRecordLostToAKeystoreOutOfReachIsReadAgainByItselfOnceItIsBack() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    TokenManager manager = deviceManager(readableAfter(1, new RecordLostException("the stored sign-in of"
        + " token store default is lost: its key is gone (wiped, or a backup from elsewhere); sign in"
        + " again"), deviceRecord("at-1", "rt-1", 3600), loads));
    states.awaitExactly(State.LOADING, State.REAUTHORIZATION_REQUIRED);

    runScheduledStoreRead(1);

    states.awaitExactly(State.LOADING, State.REAUTHORIZATION_REQUIRED, State.VALID);
    assertThat(loads).hasValue(2);
    assertThat(manager.accessToken()).isEqualTo("at-1");
  }

  @Test void aLostRecordReadBackAfterItsTokenExpiredIsValidAndRefreshedAtFirstUse() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    TokenRecord saved = deviceRecord("at-1", "rt-1", 3600);
    time.advance(2, TimeUnit.HOURS); // the device was off since the record was saved
    TokenManager manager = deviceManager(readableAfter(1, new RecordLostException("the stored sign-in of"
        + " token store default is lost: its key is gone (wiped, or a backup from elsewhere); sign in"
        + " again"), saved, loads));
    states.awaitExactly(State.LOADING, State.REAUTHORIZATION_REQUIRED);

    runScheduledStoreRead(1);

    // VALID, as a first read reports any record: an Agent on the manager connects at this news
    states.awaitExactly(State.LOADING, State.REAUTHORIZATION_REQUIRED, State.VALID);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void anAppClientWithoutAReadTimeoutStillBoundsTheSilenceOfAuthorizationAnswers() {
    ClientCore streaming = ClientCore.of(VoiceLinkClient.builder().authUrl("https://auth.example/")
        .httpClient(new OkHttpClient.Builder().readTimeout(0, TimeUnit.SECONDS).build()).build());
    assertThat(new AuthClient(streaming, new PlatformDialect(streaming), null)
        .refreshReadTimeoutMillis()).isEqualTo(30_000);
    ClientCore patient = ClientCore.of(VoiceLinkClient.builder().authUrl("https://auth.example/")
        .httpClient(new OkHttpClient.Builder().readTimeout(90, TimeUnit.SECONDS).build()).build());
    assertThat(new AuthClient(patient, new PlatformDialect(patient), null)
        .refreshReadTimeoutMillis()).as("the app's own read timeout").isEqualTo(90_000);
  }

  @Test void defaultMarginIsTheLargerOfTenPercentAndFiveMinutesAtMostHalfTheLife() {
    TokenManager manager = deviceManager(new InMemoryTokenStore());
    assertThat(manager.marginMillis(TimeUnit.SECONDS.toMillis(8_640_000)))
        .isEqualTo(TimeUnit.DAYS.toMillis(1));
    assertThat(manager.marginMillis(TimeUnit.HOURS.toMillis(10)))
        .isEqualTo(TimeUnit.HOURS.toMillis(1));
    assertThat(manager.marginMillis(TimeUnit.HOURS.toMillis(1)))
        .isEqualTo(TimeUnit.MINUTES.toMillis(6));
    assertThat(manager.marginMillis(TimeUnit.MINUTES.toMillis(20)))
        .isEqualTo(TimeUnit.MINUTES.toMillis(5));
    assertThat(manager.marginMillis(TimeUnit.SECONDS.toMillis(60))).isEqualTo(30_000);
  }

  @Test void fiftyConcurrentCallersOnAnExpiredTokenShareOneRefresh() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager manager = deviceManager(store);
    time.advance(2, TimeUnit.HOURS);
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    holdTheRotatedAnswer(arrived, answer);

    try (ParkedThreads callers = new ParkedThreads()) {
      List<Future<String>> results = callers.callTogether(50, manager::accessToken);
      assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the refresh is on the wire").isTrue();
      // The answer is held until every other caller waits inside the manager for that refresh.
      callers.awaitParkedInTheSdk(49);
      answer.countDown();
      for (Future<String> result : results) {
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("at-2");
      }
    } finally {
      answer.countDown();
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(store.load().accessToken()).isEqualTo("at-2");
  }

  /**
   * A store whose loads, once {@link #gate()}d, wait until the test {@link #open()}s it (a slow decrypt
   * on a device, say), and that counts them.
   */
  private static final class SlowLookStore implements TokenStore {
    final InMemoryTokenStore held;
    final AtomicInteger loads = new AtomicInteger();
    private final AtomicBoolean gated = new AtomicBoolean();
    private final CountDownLatch opened = new CountDownLatch(1);
    private final CountDownLatch looking = new CountDownLatch(1);

    SlowLookStore(TokenRecord record) {
      held = new InMemoryTokenStore(record);
    }

    void gate() {
      gated.set(true);
    }

    void awaitLooking() throws InterruptedException {
      assertThat(looking.await(10, TimeUnit.SECONDS)).as("a gated load began").isTrue();
    }

    void open() {
      opened.countDown();
    }

    @Override public @Nullable TokenRecord load() throws IOException {
      loads.incrementAndGet();
      if (gated.get()) {
        looking.countDown();
        try {
          if (!opened.await(10, TimeUnit.SECONDS)) throw new IOException("the test never opened the store");
        } catch (InterruptedException e) {
          throw new InterruptedIOException();
        }
      }
      return held.load();
    }

    @Override public void save(TokenRecord record) {
      held.save(record);
    }

    @Override public void clear() {
      held.clear();
    }
  }

  @Test void concurrentCallersOnADueTokenLookInTheStoreOnceBetweenThem() throws Exception {
    SlowLookStore store = new SlowLookStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager manager = deviceManager(store);
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(store.loads.get()).as("the first read").isEqualTo(1);
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    store.gate();

    try (ParkedThreads callers = new ParkedThreads()) {
      List<Future<String>> results = callers.callTogether(8, manager::accessToken);
      // Every caller waits for the one look, none for a store lock of its own.
      callers.awaitParkedInTheSdk(8);
      store.open();
      for (Future<String> result : results) {
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("at-2");
      }
    } finally {
      store.open();
    }
    assertThat(store.loads.get()).as("the first read and one look for the eight callers").isEqualTo(2);
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-1\"}");
  }

  @Test void aRecordTheAppSetsWhileTheStoreIsLookedInIsServedWithNothingSent() throws Exception {
    SlowLookStore store = new SlowLookStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager manager = deviceManager(store);
    assertThat(manager.accessToken()).isEqualTo("at-1");
    time.advance(2, TimeUnit.HOURS);
    store.gate();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<String> token = caller.submit(manager::accessToken);
      store.awaitLooking();
      manager.setRecord(deviceRecord("at-9", "rt-9", 3600)); // a restore, say
      store.open();
      assertThat(token.get(10, TimeUnit.SECONDS)).isEqualTo("at-9");
    } finally {
      store.open();
      caller.shutdownNow();
    }
    assertThat(server.getRequestCount()).as("neither rt-1 nor rt-9 sent").isZero();
    assertThat(manager.accessToken()).isEqualTo("at-9");
  }

  @Test void callersOnADueTokenTakeTheRecordAnotherManagerSavedAndTheListenersHearItRefreshed()
      throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager other = deviceManager(store); // `states` listens from before the store is read
    assertThat(other.accessToken()).isEqualTo("at-1");
    states.awaitExactly(State.LOADING, State.VALID);
    time.advance(2, TimeUnit.HOURS);
    store.save(deviceRecord("at-2", "rt-2", 3600)); // the first manager's refresh, saved

    assertThat(other.accessToken()).isEqualTo("at-2");
    states.awaitExactly(State.LOADING, State.VALID, State.REFRESHING, State.VALID);
    assertThat(states.changes()).extracting(TokenManager.StateChange::cause).containsExactly(
        TokenManager.Cause.READING_STORE, TokenManager.Cause.STORE_READ, TokenManager.Cause.REFRESH_STARTED,
        TokenManager.Cause.REFRESHED);
    assertThat(server.getRequestCount()).as("nothing sent").isZero();
  }

  @Test void aForcedRefreshRefreshesTheRecordAnotherManagerSavedNotTheOneItHeld() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager other = deviceManager(store);
    assertThat(other.accessToken()).isEqualTo("at-1");
    time.advance(1, TimeUnit.MINUTES);
    store.save(deviceRecord("at-2", "rt-2", 3600)); // another manager's refresh, saved
    script.enqueue(token("at-3", "rt-3", 3600, time.wallMillis() / 1000));

    assertThat(other.refresh().execute().accessToken()).isEqualTo("at-3");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(server.takeRequest().getBody().readUtf8()).as("rt-1 is void: never sent")
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-2\"}");
    assertThat(store.load().accessToken()).isEqualTo("at-3");
  }

  @Test void rotatedRecordIsSavedBeforeItsTokenIsHandedOut() throws Exception {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    TokenStore failingOnce = new TokenStore() {
      private TokenRecord record = deviceRecord("at-1", "rt-1", 3600);
      private boolean failNext = true;

      @Override public synchronized TokenRecord load() {
        return record;
      }

      @Override public synchronized void save(TokenRecord next) throws IOException {
        events.add("save " + next.accessToken());
        if (failNext) {
          failNext = false;
          throw new IOException("disk full");
        }
        record = next;
      }

      @Override public void clear() {
      }
    };
    TokenManager manager = deviceManager(failingOnce);
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThatThrownBy(manager::accessToken).isInstanceOf(IOException.class).hasMessage("disk full");
    assertThat(failingOnce.load().accessToken()).isEqualTo("at-1");
    events.add("second call");
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(events).containsExactly("save at-2", "second call", "save at-2");
    assertThat(failingOnce.load().refreshToken()).isEqualTo("rt-2");
    assertThat(server.getRequestCount()).isEqualTo(1); // the rotated token was not lost
  }

  @Test void aRefreshIsReadToTheEndDespiteTheAppsCallTimeout() throws Exception {
    // The server voids rt-1 when it answers: giving up on the answer would lose the sign-in.
    config = VoiceLinkClient.builder().authUrl(server.url("/").toString()).clock(time).scheduler(time)
        .httpClient(new OkHttpClient.Builder().callTimeout(50, TimeUnit.MILLISECONDS).build())
        .build();
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager manager = deviceManager(store);
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000)
        .setHeadersDelay(500, TimeUnit.MILLISECONDS));

    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(store.load().refreshToken()).isEqualTo("rt-2");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /**
   * The look in the store after a refused refresh token meets a store that throws what a store must
   * not (a RuntimeException): the refresh is abandoned, its caller gets the failure, and the next
   * request refreshes again instead of joining the ended refresh for ever.
   */
  @Test void aStoreThrowingAtTheLookAfterARefusalLeavesTheNextRequestFreeToRefresh()
      throws Exception {
    InMemoryTokenStore held = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    AtomicInteger loads = new AtomicInteger();
    TokenStore failingAtTheThirdRead = new TokenStore() {
      @Override public @Nullable TokenRecord load() {
        // the first read, the look before the refresh, then the look after its refusal
        if (loads.incrementAndGet() == 3) throw new IllegalStateException("the store's own bug");
        return held.load();
      }

      @Override public void save(TokenRecord record) {
        held.save(record);
      }

      @Override public void clear() {
        held.clear();
      }
    };
    TokenManager manager = deviceManager(failingAtTheThirdRead);
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(json(400, "{\"error\":\"invalid_refresh_token\",\"message\":\"already used\"}"),
        token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThatThrownBy(manager::accessToken).isInstanceOf(IllegalStateException.class)
        .hasMessage("the store's own bug");
    assertThat(manager.state()).isEqualTo(State.EXPIRED);

    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(held.load().refreshToken()).isEqualTo("rt-2");
  }

  @Test void aStoreThatThrowsAtItsFirstReadStillLetsASignOutClearIt() throws Exception {
    AtomicBoolean cleared = new AtomicBoolean();
    TokenStore unreadable = new TokenStore() {
      @Override public @Nullable TokenRecord load() {
        throw new IllegalStateException("the store's own bug");
      }

      @Override public void save(TokenRecord record) {
      }

      @Override public void clear() {
        cleared.set(true);
      }
    };
    TokenManager manager = deviceManager(unreadable);

    assertThat(manager.signOut().execute()).isEqualTo(TokenManager.SignOut.NOT_OFFERED);

    assertThat(cleared).isTrue();
    assertThat(manager.state()).isEqualTo(State.NO_TOKEN);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aStoreWhoseSaveThrowsACheckedExceptionIsAFailedSaveToldToTheListeners()
      throws Exception {
    TokenStore keystoreBroken = new TokenStore() {
      @Override public @Nullable TokenRecord load() {
        return null;
      }

      @Override public void save(TokenRecord record) {
        throw KotlinThrows.checked(new java.security.GeneralSecurityException("keystore refused"));
      }

      @Override public void clear() {
      }
    };
    TokenManager manager = deviceManager(keystoreBroken);

    manager.setRecord(deviceRecord("at-1", "rt-1", 3600));

    TokenManager.StateChange failed = states.awaitCause(TokenManager.Cause.STORE_FAILED);
    assertThat(failed.state()).isEqualTo(State.VALID);
    assertThat(failed.failure()).isInstanceOf(IOException.class)
        .hasMessage("the token store failed: java.security.GeneralSecurityException: keystore refused");
    // Held, not saved: the next token request saves it first, and says why it cannot.
    assertThatThrownBy(manager::accessToken).isInstanceOf(IOException.class)
        .hasMessage("the token store failed: java.security.GeneralSecurityException: keystore refused");
    assertThat(manager.record()).isNotNull();
  }

  @Test void aRefusalThatEchoesTheRefreshTokenNamesItNowhere() throws Exception {
    String refresh = "rt-1f7d0c3a9b8e4d2f99";
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", refresh, 3600)));
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(json(400, "{\"error\":\"invalid_refresh_token\",\"message\":\"refresh token "
        + refresh + " is revoked\"}"));

    try (dev.voicelink.core.LogCapture log = dev.voicelink.core.LogCapture.install()) {
      assertThatThrownBy(manager::accessToken).isInstanceOf(ReauthorizationRequiredException.class)
          .hasMessage("invalid_refresh_token: refresh token ‹redacted› is revoked");
      TokenManager.StateChange refused = states.awaitCause(TokenManager.Cause.REFRESH_REFUSED);
      assertThat(refused.failure()).hasMessageNotContaining(refresh);
      assertThat(refused.toString()).doesNotContain(refresh);
      assertThat(log.text()).contains("refresh token ‹redacted› is revoked").doesNotContain(refresh);
    }
  }

  @Test void invalidRefreshTokenRequiresReauthorizationAndKeepsTheRecord() throws Exception {
    TokenRecord stored = deviceRecord("at-1", "rt-1", 3600);
    InMemoryTokenStore store = new InMemoryTokenStore(stored);
    TokenManager manager = deviceManager(store);
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(json(400, "{\"error\":\"invalid_refresh_token\",\"message\":\"refresh_token is"
        + " unknown or was already used\"}"));

    assertThatThrownBy(manager::accessToken)
        .isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_refresh_token: refresh_token is unknown or was already used");
    assertThat(manager.state()).isEqualTo(State.REAUTHORIZATION_REQUIRED);
    assertThat(store.load()).isEqualTo(stored);
    assertThatThrownBy(manager::accessToken).isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_refresh_token: refresh_token is unknown or was already used");
    assertThat(server.getRequestCount()).isEqualTo(1);

    List<State> late = new ArrayList<>();
    manager.addListener(change -> late.add(change.state()));
    assertThat(late).containsExactly(State.REAUTHORIZATION_REQUIRED);
    states.awaitExactly(State.LOADING, State.VALID, State.REFRESHING, State.REAUTHORIZATION_REQUIRED);

    manager.setRecord(deviceRecord("at-9", "rt-9", 3600));
    assertThat(manager.accessToken()).isEqualTo("at-9");
    assertThat(manager.state()).isEqualTo(State.VALID);
  }

  @Test void transientFailureServesTheValidTokenAndRetriesAfterABackoff() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    time.advance(3600 - 300, TimeUnit.SECONDS); // inside the margin, still valid
    script.enqueue(new MockResponse().setResponseCode(503),
        token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(manager.state()).isEqualTo(State.VALID);
    assertThat(manager.accessToken()).isEqualTo("at-1"); // inside the backoff: no request
    assertThat(server.getRequestCount()).isEqualTo(1);
    time.advance(1, TimeUnit.SECONDS); // beyond the first backoff ceiling (1 s)
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void aRefreshAnswerWithNeitherATokenNorAnErrorIsTransient() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(json(200, "{\"device_code\":\"dc-1\"}"));
    assertThatThrownBy(manager::accessToken).isExactlyInstanceOf(IOException.class)
        .hasMessage("HTTP 200 with neither a token nor an error");
    assertThat(manager.state()).isEqualTo(State.EXPIRED);
  }

  @Test void anUnusableRefreshAnswerStillKeepsItsNewRefreshToken() throws Exception {
    refreshAnsweredWithRt2Unusably(json(200, "{\"access_token\":\"at-2\",\"refresh_token\":\"rt-2\","
        + "\"expires_in\":-1}"));
  }

  @Test void aRefreshAnswerWithANewRefreshTokenButNoAccessTokenKeepsTheNewRefreshToken()
      throws Exception {
    refreshAnsweredWithRt2Unusably(json(200, "{\"refresh_token\":\"rt-2\",\"expires_in\":3600}"));
  }

  /**
   * A due refresh of a token still valid is answered {@code unusable}, which names the new refresh
   * token rt-2: at-1 is still served, rt-2 is saved with it, and the next refresh sends rt-2.
   */
  private void refreshAnsweredWithRt2Unusably(MockResponse unusable) throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager manager = deviceManager(store);
    time.advance(3600 - 300, TimeUnit.SECONDS); // inside the margin, still valid
    script.enqueue(unusable, token("at-3", "rt-3", 3600, time.wallMillis() / 1000));

    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(store.load().refreshToken()).isEqualTo("rt-2");
    assertThat(store.load().accessToken()).isEqualTo("at-1");
    assertThat(manager.state()).isEqualTo(State.VALID);
    time.advance(1, TimeUnit.SECONDS); // beyond the first backoff ceiling (1 s)
    assertThat(manager.accessToken()).isEqualTo("at-3");

    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-1\"}");
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-2\"}");
    assertThat(store.load().refreshToken()).isEqualTo("rt-3");
  }

  @Test void aFailingAnswerThatNamesARefreshTokenChangesNothingStored() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager manager = deviceManager(store);
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(json(503, "{\"refresh_token\":\"rt-2\"}"));

    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(store.load().refreshToken()).isEqualTo("rt-1");
  }

  @Test void anUnusableRefreshAnswerForAnExpiredTokenIsThrownAndItsRefreshTokenKept() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager manager = deviceManager(store);
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(json(200, "{\"access_token\":\"at-2\",\"refresh_token\":\"rt-2\","
        + "\"token_type\":\"mac\"}"));

    assertThatThrownBy(manager::accessToken).isInstanceOf(IOException.class)
        .hasMessage("malformed token record: token_type \"mac\" is not supported; expected bearer");
    assertThat(manager.state()).isEqualTo(State.EXPIRED);
    assertThat(store.load().refreshToken()).isEqualTo("rt-2");
  }

  @Test void retryAfterHoldsBackTheNextRefreshWhileTheTokenIsValid() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "90"),
        token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThat(manager.accessToken()).isEqualTo("at-1");
    time.advance(89_999, TimeUnit.MILLISECONDS); // far beyond the backoff's 1 s, inside Retry-After
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(server.getRequestCount()).isEqualTo(1);
    time.advance(1, TimeUnit.MILLISECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void aRateLimitedRefreshServesTheValidTokenUntilItsRetryAfter() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(json(429, "{\"error\":\"too_many_requests\"}").setHeader("Retry-After", "60"),
        token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(manager.state()).isEqualTo(State.VALID);
    time.advance(59_999, TimeUnit.MILLISECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(server.getRequestCount()).isEqualTo(1);
    time.advance(1, TimeUnit.MILLISECONDS);
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void aForcedRefreshThatFailsSaysSoThoughTheValidTokenIsStillServed() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    script.enqueue(json(503, "{\"error\":\"temporarily_unavailable\"}"));

    assertThatThrownBy(() -> manager.refresh().execute()).isInstanceOf(IOException.class)
        .hasMessage("token refresh failed: HTTP 503 temporarily_unavailable");
    assertThat(manager.accessToken()).as("still valid, and no new try before the backoff")
        .isEqualTo("at-1");
    assertThat(manager.state()).isEqualTo(State.VALID);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void aManagerUsesTheRecordAnotherManagerOfItsStoreRefreshedInsteadOfRefreshingAgain()
      throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = deviceManager(store);
    TokenManager second = deviceManager(store);
    assertThat(first.accessToken()).isEqualTo("at-1");
    assertThat(second.accessToken()).isEqualTo("at-1");
    time.advance(3600 - 300, TimeUnit.SECONDS); // both inside the margin
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThat(first.accessToken()).isEqualTo("at-2");
    assertThat(second.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(1); // the second never sent the void rt-1
    assertThat(second.state()).isEqualTo(State.VALID);
  }

  @Test void aRefreshRefusedBecauseAnotherManagerRotatedTheTokenMeanwhileUsesItsRecord()
      throws Exception {
    TokenRecord stale = deviceRecord("at-1", "rt-1", 3600);
    InMemoryTokenStore store = new InMemoryTokenStore(stale);
    AtomicBoolean rotatedElsewhere = new AtomicBoolean();
    TokenStore seenLate = new TokenStore() { // another manager's save lands while this one refreshes
      @Override public @Nullable TokenRecord load() {
        return rotatedElsewhere.get() ? store.load() : stale;
      }

      @Override public void save(TokenRecord record) {
        store.save(record);
      }

      @Override public void clear() {
        store.clear();
      }
    };
    TokenManager manager = deviceManager(seenLate);
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(json(400, "{\"error\":\"invalid_refresh_token\",\"message\":\"already used\"}"));
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        store.save(deviceRecord("at-2", "rt-2", 3600));
        rotatedElsewhere.set(true);
        return script.dispatch(request);
      }
    });

    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(manager.state()).isEqualTo(State.VALID);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void aManagerRefusedBeforeTheOtherSavedItsRecordTakesThatRecordOnItsNextCall()
      throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager loser = deviceManager(store);
    assertThat(loser.accessToken()).isEqualTo("at-1");
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(json(400, "{\"error\":\"invalid_refresh_token\",\"message\":\"already used\"}"));
    assertThatThrownBy(loser::accessToken).isInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_refresh_token: already used");
    assertThat(loser.state()).isEqualTo(State.REAUTHORIZATION_REQUIRED);

    store.save(deviceRecord("at-2", "rt-2", 3600)); // the winner's save, after the refusal came back

    assertThat(loser.accessToken()).isEqualTo("at-2");
    assertThat(loser.state()).isEqualTo(State.VALID);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /**
   * Another process's refresh was answered with a new refresh token and no usable access token: it
   * saved rt-2 with the access token it still had, and so with that token's receipt time.
   */
  @Test void aRotationSavedWithTheOldAccessTokenIsTakenByAManagerRefusedTheOldRefreshToken()
      throws Exception {
    TokenRecord stored = deviceRecord("at-1", "rt-1", 3600);
    InMemoryTokenStore store = new InMemoryTokenStore(stored);
    TokenManager loser = deviceManager(store);
    assertThat(loser.accessToken()).isEqualTo("at-1");
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(json(400, "{\"error\":\"invalid_refresh_token\",\"message\":\"already used\"}"));
    assertThatThrownBy(loser::accessToken).isInstanceOf(ReauthorizationRequiredException.class);

    store.save(stored.newBuilder().refreshToken("rt-2").build());

    assertThat(loser.accessToken()).isEqualTo("at-1"); // still valid for 5 minutes
    assertThat(loser.state()).isEqualTo(State.VALID);
    time.advance(301, TimeUnit.SECONDS);
    script.enqueue(token("at-3", "rt-3", 3600, time.wallMillis() / 1000));
    assertThat(loser.accessToken()).isEqualTo("at-3");
    server.takeRequest();
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-2\"}");
  }

  @Test void anExpiredTokenIsRefreshedDespiteRetryAfterAndTheAppLearnsTheWait() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(json(503, "{\"error\":\"temporarily_unavailable\"}").setHeader("Retry-After", "30"),
        token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    assertThatThrownBy(manager::accessToken).isInstanceOf(ServerBusyException.class)
        .hasMessage("token refresh failed: HTTP 503 temporarily_unavailable; the server asks to retry"
            + " after 30 s")
        .extracting(e -> ((ServerBusyException) e).retryAfterMillis()).isEqualTo(30_000L);
    // Without a token the app decides: a call now is sent (the pause only holds back a valid token's refresh).
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void transientFailureOnAnExpiredTokenIsThrown() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(json(502, "<html>bad gateway</html>"));
    assertThatThrownBy(manager::accessToken).isInstanceOf(IOException.class)
        .hasMessage("HTTP 502 with a body that is not a JSON object");
    assertThat(manager.state()).isEqualTo(State.EXPIRED);
  }

  @Test void invalidateRefreshesOnlyForTheCurrentToken() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    manager.invalidate("at-0");
    assertThat(manager.accessToken()).isEqualTo("at-1");
    manager.invalidate("at-1");
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void storedRecordExpiresByItsReceiptTimeAfterARestart() throws Exception {
    TokenRecord stored = deviceRecord("at-1", "rt-1", 3600).newBuilder()
        .receivedAtEpochMillis(time.wallMillis() - TimeUnit.MINUTES.toMillis(58)).build();
    TokenManager manager = deviceManager(new InMemoryTokenStore(stored));
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    assertThat(manager.accessToken()).isEqualTo("at-2"); // 2 minutes left < 6 minutes margin
  }

  @Test void aStoredRecordReceivedAfterTheDeviceClocksNowIsRefreshedAtItsFirstUse()
      throws Exception {
    // A restart before NTP: the device clock is a day behind the time the token was received.
    TokenRecord stored = deviceRecord("at-1", "rt-1", 3600).newBuilder()
        .receivedAtEpochMillis(time.wallMillis() + TimeUnit.DAYS.toMillis(1)).build();
    TokenManager manager = deviceManager(new InMemoryTokenStore(stored));
    script.enqueue(new MockResponse().setResponseCode(503),
        token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThat(manager.accessToken()).isEqualTo("at-1"); // served while the refresh failed
    assertThat(server.getRequestCount()).isEqualTo(1);
    time.advance(1, TimeUnit.SECONDS); // beyond the first backoff ceiling (1 s)
    assertThat(manager.accessToken()).isEqualTo("at-2");
  }

  @Test void aStoredRecordReceivedSecondsAfterTheDeviceClocksNowIsServedAsItIs() throws Exception {
    TokenRecord stored = deviceRecord("at-1", "rt-1", 3600).newBuilder()
        .receivedAtEpochMillis(time.wallMillis() + 2000).build(); // clocks a poll interval apart
    TokenManager manager = deviceManager(new InMemoryTokenStore(stored));

    assertThat(manager.accessToken()).isEqualTo("at-1");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void deviceCredentialWithoutATokenIsNotSignedIn() throws Exception {
    GatedLoadStore store = new GatedLoadStore(new InMemoryTokenStore());
    TokenManager manager = deviceManager(store);
    assertThat(manager.state()).as("the store is read on a worker").isEqualTo(State.LOADING);
    store.open();
    assertThat(StateLog.awaitLoaded(manager).state()).isEqualTo(State.NO_TOKEN);
    assertThat(manager.state()).isEqualTo(State.NO_TOKEN);
    String message = "not_signed_in: no token is stored: sign in first (TokenManager.signIn), or"
        + " give a record to TokenManager.setRecord";
    assertThatThrownBy(manager::accessToken).isInstanceOf(NotSignedInException.class)
        .isInstanceOf(AuthorizationException.class).hasMessage(message)
        .extracting(e -> ((NotSignedInException) e).code()).isEqualTo("not_signed_in");
    assertThatThrownBy(() -> manager.refresh().execute()).isInstanceOf(NotSignedInException.class)
        .hasMessage(message);
    CallResult<String> async = enqueueAndWait(manager.accessTokenCall());
    assertThat(async.failure()).isInstanceOf(NotSignedInException.class).hasMessage(message);
    assertThat(server.getRequestCount()).isZero();
    assertThatThrownBy(() -> manager.setRecord(deviceRecord("a", "r", 1).newBuilder()
        .clientId("other").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("record is for client_id other; this manager keeps the token of client_id"
            + " vl-speaker-01");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void cloudCredentialObtainsRefreshesAndFallsBackToItsSecret() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore();
    TokenManager manager = TokenManager.builder(config).cloudGrant("vl-speaker-01", "s3cr3t-cs")
        .store(store).build();
    long now = time.wallMillis() / 1000;
    script.enqueue(token("ct-1", "crt-1", 3600, now), token("ct-2", "crt-2", 3600, now),
        json(400, "{\"error\":\"invalid_refresh_token\",\"message\":\"expired\"}"),
        token("ct-3", "crt-3", 3600, now));

    assertThat(manager.accessToken()).isEqualTo("ct-1");
    assertThat(manager.refresh().execute().accessToken()).isEqualTo("ct-2");
    assertThat(manager.refresh().execute().accessToken()).isEqualTo("ct-3");
    assertThat(store.load().grant()).isEqualTo(TokenRecord.Grant.CLOUD);

    RecordedRequest first = server.takeRequest();
    assertThat(first.getPath()).isEqualTo("/oauth/token");
    assertThat(first.getBody().readUtf8()).isEqualTo("{\"client_id\":\"vl-speaker-01\","
        + "\"client_secret\":\"s3cr3t-cs\",\"grant_type\":\"client_credentials\"}");
    RecordedRequest refresh = server.takeRequest();
    assertThat(refresh.getPath()).isEqualTo("/oauth/token");
    assertThat(refresh.getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"crt-1\"}");
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"crt-2\"}");
    RecordedRequest fallback = server.takeRequest();
    assertThat(fallback.getPath()).isEqualTo("/oauth/token");
    assertThat(fallback.getBody().readUtf8()).isEqualTo("{\"client_id\":\"vl-speaker-01\","
        + "\"client_secret\":\"s3cr3t-cs\",\"grant_type\":\"client_credentials\"}");
    assertThat(manager.toString()).doesNotContain("s3cr3t-cs").doesNotContain("ct-3");
  }

  @Test void aCloudCredentialWhoseStoreLostItsRecordObtainsANewOneWithItsSecret() throws Exception {
    InMemoryTokenStore held = new InMemoryTokenStore();
    AtomicBoolean lost = new AtomicBoolean(true);
    TokenStore keyGone = new TokenStore() {
      @Override public @Nullable TokenRecord load() throws IOException {
        if (lost.getAndSet(false)) {
          // deleted with its key by the store, as an Android store does with a record it cannot read
          throw new RecordLostException("the stored sign-in of token store default is lost: its key is"
              + " gone (wiped, or a backup from elsewhere); sign in again");
        }
        return held.load();
      }

      @Override public void save(TokenRecord record) {
        held.save(record);
      }

      @Override public void clear() {
        held.clear();
      }
    };
    TokenManager manager = TokenManager.builder(config).cloudGrant("vl-speaker-01", "s3cr3t-cs")
        .store(keyGone).build();
    manager.addListener(states);
    states.awaitExactly(State.LOADING, State.REAUTHORIZATION_REQUIRED);
    script.enqueue(token("ct-1", "crt-1", 3600, time.wallMillis() / 1000));

    assertThat(manager.accessToken()).isEqualTo("ct-1");

    assertThat(server.takeRequest().getBody().readUtf8()).isEqualTo("{\"client_id\":\"vl-speaker-01\","
        + "\"client_secret\":\"s3cr3t-cs\",\"grant_type\":\"client_credentials\"}");
    assertThat(held.load().accessToken()).isEqualTo("ct-1");
    assertThat(manager.state()).isEqualTo(State.VALID);
  }

  @Test void cloudSecretRefusedIsAServerRefusal() {
    TokenManager manager = TokenManager.builder(config).cloudGrant("vl-speaker-01", "wrong")
        .store(new InMemoryTokenStore()).build();
    script.enqueue(json(400, "{\"error\":\"invalid_client\",\"message\":\"client_id or"
        + " client_secret is wrong\"}"));
    assertThatThrownBy(manager::accessToken).isInstanceOf(AuthorizationException.class)
        .isNotInstanceOf(ReauthorizationRequiredException.class)
        .hasMessage("invalid_client: client_id or client_secret is wrong");
    assertThat(manager.state()).isEqualTo(State.NO_TOKEN);
  }

  @Test void authenticatorRefreshesOnceOn401AndRetries() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    try (MockWebServer api = new MockWebServer()) {
      api.setDispatcher(new Dispatcher() {
        @Override public MockResponse dispatch(RecordedRequest request) {
          return "at-2".equals(request.getHeader("Authorization"))
              ? new MockResponse().setBody("ok") : new MockResponse().setResponseCode(401);
        }
      });
      api.start();
      OkHttpClient client = new OkHttpClient.Builder()
          .addInterceptor(manager.interceptor()).authenticator(manager.authenticator()).build();
      try (okhttp3.Response response = client.newCall(new Request.Builder().url(api.url("/x"))
          .build()).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
      assertThat(api.takeRequest().getHeader("Authorization")).isEqualTo("at-1");
      assertThat(api.takeRequest().getHeader("Authorization")).isEqualTo("at-2");
      assertThat(server.getRequestCount()).isEqualTo(1);
    }
  }

  @Test void authenticatorGivesUpAfterOneRetry() throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    try (MockWebServer api = new MockWebServer()) {
      api.setDispatcher(new Dispatcher() {
        @Override public MockResponse dispatch(RecordedRequest request) {
          return new MockResponse().setResponseCode(401);
        }
      });
      api.start();
      OkHttpClient client = new OkHttpClient.Builder()
          .addInterceptor(manager.interceptor()).authenticator(manager.authenticator()).build();
      try (okhttp3.Response response = client.newCall(new Request.Builder().url(api.url("/x"))
          .build()).execute()) {
        assertThat(response.code()).isEqualTo(401);
      }
      assertThat(api.getRequestCount()).isEqualTo(2);
      assertThat(server.getRequestCount()).isEqualTo(1);
    }
  }

  /**
   * The status a request carrying {@code authorization} ends with, through a client with {@code
   * manager}'s authenticator, when {@code api} refuses it once with a 401 and would answer the next.
   */
  private static int refusedOnceThenAnswered(MockWebServer api, TokenManager manager,
      String authorization) throws IOException {
    api.enqueue(new MockResponse().setResponseCode(401));
    api.enqueue(new MockResponse().setBody("ok"));
    api.start();
    OkHttpClient client = new OkHttpClient.Builder().authenticator(manager.authenticator()).build();
    try (okhttp3.Response response = client.newCall(new Request.Builder().url(api.url("/x"))
        .header("Authorization", authorization).build()).execute()) {
      return response.code();
    }
  }

  @Test void authenticatorRetriesAStaleTokenWithTheCurrentOneWithoutRefreshing() throws Exception {
    // at-0 went out on a request just before another thread refreshed it to at-1.
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-0", "rt-0", 3600)));
    assertThat(manager.accessToken()).isEqualTo("at-0");
    time.advance(2, TimeUnit.HOURS);
    script.enqueue(token("at-1", "rt-1", 3600, time.wallMillis() / 1000));
    assertThat(manager.accessToken()).isEqualTo("at-1");
    try (MockWebServer api = new MockWebServer()) {
      assertThat(refusedOnceThenAnswered(api, manager, "at-0")).isEqualTo(200);
      api.takeRequest();
      assertThat(api.takeRequest().getHeader("Authorization")).isEqualTo("at-1");
      assertThat(server.getRequestCount()).isEqualTo(1); // the refresh to at-1, none after the 401
    }
  }

  @Test void authenticatorLeavesA401OnAnotherCredentialToItsCaller() throws Exception {
    // Another manager's token, or the app's own: answering with this one's would send it elsewhere.
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    try (MockWebServer api = new MockWebServer()) {
      assertThat(refusedOnceThenAnswered(api, manager, "Bearer the-apps-own")).isEqualTo(401);
      assertThat(api.getRequestCount()).isEqualTo(1);
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test void afterTheClientClosesTheAppsOwnCallsFailWithAnIOExceptionNotAnUncheckedOne()
      throws Exception {
    TokenManager manager = deviceManager(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)));
    try (MockWebServer api = new MockWebServer()) {
      api.enqueue(new MockResponse().setResponseCode(401));
      api.start();
      OkHttpClient client = new OkHttpClient.Builder()
          .addInterceptor(manager.interceptor()).authenticator(manager.authenticator()).build();
      config.close();

      // OkHttp rethrows an unchecked exception of an enqueued call on its dispatcher thread, where it
      // ends an Android app; an IOException goes to the callback's onFailure.
      assertThatThrownBy(() -> client.newCall(new Request.Builder().url(api.url("/x")).build())
          .execute()).isExactlyInstanceOf(IOException.class)
          .hasMessage("no access token: the VoiceLinkClient is closed: its services cannot be used"
              + " any more; build a new client")
          .hasCauseExactlyInstanceOf(IllegalStateException.class);
      assertThat(api.getRequestCount()).isZero();

      // A request that carried its own token is answered 401 as the server said.
      try (okhttp3.Response response = client.newCall(new Request.Builder().url(api.url("/x"))
          .header("Authorization", "at-1").build()).execute()) {
        assertThat(response.code()).isEqualTo(401);
      }
      assertThat(api.getRequestCount()).isEqualTo(1);
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test void anErrorDuringARefreshLeavesTheManagerUsable() throws Exception {
    AtomicBoolean providerBroken = new AtomicBoolean(true);
    VoiceLinkClient broken = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .httpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
          if (providerBroken.get()) throw new ExceptionInInitializerError("no TLS provider");
          return chain.proceed(chain.request());
        }).build())
        .clock(time).scheduler(time).build();
    TokenManager manager = TokenManager.builder(broken).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 60))).random(new Random(3)).build();
    time.advance(61, TimeUnit.SECONDS); // expired: every caller needs a refresh
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThatThrownBy(manager::accessToken).isExactlyInstanceOf(ExceptionInInitializerError.class);
    providerBroken.set(false);
    CallResult<String> next = enqueueAndWait(manager.accessTokenCall());
    assertThat(next.isSuccess()).as("the next caller refreshes instead of waiting for ever").isTrue();
    assertThat(next.value()).isEqualTo("at-2");
  }

  @Test void aCheckedExceptionFromAKotlinInterceptorEndsTheRefreshAndLeavesTheManagerUsable()
      throws Exception {
    AtomicBoolean backendSlow = new AtomicBoolean(true);
    VoiceLinkClient kotlinApp = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .httpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
          if (backendSlow.get()) throw KotlinThrows.checked(new TimeoutException("backend slow"));
          return chain.proceed(chain.request());
        }).build())
        .clock(time).scheduler(time).build();
    TokenManager manager = TokenManager.builder(kotlinApp).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 60))).random(new Random(3)).build();
    time.advance(61, TimeUnit.SECONDS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThatThrownBy(manager::accessToken).isExactlyInstanceOf(IOException.class)
        .hasMessage("the token request ended on an exception from app code:"
            + " java.util.concurrent.TimeoutException: backend slow");
    assertThat(manager.state()).isEqualTo(State.EXPIRED);
    backendSlow.set(false);
    CallResult<String> next = enqueueAndWait(manager.accessTokenCall());
    assertThat(next.value()).as("the next caller refreshes instead of waiting for ever").isEqualTo("at-2");
  }

  @Test void cancellingARefreshReleasesItsCallerAtOnceAndTheRotatedRecordIsStillSaved()
      throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    holdTheRotatedAnswer(arrived, answer);
    WatchedStore store = new WatchedStore(null);
    CountDownLatch saved = store.saves(2); // the initial record, then the rotated one
    InMemoryTokenStore memory = store.memory;
    TokenManager manager = deviceManager(store);
    manager.setRecord(deviceRecord("at-1", "rt-1", 8_640_000));
    List<CallResult<TokenRecord>> results = Collections.synchronizedList(new ArrayList<>());
    VoiceLinkCall<TokenRecord> refresh = manager.refresh();
    refresh.enqueue(results::add);
    assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the refresh is on the wire").isTrue();

    refresh.cancel(); // on a JVM the callback runs on the cancelling thread
    assertThat(results).hasSize(1);
    assertThat(results.get(0).isCancelled()).isTrue();
    assertThat(memory.load().refreshToken()).isEqualTo("rt-1");

    answer.countDown();
    assertThat(saved.await(10, TimeUnit.SECONDS)).as("the rotated record was saved").isTrue();
    assertThat(memory.load().refreshToken()).isEqualTo("rt-2");
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(results).as("exactly one callback").hasSize(1);

    VoiceLinkCall<TokenRecord> notBegun = manager.refresh();
    notBegun.cancel();
    assertThat(enqueueAndWait(notBegun).isCancelled()).isTrue();
    assertThat(server.getRequestCount()).as("a refresh cancelled before it began is not sent")
        .isEqualTo(1);
  }

  @Test void closingTheClientLeavesARefreshAlreadySentToFinishAndSavesItsRecord() throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    holdTheRotatedAnswer(arrived, answer);
    // The client's own HTTP client and scheduler: close() cancels the one and stops the other.
    VoiceLinkClient own = VoiceLinkClient.builder().authUrl(server.url("/").toString()).clock(time)
        .build();
    InMemoryTokenStore store = new InMemoryTokenStore();
    TokenManager manager = TokenManager.builder(own).deviceGrant("vl-speaker-01").store(store)
        .random(new Random(3)).build();
    manager.setRecord(deviceRecord("at-1", "rt-1", 60));
    time.advance(59, TimeUnit.SECONDS); // due: the next caller refreshes it
    assertThatThrownBy(() -> own.awaitTermination(1, TimeUnit.SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("awaitTermination waits for a closed client: call close() first");
    BlockingQueue<Object> outcome = new LinkedBlockingQueue<>();
    // Through the client's own scheduler, as the interaction channel asks for its token.
    ClientCore.of(own).scheduler().schedule(() -> {
      try {
        outcome.add(manager.accessToken());
      } catch (Exception e) {
        outcome.add(e);
      }
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the refresh is on the wire").isTrue();

    own.close();
    // A JVM program that exits after close() waits for the save this way (the threads are daemons).
    assertThat(own.awaitTermination(0, TimeUnit.SECONDS)).as("the answer is still held").isFalse();
    answer.countDown();
    assertThat(own.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(store.load().refreshToken()).as("saved once the workers ended").isEqualTo("rt-2");
    assertThat(outcome.poll(10, TimeUnit.SECONDS)).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void aSignOutWhileARefreshIsOnTheWireIsNotUndoneByItsAnswer() throws Exception {
    HeldRefresh held = new HeldRefresh();

    held.manager.signOut().execute();
    CallResult<TokenRecord> result = held.answer();
    assertThat(result.failure()).isInstanceOf(NotSignedInException.class);
    assertThat(held.store.load()).as("the forgotten account stays forgotten").isNull();
    assertThat(held.manager.state()).isEqualTo(TokenManager.State.NO_TOKEN);
    assertThat(held.manager.record()).isNull();
  }

  @Test void aRecordSetWhileARefreshIsOnTheWireIsNotReplacedByItsAnswer() throws Exception {
    HeldRefresh held = new HeldRefresh();

    held.manager.setRecord(deviceRecord("at-9", "rt-9", 8_640_000)); // another user signed in
    CallResult<TokenRecord> result = held.answer();
    assertThat(result.value().accessToken()).isEqualTo("at-9");
    assertThat(held.store.load().refreshToken()).isEqualTo("rt-9");
    assertThat(held.manager.accessToken()).isEqualTo("at-9");
    assertThat(held.manager.state()).isEqualTo(TokenManager.State.VALID);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void aTokenAskedForWhileTheRecordIsBeingSavedWaitsForThatSaveAndSavesNothingTwice()
      throws Exception {
    CountDownLatch saving = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> saves = Collections.synchronizedList(new ArrayList<String>());
    InMemoryTokenStore memory = new InMemoryTokenStore();
    TokenStore slowStore = new TokenStore() {
      @Override public @Nullable TokenRecord load() {
        return memory.load();
      }

      @Override public void save(TokenRecord record) throws IOException {
        saves.add(record.accessToken());
        saving.countDown();
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          throw new InterruptedIOException();
        }
        memory.save(record);
      }

      @Override public void clear() {
        memory.clear();
      }
    };
    TokenManager manager = deviceManager(slowStore);
    StateLog.awaitLoaded(manager);
    manager.setRecord(deviceRecord("at-1", "rt-1", 8_640_000));
    assertThat(saving.await(10, TimeUnit.SECONDS)).as("the save is under way").isTrue();

    BlockingQueue<CallResult<String>> answers = new LinkedBlockingQueue<>();
    List<@Nullable TokenRecord> storedWhenGiven = Collections.synchronizedList(new ArrayList<>());
    manager.accessTokenCall().enqueue(result -> {
      storedWhenGiven.add(memory.load());
      answers.add(result);
    });
    release.countDown();

    CallResult<String> answer = answers.poll(10, TimeUnit.SECONDS);
    assertThat(answer.value()).isEqualTo("at-1");
    assertThat(storedWhenGiven).extracting(TokenRecord::accessToken).as("given once it is saved")
        .containsExactly("at-1");
    assertThat(saves).as("one save of the record").containsExactly("at-1");
  }

  /** An in-memory store whose saves (of the record with {@code refreshToken}, or of any) a test can await. */
  private static final class WatchedStore implements TokenStore {
    final InMemoryTokenStore memory = new InMemoryTokenStore();
    private final @Nullable String refreshToken;
    private volatile CountDownLatch saved = new CountDownLatch(0);

    WatchedStore(@Nullable String refreshToken) {
      this.refreshToken = refreshToken;
    }

    /** A latch that opens after {@code count} more such saves. */
    CountDownLatch saves(int count) {
      saved = new CountDownLatch(count);
      return saved;
    }

    @Override public TokenRecord load() {
      return memory.load();
    }

    @Override public void save(TokenRecord record) {
      memory.save(record);
      if (refreshToken == null || refreshToken.equals(record.refreshToken())) saved.countDown();
    }

    @Override public void clear() {
      memory.clear();
    }
  }

  /** A device manager's refresh of at-1/rt-1, taken by the server and held ({@link #holdTheRotatedAnswer}). */
  private final class HeldRefresh {
    final CountDownLatch answer = new CountDownLatch(1);
    final InMemoryTokenStore store = new InMemoryTokenStore();
    final BlockingQueue<CallResult<TokenRecord>> results = new LinkedBlockingQueue<>();
    final TokenManager manager;

    HeldRefresh() throws Exception {
      CountDownLatch arrived = new CountDownLatch(1);
      holdTheRotatedAnswer(arrived, answer);
      manager = deviceManager(store);
      manager.setRecord(deviceRecord("at-1", "rt-1", 8_640_000));
      manager.refresh().enqueue(results::add);
      assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the refresh is on the wire").isTrue();
    }

    /** Lets the server answer; what the refresh's caller got. */
    CallResult<TokenRecord> answer() throws InterruptedException {
      answer.countDown();
      CallResult<TokenRecord> result = results.poll(10, TimeUnit.SECONDS);
      assertThat(result).as("the callback came").isNotNull();
      return result;
    }
  }

  @Test void anInterruptedCallerIsReleasedAtOnceAndTheRotatedRecordIsStillSaved() throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    holdTheRotatedAnswer(arrived, answer);
    WatchedStore store = new WatchedStore("rt-2");
    CountDownLatch rotatedSaved = store.saves(1);
    TokenManager manager = deviceManager(store);
    manager.setRecord(deviceRecord("at-1", "rt-1", 60));
    time.advance(59, TimeUnit.SECONDS); // due: the next caller starts a refresh
    BlockingQueue<Object> outcome = new LinkedBlockingQueue<>();
    Thread caller = new Thread(() -> {
      try {
        outcome.add(manager.accessToken());
      } catch (Exception e) {
        outcome.add(e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      outcome.add(Thread.currentThread().isInterrupted() ? "still interrupted" : "interrupt lost");
    }, "app-task");
    caller.start();
    assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the refresh is on the wire").isTrue();

    caller.interrupt(); // the app cancelled its task (Future.cancel(true), a disposed subscription)
    caller.join(10_000);
    assertThat(outcome).as("released before the server answered").containsExactly(
        "InterruptedIOException: interrupted while waiting for a token refresh", "still interrupted");
    answer.countDown();
    assertThat(rotatedSaved.await(10, TimeUnit.SECONDS)).as("the server voided rt-1").isTrue();
    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void theSameRecordSetAgainWhileItsRefreshIsOnTheWireKeepsTheRotatedAnswer() throws Exception {
    HeldRefresh held = new HeldRefresh();

    held.manager.setRecord(deviceRecord("at-1", "rt-1", 8_640_000)); // a restore of the same sign-in
    CallResult<TokenRecord> result = held.answer();
    assertThat(result.value().refreshToken()).isEqualTo("rt-2");
    assertThat(held.store.load().refreshToken()).as("rt-1 is void on the server").isEqualTo("rt-2");
    assertThat(held.manager.accessToken()).isEqualTo("at-2");
  }

  @Test void aListenerThatThrowsACheckedExceptionAsKotlinCanLeavesTheOthersTold() throws Exception {
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore()).listenerExecutor(Runnable::run).build();
    StateLog.awaitLoaded(manager); // the listeners below are told NO_TOKEN first, then the record
    manager.addListener(change -> {
      throw KotlinThrows.checked(new IOException("a Kotlin listener's"));
    });
    StateLog other = new StateLog(); // told on whichever SDK thread delivers: awaited
    manager.addListener(other);

    manager.setRecord(deviceRecord("at-1", "rt-1", 3600));

    other.awaitExactly(State.NO_TOKEN, State.VALID);
  }


  @Test void aListenerOnTheRefreshWorkerHearsTheRefreshOnceItIsSavedAndItsCallerReleased()
      throws Exception {
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    InMemoryTokenStore kept = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 60));
    TokenStore store = new TokenStore() {
      @Override public @Nullable TokenRecord load() {
        return kept.load();
      }

      @Override public void save(TokenRecord record) {
        order.add("saved " + record.refreshToken());
        kept.save(record);
      }

      @Override public void clear() {
        kept.clear();
      }
    };
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01").store(store)
        .random(new Random(3)).listenerExecutor(Runnable::run).build();
    assertThat(manager.accessToken()).isEqualTo("at-1"); // read here: the news below is the refresh's
    CountDownLatch callerReleased = new CountDownLatch(1);
    CountDownLatch heard = new CountDownLatch(1);
    manager.addListener(change -> {
      if (change.cause() != TokenManager.Cause.REFRESHED) return;
      order.add("heard REFRESHED");
      try { // tokens.md: a listener may wait for what the refresh gave its callers
        order.add(callerReleased.await(5, TimeUnit.SECONDS) ? "caller released" : "caller still waiting");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      heard.countDown();
    });
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    time.advance(61, TimeUnit.SECONDS);
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<String> token = caller.submit(() -> {
        String got = manager.accessToken();
        callerReleased.countDown();
        return got;
      });

      assertThat(token.get(10, TimeUnit.SECONDS)).isEqualTo("at-2");
      assertThat(heard.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(order).containsExactly("saved rt-2", "heard REFRESHED", "caller released");
    } finally {
      caller.shutdownNow();
    }
  }

  @Test void aListenerRemovedBeforeItsFirstNewsIsNotToldIt() throws Exception {
    List<Runnable> queued = Collections.synchronizedList(new ArrayList<>());
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600)))
        .listenerExecutor(queued::add).build();
    List<State> heard = new ArrayList<>();
    TokenManager.Listener listener = change -> heard.add(change.state());

    manager.addListener(listener); // its first news, the current state, is queued
    manager.removeListener(listener); // in onStop, before the main thread ran it
    while (!queued.isEmpty()) queued.remove(0).run();

    assertThat(heard).isEmpty();
  }

  @Test void aListenerThatThrowsAnErrorCannotLeaveLaterCallersWaitingForEver() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 60));
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01").store(store)
        .random(new Random(3)).listenerExecutor(Runnable::run).build();
    // Read on this thread: no worker reading the store is left to deliver the news meant for this one.
    assertThat(manager.accessToken()).isEqualTo("at-1");
    AtomicBoolean failOnce = new AtomicBoolean(true);
    manager.addListener(change -> {
      if (change.state() == State.REFRESHING && failOnce.getAndSet(false)) throw new AssertionError("app bug");
    });
    time.advance(61, TimeUnit.SECONDS); // expired: the next caller refreshes
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    // Held until the caller has thrown: else the refresh worker may tell REFRESHING first.
    holdTheRotatedAnswer(arrived, answer);

    assertThatThrownBy(manager::accessToken).isExactlyInstanceOf(AssertionError.class).hasMessage("app bug");
    answer.countDown();
    CallResult<String> next = enqueueAndWait(manager.accessTokenCall());
    assertThat(next.value()).as("the refresh was handed over before the listener threw")
        .isEqualTo("at-2");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(store.load().refreshToken()).isEqualTo("rt-2");
  }

  @Test void aRefreshThatCannotBeHandedToAWorkerFailsAtOnceAndLeavesNoRefreshBehind() throws Exception {
    TokenRecord signedIn = deviceRecord("at-1", "rt-1", 60);
    InMemoryTokenStore saved = new InMemoryTokenStore(signedIn);
    // The manager reads the app's store on its first use, after checking that the client is open: a
    // close there lands after that check and before the refresh is handed to a worker.
    TokenStore closingOnRead = new TokenStore() {
      @Override public @Nullable TokenRecord load() throws IOException {
        config.close();
        return saved.load();
      }

      @Override public void save(TokenRecord record) throws IOException {
        saved.save(record);
      }

      @Override public void clear() throws IOException {
        saved.clear();
      }
    };
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(closingOnRead).build();
    time.advance(60, TimeUnit.SECONDS);

    assertThatThrownBy(manager::accessToken).isExactlyInstanceOf(IOException.class)
        .hasMessage("the VoiceLinkClient is closed: no token refresh was sent");
    assertThat(manager.state()).as("no refresh left in flight").isEqualTo(State.EXPIRED);
    assertThat(saved.load()).as("nothing lost").isEqualTo(signedIn);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aListenerAddedAfterAChangeWasDecidedHearsOnlyTheStateAtItsAdding() throws Exception {
    List<Runnable> handedOver = new ArrayList<>();
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore()).listenerExecutor(handedOver::add).build();
    // Read on this thread: no worker reading the store makes news of its own meanwhile.
    assertThatThrownBy(manager::accessToken).isInstanceOf(NotSignedInException.class);
    List<State> first = new ArrayList<>();
    manager.addListener(change -> first.add(change.state()));
    manager.setRecord(deviceRecord("at-1", "rt-1", 3600)); // decided while only `first` listens
    List<State> late = new ArrayList<>();
    manager.addListener(change -> late.add(change.state()));

    while (!handedOver.isEmpty()) handedOver.remove(0).run();
    assertThat(first).containsExactly(State.NO_TOKEN, State.VALID);
    assertThat(late).as("no stale news before its current state").containsExactly(State.VALID);
  }

  @Test void aSameThreadListenerThatAsksForATokenWhenARefreshBeginsJoinsIt() throws Exception {
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 60))).random(new Random(3))
        .listenerExecutor(Runnable::run).build();
    BlockingQueue<Object> toldToken = new LinkedBlockingQueue<>();
    manager.addListener(change -> {
      if (change.state() != State.REFRESHING) return;
      try {
        toldToken.add(manager.accessToken()); // runs inside the caller's flush of the news
      } catch (Exception e) {
        toldToken.add(e);
      }
    });
    time.advance(61, TimeUnit.SECONDS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    CallResult<String> result = enqueueAndWait(manager.accessTokenCall());
    assertThat(result.value()).isEqualTo("at-2");
    assertThat(toldToken.poll(10, TimeUnit.SECONDS)).isEqualTo("at-2");
    assertThat(server.getRequestCount()).as("the listener joined the refresh").isEqualTo(1);
  }

  @Test void aSameThreadListenerThatRefreshesAgainWhenToldOfARefreshIsNotStuckBehindIt()
      throws Exception {
    TokenManager manager = TokenManager.builder(config).deviceGrant("vl-speaker-01")
        .store(new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 60))).random(new Random(3))
        .listenerExecutor(Runnable::run).build();
    AtomicInteger valid = new AtomicInteger();
    BlockingQueue<Object> again = new LinkedBlockingQueue<>();
    manager.addListener(change -> {
      if (change.state() != State.VALID || valid.incrementAndGet() != 2) return;
      try {
        // on the worker that ran the first refresh, inside its flush: a second one on another worker
        again.add(manager.refresh().execute().accessToken());
      } catch (Exception e) {
        again.add(e);
      }
    });
    time.advance(61, TimeUnit.SECONDS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    script.enqueue(token("at-3", "rt-3", 3600, time.wallMillis() / 1000));

    assertThat(manager.accessToken()).isEqualTo("at-2");
    assertThat(again.poll(10, TimeUnit.SECONDS)).isEqualTo("at-3");
    assertThat(manager.accessToken()).isEqualTo("at-3");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  /**
   * The server takes the refresh ({@code arrived}) and has rotated the tokens, but answers with
   * {@code at-2}/{@code rt-2} only once {@code answer} opens.
   */
  private void holdTheRotatedAnswer(CountDownLatch arrived, CountDownLatch answer) {
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        arrived.countDown();
        answer.await(10, TimeUnit.SECONDS);
        return token("at-2", "rt-2", 8_640_000, time.wallMillis() / 1000);
      }
    });
  }

  static <T> CallResult<T> enqueueAndWait(VoiceLinkCall<T> call) throws InterruptedException {
    BlockingQueue<CallResult<T>> results = new LinkedBlockingQueue<>();
    call.enqueue(results::add);
    CallResult<T> result = results.poll(10, TimeUnit.SECONDS);
    assertThat(result).as("the callback came").isNotNull();
    return result;
  }
}
