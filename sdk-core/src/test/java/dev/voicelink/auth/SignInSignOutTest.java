package dev.voicelink.auth;

import static dev.voicelink.auth.AuthServerScript.json;
import static dev.voicelink.auth.AuthServerScript.pending;
import static dev.voicelink.auth.StandardDeviceFlowTest.standardCode;
import static dev.voicelink.auth.StandardDeviceFlowTest.standardToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceFlowOutcome.Kind;
import dev.voicelink.auth.TokenManager.Cause;
import dev.voicelink.auth.TokenManager.SignOut;
import dev.voicelink.auth.TokenManager.State;
import dev.voicelink.auth.TokenManager.StateChange;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.Call;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TokenManager#signIn} and {@link TokenManager#signOut()} against a scripted standard server:
 * the record is kept before the outcome is told, the revocation is RFC 7009's exact form, a sign-out
 * is local whatever the server does, and nothing touches the store on the calling thread.
 */
class SignInSignOutTest {
  private static final String DEVICE_GRANT = StandardDeviceFlowTest.DEVICE_GRANT;

  private final VirtualTime time = new VirtualTime();
  private final AuthServerScript script = new AuthServerScript(time);
  private final MockWebServer server = new MockWebServer();
  private final StateLog states = new StateLog();
  private final ThreadRecordingStore store = new ThreadRecordingStore();
  private VoiceLinkClient config;

  @BeforeEach void setUp() throws IOException {
    server.setDispatcher(script);
    server.start();
    config = VoiceLinkClient.builder().clock(time).scheduler(time).build();
  }

  @AfterEach void tearDown() throws IOException {
    config.close();
    server.shutdown();
  }

  /** A store that notes the thread of every load, save and clear. */
  static final class ThreadRecordingStore implements TokenStore {
    final InMemoryTokenStore held = new InMemoryTokenStore();
    final List<String> operations = Collections.synchronizedList(new ArrayList<>());
    final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());

    private synchronized void note(String operation) {
      operations.add(operation);
      threads.add(Thread.currentThread());
      notifyAll();
    }

    /** Waits (10 s at most) until the store has seen {@code count} operations. */
    synchronized void awaitOperations(int count) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (operations.size() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) throw new AssertionError("the store saw only " + operations);
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    @Override public @Nullable TokenRecord load() throws IOException {
      note("load");
      return held.load();
    }

    @Override public void save(TokenRecord record) throws IOException {
      note("save " + record.accessToken());
      held.save(record);
    }

    @Override public void clear() throws IOException {
      note("clear");
      held.clear();
    }
  }

  private OAuthServer revokingServer() {
    return StandardServers.at(server).newBuilder()
        .revocationEndpoint(server.url("/oauth2/revoke").toString()).build();
  }

  private TokenManager publicManager(OAuthServer oauthServer) {
    TokenManager manager = TokenManager.builder(config, oauthServer).deviceGrant("speaker-public")
        .scope("profile voicelink.entities").store(store).random(new Random(3)).build();
    manager.addListener(states);
    return manager;
  }

  /** Runs a whole standard sign-in (one pending poll) and returns what the call reported. */
  private DeviceFlowOutcome signIn(TokenManager manager) throws Exception {
    return approve(startSignIn(manager)).await().value();
  }

  /**
   * Starts a standard sign-in whose server answers one poll pending, then the token; returns once the
   * code was shown and the first poll waits its interval.
   */
  private Outcome<DeviceFlowOutcome> startSignIn(TokenManager manager) throws Exception {
    script.enqueue(standardCode(5), pending(), standardToken("Bearer"));
    Outcome<DeviceFlowOutcome> outcome = new Outcome<>();
    int before = time.scheduledCount();
    manager.signIn(code -> outcome.events.add("code " + code.userCode())).enqueue(outcome);
    time.awaitScheduled(before + 1);
    return outcome;
  }

  /** Lets the started sign-in's two polls run: the pending one, then the token. */
  private Outcome<DeviceFlowOutcome> approve(Outcome<DeviceFlowOutcome> started)
      throws InterruptedException {
    time.step(5000, 2);
    time.advance(5000, TimeUnit.MILLISECONDS);
    return started;
  }

  /** Collects a call's result, and what the store held when it was told. */
  final class Outcome<T> implements VoiceLinkCall.Callback<T> {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final AtomicReference<CallResult<T>> result = new AtomicReference<>();
    final AtomicReference<TokenRecord> storedWhenTold = new AtomicReference<>();
    final CountDownLatch done = new CountDownLatch(1);

    @Override public void onResult(CallResult<T> told) {
      storedWhenTold.set(store.held.load());
      result.set(told);
      done.countDown();
    }

    CallResult<T> await() throws InterruptedException {
      assertThat(done.await(10, TimeUnit.SECONDS)).as("the call ended").isTrue();
      return result.get();
    }
  }

  @Test void signInRunsTheFlowAndSavesTheRecordBeforeTellingTheOutcome() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    Outcome<DeviceFlowOutcome> outcome = approve(startSignIn(manager));
    DeviceFlowOutcome signedIn = outcome.await().value();

    assertThat(signedIn.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(outcome.events).containsExactly("code WDJB-MJHT");
    assertThat(outcome.storedWhenTold.get()).as("saved before the outcome was told")
        .isEqualTo(signedIn.token());
    assertThat(store.threads.get(store.operations.indexOf("save at-std-1")).getName())
        .as("saved on the client's workers, whoever hands the news over (an app thread that cancels)")
        .startsWith("voicelink-io");
    assertThat(signedIn.token().revocationEndpoint()).isEqualTo(server.url("/oauth2/revoke").toString());
    assertThat(manager.record()).isEqualTo(signedIn.token());
    assertThat(manager.accessToken()).isEqualTo("at-std-1");
    assertThat(script.paths()).containsExactly("/oauth2/device_authorization", "/oauth2/token",
        "/oauth2/token");
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("client_id=speaker-public&scope=profile+voicelink.entities");
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("grant_type=" + DEVICE_GRANT + "&device_code=dc-secret-9f8e7d&client_id=speaker-public");
    states.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID);
    assertThat(states.changes()).extracting(StateChange::cause)
        .containsExactly(Cause.READING_STORE, Cause.STORE_READ, Cause.SIGNED_IN);
  }

  @Test void signOutRevokesTheRefreshTokenWithRfc7009sFormThenForgetsIt() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    signIn(manager);
    AtomicReference<TokenRecord> storedWhenRevoked = new AtomicReference<>();
    AtomicReference<State> stateWhenRevoked = new AtomicReference<>();
    script.enqueue(new MockResponse().setResponseCode(200));
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        if (request.getPath().equals("/oauth2/revoke")) {
          storedWhenRevoked.set(store.held.load());
          stateWhenRevoked.set(manager.state());
        }
        return script.dispatch(request);
      }
    });
    Outcome<SignOut> outcome = new Outcome<>();
    manager.signOut().enqueue(outcome);

    assertThat(outcome.await().value()).isEqualTo(SignOut.REVOKED);
    server.takeRequest();
    server.takeRequest();
    server.takeRequest();
    RecordedRequest revocation = server.takeRequest();
    assertThat(revocation.getMethod()).isEqualTo("POST");
    assertThat(revocation.getPath()).isEqualTo("/oauth2/revoke");
    assertThat(revocation.getHeader("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
    assertThat(revocation.getHeader("Authorization")).isNull();
    assertThat(revocation.getBody().readUtf8())
        .isEqualTo("token=rt-std-1&token_type_hint=refresh_token&client_id=speaker-public");
    assertThat(storedWhenRevoked.get()).as("revoked first, while still stored").isNotNull();
    assertThat(stateWhenRevoked.get()).isEqualTo(State.VALID);
    assertThat(outcome.storedWhenTold.get()).as("cleared before the outcome was told").isNull();
    assertThat(store.operations).endsWith("save at-std-1", "clear");
    assertThat(manager.record()).isNull();
    assertThat(manager.state()).isEqualTo(State.NO_TOKEN);
    assertThatThrownBy(manager::accessToken).isInstanceOf(NotSignedInException.class);
    states.awaitExactly(State.LOADING, State.NO_TOKEN, State.VALID, State.NO_TOKEN);
    assertThat(states.changes().get(3).cause()).isEqualTo(Cause.SIGNED_OUT);
  }

  @Test void aConfidentialClientAuthenticatesItsRevocationAsItsTokenRequests() throws Exception {
    OAuthServer oauthServer = StandardServers.at(server, "client_secret_basic").newBuilder()
        .revocationEndpoint(server.url("/oauth2/revoke").toString()).build();
    TokenManager manager = TokenManager.builder(config, oauthServer)
        .deviceGrant("speaker-confidential", "s3cret-client").store(store).build();
    manager.setRecord(TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
        .clientId("speaker-confidential")
        .standard(null, server.url("/oauth2/token").toString(),
            OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC)
        .revocationEndpoint(server.url("/oauth2/revoke").toString())
        .tokenType("Bearer").accessToken("at-1").refreshToken("rt-1").expiresInSeconds(300)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build());
    script.enqueue(new MockResponse().setResponseCode(200));

    assertThat(manager.signOut().execute()).isEqualTo(SignOut.REVOKED);
    RecordedRequest revocation = server.takeRequest();
    assertThat(revocation.getHeader("Authorization"))
        .isEqualTo(okhttp3.Credentials.basic("speaker-confidential", "s3cret-client"));
    assertThat(revocation.getBody().readUtf8()).isEqualTo("token=rt-1&token_type_hint=refresh_token");
  }

  @Test void aRecordWithoutRefreshTokenHasItsAccessTokenRevoked() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    manager.setRecord(TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("speaker-public")
        .standard(null, server.url("/oauth2/token").toString(), OAuthServer.ClientAuthentication.NONE)
        .revocationEndpoint(server.url("/oauth2/revoke").toString())
        .tokenType("Bearer").accessToken("at-only").expiresInSeconds(300)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build());
    script.enqueue(new MockResponse().setResponseCode(200));

    assertThat(manager.signOut().execute()).isEqualTo(SignOut.REVOKED);
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("token=at-only&token_type_hint=access_token&client_id=speaker-public");
  }

  @Test void aRevocationTheServerRefusesLeavesTheDeviceSignedOut() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    signIn(manager);
    script.enqueue(json(503, "{\"error\":\"temporarily_unavailable\"}"));

    try (LogCapture log = LogCapture.install()) {
      assertThat(manager.signOut().execute()).isEqualTo(SignOut.REVOCATION_FAILED);
      assertThat(log.lines()).contains("WARN auth the server did not revoke the tokens (HTTP 503"
          + " temporarily_unavailable); signed out here all the same");
    }
    assertThat(store.held.load()).isNull();
    assertThat(manager.state()).isEqualTo(State.NO_TOKEN);
  }

  @Test void aServerThatCannotBeReachedLeavesTheDeviceSignedOut() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    signIn(manager);
    server.shutdown();

    assertThat(manager.signOut().execute()).isEqualTo(SignOut.REVOCATION_FAILED);
    assertThat(store.held.load()).isNull();
    assertThat(manager.record()).isNull();
  }

  @Test void theRevocationIsBoundedByItsTimeout() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    signIn(manager);
    TokenRecord record = manager.record();
    AuthClient client = new AuthClient(dev.voicelink.core.internal.ClientCore.open(config),
        StandardDialect.of(revokingServer(), null, null), null);
    Call revocation = new Revoker(client, new TokenExchange(client, "speaker-public", null, false))
        .call(record);

    assertThat(revocation).isNotNull();
    assertThat(revocation.timeout().timeoutNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(10));
  }

  @Test void aSignOutCancelledBeforeAWorkerTookItUpStillForgetsTheCredential() throws Exception {
    store.held.save(TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("speaker-public")
        .standard(null, server.url("/oauth2/token").toString(), OAuthServer.ClientAuthentication.NONE)
        .tokenType("Bearer").accessToken("at-1").refreshToken("rt-1").expiresInSeconds(300)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build());
    // No listener and a client that has run nothing: no worker thread exists yet, so the cancel
    // lands while the sign-out waits for the thread that the enqueue starts.
    TokenManager manager = TokenManager.builder(config, StandardServers.at(server))
        .deviceGrant("speaker-public").store(store).build();
    Outcome<SignOut> outcome = new Outcome<>();

    VoiceLinkCall<SignOut> signOut = manager.signOut();
    signOut.enqueue(outcome);
    signOut.cancel();

    CallResult<SignOut> told = outcome.await();
    if (!told.isCancelled()) { // the rare run where the worker ended it before the cancel came
      assertThat(told.value()).isEqualTo(SignOut.NOT_OFFERED);
    }
    config.close();
    assertThat(config.awaitTermination(10, TimeUnit.SECONDS)).as("the sign-out ran to its end").isTrue();
    assertThat(store.operations).containsExactly("load", "clear");
    assertThat(store.held.load()).isNull();
    assertThat(manager.record()).isNull();
    assertThat(manager.state()).isEqualTo(State.NO_TOKEN);
  }

  @Test void withoutRevocationEndpointTheSignOutIsLocalAndSendsNothing() throws Exception {
    TokenManager manager = publicManager(StandardServers.at(server));
    signIn(manager);
    int sent = script.paths().size();

    assertThat(manager.signOut().execute()).isEqualTo(SignOut.NOT_OFFERED);
    assertThat(script.paths()).hasSize(sent);
    assertThat(store.held.load()).isNull();
  }

  @Test void signingOutAManagerThatHoldsNothingClearsTheStoreAndSendsNothing() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    assertThat(manager.signOut().execute()).isEqualTo(SignOut.NOT_OFFERED);
    assertThat(script.paths()).isEmpty();
    assertThat(store.operations).containsExactly("load", "clear");
  }

  @Test void aRefreshThatRotatesTheTokensWhileTheyAreRevokedHasItsNewOnesRevokedToo() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    signIn(manager);
    RevocationRace race = new RevocationRace(true, "rotated");
    Outcome<SignOut> signOut = new Outcome<>();
    manager.signOut().enqueue(signOut);
    assertThat(race.held.await(10, TimeUnit.SECONDS)).as("the revocation is on the wire").isTrue();
    assertThat(manager.refresh().execute().refreshToken()).isEqualTo("rt-rotated");
    race.release.countDown();

    assertThat(signOut.await().value()).isEqualTo(SignOut.REVOKED);
    race.assertRevoked("rt-std-1", "rt-rotated");
    assertThat(store.held.load()).isNull();
    assertThat(manager.record()).isNull();
  }

  @Test void aRefreshASignOutOvertookIsDroppedAndItsNewTokensRevoked() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    signIn(manager);
    RevocationRace race = new RevocationRace(false, "late");
    Outcome<TokenRecord> refresh = new Outcome<>();
    manager.refresh().enqueue(refresh);
    assertThat(race.held.await(10, TimeUnit.SECONDS)).as("the refresh is on the wire").isTrue();

    assertThat(manager.signOut().execute()).isEqualTo(SignOut.REVOKED);
    race.release.countDown();

    assertThat(refresh.await().failure()).isInstanceOf(NotSignedInException.class);
    race.assertRevoked("rt-std-1", "rt-late");
    assertThat(store.held.load()).as("the late answer is not saved").isNull();
    assertThat(manager.record()).isNull();
  }

  /**
   * The revoking server of a race between a sign-out and a refresh: it answers a refresh with tokens
   * named after {@code tokens} ({@code at-<tokens>}, {@code rt-<tokens>}), records each revocation, and
   * holds the revocations ({@code holdRevocations}) or the refreshes until {@link #release}.
   */
  private final class RevocationRace {
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final List<String> revoked = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch revocations = new CountDownLatch(2);

    RevocationRace(boolean holdRevocations, String tokens) {
      server.setDispatcher(new Dispatcher() {
        @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
          boolean revocation = request.getPath().equals("/oauth2/revoke");
          if (revocation) {
            revoked.add(request.getBody().readUtf8());
            revocations.countDown();
          }
          if (revocation == holdRevocations) {
            held.countDown();
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
          }
          return revocation ? new MockResponse().setResponseCode(200)
              : json(200, "{\"access_token\":\"at-" + tokens + "\",\"token_type\":\"Bearer\","
                  + "\"expires_in\":300,\"refresh_token\":\"rt-" + tokens + "\"}");
        }
      });
    }

    void assertRevoked(String first, String second) throws InterruptedException {
      assertThat(revocations.await(10, TimeUnit.SECONDS)).as("both revoked").isTrue();
      assertThat(revoked).containsExactly(
          "token=" + first + "&token_type_hint=refresh_token&client_id=speaker-public",
          "token=" + second + "&token_type_hint=refresh_token&client_id=speaker-public");
    }
  }

  @Test void aSignOutEndsTheSignInsStillPollingAndNoApprovalComesBackAfterIt() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    Outcome<DeviceFlowOutcome> signIn = startSignIn(manager);

    assertThat(manager.signOut().execute()).isEqualTo(SignOut.NOT_OFFERED);

    assertEndedWithoutAnotherPoll(signIn, manager);
    assertThat(store.operations).containsExactly("load", "clear");
  }

  /** {@code signIn}, started by {@link #startSignIn}, ended cancelled and polls no more; nothing held. */
  private void assertEndedWithoutAnotherPoll(Outcome<DeviceFlowOutcome> signIn, TokenManager manager)
      throws InterruptedException {
    assertThat(signIn.await().isCancelled()).as("the sign-in ended as cancelled").isTrue();
    time.advance(20, TimeUnit.SECONDS);
    assertThat(script.paths()).as("no poll after the sign-out")
        .containsExactly("/oauth2/device_authorization");
    assertThat(manager.record()).isNull();
    assertThat(signIn.events).containsExactly("code WDJB-MJHT");
  }

  /** A second manager of the test's store, as an Agent on another screen has. */
  private TokenManager anotherManagerOfTheStore() {
    return TokenManager.builder(config, revokingServer()).deviceGrant("speaker-public")
        .scope("profile voicelink.entities").store(store).random(new Random(3)).build();
  }

  /** One store, two managers (Agents on two screens): a sign-out through one ends the other's too. */
  @Test void aSignOutThroughAnotherManagerEndsThisOnesSignInsStillPolling() throws Exception {
    TokenManager polling = publicManager(revokingServer());
    TokenManager other = anotherManagerOfTheStore();
    Outcome<DeviceFlowOutcome> signIn = startSignIn(polling);

    assertThat(other.signOut().execute()).isEqualTo(SignOut.NOT_OFFERED);

    assertEndedWithoutAnotherPoll(signIn, polling);
  }

  /**
   * A sign-out whose store cannot be read (a volume not mounted yet) does not know what to revoke: on
   * a server that revokes, it says the tokens may still be valid there, not that none is offered.
   */
  @Test void aSignOutWhoseStoreCannotBeReadSaysTheRevocationFailed() throws Exception {
    TokenStore unreadable = new TokenStore() {
      @Override public @Nullable TokenRecord load() throws IOException {
        throw new IOException("volume not mounted");
      }

      @Override public void save(TokenRecord record) {
      }

      @Override public void clear() {
      }
    };
    TokenManager standard = TokenManager.builder(config, revokingServer()).deviceGrant("speaker-public")
        .store(unreadable).random(new Random(3)).build();
    VoiceLinkClient platformClient = VoiceLinkClient.builder().authUrl(server.url("/").toString())
        .clock(time).scheduler(time).build();
    TokenManager platform = TokenManager.builder(platformClient).deviceGrant("vl-speaker-01")
        .store(unreadable).random(new Random(3)).build();

    assertThat(standard.signOut().execute()).isEqualTo(SignOut.REVOCATION_FAILED);
    assertThat(platform.signOut().execute()).as("the platform revokes nothing").isEqualTo(SignOut.NOT_OFFERED);
    assertThat(script.paths()).as("nothing sent").isEmpty();
    platformClient.close();
  }

  /**
   * A sign-in through one manager began, then a sign-out was asked for through another, and the user
   * approved before that sign-out ran: it ends the sign-in all the same, as one manager's would.
   */
  @Test void aSignOutThroughAnotherManagerEndsASignInThatBeganBeforeItAndWasApprovedMeanwhile()
      throws Exception {
    TokenManager signingIn = publicManager(revokingServer());
    TokenManager other = anotherManagerOfTheStore();
    Outcome<DeviceFlowOutcome> signIn = startSignIn(signingIn);
    VoiceLinkCall<SignOut> signOut = other.signOut(); // asked for now, run later

    DeviceFlowOutcome approved = approve(signIn).await().value();
    assertThat(approved.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(other.record()).as("heard by the other").isEqualTo(approved.token());
    script.enqueue(new MockResponse().setResponseCode(200)); // the revocation

    signOut.execute();

    assertThat(store.held.load()).isNull();
    assertThat(other.record()).isNull();
    assertThat(signingIn.record()).isNull();
  }

  /**
   * An account switch: the app signs out and at once signs in again. The sign-in made after the
   * sign-out was asked for is not ended by it, even when its user approves before the sign-out ran.
   */
  @Test void aSignInMadeAfterTheSignOutWasAskedForIsLeftAlone() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    VoiceLinkCall<SignOut> signOut = manager.signOut();
    DeviceFlowOutcome signedIn = signIn(manager);
    int sent = script.paths().size();

    assertThat(signOut.execute()).isEqualTo(SignOut.NOT_OFFERED);

    assertThat(signedIn.kind()).isEqualTo(Kind.AUTHORIZED);
    assertThat(script.paths()).as("the new credential is not revoked").hasSize(sent);
    assertThat(manager.record()).isEqualTo(signedIn.token());
    assertThat(store.held.load()).isEqualTo(signedIn.token());
    assertThat(states.changes()).extracting(StateChange::cause).doesNotContain(Cause.SIGNED_OUT);
  }

  /**
   * Another manager of the store (an Agent's on another screen) signs a new user in while this one's
   * sign-out waits for the server's revocation: the sign-out, asked for before, leaves it alone, as
   * it leaves a sign-in of its own made after it; only the old refresh token is revoked.
   */
  @Test void aSignInHeardFromAnotherManagerWhileThisOneRevokedIsLeftAlone() throws Exception {
    TokenManager manager = publicManager(revokingServer());
    TokenRecord old = signIn(manager).token();
    TokenManager other = anotherManagerOfTheStore();
    assertThat(other.record()).isNull(); // starts its first read
    StateLog.awaitLoaded(other);
    TokenRecord switched = old.newBuilder().accessToken("at-std-9").refreshToken("rt-std-9").build();
    List<String> revoked = Collections.synchronizedList(new ArrayList<>());
    script.enqueue(new MockResponse().setResponseCode(200));
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        if (request.getPath().equals("/oauth2/revoke")) {
          revoked.add(request.getBody().readUtf8());
          other.setRecord(switched); // saved on a worker while the revocation is answered
          states.awaitCause(Cause.RECORD_SET); // and heard by the manager signing out
        }
        return script.dispatch(request);
      }
    });

    assertThat(manager.signOut().execute()).isEqualTo(SignOut.REVOKED);

    assertThat(revoked).containsExactly(
        "token=rt-std-1&token_type_hint=refresh_token&client_id=speaker-public");
    assertThat(manager.record()).isEqualTo(switched);
    assertThat(other.record()).isEqualTo(switched);
    assertThat(store.held.load()).isEqualTo(switched);
    assertThat(store.operations).endsWith("save at-std-9");
    assertThat(states.changes()).extracting(StateChange::cause).doesNotContain(Cause.SIGNED_OUT);
  }

  @Test void nothingTouchesTheStoreOnTheCallingThread() throws Exception {
    GatedLoadStore gated = new GatedLoadStore(store);
    TokenManager manager = TokenManager.builder(config, revokingServer()).deviceGrant("speaker-public")
        .store(gated).build();
    assertThat(manager.state()).isEqualTo(State.LOADING);
    assertThat(manager.record()).isNull();
    gated.open();
    assertThat(StateLog.awaitLoaded(manager).state()).isEqualTo(State.NO_TOKEN);
    manager.setRecord(TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("speaker-public")
        .standard(null, server.url("/oauth2/token").toString(), OAuthServer.ClientAuthentication.NONE)
        .tokenType("Bearer").accessToken("at-set").refreshToken("rt-set").expiresInSeconds(300)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build());
    store.awaitOperations(2); // saved on a worker; a sign-out at once would overtake the save
    script.enqueue(new MockResponse().setResponseCode(200));
    Outcome<SignOut> signOut = new Outcome<>();
    manager.signOut().enqueue(signOut);
    signOut.await();

    assertThat(store.operations).containsExactly("load", "save at-set", "clear");
    assertThat(store.threads).doesNotContain(Thread.currentThread());
  }

  @Test void signInIsRefusedWhereItCannotWork() {
    TokenManager standard = publicManager(revokingServer());
    assertThatThrownBy(() -> standard.signIn("SN-0001-DEMO", code -> { }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("a standard OAuth 2.0 server takes no device_id: call signIn(listener)");
    TokenManager platform = TokenManager.builder(VoiceLinkClient.builder()
        .authUrl(server.url("/").toString()).clock(time).scheduler(time).build())
        .deviceGrant("vl-speaker-01").store(store).build();
    assertThatThrownBy(() -> platform.signIn(code -> { }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the platform's device flow needs a device_id: call signIn(deviceId, listener)");
    assertThatThrownBy(() -> platform.signIn("bad id!", code -> { }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("device_id ");
    TokenManager cloud = TokenManager.builder(config, revokingServer())
        .cloudGrant("backend", "s3cret").store(store).build();
    assertThatThrownBy(() -> cloud.signIn(code -> { }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("signIn needs a device credential: build the manager with deviceGrant(clientId)");
    assertThat(script.paths()).isEmpty();
  }
}
