package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import android.os.Bundle;
import android.os.Looper;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenStore;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.ByteString;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowPausedLooper;

/** The Agent on Android (SDK 21, 28, 35) against the reference server, time under test control. */
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
public final class AgentRobolectricTest {
  private static final String CONTACTS_TEXT =
      "{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}";

  private final VirtualTime time = new VirtualTime();
  private ReferenceServer server;
  private String accessToken;
  private dev.voicelink.auth.TokenRecord record;
  private Agent agent;
  private dev.voicelink.core.VoiceLinkClient client;
  private final List<AgentEvent> events = Collections.synchronizedList(new ArrayList<AgentEvent>());
  private final List<Boolean> onMainThread = Collections.synchronizedList(new ArrayList<Boolean>());

  @Before public void startServerAndAuthorize() throws Exception {
    server = ReferenceServer.builder().console(Console.defaults())
        .recognizer((audio, sampleRate) -> audio.length > 0 && sampleRate == 16000 ? "call 老张" : "")
        .clock(ServerClock.manual(time.wallMillis())).build().start();
    VoiceLinkClient auth = VoiceLinkClient.builder().authUrl(server.authUrl()).clock(time)
        .scheduler(time).build();
    final DeviceAuthorizer authorizer = DeviceAuthorizer.builder(auth)
        .clientId(DefaultConsole.CLIENT_ID).build();
    final DeviceCode code = TestClients.execute(authorizer.requestCode(DefaultConsole.DEVICE_ID));
    new SimulatedTester(server).approve(code.userCode());
    final AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
    Thread poller = new Thread(new Runnable() {
      @Override public void run() {
        outcome.set(TestClients.execute(authorizer.poll(code)));
      }
    });
    int scheduled = time.scheduledCount();
    poller.start();
    // The poll first waits its interval on the virtual clock: one step to it, then the approved
    // device's token comes back over real HTTP.
    time.awaitScheduled(scheduled + 1);
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    poller.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(outcome.get()).isNotNull();
    record = outcome.get().token();
    accessToken = record.accessToken();
  }

  @After public void stop() throws Exception {
    if (agent != null) agent.destroy();
    if (client != null) client.close();
    server.close();
  }

  private String configText() {
    return "\uFEFF{\n"
        + "  // the platform's cfg style: comments and a BOM are fine\n"
        + "  \"login\": {\"appid\": \"" + DefaultConsole.APPID + "\"},\n"
        + "  \"server\": {\"base_url\": \"" + server.baseUrl() + "\", /* a URL's // stays */\n"
        + "             \"auth_url\": \"" + server.authUrl() + "\"},\n"
        + "  \"auth\": {\"client_id\": \"" + DefaultConsole.CLIENT_ID + "\", \"device_id\": \""
        + DefaultConsole.DEVICE_ID + "\"},\n"
        + "  \"entity\": {\"namespace\": \"OS123\", \"account_key\": \"" + DefaultConsole.ACCOUNT_KEY
        + "\"},\n"
        + "  \"global\": {\"scene\": \"main\"}\n"
        + "}";
  }

  /** The agent as Agent.create(context, config, listener) makes it: its own TokenManager. */
  private Agent createAgent() throws Exception {
    return createAgent(true);
  }

  private Agent createAgent(boolean authorized) throws Exception {
    return createAgent(authorized, new ThreadRecordingStore(encryptedStore()));
  }

  private static EncryptedTokenStore encryptedStore() {
    java.io.File recordFile = new java.io.File(RuntimeEnvironment.getApplication()
        .getNoBackupFilesDir(), "agent-test");
    recordFile.delete();
    return new EncryptedTokenStore(recordFile, new EncryptedTokenStoreTest.SoftwareAesKeys(), "agent",
        new java.security.SecureRandom());
  }

  /** A store that notes the thread of every load, save and clear. */
  static final class ThreadRecordingStore implements TokenStore {
    final TokenStore store;
    final List<String> calls = Collections.synchronizedList(new ArrayList<String>());
    final List<Thread> threads = Collections.synchronizedList(new ArrayList<Thread>());

    ThreadRecordingStore(TokenStore store) {
      this.store = store;
    }

    private void note(String call) {
      calls.add(call);
      threads.add(Thread.currentThread());
    }

    @Override public TokenRecord load() throws java.io.IOException {
      note("load");
      return store.load();
    }

    @Override public void save(TokenRecord saved) throws java.io.IOException {
      note("save");
      store.save(saved);
    }

    @Override public void clear() throws java.io.IOException {
      note("clear");
      store.clear();
    }

    @Override public String toString() {
      return store.toString();
    }
  }

  private Agent createAgent(boolean authorized, TokenStore store) throws Exception {
    if (authorized) store.save(record);
    agent = Agent.builder(RuntimeEnvironment.getApplication(), configText(), new AgentListener() {
      @Override public void onEvent(AgentEvent event) {
        onMainThread.add(Looper.myLooper() == Looper.getMainLooper());
        events.add(event);
      }
    })
        .tokenStore(store)
        .resourceDefinition(ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
            .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build())
        .client(client = TestClients.forConfig(configText(), time))
        .build();
    return agent;
  }

  private static ShadowPausedLooper mainLooper() {
    return Shadow.extract(Looper.getMainLooper());
  }

  /**
   * Runs what is due on the virtual clock and delivers what the main looper holds until an event of
   * {@code type} arrives after index {@code from}. The clock does not move.
   */
  private AgentEvent awaitEvent(int type, int from) {
    return awaitEvent(type, from, true);
  }

  /**
   * Like {@link #awaitEvent(int, int)}; {@code runDueTasks} false holds the virtual clock still. The
   * worker, OkHttp and the reference server are real threads: between rounds this waits for their
   * next post to the main looper, at most 10 ms so that a task they schedule on the virtual clock
   * runs too. The bound on real time only keeps a broken build from hanging.
   */
  private AgentEvent awaitEvent(int type, int from, boolean runDueTasks) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (runDueTasks) time.runDueTasks();
      mainLooper().idle();
      synchronized (events) {
        for (int j = from; j < events.size(); j++) {
          if (events.get(j).eventType() == type) return events.get(j);
        }
      }
      mainLooper().poll(10);
    }
    throw new AssertionError("no event " + type + " after #" + from + "; saw " + events);
  }

  private AgentEvent connect() throws Exception {
    createAgent();
    AgentEvent connected = awaitEvent(EVENT_CONNECTED_TO_SERVER, 0);
    // The worker posts EVENT_STATE (ready) after it, in a post of its own: once everything has
    // settled, no news of the connection comes after a test's "before".
    settle();
    return connected;
  }

  private static AgentMessage contactsSync(String tag) {
    String data = "{\"param\":{\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":\"OS123.contacts\"},"
        + "\"data\":\"" + ByteString.encodeUtf8(CONTACTS_TEXT).base64() + "\"}";
    return new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"" + tag + "\"}",
        data.getBytes(StandardCharsets.UTF_8));
  }

  @Test public void syncThenQueryAfterTenControlledSeconds() throws Exception {
    AgentEvent connected = connect();
    String uid = connected.data().getString(KEY_UID);
    assertThat(uid).matches("[a-z0-9]{32}");

    agent.sendMessage(contactsSync("contacts-1"));
    AgentEvent synced = awaitEvent(EVENT_CMD_RETURN, 0);
    assertThat(synced.arg1()).isEqualTo(CMD_SYNC);
    assertThat(synced.arg2()).as(synced.info()).isEqualTo(0);
    Bundle data = synced.data();
    assertThat(data.getInt(KEY_SYNC_DTYPE)).isEqualTo(SYNC_DATA_SCHEMA);
    assertThat(data.getString(KEY_TAG)).isEqualTo("contacts-1");
    String sid = data.getString(KEY_SID);
    assertThat(sid).startsWith("psn");

    int before = events.size();
    int scheduled = time.scheduledCount();
    agent.sendMessage(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"" + sid + "\"}", null));
    time.awaitScheduled(scheduled + 1);
    server.clock().advance(10, TimeUnit.SECONDS);
    time.advance(10, TimeUnit.SECONDS);
    AgentEvent queried = awaitEvent(EVENT_CMD_RETURN, before);
    assertThat(queried.arg1()).isEqualTo(CMD_QUERY_SYNC_STATUS);
    assertThat(queried.arg2()).as(queried.info()).isEqualTo(0);
    assertThat(queried.data().getInt(KEY_SYNC_DTYPE)).isEqualTo(SYNC_DATA_QUERY);
    assertThat(queried.data().getString(KEY_RESULT)).contains("\"sid\":\"" + sid + "\"");
    assertThat(onMainThread).containsOnly(true);
  }

  @Test public void textWriteRecognizesTheEntityOnlyWithPersParam() throws Exception {
    connect();
    agent.sendMessage(contactsSync("c"));
    assertThat(awaitEvent(EVENT_CMD_RETURN, 0).arg2()).isEqualTo(0);
    server.clock().advance(5, TimeUnit.MINUTES);
    time.advance(5, TimeUnit.MINUTES);

    int before = events.size();
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text,pers_param={\"uid\":\"\"}",
        "call 老张".getBytes(StandardCharsets.UTF_8)));
    AgentEvent with = awaitEvent(EVENT_RESULT, before);
    assertThat(with.info()).contains("OS123.contacts").contains("张三");

    before = events.size();
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text",
        "call 老张".getBytes(StandardCharsets.UTF_8)));
    AgentEvent without = awaitEvent(EVENT_RESULT, before);
    assertThat(without.info()).doesNotContain("OS123.contacts");
  }

  /**
   * Third-party accounts (protocol 5.1.3): a {@link TokenManager} of a standard OAuth 2.0 server is the
   * Agent's token source as the platform's is. Its record has expired, so the Agent's first access
   * token comes from a refresh at that server (RFC 6749 section 6), and the channel opens with it.
   */
  @Test public void aStandardServersTokenManagerServesTheAgent() throws Exception {
    MockWebServer standard = new MockWebServer();
    standard.enqueue(new MockResponse().setHeader("Content-Type", "application/json")
        .setBody("{\"access_token\":\"" + accessToken + "\",\"token_type\":\"Bearer\","
            + "\"expires_in\":3600,\"refresh_token\":\"std-refresh-2\"}"));
    standard.start();
    try {
      client = TestClients.forConfig(configText(), time);
      OAuthServer oauth = OAuthServer.builder()
          .tokenEndpoint(standard.url("/oauth2/token").toString()).build();
      TokenRecord expired = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
          .standard(null, oauth.tokenEndpoint(), OAuthServer.ClientAuthentication.NONE)
          .clientId("speaker-public").tokenType("Bearer").accessToken("std-access-1")
          .refreshToken("std-refresh-1").expiresInSeconds(3600)
          .createdAtEpochSeconds(TimeUnit.MILLISECONDS.toSeconds(time.wallMillis()) - 7200)
          .receivedAtEpochMillis(time.wallMillis() - TimeUnit.HOURS.toMillis(2)).build();
      TokenManager tokens = TokenManager.builder(client, oauth).deviceGrant("speaker-public")
          .store(new InMemoryTokenStore(expired)).build();
      agent = Agent.builder(RuntimeEnvironment.getApplication(), configText(), event -> events.add(event))
          .tokenSource(tokens).client(client).build();

      time.awaitScheduled(1);
      AgentEvent connected = awaitEvent(EVENT_CONNECTED_TO_SERVER, 0);

      assertThat(connected.data().getString(KEY_UID)).matches("[a-z0-9]{32}");
      RecordedRequest refresh = standard.takeRequest(10, TimeUnit.SECONDS);
      assertThat(refresh.getPath()).isEqualTo("/oauth2/token");
      assertThat(refresh.getHeader("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
      assertThat(refresh.getBody().readUtf8())
          .isEqualTo("grant_type=refresh_token&refresh_token=std-refresh-1&client_id=speaker-public");
      assertThat(standard.getRequestCount()).isEqualTo(1);
      assertThat(server.journal().calls("/interact")).extracting(call -> call.header("Authorization"))
          .containsExactly(accessToken);
      assertThat(tokens.record().refreshToken()).isEqualTo("std-refresh-2");
    } finally {
      agent.destroy();
      agent = null;
      standard.shutdown();
    }
  }

  /**
   * The typed commands and event readers end to end: a sync, its status before and after the platform
   * processed it, a text write that finds the entity, and a refusal, without a line of JSON, Base64 or
   * {@code key=value} text in the app's code.
   */
  @Test public void typedCommandsAndEventsThroughTheAgent() throws Exception {
    ConnectionEvent connected = ConnectionEvent.from(connect());
    assertThat(connected.kind()).isEqualTo(ConnectionEvent.Kind.CONNECTED);
    assertThat(connected.uid()).matches("[a-z0-9]{32}");

    java.util.Map<String, String> zhang = new java.util.LinkedHashMap<>();
    zhang.put("name", "张三");
    zhang.put("alias", "小张|老张");
    agent.sendMessage(AgentCommands.sync(ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
            .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build())
        .records(Collections.singletonList(zhang)).tag("contacts-1").build());
    SyncReturn sync = SyncReturn.from(awaitEvent(EVENT_CMD_RETURN, 0));
    assertThat(sync.isSuccess()).as(sync.info()).isTrue();
    assertThat(sync.tag()).isEqualTo("contacts-1");
    assertThat(sync.sid()).startsWith("psn");
    assertThat(server.journal().calls("/upload-resource")).hasSize(1);

    int before = events.size();
    agent.sendMessage(AgentCommands.querySyncStatus(sync.sid(), "query-1"));
    advanceToNextTask(); // the agent waits until 10 s after its upload
    SyncStatus early = SyncStatus.from(awaitEvent(EVENT_CMD_RETURN, before));
    assertThat(early.isSuccess()).as(early.info()).isTrue();
    assertThat(early.processed()).as(early.toString()).isFalse();
    assertThat(early.tag()).isEqualTo("query-1");

    server.clock().advance(5, TimeUnit.MINUTES);
    time.advance(5, TimeUnit.MINUTES);
    before = events.size();
    agent.sendMessage(AgentCommands.querySyncStatus(sync.sid()));
    SyncStatus done = SyncStatus.from(awaitEvent(EVENT_CMD_RETURN, before));
    assertThat(done.processed()).as(done.toString()).isTrue();
    assertThat(done.checkError()).isEqualTo(0);

    before = events.size();
    agent.sendMessage(AgentCommands.writeText("call 老张")
        .persParam(dev.voicelink.entity.PersParam.activation().user().build()).tag("w-1").build());
    WriteResult write = WriteResult.from(awaitEvent(EVENT_RESULT, before));
    assertThat(write.tag()).isEqualTo("w-1");
    assertThat(write.dataType()).isEqualTo("text");
    assertThat(write.result().entities()).extracting(e -> e.resourceName() + "=" + e.value())
        .containsExactly("OS123.contacts=张三");

    before = events.size();
    agent.sendMessage(new AgentMessage(CMD_SET_PARAMS, 0, 0, "{\"audioparams\":7}", null));
    AgentError error = AgentError.from(awaitEvent(EVENT_ERROR, before));
    assertThat(error.code()).isEqualTo(ERROR_INVALID_PARAMS);
    assertThat(error.command()).isEqualTo(CMD_SET_PARAMS);
  }

  @Test public void syncBeforeConnectedIsRefused() throws Exception {
    createAgent(); // its connection attempt waits for the virtual clock, which the test holds still

    agent.sendMessage(contactsSync("early"));

    AgentEvent refused = awaitEvent(EVENT_CMD_RETURN, 0, false);
    assertThat(refused.arg2()).isEqualTo(ERROR_NOT_CONNECTED);
    assertThat(refused.data().getString(KEY_TAG)).isEqualTo("early");
    // Nothing handed to a worker either: an upload would be on the wire once the threads are idle.
    assertThat(agent.awaitEngineIdle(10, TimeUnit.SECONDS)).isTrue();
    assertThat(server.journal().toString()).doesNotContain("upload-resource");
  }

  @Test public void destroyRefusesLaterMessages() throws Exception {
    connect();

    agent.destroy();

    assertThatThrownBy(() -> agent.sendMessage(contactsSync("late")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Agent was destroyed; create a new Agent to send CMD_SYNC");
  }

  @Test public void missingAppidIsAClearErrorAtCreation() {
    assertThatThrownBy(() -> Agent.builder(RuntimeEnvironment.getApplication(),
        "{\"server\":{\"base_url\":\"" + server.baseUrl() + "\"}}", event -> { })
        .tokenSource(() -> accessToken).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("login.appid is missing from the config: it is required because dynamic entities"
            + " cannot take effect without the application id; add \"login\": {\"appid\": \"<your "
            + "appid>\"}");
  }

  @Test public void anUnauthorizedDeviceGetsAClearErrorNotACrash() throws Exception {
    createAgent(false);

    AgentEvent error = awaitEvent(EVENT_ERROR, 0);

    assertThat(error.arg1()).isEqualTo(ERROR_NOT_AUTHORIZED);
    assertThat(error.info()).isEqualTo("device not signed in: no token in the Agent's token store"
        + " EncryptedTokenStore{agent}; call Agent.signIn");
    settle();
    assertThat(types()).containsOnlyOnce(EVENT_ERROR).doesNotContain(EVENT_CONNECTED_TO_SERVER);
    assertThat(server.journal().toString()).doesNotContain("interact");
  }

  /**
   * A listener added while an event waits for its executor (the main thread, busy with an Activity's
   * onCreate that adds one just after making the Agent) hears it: the listeners are those of the
   * moment the event is delivered, not of the moment it was sent.
   */
  @Test public void aListenerAddedWhileAnEventWaitsForItsExecutorHearsIt() throws Exception {
    java.util.concurrent.BlockingQueue<Runnable> executor =
        new java.util.concurrent.LinkedBlockingQueue<>();
    agent = Agent.builder(RuntimeEnvironment.getApplication(), configText(), events::add)
        .tokenStore(encryptedStore()).eventExecutor(executor::add)
        .client(client = TestClients.forConfig(configText(), time)).build();
    // The not-signed-in error comes once the token state reaches the Agent through the main thread.
    Runnable delivery = null;
    for (int round = 0; round < 1000 && delivery == null; round++) {
      mainLooper().idle();
      delivery = executor.poll(10, TimeUnit.MILLISECONDS);
    }
    assertThat(delivery).as("an event waits for its executor").isNotNull();
    List<AgentEvent> added = Collections.synchronizedList(new ArrayList<>());

    agent.addListener(added::add);
    delivery.run();

    assertThat(events).extracting(AgentEvent::eventType).containsExactly(EVENT_ERROR);
    assertThat(added).containsExactlyElementsOf(events);
  }

  @Test public void anAgentOnAManagerSignedInBeforeItWasMadeConnectsOnceWithoutADisconnect()
      throws Exception {
    client = TestClients.forConfig(configText(), time);
    // The manager's news waits in this queue until the test hands it over, as it may wait on a busy
    // main thread while the agent connects.
    java.util.concurrent.BlockingQueue<Runnable> managerNews =
        new java.util.concurrent.LinkedBlockingQueue<>();
    TokenManager shared = TokenManager.builder(client).deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new InMemoryTokenStore()).listenerExecutor(managerNews::add).build();
    shared.setRecord(record); // the app signed in before this screen made its Agent
    agent = Agent.builder(RuntimeEnvironment.getApplication(), configText(), events::add)
        .tokenSource(shared).client(client).build();
    time.awaitScheduled(1);
    awaitEvent(EVENT_CONNECTED_TO_SERVER, 0);

    // the news of the manager's state at the agent's start, then anything it led to
    for (Runnable news; (news = managerNews.poll()) != null; ) news.run();
    settle();

    assertThat(events).extracting(AgentEvent::eventType)
        .containsOnlyOnce(EVENT_CONNECTED_TO_SERVER).doesNotContain(EVENT_SERVER_DISCONNECTED);
    assertThat(server.journal().calls("/interact")).hasSize(1);
  }

  @Test public void aListenerRemovedByAnotherWhileAnEventIsToldDoesNotHearIt() throws Exception {
    List<AgentEvent> removed = Collections.synchronizedList(new ArrayList<>());
    AgentListener torndown = removed::add;
    agent = Agent.builder(RuntimeEnvironment.getApplication(), configText(), event -> {
      events.add(event);
      agent.removeListener(torndown); // a screen this event ends stops listening
    }).tokenStore(encryptedStore()).client(client = TestClients.forConfig(configText(), time))
        .build();
    agent.addListener(torndown);

    assertThat(awaitEvent(EVENT_ERROR, 0).arg1()).isEqualTo(ERROR_NOT_AUTHORIZED);
    mainLooper().idle();
    assertThat(removed).as("removed before its turn came").isEmpty();
  }

  @Test public void oneAgentSignsInOutAndInAgainFromTheMainThreadWithoutStoreIoThere()
      throws Exception {
    ThreadRecordingStore store = new ThreadRecordingStore(encryptedStore());
    createAgent(false, store);
    assertThat(awaitEvent(EVENT_ERROR, 0).arg1()).isEqualTo(ERROR_NOT_AUTHORIZED);
    Thread main = Looper.getMainLooper().getThread();
    assertThat(Thread.currentThread()).isSameAs(main);

    assertThat(signIn().kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    int signedIn = events.size();

    List<TokenManager.SignOut> signedOut = Collections.synchronizedList(new ArrayList<>());
    agent.signOut().enqueue(result -> signedOut.add(result.value()));
    awaitEvent(EVENT_SERVER_DISCONNECTED, signedIn);
    awaitOnMainThread(() -> !signedOut.isEmpty());
    assertThat(signedOut).containsExactly(TokenManager.SignOut.NOT_OFFERED);
    assertThat(agent.tokenManager().state()).isEqualTo(TokenManager.State.NO_TOKEN);

    assertThat(signIn().kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    settle();

    assertThat(store.calls).containsExactly("load", "save", "clear", "save");
    assertThat(store.threads).as("store calls on the main thread").doesNotContain(main);
    assertThat(server.journal().calls("/oauth/ivs/device_code")).as("the set-up's, then two sign-ins")
        .hasSize(3);
    assertThat(types()).containsSubsequence(EVENT_ERROR, EVENT_CONNECTED_TO_SERVER,
        EVENT_SERVER_DISCONNECTED, EVENT_CONNECTED_TO_SERVER);
    assertThat(onMainThread).containsOnly(true);
  }

  /**
   * Two screens, each with an Agent made as Agent.create makes it (its own client and token
   * manager) on the same store: a sign-in on one connects the other with its token, and a sign-out
   * on one disconnects the other, without either waiting for a command.
   */
  @Test public void agentsMadePerScreenOnOneStoreSignInAndOutTogether() throws Exception {
    java.io.File recordFile = new java.io.File(RuntimeEnvironment.getApplication()
        .getNoBackupFilesDir(), "agent-test");
    recordFile.delete();
    EncryptedTokenStoreTest.SoftwareAesKeys keys = new EncryptedTokenStoreTest.SoftwareAesKeys();
    createAgent(false, new EncryptedTokenStore(recordFile, keys, "agent", new java.security.SecureRandom()));
    List<AgentEvent> otherEvents = Collections.synchronizedList(new ArrayList<AgentEvent>());
    dev.voicelink.core.VoiceLinkClient otherClient = TestClients.forConfig(configText(), time);
    Agent other = Agent.builder(RuntimeEnvironment.getApplication(), configText(), otherEvents::add)
        .tokenStore(new EncryptedTokenStore(recordFile, keys, "agent", new java.security.SecureRandom()))
        .client(otherClient).build();
    try {
      assertThat(awaitEvent(EVENT_ERROR, 0).arg1()).isEqualTo(ERROR_NOT_AUTHORIZED);
      awaitOnMainThread(() -> typesOf(otherEvents).contains(EVENT_ERROR));

      DeviceFlowOutcome outcome = signIn();

      awaitOnMainThread(() -> typesOf(otherEvents).contains(EVENT_CONNECTED_TO_SERVER));
      assertThat(server.journal().calls("/interact")).extracting(call -> call.header("Authorization"))
          .containsOnly(outcome.token().accessToken()).hasSize(2);
      assertThat(other.tokenManager().record()).isEqualTo(outcome.token());

      agent.signOut().enqueue(result -> { });
      awaitOnMainThread(() -> typesOf(otherEvents).contains(EVENT_SERVER_DISCONNECTED));
      assertThat(other.tokenManager().state()).isEqualTo(TokenManager.State.NO_TOKEN);
      assertThat(typesOf(otherEvents)).containsExactly(EVENT_ERROR, EVENT_CONNECTED_TO_SERVER,
          EVENT_SERVER_DISCONNECTED);
    } finally {
      other.destroy();
      otherClient.close();
    }
  }

  /**
   * The stored record could not be read (its key out of reach, as a Keystore restarting says "no
   * key") and a later token request reads it again: the token manager has a token without a
   * sign-in, and the agent connects without waiting for a command.
   */
  @Test public void aLostRecordReadAgainConnectsWithoutACommand() throws Exception {
    java.io.File recordFile = new java.io.File(RuntimeEnvironment.getApplication()
        .getNoBackupFilesDir(), "agent-test");
    recordFile.delete();
    EncryptedTokenStoreTest.SoftwareAesKeys keys = new EncryptedTokenStoreTest.SoftwareAesKeys();
    EncryptedTokenStore store =
        new EncryptedTokenStore(recordFile, keys, "agent", new java.security.SecureRandom());
    store.save(record);
    javax.crypto.SecretKey key = keys.key;
    keys.key = null;
    ThreadRecordingStore recording = new ThreadRecordingStore(store);
    createAgent(false, recording);
    assertThat(awaitEvent(EVENT_ERROR, 0).arg1()).isEqualTo(ERROR_NOT_AUTHORIZED);
    assertThat(agent.tokenManager().state()).isEqualTo(TokenManager.State.REAUTHORIZATION_REQUIRED);
    // the first read, then the channel's attempt, whose token request reads the store again
    awaitOnMainThread(() -> {
      time.runDueTasks();
      synchronized (recording.calls) {
        return Collections.frequency(recording.calls, "load") >= 2;
      }
    });
    int before = events.size();

    keys.key = key; // the Keystore answers again
    java.util.concurrent.ExecutorService app = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      assertThat(app.submit(() -> agent.tokenManager().accessToken()).get(10, TimeUnit.SECONDS))
          .isEqualTo(record.accessToken());
    } finally {
      app.shutdownNow();
    }

    awaitEvent(EVENT_CONNECTED_TO_SERVER, before);
    assertThat(server.journal().calls("/interact")).extracting(call -> call.header("Authorization"))
        .containsExactly(record.accessToken());
  }

  private static List<Integer> typesOf(List<AgentEvent> events) {
    synchronized (events) {
      List<Integer> types = new ArrayList<>();
      for (AgentEvent event : events) {
        if (event.eventType() != EVENT_STATE) types.add(event.eventType());
      }
      return types;
    }
  }

  /**
   * A sign-in while connected with another credential (an account switch): the connection made with
   * the old token ends, and the agent connects again with the new one.
   */
  @Test public void aSignInWhileConnectedReconnectsWithTheNewToken() throws Exception {
    connect();
    int before = events.size();

    DeviceFlowOutcome outcome = signIn();

    assertThat(types().subList(before, events.size())).containsSubsequence(EVENT_SERVER_DISCONNECTED,
        EVENT_CONNECTED_TO_SERVER);
    assertThat(server.journal().calls("/interact")).extracting(call -> call.header("Authorization"))
        .containsExactly(record.accessToken(), outcome.token().accessToken());
  }

  /**
   * The config's {@code auth.interval_unit} reaches the Agent's sign-in: a server that writes 2000
   * below expires_in for 2 s is read as 2 s, the wait of each poll, not 33 minutes.
   */
  @Test public void theConfigsIntervalUnitReachesTheSignIn() throws Exception {
    MockWebServer auth = new MockWebServer();
    auth.enqueue(new MockResponse().setHeader("Content-Type", "application/json")
        .setBody("{\"verification_uri\":\"https://auth.example.com/verify\",\"user_code\":\"WDJB-MJHT\","
            + "\"interval\":2000,\"expires_in\":3600,\"device_code\":\"dc-1\"}"));
    auth.start();
    try {
      String config = "{\"login\":{\"appid\":\"" + DefaultConsole.APPID + "\"},\"server\":{"
          + "\"base_url\":\"" + server.baseUrl() + "\",\"auth_url\":\"" + auth.url("/") + "\"},"
          + "\"auth\":{\"client_id\":\"vl-speaker-01\",\"device_id\":\"SN-0001-DEMO\","
          + "\"interval_unit\":\"milliseconds\"}}";
      agent = Agent.builder(RuntimeEnvironment.getApplication(), config, events::add)
          .tokenStore(new InMemoryTokenStore()).client(client = TestClients.forConfig(config, time))
          .build();
      List<DeviceCode> codes = Collections.synchronizedList(new ArrayList<>());
      agent.signIn(codes::add).enqueue(result -> { });
      awaitOnMainThread(() -> !codes.isEmpty()); // the code came; the first poll waits

      assertThat(codes).hasSize(1);
      assertThat(codes.get(0).intervalMillis()).as("the wait of each poll").isEqualTo(2000);
    } finally {
      agent.destroy();
      client.close();
      auth.shutdown();
    }
  }

  @Test public void aSignInWithoutTheConfigsDeviceIdNamesTheKey() throws Exception {
    String config = configText().replace(", \"device_id\": \"" + DefaultConsole.DEVICE_ID + "\"", "");
    assertThat(config).doesNotContain("device_id");
    agent = Agent.builder(RuntimeEnvironment.getApplication(), config, events::add)
        .tokenStore(new InMemoryTokenStore()).client(client = TestClients.forConfig(config, time))
        .build();
    assertThatThrownBy(() -> agent.signIn(code -> { })).isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage("the config has no auth.device_id, which the platform's sign-in needs: add"
            + " \"auth\": {\"device_id\": \"<the device's id, as imported in the console>\"}");
  }

  /**
   * The screen rotates or stops while the user approves on a phone: on a shared client the sign-in
   * outlives destroy(), and the approval is saved for the next Agent; that one, not the destroyed one,
   * starts any new sign-in.
   */
  @Test public void aSignInOutlivesDestroyOnASharedClientAndItsApprovalIsKept() throws Exception {
    TokenStore store = encryptedStore();
    createAgent(false, store);
    settle();
    List<DeviceCode> codes = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<CallResult<DeviceFlowOutcome>> told = new AtomicReference<>();
    int scheduled = time.scheduledCount();
    agent.signIn(codes::add).enqueue(told::set);
    time.awaitScheduled(scheduled + 1); // the code came, the first poll waits
    mainLooper().idle();
    assertThat(codes).hasSize(1);

    agent.destroy();
    new SimulatedTester(server).approve(codes.get(0).userCode());
    time.advance(codes.get(0).intervalSeconds(), TimeUnit.SECONDS);
    awaitOnMainThread(() -> told.get() != null);

    assertThat(told.get().value().kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    assertThat(store.load()).as("saved for the next Agent").isEqualTo(told.get().value().token());
    assertThatThrownBy(() -> agent.signIn(codes::add)).isInstanceOf(IllegalStateException.class)
        .hasMessage("Agent was destroyed; create a new Agent to sign in");
  }

  /**
   * Signs the agent in from the main thread: the code is shown, the tester approves it, the first
   * poll's wait passes on the virtual clock; returns the outcome once the agent connected with it.
   */
  private DeviceFlowOutcome signIn() throws Exception {
    int before = events.size();
    List<DeviceCode> codes = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
    int scheduled = time.scheduledCount();
    agent.signIn(codes::add).enqueue(result -> outcome.set(result.value()));
    time.awaitScheduled(scheduled + 1); // the code came, the first poll waits
    mainLooper().idle();
    assertThat(codes).hasSize(1);
    new SimulatedTester(server).approve(codes.get(0).userCode());
    time.advance(codes.get(0).intervalSeconds(), TimeUnit.SECONDS);
    awaitEvent(EVENT_CONNECTED_TO_SERVER, before);
    assertThat(outcome.get()).as("told before the agent connected with it").isNotNull();
    return outcome.get();
  }

  /** Delivers what the main looper holds until {@code done}; 30 s at most, as {@link #awaitEvent}. */
  private void awaitOnMainThread(java.util.function.BooleanSupplier done) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("not done; saw " + events);
      mainLooper().idle();
      mainLooper().poll(10);
    }
  }

  @Test public void serverDroppingTheSocketIsADisconnectThenAReconnect() throws Exception {
    connect();
    int before = events.size();

    server.dropInteractionSessions();

    awaitEvent(EVENT_SERVER_DISCONNECTED, before);
    // The channel reconnects after a backoff jittered up to 1 s on the virtual clock: a step of the
    // whole second reaches it, also when it drew 0 ms and the settling already ran it.
    settle();
    server.clock().advance(1, TimeUnit.SECONDS);
    time.advance(1, TimeUnit.SECONDS);
    AgentEvent again = awaitEvent(EVENT_CONNECTED_TO_SERVER, before);
    assertThat(again.data().getString(KEY_UID)).matches("[a-z0-9]{32}");
    settle();
    assertThat(types().subList(before, events.size())).containsSubsequence(
        EVENT_SERVER_DISCONNECTED, EVENT_STATE, EVENT_CONNECTED_TO_SERVER, EVENT_STATE);
    assertThat(stateArgs()).containsSubsequence(STATE_READY, STATE_IDLE, STATE_READY);
    assertThat(onMainThread).containsOnly(true);
  }

  private static org.robolectric.shadows.ShadowConnectivityManager connectivity() {
    return Shadow.extract(RuntimeEnvironment.getApplication()
        .getSystemService(android.content.Context.CONNECTIVITY_SERVICE));
  }

  @Test public void networkLossDisconnectsAndItsReturnReconnects() throws Exception {
    connect();
    org.robolectric.shadows.ShadowConnectivityManager shadow = connectivity();
    assertThat(shadow.getNetworkCallbacks()).hasSize(1);
    android.net.ConnectivityManager.NetworkCallback callback =
        shadow.getNetworkCallbacks().iterator().next();
    android.net.Network wifi = org.robolectric.shadows.ShadowNetwork.newInstance(7);
    callback.onAvailable(wifi);
    int before = events.size();

    callback.onLost(wifi);

    awaitEvent(EVENT_SERVER_DISCONNECTED, before);
    settle();
    // Offline, nothing waits to reconnect (a reconnect scheduled now would also show only later).
    assertThat(time.pendingDelaysMillis()).as("no reconnect waits while offline").isEmpty();
    for (int i = 0; i < 120; i++) time.advance(1, TimeUnit.SECONDS);
    settle();
    assertThat(types().subList(before, events.size())).doesNotContain(EVENT_CONNECTED_TO_SERVER);

    int offline = events.size();
    callback.onAvailable(wifi);
    awaitEvent(EVENT_CONNECTED_TO_SERVER, offline); // a fresh channel: its first attempt is due at once

    agent.destroy();
    assertThat(shadow.getNetworkCallbacks()).isEmpty();
  }

  @Config(shadows = NetworkDuringRegistrationConnectivityManager.class)
  @Test public void aNetworkThatComesUpWhileTheAgentStartsIsFollowed() throws Exception {
    connect();
    org.robolectric.shadows.ShadowConnectivityManager shadow = connectivity();
    int before = events.size();

    // The network the callback heard of during the start goes: the Agent knows it had one.
    shadow.getNetworkCallbacks().iterator().next()
        .onLost(org.robolectric.shadows.ShadowNetwork.newInstance(1));

    awaitEvent(EVENT_SERVER_DISCONNECTED, before);
    agent.destroy();
  }

  @Config(shadows = NetworkLostDuringRegistrationConnectivityManager.class)
  @Test public void aNetworkLostWhileTheAgentStartsIsFollowedToo() throws Exception {
    createAgent();
    assertThat(agent.awaitEngineIdle(10, TimeUnit.SECONDS)).isTrue();

    // Offline, no attempt waits on the clock (one would be due at once, and fail ten times).
    assertThat(time.pendingDelaysMillis()).as("no attempt waits while offline").isEmpty();

    connectivity().getNetworkCallbacks().iterator().next()
        .onAvailable(org.robolectric.shadows.ShadowNetwork.newInstance(1));
    awaitEvent(EVENT_CONNECTED_TO_SERVER, 0);
    assertThat(types()).doesNotContain(EVENT_ERROR);
    agent.destroy();
  }

  @Test public void anAgentBuiltOnTheMainThreadReadsItsTokenStoreOnItsWorker() throws Exception {
    DiskWatchingContext app = new DiskWatchingContext(RuntimeEnvironment.getApplication());
    String building = Thread.currentThread().getName();

    agent = Agent.builder(app, configText(), events::add)
        .client(client = TestClients.forConfig(configText(), time)).build();
    settle();

    assertThat(app.awaitDiskCall(10, TimeUnit.SECONDS)).as("the default store was read").isTrue();
    assertThat(app.diskCalls()).as("the default store was read").isNotEmpty()
        .noneMatch(call -> call.endsWith(" on " + building));
    agent.destroy();
  }

  @Config(shadows = RefusingConnectivityManager.class)
  @Test public void anAgentWhoseNetworkCallbackIsRefusedStillConnects() throws Exception {
    connect();

    org.robolectric.shadows.ShadowConnectivityManager shadow = connectivity();
    assertThat(shadow.getNetworkCallbacks()).isEmpty();
    assertThat(org.robolectric.shadows.ShadowLog.getLogsForTag("VoiceLink")).anyMatch(log ->
        log.msg.startsWith("[VoiceLinkAgent] the network callback was refused (Too many"
            + " NetworkRequests filed): reconnecting ignores network changes"));
    agent.destroy();
  }

  /** Offline as it starts, with no callback to say when a network comes: it connects all the same. */
  @Config(shadows = RefusingConnectivityManager.class)
  @Test public void anAgentMadeOfflineWhoseNetworkCallbackIsRefusedStillConnects() throws Exception {
    connectivity().setActiveNetworkInfo(null);

    connect();

    assertThat(connectivity().getNetworkCallbacks()).isEmpty();
    agent.destroy();
  }

  @Test public void setParamsAppliesToLaterAudioWrites() throws Exception {
    connect();
    agent.sendMessage(contactsSync("c"));
    assertThat(awaitEvent(EVENT_CMD_RETURN, 0).arg2()).isEqualTo(0);
    server.clock().advance(5, TimeUnit.MINUTES);
    time.advance(5, TimeUnit.MINUTES);
    byte[] audio = new byte[3200];

    int before = events.size();
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=audio,sample_rate=16000", audio));
    AgentEvent plain = awaitEvent(EVENT_RESULT, before);
    assertThat(plain.info()).contains("老张").doesNotContain("OS123.contacts");

    agent.sendMessage(new AgentMessage(CMD_SET_PARAMS, 0, 0,
        "{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}", null));
    before = events.size();
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=audio,sample_rate=16000,tag=a2",
        audio));
    AgentEvent personal = awaitEvent(EVENT_RESULT, before);

    assertThat(personal.info()).contains("OS123.contacts").contains("张三");
    assertThat(personal.data().getString(KEY_TAG)).isEqualTo("a2");
    assertThat(personal.data().getString(KEY_DATA_TYPE)).isEqualTo("audio");
    assertThat(types()).doesNotContain(EVENT_ERROR);
  }

  /**
   * Connects, uploads, and sends a query (tag {@code q}) of that upload, which waits out the
   * platform's 10 s on the virtual clock. Returns the number of events before the query.
   */
  private int connectedWithAQueryWaiting() throws Exception {
    connect();
    agent.sendMessage(contactsSync("first"));
    String sid = awaitEvent(EVENT_CMD_RETURN, 0).data().getString(KEY_SID);
    int before = events.size();
    int scheduled = time.scheduledCount();
    agent.sendMessage(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"" + sid + "\",\"tag\":\"q\"}", null));
    time.awaitScheduled(scheduled + 1);
    return before;
  }

  @Test public void destroyMidFlightAnswersEveryPendingCommandOnce() throws Exception {
    int before = connectedWithAQueryWaiting();
    agent.sendMessage(contactsSync("second"));
    agent.sendMessage(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text,tag=w",
        "call 老张".getBytes(StandardCharsets.UTF_8)));

    agent.destroy();
    settle();
    time.advance(1, TimeUnit.MINUTES);
    settle();

    List<AgentEvent> after = new ArrayList<>(events.subList(before, events.size()));
    List<String> replies = new ArrayList<>();
    for (AgentEvent event : after) {
      if (event.eventType() == EVENT_CMD_RETURN) {
        replies.add(event.arg1() + ":" + event.data().getString(KEY_TAG));
      } else if ((event.eventType() == EVENT_RESULT || event.eventType() == EVENT_ERROR)
          && event.data().getInt(KEY_CMD) == CMD_WRITE) {
        replies.add("write:" + event.data().getString(KEY_TAG));
      }
    }
    assertThat(replies).containsExactlyInAnyOrder(CMD_QUERY_SYNC_STATUS + ":q", CMD_SYNC + ":second",
        "write:w");
    for (AgentEvent event : after) {
      if (event.eventType() == EVENT_CMD_RETURN && event.arg1() == CMD_QUERY_SYNC_STATUS) {
        assertThat(event.arg2()).isEqualTo(ERROR_DESTROYED);
      }
    }
  }

  @Test public void closingTheSharedClientDestroysTheAgentAndAnswersWhatIsPending() throws Exception {
    int before = connectedWithAQueryWaiting();

    client.close();
    settle();

    List<AgentEvent> after = new ArrayList<>(events.subList(before, events.size()));
    assertThat(after).hasSize(1);
    assertThat(after.get(0).eventType()).isEqualTo(EVENT_CMD_RETURN);
    assertThat(after.get(0).arg1()).isEqualTo(CMD_QUERY_SYNC_STATUS);
    assertThat(after.get(0).arg2()).isEqualTo(ERROR_DESTROYED);
    assertThat(after.get(0).data().getString(KEY_TAG)).isEqualTo("q");
    assertThatThrownBy(() -> agent.sendMessage(contactsSync("late")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Agent was destroyed; create a new Agent to send CMD_SYNC");
  }

  @Test public void closingTheSharedClientDuringAnUploadAnswersItDestroyedNotANetworkError()
      throws Exception {
    connect();
    CountDownLatch release = new CountDownLatch(1);
    server.faults().on(Endpoint.UPLOAD_RESOURCE, Fault.holdUntil(release).times(1));
    int calls = server.journal().size();
    int before = events.size();
    try {
      agent.sendMessage(contactsSync("held"));
      assertThat(server.journal().awaitSize(calls + 1, 10, TimeUnit.SECONDS))
          .as("the upload reached the server").isTrue();

      client.close();
      settle();
    } finally {
      release.countDown();
    }

    List<AgentEvent> after = new ArrayList<>(events.subList(before, events.size()));
    assertThat(after).hasSize(1);
    assertThat(after.get(0).eventType()).isEqualTo(EVENT_CMD_RETURN);
    assertThat(after.get(0).arg1()).isEqualTo(CMD_SYNC);
    assertThat(after.get(0).arg2()).as(after.get(0).info()).isEqualTo(ERROR_DESTROYED);
    assertThat(after.get(0).data().getString(KEY_TAG)).isEqualTo("held");
  }

  private List<Integer> types() {
    List<Integer> types = new ArrayList<>();
    synchronized (events) {
      for (AgentEvent event : events) types.add(event.eventType());
    }
    return types;
  }

  private List<Integer> stateArgs() {
    List<Integer> states = new ArrayList<>();
    synchronized (events) {
      for (AgentEvent event : events) {
        if (event.eventType() == EVENT_STATE) states.add(event.arg1());
      }
    }
    return states;
  }

  /**
   * The barrier before asserting that something did not happen: runs what is due on the virtual
   * clock and delivers what the main looper holds, until the Agent's worker and I/O threads are idle,
   * nothing more is posted to the main looper and nothing is due on the clock.
   */
  private void settle() throws InterruptedException {
    for (int round = 0; round < 100; round++) {
      time.runDueTasks();
      mainLooper().idle();
      assertThat(agent.awaitEngineIdle(10, TimeUnit.SECONDS)).as("the Agent's threads idle").isTrue();
      if (mainLooper().isIdle() && !time.pendingDelaysMillis().contains(0L)) return;
    }
    throw new AssertionError("the Agent kept working for 100 rounds; saw " + events);
  }

  /**
   * One explicit step of virtual time, on both clocks: once the Agent has settled, to the soonest
   * task waiting on the virtual clock, which runs.
   */
  private void advanceToNextTask() throws InterruptedException {
    settle();
    List<Long> delays = time.pendingDelaysMillis();
    assertThat(delays).as("a task waiting on the virtual clock").isNotEmpty();
    server.clock().advance(delays.get(0), TimeUnit.MILLISECONDS);
    time.advance(delays.get(0), TimeUnit.MILLISECONDS);
  }
}
