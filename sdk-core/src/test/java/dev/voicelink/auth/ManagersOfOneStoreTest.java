package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.TokenManager.Cause;
import dev.voicelink.auth.TokenManager.State;
import dev.voicelink.auth.TokenManager.StateChange;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Token managers of one store in a process (an Agent made per screen has its own on the store
 * {@code default}): a sign-in, an app's record, a refresh or a sign-out through one is at once the
 * others', told to their listeners with the same cause, with no store read and nothing sent.
 */
class ManagersOfOneStoreTest {
  private final VirtualTime time = new VirtualTime();
  private final AuthServerScript script = new AuthServerScript(time);
  private final MockWebServer server = new MockWebServer();
  private final StateLog otherStates = new StateLog();
  private VoiceLinkClient config;
  @TempDir Path dir;

  @BeforeEach void setUp() throws IOException {
    server.setDispatcher(script);
    server.start();
    config = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .clock(time).scheduler(time).build();
  }

  @AfterEach void tearDown() throws IOException {
    config.close();
    server.shutdown();
  }

  private TokenRecord deviceRecord(String access, String refresh, long expiresIn) {
    return script.deviceRecord(access, refresh, expiresIn);
  }

  private TokenManager manager(TokenStore store) {
    return TokenManager.builder(config).deviceGrant("vl-speaker-01").store(store)
        .random(new Random(3)).build();
  }

  /** A manager of {@code store}, which holds the record {@code at-1}, once it has read it. */
  private TokenManager managerHoldingAt1(TokenStore store) throws Exception {
    TokenManager manager = manager(store);
    assertThat(manager.accessToken()).isEqualTo("at-1");
    return manager;
  }

  /** Two instances on one file, as two Agents' stores of one name are. */
  private TokenStore[] oneFileTwice() {
    File file = dir.resolve("tokens.json").toFile();
    return new TokenStore[] {
        new FileTokenStore(file), new FileTokenStore(new File(dir.toFile(), "./tokens.json"))};
  }

  @Test void anotherAccountsRecordOverTheLastIsToldByBothManagers() throws Exception {
    TokenStore[] stores = oneFileTwice();
    TokenManager first = manager(stores[0]);
    TokenManager other = manager(stores[1]);
    StateLog firstStates = new StateLog();
    first.addListener(firstStates);
    other.addListener(otherStates);
    assertThat(StateLog.awaitLoaded(first).state()).isEqualTo(State.NO_TOKEN);
    otherStates.awaitExactly(State.LOADING, State.NO_TOKEN);
    first.setRecord(deviceRecord("at-1", "rt-1", 3600));
    otherStates.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID);

    // No sign-out between: the app restores another account's sign-in over the first.
    TokenRecord second = deviceRecord("at-9", "rt-9", 3600);
    first.setRecord(second);

    otherStates.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID, State.VALID);
    firstStates.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID, State.VALID);
    assertThat(otherStates.changes().get(3).cause()).isEqualTo(Cause.RECORD_SET);
    assertThat(firstStates.changes().get(3).cause()).isEqualTo(Cause.RECORD_SET);
    assertThat(other.record()).isEqualTo(second);
    assertThat(server.getRequestCount()).as("nothing sent by either").isZero();
  }

  /** A restore of the credential held (new tokens of the same refresh token) is no news: nothing to end. */
  @Test void theSameCredentialSetAgainIsNotToldAgain() throws Exception {
    TokenManager first = manager(new InMemoryTokenStore());
    StateLog firstStates = new StateLog();
    first.addListener(firstStates);
    assertThat(StateLog.awaitLoaded(first).state()).isEqualTo(State.NO_TOKEN);
    first.setRecord(deviceRecord("at-1", "rt-1", 3600));
    firstStates.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID);

    first.setRecord(deviceRecord("at-1b", "rt-1", 3600));
    assertThat(first.signOut().execute()).isEqualTo(TokenManager.SignOut.NOT_OFFERED); // a barrier

    firstStates.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID, State.NO_TOKEN);
  }

  @Test void aRecordSetThroughOneManagerIsTheOthersAtOnceAndASignOutThroughItToo() throws Exception {
    TokenStore[] stores = oneFileTwice();
    assertThat(stores[0]).isEqualTo(stores[1]).hasSameHashCodeAs(stores[1]);
    TokenManager first = manager(stores[0]);
    TokenManager other = manager(stores[1]);
    other.addListener(otherStates);
    assertThat(StateLog.awaitLoaded(first).state()).isEqualTo(State.NO_TOKEN);
    otherStates.awaitExactly(State.LOADING, State.NO_TOKEN);
    TokenRecord record = deviceRecord("at-1", "rt-1", 3600);

    first.setRecord(record); // an app restoring a sign-in, saved on a worker

    otherStates.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID);
    assertThat(otherStates.changes().get(2).cause()).isEqualTo(Cause.RECORD_SET);
    assertThat(other.record()).isEqualTo(record);
    assertThat(other.accessToken()).isEqualTo("at-1");

    assertThat(first.signOut().execute()).isEqualTo(TokenManager.SignOut.NOT_OFFERED);

    otherStates.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID, State.NO_TOKEN);
    assertThat(otherStates.changes().get(3).cause()).isEqualTo(Cause.SIGNED_OUT);
    assertThat(other.record()).isNull();
    assertThatThrownBy(other::accessToken).isInstanceOf(NotSignedInException.class);
    assertThat(stores[1].load()).isNull();
    assertThat(server.getRequestCount()).as("nothing sent by either").isZero();
  }

  @Test void aRefreshThroughOneManagerReplacesTheOthersTokenWhichNeverSendsItsVoidRefreshToken()
      throws Exception {
    TokenStore[] stores = oneFileTwice();
    stores[0].save(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = managerHoldingAt1(stores[0]);
    TokenManager other = managerHoldingAt1(stores[1]);
    other.addListener(otherStates);
    otherStates.awaitExactly(State.VALID);
    time.advance(3600 - 300, TimeUnit.SECONDS); // inside the margin
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));

    assertThat(first.accessToken()).isEqualTo("at-2");

    assertThat(other.record().accessToken()).as("held before any request of its own")
        .isEqualTo("at-2");
    otherStates.awaitExactly(State.VALID, State.VALID);
    StateChange heard = otherStates.changes().get(1);
    assertThat(heard.cause()).isEqualTo(Cause.REFRESHED);
    assertThat(other.accessToken()).isEqualTo("at-2");
    assertThat(server.getRequestCount()).as("the first manager's refresh only").isEqualTo(1);
  }

  @Test void aSignInThroughOneManagerEndsTheOthersRefreshOfTheCredentialItReplaced() throws Exception {
    TokenRecord switched = deviceRecord("at-9", "rt-9", 3600); // another user's
    CountDownLatch switchedSaved = new CountDownLatch(1);
    InMemoryTokenStore held = new InMemoryTokenStore(deviceRecord("at-1", "rt-1", 3600));
    TokenStore store = new TokenStore() { // one instance: an app's store, one with itself
      @Override public @Nullable TokenRecord load() {
        return held.load();
      }

      @Override public void save(TokenRecord record) {
        held.save(record);
        if (record.equals(switched)) switchedSaved.countDown();
      }

      @Override public void clear() {
        held.clear();
      }
    };
    TokenManager first = managerHoldingAt1(store);
    TokenManager other = managerHoldingAt1(store);
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        first.setRecord(switched); // the user switched accounts on another screen meanwhile
        assertThat(switchedSaved.await(10, TimeUnit.SECONDS)).isTrue();
        return script.dispatch(request);
      }
    });

    assertThat(other.accessToken()).as("the refresh answered for a credential that is gone")
        .isEqualTo("at-9");
    assertThat(store.load()).isEqualTo(switched);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /**
   * One store instance shared by managers (an app's store is one with itself), whose steps the test
   * holds: a load that read the record and has not returned it yet, a save of one access token that
   * waits or fails once, and a clear that waits.
   */
  private static final class SteppedStore implements TokenStore {
    final InMemoryTokenStore held;
    final CountDownLatch loadRead = new CountDownLatch(1);
    final CountDownLatch loadReturns = new CountDownLatch(1);
    volatile boolean holdNextLoad;
    volatile @Nullable String saveToHold;
    final CountDownLatch saveHeld = new CountDownLatch(1);
    final CountDownLatch saveGoesOn = new CountDownLatch(1);
    volatile @Nullable String saveToFailOnce;
    volatile boolean holdNextClear;
    final CountDownLatch clearHeld = new CountDownLatch(1);
    final CountDownLatch clearGoesOn = new CountDownLatch(1);

    SteppedStore(TokenRecord record) {
      held = new InMemoryTokenStore(record);
    }

    @Override public @Nullable TokenRecord load() throws IOException {
      TokenRecord read = held.load();
      if (holdNextLoad) {
        holdNextLoad = false;
        loadRead.countDown();
        await(loadReturns);
      }
      return read;
    }

    @Override public void save(TokenRecord record) throws IOException {
      if (record.accessToken().equals(saveToFailOnce)) {
        saveToFailOnce = null;
        throw new IOException("disk full");
      }
      if (record.accessToken().equals(saveToHold)) {
        saveHeld.countDown();
        await(saveGoesOn);
      }
      held.save(record);
    }

    @Override public void clear() throws IOException {
      if (holdNextClear) {
        holdNextClear = false;
        clearHeld.countDown();
        await(clearGoesOn);
      }
      held.clear();
    }

    private static void await(CountDownLatch latch) throws IOException {
      try {
        if (!latch.await(10, TimeUnit.SECONDS)) throw new IOException("the test never let it go on");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException();
      }
    }
  }

  /**
   * A sign-out on one screen while another's manager saves a refresh it just got: the managers take
   * turns on the store, so the sign-out's clear comes after that save, and the other manager, told
   * of it, forgets the refreshed record too. The store ends empty.
   */
  @Test void aSignOutAsTheOtherManagerSavesItsRefreshSignsItOutAndTheStoreEndsEmpty()
      throws Exception {
    SteppedStore store = new SteppedStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = managerHoldingAt1(store);
    TokenManager other = managerHoldingAt1(store);
    other.addListener(otherStates);
    StateLog firstStates = new StateLog();
    first.addListener(firstStates);
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    store.saveToHold = "at-2";
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try {
      Future<String> refreshed = callers.submit(other::accessToken);
      assertThat(store.saveHeld.await(10, TimeUnit.SECONDS)).as("its refresh is being saved").isTrue();
      Future<TokenManager.SignOut> signedOut = callers.submit(() -> first.signOut().execute());
      firstStates.awaitCause(Cause.SIGNED_OUT); // forgotten in memory; the clear waits its turn

      store.saveGoesOn.countDown();

      assertThat(signedOut.get(10, TimeUnit.SECONDS)).isEqualTo(TokenManager.SignOut.NOT_OFFERED);
      try {
        refreshed.get(10, TimeUnit.SECONDS); // handed out if saved and settled before the clear
      } catch (ExecutionException e) { // or dropped, if the clear came first
        assertThat(e).hasCauseInstanceOf(NotSignedInException.class);
      }
      assertThat(store.load()).isNull();
      assertThat(other.record()).isNull();
      assertThat(otherStates.changes()).extracting(StateChange::cause).endsWith(Cause.SIGNED_OUT);
      assertThatThrownBy(other::accessToken).isInstanceOf(NotSignedInException.class);
    } finally {
      callers.shutdownNow();
    }
  }

  /**
   * A sign-in on another screen while this manager's sign-out clears the store: it is saved after
   * the clear, both managers take it, and the store ends with it.
   */
  @Test void aRecordSetWhileASignOutClearsTheStoreIsWhatTheStoreEndsWith() throws Exception {
    SteppedStore store = new SteppedStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = managerHoldingAt1(store);
    TokenManager other = managerHoldingAt1(store);
    StateLog firstStates = new StateLog();
    first.addListener(firstStates);
    store.holdNextClear = true;
    TokenRecord next = deviceRecord("at-9", "rt-9", 3600);
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<TokenManager.SignOut> signedOut = caller.submit(() -> first.signOut().execute());
      assertThat(store.clearHeld.await(10, TimeUnit.SECONDS)).isTrue();

      other.setRecord(next); // held at once, saved on a worker once the clear is done
      store.clearGoesOn.countDown();

      assertThat(signedOut.get(10, TimeUnit.SECONDS)).isEqualTo(TokenManager.SignOut.NOT_OFFERED);
      assertThat(firstStates.awaitCause(Cause.RECORD_SET).state()).isEqualTo(State.VALID);
      assertThat(store.load()).isEqualTo(next);
      assertThat(first.record()).isEqualTo(next);
      assertThat(other.record()).isEqualTo(next);
      assertThat(firstStates.changes()).extracting(StateChange::cause)
          .containsSubsequence(Cause.SIGNED_OUT, Cause.RECORD_SET);
    } finally {
      caller.shutdownNow();
    }
  }

  @Test void aRecordSetThroughOneManagerReplacesTheOthersRefreshedRecordItCouldNotSave()
      throws Exception {
    SteppedStore store = new SteppedStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = managerHoldingAt1(store);
    TokenManager other = managerHoldingAt1(store);
    time.advance(3600 - 300, TimeUnit.SECONDS);
    script.enqueue(token("at-2", "rt-2", 3600, time.wallMillis() / 1000));
    store.saveToFailOnce = "at-2";
    assertThatThrownBy(other::accessToken).isInstanceOf(IOException.class).hasMessage("disk full");
    TokenRecord switched = deviceRecord("at-9", "rt-9", 3600); // another user, on another screen
    other.addListener(otherStates);

    first.setRecord(switched);

    assertThat(otherStates.awaitCause(Cause.RECORD_SET).state()).isEqualTo(State.VALID);
    assertThat(other.record()).isEqualTo(switched);
    assertThat(other.accessToken()).as("its own refresh, unsaved, does not come back")
        .isEqualTo("at-9");
    assertThat(first.accessToken()).isEqualTo("at-9");
    assertThat(store.load()).isEqualTo(switched);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /**
   * A screen's manager reads the store for the first time as the user signs out on another: the
   * managers take turns on the store, so the clear comes after the read, and the new manager, told
   * of it, forgets what it read.
   */
  @Test void aSignOutAsTheOtherManagerFirstReadsTheStoreSignsItOutToo() throws Exception {
    SteppedStore store = new SteppedStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = managerHoldingAt1(store);
    StateLog firstStates = new StateLog();
    first.addListener(firstStates);
    store.holdNextLoad = true;
    TokenManager other = manager(store); // a screen made as the user signs out on another
    other.addListener(otherStates); // starts its first read, on a worker
    assertThat(store.loadRead.await(10, TimeUnit.SECONDS)).isTrue();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<TokenManager.SignOut> signedOut = caller.submit(() -> first.signOut().execute());
      firstStates.awaitCause(Cause.SIGNED_OUT); // forgotten in memory; the clear waits its turn

      store.loadReturns.countDown();

      assertThat(signedOut.get(10, TimeUnit.SECONDS)).isEqualTo(TokenManager.SignOut.NOT_OFFERED);
      otherStates.awaitExactly(State.LOADING, State.VALID, State.NO_TOKEN);
      assertThat(otherStates.changes().get(2).cause()).isEqualTo(Cause.SIGNED_OUT);
      assertThat(other.record()).isNull();
      assertThat(store.load()).isNull();
      assertThatThrownBy(other::accessToken).isInstanceOf(NotSignedInException.class);
    } finally {
      caller.shutdownNow();
    }
  }

  /**
   * This manager's refresh token is refused because the other manager has just rotated it, and the
   * other's refresh comes to be saved while this one looks in the store for it: the save waits until
   * the refusal is settled, and this manager, told of it then, serves the other's record rather than
   * asking for a sign-in.
   */
  @Test void aRefreshSavedAsTheOtherLooksForItAfterARefusalIsTakenOnceTheRefusalIsSettled()
      throws Exception {
    SteppedStore store = new SteppedStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = managerHoldingAt1(store);
    TokenManager other = managerHoldingAt1(store);
    other.addListener(otherStates);
    otherStates.awaitExactly(State.VALID);
    time.advance(3600 - 300, TimeUnit.SECONDS); // both due
    CountDownLatch firstAsked = new CountDownLatch(1);
    CountDownLatch firstAnswered = new CountDownLatch(1);
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        if (firstAsked.getCount() > 0) { // the first manager's refresh, answered when the test says
          firstAsked.countDown();
          firstAnswered.await(10, TimeUnit.SECONDS);
          return token("at-2", "rt-2", 3600, time.wallMillis() / 1000);
        }
        store.holdNextLoad = true; // the other's look in the store after this refusal
        return AuthServerScript.json(400, "{\"error\":\"invalid_refresh_token\","
            + "\"message\":\"already used\"}");
      }
    });
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try {
      Future<String> firstRefresh = callers.submit(first::accessToken);
      assertThat(firstAsked.await(10, TimeUnit.SECONDS)).isTrue();
      Future<String> otherRefresh = callers.submit(other::accessToken);
      assertThat(store.loadRead.await(10, TimeUnit.SECONDS)).as("the other looks in the store")
          .isTrue();
      firstAnswered.countDown(); // its answer waits for the store, held by the other's look

      store.loadReturns.countDown();

      assertThat(firstRefresh.get(10, TimeUnit.SECONDS)).isEqualTo("at-2");
      assertThatThrownBy(() -> otherRefresh.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(ReauthorizationRequiredException.class);
      otherStates.awaitExactly(
          State.VALID, State.REFRESHING, State.REAUTHORIZATION_REQUIRED, State.VALID);
      assertThat(otherStates.changes().get(3).cause()).isEqualTo(Cause.REFRESHED);
      assertThat(other.accessToken()).isEqualTo("at-2");
      assertThat(server.getRequestCount()).as("one refresh each, nothing more").isEqualTo(2);
    } finally {
      callers.shutdownNow();
    }
  }

  /**
   * A sign-in on one screen that its store could not save, then a sign-out on another: the sign-out,
   * asked for after it, ends it too, as it would through one manager, and it is not saved later.
   */
  @Test void aSignOutThroughOneManagerEndsASignInTheOtherCouldNotSaveYet() throws Exception {
    SteppedStore store = new SteppedStore(deviceRecord("at-1", "rt-1", 3600));
    TokenManager first = managerHoldingAt1(store);
    TokenManager other = managerHoldingAt1(store);
    other.addListener(otherStates);
    store.saveToFailOnce = "at-9";
    other.setRecord(deviceRecord("at-9", "rt-9", 3600));
    otherStates.awaitCause(Cause.STORE_FAILED);
    assertThat(first.record().accessToken()).as("never saved: not heard").isEqualTo("at-1");

    assertThat(first.signOut().execute()).isEqualTo(TokenManager.SignOut.NOT_OFFERED);

    assertThat(other.record()).isNull();
    assertThatThrownBy(other::accessToken).as("nothing left to save")
        .isInstanceOf(NotSignedInException.class);
    assertThat(store.load()).isNull();
    assertThat(first.record()).isNull();
    assertThat(otherStates.changes()).extracting(StateChange::cause).endsWith(Cause.SIGNED_OUT);
  }

  @Test void storesOfTheAppAreOneWithThemselvesOnly() throws Exception {
    TokenManager first = manager(new InMemoryTokenStore());
    TokenManager other = manager(new InMemoryTokenStore());
    other.addListener(otherStates);
    otherStates.awaitExactly(State.LOADING, State.NO_TOKEN);

    first.setRecord(deviceRecord("at-1", "rt-1", 3600));
    StateLog.awaitLoaded(first);
    assertThat(first.accessToken()).isEqualTo("at-1"); // saved by then

    assertThat(other.record()).isNull();
    assertThat(otherStates.changes()).hasSize(2);
  }

  @Test void aManagerTheAppDroppedIsForgotten() throws Exception {
    InMemoryTokenStore store = new InMemoryTokenStore();
    TokenManager kept = manager(store);
    WeakReference<TokenManager> dropped = new WeakReference<>(manager(store));
    assertThat(SameStoreManagers.managersOf(store)).isEqualTo(2);

    for (int i = 0; i < 50 && dropped.get() != null; i++) System.gc();

    assertThat(dropped.get()).as("collected").isNull();
    assertThat(SameStoreManagers.managersOf(store)).isEqualTo(1);
    assertThat(kept.state()).isNotNull();
  }
}
