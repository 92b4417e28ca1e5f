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
import java.util.Random;
import java.util.concurrent.CountDownLatch;
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
    return TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("vl-speaker-01")
        .accessToken(access).refreshToken(refresh).expiresInSeconds(expiresIn)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build();
  }

  private TokenManager manager(TokenStore store) {
    return TokenManager.builder(config).deviceGrant("vl-speaker-01").store(store)
        .random(new Random(3)).build();
  }

  /** Two instances on one file, as two Agents' stores of one name are. */
  private TokenStore[] oneFileTwice() {
    File file = dir.resolve("tokens.json").toFile();
    return new TokenStore[] {
        new FileTokenStore(file), new FileTokenStore(new File(dir.toFile(), "./tokens.json"))};
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
    TokenManager first = manager(stores[0]);
    TokenManager other = manager(stores[1]);
    assertThat(first.accessToken()).isEqualTo("at-1");
    assertThat(other.accessToken()).isEqualTo("at-1");
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
    TokenManager first = manager(store);
    TokenManager other = manager(store);
    assertThat(first.accessToken()).isEqualTo("at-1");
    assertThat(other.accessToken()).isEqualTo("at-1");
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
