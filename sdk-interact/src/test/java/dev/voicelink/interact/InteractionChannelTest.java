package dev.voicelink.interact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.KotlinThrows;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.ClientCore;
import java.lang.ref.WeakReference;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InteractionChannelTest {
  private static final String UID = "0123456789abcdef0123456789abcdef";

  private final MockWebServer server = new MockWebServer();
  private final VirtualTime time = new VirtualTime();
  private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> serverReceived = new LinkedBlockingQueue<>();
  /** The detail of each disconnect the listener was told. */
  private final BlockingQueue<String> details = new LinkedBlockingQueue<>();
  private final List<String> invalidated = new ArrayList<>();
  private final String[] currentToken = {"at-1"};
  /** Thrown by the token source when set, checked or not, as a Kotlin one may. */
  private volatile Exception tokenFailure;
  private volatile Exception invalidateFailure;
  private InteractionChannel channel;

  @BeforeEach void setUp() throws Exception {
    server.start();
  }

  @AfterEach void tearDown() throws Exception {
    if (channel != null) channel.close();
    server.shutdown();
  }

  private InteractionChannel.Builder channelBuilder() {
    return channelBuilder(time);
  }

  private InteractionChannel.Builder channelBuilder(Scheduler scheduler) {
    return channelBuilder(VoiceLinkClient.builder().scheduler(scheduler));
  }

  private InteractionChannel.Builder channelBuilder(VoiceLinkClient.Builder client) {
    VoiceLinkClient config = client.baseUrl(server.url("/api").toString()).clock(time).build();
    TokenSource tokens = new TokenSource() {
      @Override public String accessToken() {
        if (tokenFailure != null) throw KotlinThrows.checked(tokenFailure);
        return currentToken[0];
      }

      @Override public void invalidate(String rejectedToken) {
        invalidated.add(rejectedToken);
        if (invalidateFailure != null) throw KotlinThrows.checked(invalidateFailure);
        currentToken[0] = "at-2";
      }
    };
    return InteractionChannel.builder(config, tokens)
        .random(new Random(7))
        .reconnectBackoff(1, 8, TimeUnit.SECONDS)
        .listener(new InteractionChannel.Listener() {
          @Override public void onConnected(String uid) {
            events.add("connected " + uid);
          }

          @Override public void onResult(InteractionResult result) {
            events.add("result " + result.seq() + " " + result.text() + " " + result.entities());
          }

          @Override public void onWriteError(int seq, String code, String description) {
            events.add("error " + seq + " " + code + " " + description);
          }

          @Override public void onDisconnected(Disconnect disconnect) {
            events.add("disconnected " + disconnect.cause() + " reconnecting="
                + disconnect.reconnecting());
            details.add(disconnect.detail());
          }
        });
  }

  /** A server socket that greets with the uid, records what it receives and answers writes. */
  private MockResponse greetingSocket() {
    return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
      }

      @Override public void onMessage(WebSocket webSocket, String text) {
        serverReceived.add(text);
        if (text.contains("\"data_type\":\"text\"")) {
          webSocket.send("{\"type\":\"result\",\"seq\":1,\"text\":\"call xiao zhang\",\"entities\":"
              + "[{\"res_name\":\"OS123.contacts\",\"value\":\"张三\",\"matched\":\"xiao zhang\"}]}");
        }
      }

      @Override public void onMessage(WebSocket webSocket, ByteString bytes) {
        serverReceived.add("binary " + bytes.size());
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }
    });
  }

  private String nextEvent() throws InterruptedException {
    String event = events.poll(10, TimeUnit.SECONDS);
    assertThat(event).as("an event within 10 s").isNotNull();
    return event;
  }

  private void connect() throws Exception {
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("connected " + UID);
  }

  @Test void connectsWithTheAccessTokenAndLearnsTheUser() throws Exception {
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    connect();
    assertThat(time.pendingDelaysMillis()).as("the greeting cancelled its deadline").isEmpty();

    RecordedRequest upgrade = server.takeRequest();
    assertThat(upgrade.getPath()).isEqualTo("/api/v2/voicelink/interact");
    assertThat(upgrade.getHeader("Authorization")).isEqualTo("at-1");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.CONNECTED);
    assertThat(channel.uid()).isEqualTo(UID);
  }

  @Test void textWriteCarriesPersParamAndItsResultComesBack() throws Exception {
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    connect();

    int seq = channel.writeText("call xiao zhang", "{\"uid\":\"\"}");

    assertThat(seq).isEqualTo(1);
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"type\":\"write\","
        + "\"data_type\":\"text\",\"text\":\"call xiao zhang\",\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\","
        + "\"seq\":1}");
    assertThat(nextEvent()).isEqualTo("result 1 call xiao zhang [OS123.contacts:张三 (\"xiao zhang\")]");
    assertThat(time.pendingDelaysMillis()).as("the result ended the write's deadline").isEmpty();
  }

  /**
   * A server socket that greets, records the text it receives and answers nothing; it is handed to
   * {@code sockets} for the test to answer or close. Once the first audio frame came, it reads no more
   * until {@code readAudio} opens.
   */
  private MockResponse keptGreetingSocket(BlockingQueue<WebSocket> sockets,
      CountDownLatch readAudio) {
    return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
        sockets.add(webSocket);
      }

      @Override public void onMessage(WebSocket webSocket, String text) {
        serverReceived.add(text);
      }

      @Override public void onMessage(WebSocket webSocket, ByteString bytes) {
        try {
          // Until released, the server reads no more: the client's bytes wait in its queue.
          readAudio.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }
    });
  }

  @Test void aWriteWithoutAnswerIsGivenUpOnAtTheResultTimeoutAndALateAnswerIsDropped()
      throws Exception {
    WebSocket serverSide = connectAndWriteOne();
    try (LogCapture log = LogCapture.install()) {
      assertThat(time.pendingDelaysMillis()).containsExactly(30_000L);
      time.advance(29_999, TimeUnit.MILLISECONDS);
      assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
      assertThat(events).as("no news before the deadline").isEmpty();

      time.advance(1, TimeUnit.MILLISECONDS);
      assertThat(nextEvent()).isEqualTo("error 1 result_timeout no result within 30 s of the write");
      assertThat(log.lines()).contains("WARN interact write 1: no result within 30 s of the write");

      serverSide.send("{\"type\":\"result\",\"seq\":1,\"text\":\"late\"}");
      assertThat(log.awaitLine(DROPPED_ANSWER_1, 10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.CONNECTED);
    assertThat(channel.writeText("again", null)).isEqualTo(2);
    serverSide.send("{\"type\":\"error\",\"seq\":2,\"code\":60002,\"desc\":\"bad\"}");
    assertThat(nextEvent()).as("the late result was never delivered").isEqualTo("error 2 60002 bad");
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  /**
   * A server may echo the upgrade's token in its texts (an error's desc, a member's name that Moshi's
   * message names, a close reason): the news,
   * the disconnect's detail and the logged frames carry it redacted.
   */
  @Test void aServerTextThatEchoesTheUpgradesTokenNamesItNowhere() throws Exception {
    String token = "at-echoed-0123456789";
    currentToken[0] = token;
    BlockingQueue<WebSocket> sockets = new LinkedBlockingQueue<>();
    server.enqueue(keptGreetingSocket(sockets, new CountDownLatch(0)));
    try (LogCapture log = LogCapture.install()) {
      channel = channelBuilder(VoiceLinkClient.builder().scheduler(time)
          .httpLogging(HttpLogLevel.BODY)).build();
      connect();
      WebSocket serverSide = sockets.poll(10, TimeUnit.SECONDS);
      assertThat(channel.writeText("call xiao zhang", null)).isEqualTo(1);
      assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).contains("\"seq\":1");

      serverSide.send("{\"type\":\"error\",\"seq\":1,\"code\":60002,\"desc\":\"token " + token
          + " lacks the scope\"}");
      assertThat(nextEvent()).isEqualTo("error 1 60002 token ‹redacted› lacks the scope");
      serverSide.send("{\"type\":\"error\",\"seq\":0,\"code\":60001,\"desc\":\"the session of "
          + token + " ends\"}");
      assertThat(nextEvent()).isEqualTo("error 0 60001 the session of ‹redacted› ends");
      serverSide.send("{\"type\":\"error\",\"seq\":0,\"code\":\"" + token + "\",\"desc\":\"x\"}");
      assertThat(nextEvent()).isEqualTo("error 0 ‹redacted› x");
      serverSide.send("{\"type\":\"error\",\"the session of " + token + "\" 1}");
      assertThat(nextEvent()).isEqualTo("error 0 " + InteractionChannel.MALFORMED_MESSAGE
          + " unreadable message from the server: Expected ':' at path $.the session of ‹redacted›");
      serverSide.close(4000, "bye " + token);
      assertThat(nextEvent()).isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=true");
      assertThat(details.poll(10, TimeUnit.SECONDS))
          .isEqualTo("closed by server (4000 bye ‹redacted›)");

      assertThat(log.text()).contains("frame <-- {\"type\":\"error\",\"seq\":1,\"code\":60002,"
          + "\"desc\":\"token ‹redacted› lacks the scope\"}").doesNotContain(token);
    }
  }

  /** Connects to a server that answers nothing by itself, writes text 1; the server's side of it. */
  private WebSocket connectAndWriteOne() throws Exception {
    BlockingQueue<WebSocket> sockets = new LinkedBlockingQueue<>();
    server.enqueue(keptGreetingSocket(sockets, new CountDownLatch(0)));
    channel = channelBuilder().build();
    connect();
    WebSocket serverSide = sockets.poll(10, TimeUnit.SECONDS);
    assertThat(channel.writeText("call xiao zhang", null)).isEqualTo(1);
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).contains("\"seq\":1");
    return serverSide;
  }

  private static final String DROPPED_ANSWER_1 = "INFO interact dropped an answer to write 1, which"
      + " waits for none: answered already, or after its result timeout";

  /** A server that refuses a write and then its end as well (an audio write): one answer is told. */
  @Test void aSecondAnswerToAWriteIsDroppedSoThatEachWriteIsAnsweredOnce() throws Exception {
    WebSocket serverSide = connectAndWriteOne();
    try (LogCapture log = LogCapture.install()) {
      serverSide.send("{\"type\":\"error\",\"seq\":1,\"code\":60002,\"desc\":\"no such dimension\"}");
      serverSide.send("{\"type\":\"error\",\"seq\":1,\"code\":60003,\"desc\":\"none is open\"}");

      assertThat(nextEvent()).isEqualTo("error 1 60002 no such dimension");
      assertThat(log.awaitLine(DROPPED_ANSWER_1, 10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(events).as("the second answer was never delivered").isEmpty();
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.CONNECTED);
  }

  @Test void aWriteStillBeingSentHasItsResultDeadlineStartAgain() throws Exception {
    BlockingQueue<WebSocket> sockets = new LinkedBlockingQueue<>();
    CountDownLatch readAudio = new CountDownLatch(1);
    server.enqueue(keptGreetingSocket(sockets, readAudio));
    channel = channelBuilder().resultTimeout(5, TimeUnit.SECONDS).build();
    connect();

    // 15 MiB that the server stops reading after the first frame: more than the socket buffers hold.
    channel.writeAudio(new byte[15 * 1024 * 1024], 16000, null);
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).contains("\"data_type\":\"audio\"");
    time.advance(5, TimeUnit.SECONDS);
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(events).as("still sending: no timeout").isEmpty();
    assertThat(time.pendingDelaysMillis()).as("the deadline starts again").containsExactly(5_000L);

    readAudio.countDown();
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"type\":\"end\",\"seq\":1}");
    time.advance(5, TimeUnit.SECONDS);
    assertThat(nextEvent()).isEqualTo("error 1 result_timeout no result within 5 s of the write");
  }

  /**
   * A text write the server never answers, then a long audio write still being sent behind it: the
   * text's wait ends at its timeout (its own bytes went out), while the audio's starts again.
   */
  @Test void aWriteSentWholeTimesOutThoughALaterOneStillFillsTheQueue() throws Exception {
    BlockingQueue<WebSocket> sockets = new LinkedBlockingQueue<>();
    CountDownLatch readAudio = new CountDownLatch(1);
    server.enqueue(keptGreetingSocket(sockets, readAudio));
    channel = channelBuilder().resultTimeout(5, TimeUnit.SECONDS).build();
    connect();
    try {
      channel.writeText("call xiao zhang", null);
      assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).contains("\"seq\":1");
      channel.writeAudio(new byte[15 * 1024 * 1024], 16000, null); // the server reads one frame only
      assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).contains("\"seq\":2");

      time.advance(5, TimeUnit.SECONDS);

      assertThat(nextEvent()).isEqualTo("error 1 result_timeout no result within 5 s of the write");
      assertThat(time.pendingDelaysMillis()).as("the audio's deadline starts again").containsExactly(5_000L);
    } finally {
      readAudio.countDown();
    }
  }

  @Test void aWriteLargerThanTheSendQueueIsRefusedBeforeAnythingIsSent() throws Exception {
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    connect();

    assertThatThrownBy(() -> channel.writeAudio(new byte[16 * 1024 * 1024], 16000, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("audio must fit the socket's send queue of 16777216 bytes with its messages;"
            + " this write is 16777302 bytes");

    channel.writeText("call xiao zhang", null);
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).as("the first frame sent").isEqualTo(
        "{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"call xiao zhang\",\"seq\":1}");
    assertThat(nextEvent()).startsWith("result 1 ");
  }

  @Test void aWriteThatDoesNotFitBehindEarlierOnesIsRefusedAndTheConnectionStays() throws Exception {
    BlockingQueue<WebSocket> sockets = new LinkedBlockingQueue<>();
    CountDownLatch readAudio = new CountDownLatch(1);
    server.enqueue(keptGreetingSocket(sockets, readAudio));
    channel = channelBuilder().build();
    connect();
    channel.writeAudio(new byte[15 * 1024 * 1024], 16000, null); // the server reads one frame only
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).contains("\"seq\":1");

    // OkHttp would close the socket rather than queue past 16 MiB; what the socket's buffers took
    // is no longer queued, so the second write is large enough for any loopback buffer size.
    assertThatThrownBy(() -> channel.writeAudio(new byte[15 * 1024 * 1024], 16000, null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageMatching("the socket still has \\d+ bytes to send, and this write of 15728726"
            + " bytes would overflow its queue of 16777216 bytes; wait for the results of earlier"
            + " writes");

    readAudio.countDown();
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"type\":\"end\",\"seq\":1}");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.CONNECTED);
    channel.writeAudio(new byte[4], 16000, null);
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).as("the refused write took no seq")
        .contains("\"seq\":2");
  }

  @Test void aClosedChannelLetsGoOfItsListenerThoughTheSocketIsStillHeld() throws Exception {
    BlockingQueue<WebSocket> serverSockets = new LinkedBlockingQueue<>();
    server.enqueue(greetingSocketThatNeverAnswersAClose(serverSockets));
    CountDownLatch connected = new CountDownLatch(1);
    InteractionChannel.Listener listener = new InteractionChannel.Listener() {
      @Override public void onConnected(String uid) {
        connected.countDown();
      }

      @Override public void onResult(InteractionResult result) {
      }
    };
    channel = channelBuilder().listener(listener).build();
    channel.connect();
    time.runDueTasks();
    assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
    WeakReference<InteractionChannel.Listener> released = new WeakReference<>(listener);
    listener = null;

    channel.close(); // offline, OkHttp would hold the socket for its 60 s close timeout
    for (int i = 0; i < 100 && released.get() != null; i++) {
      System.gc();
      Thread.yield();
    }
    assertThat(released.get()).as("the app's listener (an activity) is collectable").isNull();
    serverSockets.take().close(1000, null); // now the server answers, and the test server can stop
  }

  /** A server socket that greets, then never answers the client's close. */
  private static MockResponse greetingSocketThatNeverAnswersAClose(BlockingQueue<WebSocket> sockets) {
    return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        sockets.add(webSocket);
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
      }
    });
  }

  @Test void aTokenSourceThatThrowsACheckedExceptionAsKotlinCanIsALostAttemptNotAStall()
      throws Exception {
    tokenFailure = new Exception("keystore busy");
    channel = channelBuilder().build();

    channel.connect();
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected TOKEN_UNAVAILABLE reconnecting=true");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);
  }

  @Test void aTokenSourceThatReturnsNullIsALostAttemptNotAStall() throws Exception {
    currentToken[0] = null; // a lambda that breaks the contract, as Java and Kotlin code can
    List<Disconnect> heard = new CopyOnWriteArrayList<>();
    channel = channelBuilder().build();
    channel.addListener(new InteractionChannel.Listener() {
      @Override public void onResult(InteractionResult result) {
      }

      @Override public void onDisconnected(Disconnect disconnect) {
        heard.add(disconnect);
      }
    });

    channel.connect();
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected TOKEN_UNAVAILABLE reconnecting=true");
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(heard.get(0).detail()).isEqualTo("no access token: the token source returned null");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);
  }

  @Test void aTokenSourceWhoseInvalidateThrowsStillRetriesOnceAndConnects() throws Exception {
    invalidateFailure = new IllegalStateException("store busy");
    connectAfterARejectedToken();
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("at-1");
    assertThat(server.takeRequest().getHeader("Authorization")).as("the source kept it").isEqualTo("at-1");
  }

  /** A Kotlin token source's invalidate may throw a checked exception (a keystore's, say). */
  @Test void aTokenSourceWhoseInvalidateThrowsACheckedExceptionStillRetriesOnceAndConnects()
      throws Exception {
    invalidateFailure = new java.security.GeneralSecurityException("keystore locked");
    connectAfterARejectedToken();
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("at-1");
    assertThat(server.takeRequest().getHeader("Authorization")).as("the source kept it").isEqualTo("at-1");
  }

  @Test void audioWriteIsHeaderFramesAndEnd() throws Exception {
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    connect();

    channel.writeAudio(new byte[40 * 1024], 16000, null);

    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo(
        "{\"type\":\"write\",\"data_type\":\"audio\",\"sample_rate\":16000,\"seq\":1}");
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo("binary 16384");
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo("binary 16384");
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo("binary 8192");
    assertThat(serverReceived.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"type\":\"end\",\"seq\":1}");
  }

  /**
   * The server refuses an audio write's header (a pers_param key that is no resource's dimension, which
   * only it can tell), then each of its frames, which follow no open write, and its end: the app hears
   * the refusal once, and the channel goes on.
   */
  @Test void aRefusedAudioWriteIsToldOnceThoughTheServerRefusesEachOfItsFramesToo() throws Exception {
    server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
      }

      @Override public void onMessage(WebSocket webSocket, String text) {
        if (text.contains("\"data_type\":\"audio\"")) {
          webSocket.send("{\"type\":\"error\",\"seq\":1,\"code\":60002,\"desc\":\"planet is no"
              + " resource's dimension\"}");
        } else if (text.contains("\"type\":\"end\"")) {
          webSocket.send("{\"type\":\"error\",\"seq\":1,\"code\":60003,\"desc\":\"end must close"
              + " the open audio write; none is open\"}");
        } else {
          webSocket.send("{\"type\":\"result\",\"seq\":2,\"text\":\"hello\",\"entities\":[]}");
        }
      }

      @Override public void onMessage(WebSocket webSocket, ByteString bytes) {
        webSocket.send("{\"type\":\"error\",\"code\":60003,\"desc\":\"binary frames must follow"
            + " an audio write\"}");
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }
    }));
    channel = channelBuilder().build();
    connect();

    channel.writeAudio(new byte[40 * 1024], 16000, "{\"planet\":\"mars\"}");
    channel.writeText("hello", null);

    assertThat(nextEvent()).isEqualTo("error 1 60002 planet is no resource's dimension");
    assertThat(nextEvent()).isEqualTo("result 2 hello []");
    assertThat(events.poll(200, TimeUnit.MILLISECONDS)).as("nothing more").isNull();
  }

  /** A server that takes the upgrade and never speaks; it answers the client's close. */
  private static MockResponse silentSocket() {
    return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }
    });
  }

  @Test void aServerThatUpgradesButNeverGreetsIsGivenUpOnAtTheGreetingTimeoutAndRetried()
      throws Exception {
    server.enqueue(silentSocket());
    server.enqueue(greetingSocket());
    try (LogCapture log = LogCapture.install()) {
      channel = channelBuilder().build();
      channel.connect();
      time.runDueTasks();
      assertThat(log.awaitLine("INFO interact interaction socket open; waiting up to 10 s for the"
          + " server's \"connected\" message", 10, TimeUnit.SECONDS)).isTrue();
      assertThat(time.pendingDelaysMillis()).containsExactly(10_000L);

      time.advance(9_999, TimeUnit.MILLISECONDS);
      assertThat(channel.state()).isEqualTo(InteractionChannel.State.CONNECTING);
      assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
      assertThat(events).as("no news before the deadline").isEmpty();

      time.advance(1, TimeUnit.MILLISECONDS);
      assertThat(nextEvent()).isEqualTo("disconnected PROTOCOL reconnecting=true");
      assertThat(log.lines()).contains("INFO interact interaction channel lost: no \"connected\""
          + " message within 10 s of the upgrade; reconnecting");
      assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);
      long delay = time.pendingDelaysMillis().get(0);
      assertThat(delay).isBetween(0L, 1000L); // the first reconnect's backoff, as after any loss
      time.advance(delay, TimeUnit.MILLISECONDS);

      assertThat(nextEvent()).isEqualTo("connected " + UID);
      assertThat(server.getRequestCount()).isEqualTo(2);
      assertThat(time.pendingDelaysMillis()).as("the greeting cancelled its deadline").isEmpty();
    }
  }

  @Test void closingBeforeTheUpgradeIsAnsweredCancelsTheUpgrade() throws Exception {
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
    CountDownLatch noCallLeft = new CountDownLatch(1);
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setIdleCallback(noCallLeft::countDown);
    OkHttpClient app = new OkHttpClient.Builder().dispatcher(dispatcher).readTimeout(0, TimeUnit.SECONDS)
        .build();
    channel = channelBuilder(VoiceLinkClient.builder().httpClient(app).scheduler(time))
        .greetingTimeout(1, TimeUnit.DAYS).build();
    channel.connect();
    time.runDueTasks();
    assertThat(server.takeRequest(10, TimeUnit.SECONDS)).as("the upgrade request").isNotNull();
    assertThat(dispatcher.runningCallsCount()).isEqualTo(1);

    channel.close();

    // A close frame queued on a socket still upgrading would leave the call waiting for its answer.
    assertThat(noCallLeft.await(10, TimeUnit.SECONDS)).as("the upgrade call ended").isTrue();
    assertThat(events).isEmpty();
  }

  @Test void anUnansweredUpgradeEndsAtTheGreetingTimeoutWhenTheAppsClientHasNoReadTimeout()
      throws Exception {
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
    OkHttpClient app = new OkHttpClient.Builder().readTimeout(0, TimeUnit.SECONDS).build();
    // OkHttp's read timeout runs on real time: a short greeting timeout keeps the test short.
    channel = channelBuilder(VoiceLinkClient.builder().httpClient(app).scheduler(time))
        .greetingTimeout(300, TimeUnit.MILLISECONDS).maxReconnectAttempts(0).build();
    channel.connect();
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected NETWORK reconnecting=false");
    assertThat(app.readTimeoutMillis()).as("the app's client").isZero();
  }

  /**
   * The server stops reading mid-write: the socket's buffers fill and the write blocks, and the pings
   * wait behind it. An app client without a write timeout would keep the channel CONNECTED for good.
   */
  @Test void aWriteThatStallsEndsTheConnectionWhenTheAppsClientHasNoWriteTimeout() throws Exception {
    CountDownLatch serverReads = new CountDownLatch(1);
    server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
      }

      @Override public void onMessage(WebSocket webSocket, ByteString bytes) {
        try {
          serverReads.await(30, TimeUnit.SECONDS); // its reader stops: nothing more is taken
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }
    }));
    OkHttpClient app = new OkHttpClient.Builder().writeTimeout(0, TimeUnit.SECONDS).build();
    // OkHttp's write timeout runs on real time: a short ping interval keeps the test short.
    channel = channelBuilder(VoiceLinkClient.builder().httpClient(app).scheduler(time))
        .pingIntervalSeconds(1).maxReconnectAttempts(0).build();
    try {
      connect();

      channel.writeAudio(new byte[15 * 1024 * 1024], 16000, null);

      assertThat(nextEvent()).isEqualTo("disconnected NETWORK reconnecting=false");
      assertThat(app.writeTimeoutMillis()).as("the app's client").isZero();
    } finally {
      serverReads.countDown();
    }
  }

  @Test void theGreetingTimeoutCanBeSetAndIsCheckedAtOnce() throws Exception {
    server.enqueue(silentSocket());
    channel = channelBuilder().greetingTimeout(2500, TimeUnit.MILLISECONDS)
        .maxReconnectAttempts(0).build();
    try (LogCapture log = LogCapture.install()) {
      channel.connect();
      time.runDueTasks();
      assertThat(log.awaitLine("INFO interact interaction socket open; waiting up to 2500 ms for"
          + " the server's \"connected\" message", 10, TimeUnit.SECONDS)).isTrue();
      time.advance(2500, TimeUnit.MILLISECONDS);
      assertThat(nextEvent()).isEqualTo("disconnected PROTOCOL reconnecting=false");
      assertThat(log.lines()).contains("INFO interact interaction channel lost: no \"connected\""
          + " message within 2500 ms of the upgrade; giving up");
    }
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.DISCONNECTED);
    assertThat(time.pendingDelaysMillis()).isEmpty();

    assertThatThrownBy(() -> channelBuilder().greetingTimeout(0, TimeUnit.SECONDS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("greetingTimeout must be positive; was: 0");
    assertThatThrownBy(() -> channelBuilder().greetingTimeout(1, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unit must not be null");
    assertThatThrownBy(() -> channelBuilder().resultTimeout(-1, TimeUnit.SECONDS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resultTimeout must be positive; was: -1");
    // a delay shorter than the backoff's millisecond is one millisecond, not a failure at build()
    InteractionChannel clamped = channelBuilder().reconnectBackoff(500, 2000, TimeUnit.MICROSECONDS)
        .build();
    assertThat(clamped.state()).isEqualTo(InteractionChannel.State.IDLE);
    clamped.close();
  }

  @Test void anUnreadableFirstMessageEndsTheAttemptAtOnce() throws Exception {
    server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("<html>gateway</html>");
      }
    }));
    server.enqueue(greetingSocket());
    List<Disconnect> heard = new CopyOnWriteArrayList<>();
    channel = channelBuilder().listener(new InteractionChannel.Listener() {
      @Override public void onResult(InteractionResult result) {
      }

      @Override public void onConnected(String uid) {
        events.add("connected " + uid);
      }

      @Override public void onDisconnected(Disconnect disconnect) {
        heard.add(disconnect);
        events.add("disconnected");
      }
    }).build();
    channel.connect();
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected");
    assertThat(heard.get(0).cause()).isEqualTo(Disconnect.Cause.PROTOCOL);
    assertThat(heard.get(0).detail()).startsWith("unreadable first message from the server: ");
    assertThat(heard.get(0).reconnecting()).isTrue();
    // no deadline is left behind: only the reconnect waits
    assertThat(time.pendingDelaysMillis()).hasSize(1);
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);
  }

  /**
   * A first message that is not a greeting naming an auth_id ends the attempt at once, as an
   * unreadable one does; nothing of it reaches the listener as news of a write.
   */
  @Test void aFirstMessageThatIsNotAGreetingWithAnAuthIdEndsTheAttemptAtOnce() throws Exception {
    assertThat(firstMessageEnds("{\"type\":\"error\",\"seq\":null,\"code\":60001,\"desc\":\"x\"}"))
        .isEqualTo("PROTOCOL: the server's first message is \"error\", not \"connected\"");
    assertThat(firstMessageEnds("{\"type\":\"result\",\"seq\":1,\"text\":\"t\"}"))
        .isEqualTo("PROTOCOL: the server's first message is \"result\", not \"connected\"");
    assertThat(firstMessageEnds("{\"type\":\"hello\"}"))
        .isEqualTo("PROTOCOL: the server's first message is \"hello\", not \"connected\"");
    assertThat(firstMessageEnds("{\"type\":\"connected\",\"uid\":\"User-42\"}"))
        .isEqualTo("PROTOCOL: unreadable first message from the server: connected message whose uid"
            + " is not an auth_id (auth_id must be 32 lowercase letters or digits; was 7 characters)");
  }

  /** The cause and detail of the attempt that a server answering {@code first} ended; nothing else told. */
  private String firstMessageEnds(String first) throws Exception {
    events.clear();
    server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send(first);
      }
    }));
    List<Disconnect> heard = new CopyOnWriteArrayList<>();
    InteractionChannel one = channelBuilder().listener(new InteractionChannel.Listener() {
      @Override public void onResult(InteractionResult result) {
        events.add("result " + result.seq());
      }

      @Override public void onWriteError(int seq, String code, String description) {
        events.add("error " + seq + " " + code);
      }

      @Override public void onDisconnected(Disconnect disconnect) {
        heard.add(disconnect);
        events.add("disconnected");
      }
    }).build();
    try {
      one.connect();
      time.runDueTasks();
      assertThat(nextEvent()).isEqualTo("disconnected");
      assertThat(heard.get(0).reconnecting()).isTrue();
      assertThat(time.pendingDelaysMillis()).as("no greeting deadline left: only the reconnect").hasSize(1);
      assertThat(one.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
      assertThat(events).as("nothing else told").isEmpty();
      return heard.get(0).cause() + ": " + heard.get(0).detail();
    } finally {
      one.close();
    }
  }

  @Test void writingBeforeConnectedIsRefusedAtOnce() {
    channel = channelBuilder().build();
    assertThatThrownBy(() -> channel.writeText("hello", null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the interaction channel is not connected (state IDLE); wait for onConnected");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aPersParamThatIsNotAnActivationTextIsRefusedBeforeAnything() {
    channel = channelBuilder().build();
    assertThatThrownBy(() -> channel.writeText("hello", "{uid:}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pers_param must be the text of a JSON object such as {\"uid\":\"\"}; was: {uid:}");
    assertThatThrownBy(() -> channel.writeText("hello", "[\"uid\"]"))
        .hasMessage("pers_param must be the text of a JSON object such as {\"uid\":\"\"}; was: [\"uid\"]");
    assertThatThrownBy(() -> channel.writeAudio(new byte[2], 16000, "{\"uid\":1}"))
        .hasMessage("pers_param.uid must be a string; was a number");
    assertThatThrownBy(() -> channel.writeText("hello", "{\"uid\":\"\"} {}"))
        .hasMessage("pers_param must be the text of a JSON object such as {\"uid\":\"\"};"
            + " was: {\"uid\":\"\"} {}");
    // Well-formed JSON that the platform would refuse only later, with an error event
    // (docs/interaction-channel.md#errors).
    assertThatThrownBy(() -> channel.writeText("hello", "{}"))
        .hasMessage("pers_param must name at least one level (appid, uid or a custom dimension):"
            + " an empty one activates nothing");
    assertThatThrownBy(() -> channel.writeText("hello", "{\"uid\":\"\",\"family\":\"\"}"))
        .hasMessage("pers_param.family must not be empty: it names the group that owns the data");
    assertThatThrownBy(() -> channel.writeAudio(new byte[2], 16000, "{\"uid\":\"BAD\"}"))
        .hasMessage("pers_param.uid must be empty (the platform fills it in) or an auth_id of 32"
            + " lowercase letters or digits; was 3 characters");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void reconnectsAfterTheServerDropsTheSocket() throws Exception {
    server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
        webSocket.close(1001, "going away");
      }
    }));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    connect();
    assertThat(nextEvent()).isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=true");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);

    long delay = time.pendingDelaysMillis().get(0);
    assertThat(delay).isBetween(0L, 1000L); // first reconnect: full jitter up to the 1 s base
    time.advance(delay, TimeUnit.MILLISECONDS);

    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  /** The server closes the next socket of {@code sockets}. */
  private static void serverCloses(BlockingQueue<WebSocket> sockets) throws InterruptedException {
    WebSocket serverSide = sockets.poll(10, TimeUnit.SECONDS);
    assertThat(serverSide).as("a server socket within 10 s").isNotNull();
    serverSide.close(1001, "going away");
  }

  /**
   * Connects a channel that reconnects at most {@code maxReconnectAttempts} times in a row to a server
   * whose next {@code greetings} sockets greet and stay open; the server's side of each comes out of
   * the queue.
   */
  private BlockingQueue<WebSocket> connectToGreetingSockets(int maxReconnectAttempts, int greetings) {
    BlockingQueue<WebSocket> sockets = new LinkedBlockingQueue<>();
    for (int i = 0; i < greetings; i++) server.enqueue(keptGreetingSocket(sockets, new CountDownLatch(0)));
    channel = channelBuilder().maxReconnectAttempts(maxReconnectAttempts).build();
    channel.connect();
    time.runDueTasks();
    return sockets;
  }

  @Test void aServerThatGreetsAndDropsAtOnceIsGivenUpOnAfterTheBoundedAttempts() throws Exception {
    BlockingQueue<WebSocket> sockets = connectToGreetingSockets(2, 3);

    for (int attempt = 1; attempt <= 2; attempt++) {
      assertThat(nextEvent()).isEqualTo("connected " + UID);
      serverCloses(sockets); // no time has passed since the greeting
      assertThat(nextEvent()).isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=true");
      long delay = time.pendingDelaysMillis().get(0);
      assertThat(delay).as("the backoff grows: the greeting did not end the row")
          .isBetween(0L, 1_000L << (attempt - 1));
      time.advance(delay, TimeUnit.MILLISECONDS);
    }
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    serverCloses(sockets);
    assertThat(nextEvent()).isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=false");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.DISCONNECTED);
    assertThat(time.pendingDelaysMillis()).isEmpty();
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test void aConnectionThatStayedUpTenSecondsEndsTheRowOfFailedAttempts() throws Exception {
    // One attempt is allowed in a row: a second failed one in the same row gives up.
    BlockingQueue<WebSocket> sockets = connectToGreetingSockets(1, 3);
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    time.advance(9_999, TimeUnit.MILLISECONDS);
    serverCloses(sockets);
    assertThat(nextEvent()).isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=true");
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);

    time.advance(10, TimeUnit.SECONDS);
    serverCloses(sockets);
    assertThat(nextEvent()).as("10 s up made this one a new row")
        .isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=true");
    long delay = time.pendingDelaysMillis().get(0);
    assertThat(delay).as("the first ceiling again").isBetween(0L, 1_000L);
    time.advance(delay, TimeUnit.MILLISECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);

    time.advance(9_999, TimeUnit.MILLISECONDS);
    serverCloses(sockets);
    assertThat(nextEvent()).as("the second of this row: 9.999 s up is a failed attempt")
        .isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=false");
  }

  @Test void aProxyThatClosesQuietConnectionsAfterTwentySecondsNeverMakesTheChannelGiveUp() throws Exception {
    // One attempt is allowed in a row: were an idle close a failed attempt, the second would give up.
    BlockingQueue<WebSocket> sockets = connectToGreetingSockets(1, 4);
    for (int connection = 1; connection <= 3; connection++) {
      assertThat(nextEvent()).isEqualTo("connected " + UID);
      time.advance(20, TimeUnit.SECONDS);
      serverCloses(sockets);
      assertThat(nextEvent()).isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=true");
      long delay = time.pendingDelaysMillis().get(0);
      assertThat(delay).as("connection %s: back within the first ceiling", connection).isBetween(0L, 1_000L);
      time.advance(delay, TimeUnit.MILLISECONDS);
    }
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @Test void eachDisconnectTellsTheLastWriteMadeBeforeIt() throws Exception {
    BlockingQueue<WebSocket> sockets = connectToGreetingSockets(5, 3);
    List<Integer> lastSeqs = new CopyOnWriteArrayList<>();
    channel.addListener(new InteractionChannel.Listener() {
      @Override public void onResult(InteractionResult result) {
      }

      @Override public void onDisconnected(Disconnect disconnect) {
        lastSeqs.add(disconnect.lastSeq());
      }
    });
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(channel.writeText("one", null)).isEqualTo(1);
    assertThat(channel.writeText("two", null)).isEqualTo(2);

    for (int connection = 1; connection <= 3; connection++) {
      serverCloses(sockets);
      assertThat(nextEvent()).isEqualTo("disconnected CLOSED_BY_SERVER reconnecting=true");
      if (connection == 3) break;
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      assertThat(nextEvent()).isEqualTo("connected " + UID);
      // a write on the second connection only: the third ends with none made on it
      if (connection == 1) assertThat(channel.writeText("three", null)).isEqualTo(3);
    }

    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(lastSeqs).containsExactly(2, 3, 3);
  }

  @Test void givesUpAfterTheBoundedNumberOfAttempts() throws Exception {
    for (int i = 0; i < 4; i++) server.enqueue(new MockResponse().setResponseCode(503));
    channel = channelBuilder().maxReconnectAttempts(3).build();
    channel.connect();
    time.runDueTasks();

    for (int attempt = 1; attempt <= 3; attempt++) {
      assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");
      long ceiling = Math.min(8_000L, 1_000L << (attempt - 1));
      long delay = time.pendingDelaysMillis().get(0);
      assertThat(delay).isBetween(0L, ceiling);
      time.advance(delay, TimeUnit.MILLISECONDS);
    }
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=false");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.DISCONNECTED);
    assertThat(time.pendingDelaysMillis()).isEmpty();
    assertThat(server.getRequestCount()).isEqualTo(4); // the first try + 3 reconnects, no more
  }

  @Test void aRefusedUpgradeWithRetryAfterIsRetriedNoSoonerUpToTheCap() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "5"));
    server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "3600"));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    BlockingQueue<Disconnect> heard = new LinkedBlockingQueue<>();
    channel.addListener(new InteractionChannel.Listener() {
      @Override public void onResult(InteractionResult result) {
      }

      @Override public void onDisconnected(Disconnect disconnect) {
        heard.add(disconnect);
      }
    });
    channel.connect();
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");
    assertThat(time.pendingDelaysMillis()).containsExactly(5_000L); // jitter alone would be ≤ 1 s
    Disconnect first = heard.poll(10, TimeUnit.SECONDS);
    assertThat(first.retryAfterMillis()).isEqualTo(5_000L);
    assertThat(first).hasToString("Disconnect{UPGRADE_REFUSED: HTTP 503 on upgrade, reconnecting,"
        + " last seq 0, retry after 5000 ms}");
    time.advance(5, TimeUnit.SECONDS);
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");
    assertThat(time.pendingDelaysMillis()).containsExactly(8_000L); // an hour asked, the 8 s cap
    assertThat(heard.poll(10, TimeUnit.SECONDS).retryAfterMillis()).isEqualTo(8_000L);
    time.advance(8, TimeUnit.SECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test void aConnectAfterGivingUpWaitsOutTheLastRefusalsRetryAfter() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "5"));
    server.enqueue(greetingSocket());
    channel = channelBuilder().maxReconnectAttempts(0).build();
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=false");

    channel.connect();

    assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);
    assertThat(time.pendingDelaysMillis()).containsExactly(5_000L);
    time.advance(4_999, TimeUnit.MILLISECONDS);
    assertThat(server.getRequestCount()).isEqualTo(1);
    time.advance(1, TimeUnit.MILLISECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void rejectedTokenIsInvalidatedAndRetriedOnceWithTheNewOne() throws Exception {
    connectAfterARejectedToken();
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("at-1");
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("at-2");
  }

  /** A server that refuses the first upgrade with a 401 and greets the next: the channel connects. */
  private void connectAfterARejectedToken() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    time.awaitScheduled(2);
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(invalidated).containsExactly("at-1");
  }

  @Test void anUpgradeIsNotRedirectedNorAnsweredByTheAppsAuthenticator() throws Exception {
    MockWebServer elsewhere = new MockWebServer();
    AtomicInteger authenticatorCalls = new AtomicInteger();
    OkHttpClient app = new OkHttpClient.Builder().authenticator((route, response) -> {
      authenticatorCalls.incrementAndGet();
      return response.request().newBuilder().header("Authorization", "app-token").build();
    }).build();
    List<String> details = new CopyOnWriteArrayList<>();
    elsewhere.enqueue(greetingSocket()); // a redirect followed connects there at once
    try {
      server.enqueue(new MockResponse().setResponseCode(307)
          .setHeader("Location", elsewhere.url("/interact").toString()));
      server.enqueue(new MockResponse().setResponseCode(401));
      server.enqueue(new MockResponse().setResponseCode(401));
      channel = channelBuilder(VoiceLinkClient.builder().scheduler(time).httpClient(app))
          .listener(new InteractionChannel.Listener() {
            @Override public void onResult(InteractionResult result) {
              events.add("result " + result.seq());
            }

            @Override public void onDisconnected(Disconnect disconnect) {
              details.add(disconnect.cause() + ": " + disconnect.detail());
              events.add("disconnected " + disconnect.cause());
            }
          }).build();
      channel.connect();
      time.runDueTasks();
      assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED");
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      time.awaitScheduled(3); // the first attempt, the reconnect, the retry after the 401
      time.runDueTasks();
      assertThat(nextEvent()).isEqualTo("disconnected TOKEN_REFUSED");

      assertThat(details).containsExactly("UPGRADE_REFUSED: HTTP 307, a redirect: interaction"
          + " channel upgrades are not sent on to another address, as the user's speech and text"
          + " would go with them; configure the address the server names",
          "TOKEN_REFUSED: the server rejected the access token (HTTP 401)");
      assertThat(elsewhere.getRequestCount()).isZero();
      assertThat(authenticatorCalls).hasValue(0);
      assertThat(server.getRequestCount()).isEqualTo(3); // the redirect, the 401, one retry
    } finally {
      elsewhere.shutdown();
    }
  }

  @Test void secondRejectionIsFinal() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(new MockResponse().setResponseCode(401));
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    time.awaitScheduled(2);
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected TOKEN_REFUSED reconnecting=false");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void pausedChannelWaitsForResume() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");

    // The reconnect is scheduled before the news is delivered: pausing must cancel it.
    assertThat(time.pendingDelaysMillis()).as("the reconnect waits").hasSize(1);
    channel.pauseReconnecting();
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.PAUSED);
    assertThat(time.pendingDelaysMillis()).as("no reconnect is left to run").isEmpty();
    time.advance(10, TimeUnit.MINUTES);
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.PAUSED);
    assertThat(server.getRequestCount()).isEqualTo(1);

    channel.resumeReconnecting();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("connected " + UID);
  }

  /**
   * The network came back, not the server: a resume after a refusal with Retry-After waits out what
   * is left of the server's wait, as the reconnect the pause called off would have.
   */
  @Test void aResumeWaitsOutTheRetryAfterOfTheRefusalBeforeThePause() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "5"));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");
    channel.pauseReconnecting(); // the network went
    time.advance(2, TimeUnit.SECONDS);

    channel.resumeReconnecting(); // and came back

    assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);
    assertThat(time.pendingDelaysMillis()).containsExactly(3_000L);
    time.advance(3, TimeUnit.SECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  /** What an app that replaces a refused channel reads, so that the new one keeps the server's wait. */
  @Test void theServersWaitIsWhatIsLeftOfTheRetryAfterStillAfterCloseAndNoneOnceConnected()
      throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "5"));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    assertThat(channel.serverWaitMillis()).isZero();
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");
    assertThat(channel.serverWaitMillis()).isEqualTo(5_000L);
    time.advance(2, TimeUnit.SECONDS);
    assertThat(channel.serverWaitMillis()).isEqualTo(3_000L);
    time.advance(3, TimeUnit.SECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(channel.serverWaitMillis()).as("the server took the channel").isZero();

    server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "7"));
    InteractionChannel refused = channelBuilder().build();
    refused.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");
    refused.close();
    time.advance(1, TimeUnit.SECONDS);
    assertThat(refused.serverWaitMillis()).as("after close").isEqualTo(6_000L);
  }

  @Test void aReconnectAlreadyFallingDueWhenPausedDoesNotConnect() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503));
    server.enqueue(greetingSocket());
    List<Runnable> scheduled = new CopyOnWriteArrayList<>();
    Scheduler recording = (task, delay, unit) -> {
      scheduled.add(task);
      return time.schedule(task, delay, unit);
    };
    channel = channelBuilder(recording).build();
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("disconnected UPGRADE_REFUSED reconnecting=true");
    Runnable reconnect = scheduled.get(scheduled.size() - 1);

    channel.pauseReconnecting();
    reconnect.run(); // it fell due and reached a worker just before the pause could cancel it

    assertThat(channel.state()).isEqualTo(InteractionChannel.State.PAUSED);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /** Builds {@link #channel} on {@code tokens}, connects it, and returns what it hears of disconnects. */
  /** Connects, and returns what the listener hears of disconnects: the attempt runs on a worker. */
  private BlockingQueue<Disconnect> connectHearingDisconnects(VoiceLinkClient config,
      TokenSource tokens) {
    BlockingQueue<Disconnect> heard = new LinkedBlockingQueue<>();
    InteractionChannel.Listener listener = new InteractionChannel.Listener() {
      @Override public void onResult(InteractionResult result) {
      }

      @Override public void onDisconnected(Disconnect disconnect) {
        heard.add(disconnect);
      }
    };
    // a seeded jitter: an unseeded one draws a reconnect at 0 ms about once in 1,001 runs, and
    // runDueTasks() would run it at once
    channel = InteractionChannel.builder(config, tokens).random(new Random(7)).listener(listener)
        .build();
    channel.connect();
    time.runDueTasks();
    return heard;
  }

  @Test void aTokenSourceWithoutATokenEndsTheAttemptsAsNotSignedIn() throws Exception {
    VoiceLinkClient config = VoiceLinkClient.builder()
        .authUrl(server.url("/auth").toString())
        .baseUrl(server.url("/api").toString()).clock(time).scheduler(time).build();
    TokenManager nothingStored = TokenManager.builder(config).store(new InMemoryTokenStore()).build();
    BlockingQueue<Disconnect> heard = connectHearingDisconnects(config, nothingStored);

    Disconnect disconnect = heard.poll(10, TimeUnit.SECONDS);
    assertThat(disconnect).isEqualTo(new Disconnect(Disconnect.Cause.NOT_SIGNED_IN,
        "no access token: not_signed_in: no token is stored: sign in first (TokenManager.signIn),"
            + " or give a record to TokenManager.setRecord", false, 0, 0));
    assertThat(disconnect.cause().needsAuthorization()).isTrue();
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(heard).isEmpty();
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.DISCONNECTED);
    assertThat(time.pendingDelaysMillis()).isEmpty();
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aTokenThatCannotBeAHeaderValueEndsTheAttemptAndTheChannelTriesAgain() throws Exception {
    VoiceLinkClient config = VoiceLinkClient.builder()
        .baseUrl(server.url("/api").toString()).clock(time).scheduler(time).build();
    BlockingQueue<Disconnect> heard = connectHearingDisconnects(config, () -> "at-1\n");

    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo(new Disconnect(
        Disconnect.Cause.TOKEN_UNAVAILABLE, "the access token cannot be sent in a header:"
            + " Unexpected char 0x0a at 4 in Authorization value", true, 0, 0));
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(heard).isEmpty();
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);
    assertThat(time.pendingDelaysMillis()).hasSize(1);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void anAttemptAsksForItsTokenOnAWorkerNotOnTheSchedulersThread() throws Exception {
    VoiceLinkClient config = VoiceLinkClient.builder()
        .baseUrl(server.url("/api").toString()).clock(time).scheduler(time).build();
    BlockingQueue<String> askedOn = new LinkedBlockingQueue<>();
    BlockingQueue<Disconnect> heard = connectHearingDisconnects(config, () -> {
      askedOn.add(Thread.currentThread().getName());
      throw new IOException("store unreadable");
    });

    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo(new Disconnect(
        Disconnect.Cause.TOKEN_UNAVAILABLE, "no access token: store unreadable", true, 0, 0));
    // runDueTasks() ran the attempt's timer on this thread: the token was asked for elsewhere
    assertThat(askedOn.poll()).startsWith("voicelink-io").isNotEqualTo(Thread.currentThread().getName());
  }

  @Test void everyNewsOfASocketReachesTheListenerInTheOrderItCame() throws Exception {
    int results = 40;
    server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      private int writes;

      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
      }

      @Override public void onMessage(WebSocket webSocket, String text) {
        if (++writes < results) return;
        // every write in: their answers, an error about no write, and the close, in one burst
        for (int seq = 1; seq <= results; seq++) {
          webSocket.send("{\"type\":\"result\",\"seq\":" + seq + ",\"text\":\"t" + seq + "\"}");
        }
        webSocket.send("{\"type\":\"error\",\"seq\":null,\"code\":60001,\"desc\":\"bad frame\"}");
        webSocket.close(1001, "going away");
      }
    }));
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    int scheduled = time.scheduledCount();
    for (int seq = 1; seq <= results; seq++) assertThat(channel.writeText("t" + seq, null)).isEqualTo(seq);
    // the writes' result deadlines, then the reconnect: the close was read, after everything sent
    // before it
    time.awaitScheduled(scheduled + results + 1);

    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    List<String> expected = new ArrayList<>();
    for (int seq = 1; seq <= results; seq++) expected.add("result " + seq + " t" + seq + " []");
    expected.add("error 0 60001 bad frame");
    expected.add("disconnected CLOSED_BY_SERVER reconnecting=true");
    assertThat(new ArrayList<>(events)).containsExactlyElementsOf(expected);
  }

  @Test void newsFromAnotherThreadWaitsForTheCallInProgressAndKeepsItsOrder() throws Exception {
    VoiceLinkClient config = VoiceLinkClient.builder()
        .baseUrl(server.url("/api").toString()).clock(time).scheduler(time).build();
    List<String> heard = Collections.synchronizedList(new ArrayList<>());
    Set<Thread> threads = Collections.synchronizedSet(new HashSet<>());
    CountDownLatch inOnConnected = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    InteractionChannel.Listener listener = new InteractionChannel.Listener() {
      private void enter(String news) {
        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
        threads.add(Thread.currentThread());
        heard.add(news);
      }

      @Override public void onConnected(String uid) {
        enter("connected");
        inOnConnected.countDown();
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        inside.decrementAndGet();
      }

      @Override public void onResult(InteractionResult result) {
        enter("result " + result.seq());
        inside.decrementAndGet();
      }

      @Override public void onDisconnected(Disconnect disconnect) {
        enter("disconnected " + disconnect.cause());
        inside.decrementAndGet();
      }
    };
    ChannelConnection connection = new ChannelConnection(ClientCore.of(config), () -> "at-1",
        listener, new Backoff(1, 8, TimeUnit.SECONDS, 3, new Random(7)), 0, 10_000, 30_000);
    connection.connect(); // attempt 1, scheduled on the virtual clock and not run: no socket
    Thread socketThread = new Thread(() -> connection.connected(1, UID), "socket");
    socketThread.start();
    assertThat(inOnConnected.await(10, TimeUnit.SECONDS)).isTrue();

    // While the listener is inside onConnected, this thread's news is queued behind it: the calls
    // return at once, and nothing reaches the listener beside the call in progress.
    connection.deliver(1, heard1 -> heard1.onResult(
        new InteractionResult(1, "t", Collections.emptyList(), "{}")));
    connection.connectionLost(1, Disconnect.Cause.NETWORK, "reset", -1);
    assertThat(heard).containsExactly("connected");
    assertThat(connection.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);

    release.countDown();
    assertThat(connection.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(heard).containsExactly("connected", "result 1", "disconnected NETWORK");
    assertThat(mostInside).hasValue(1);
    assertThat(threads).hasSize(1); // the thread delivering "connected" delivered the rest
    assertThat(threads.iterator().next().getName()).startsWith("voicelink-io");

    connection.close();
    connection.deliver(1, heard2 -> heard2.onResult(
        new InteractionResult(2, "late", Collections.emptyList(), "{}")));
    assertThat(connection.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(heard).as("nothing after close").hasSize(3);
    socketThread.join(10_000);
  }

  /** A server socket that greets, then answers each text write with a result of its seq and text. */
  private MockResponse echoingSocket() {
    return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
      }

      @Override public void onMessage(WebSocket webSocket, String text) {
        java.util.regex.Matcher seq = java.util.regex.Pattern.compile("\"seq\":(\\d+)").matcher(text);
        java.util.regex.Matcher said = java.util.regex.Pattern.compile("\"text\":\"([^\"]*)\"")
            .matcher(text);
        if (seq.find() && said.find()) {
          webSocket.send("{\"type\":\"result\",\"seq\":" + seq.group(1) + ",\"text\":\""
              + said.group(1) + "\"}");
        }
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }
    });
  }

  @Test void aChannelBuiltWithoutAListenerIsHeardByTheListenersAddedToIt() throws Exception {
    server.enqueue(greetingSocket());
    VoiceLinkClient config = VoiceLinkClient.builder().baseUrl(server.url("/api").toString())
        .clock(time).scheduler(time).build();
    channel = InteractionChannel.builder(config, () -> "at-1").random(new Random(7)).build();
    assertThat(channel.listenerCount()).isZero();
    BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    channel.addListener(new InteractionChannel.Listener() {
      @Override public void onConnected(String uid) {
        heard.add("connected " + uid);
      }

      @Override public void onResult(InteractionResult result) {
      }
    });

    channel.connect();
    time.runDueTasks();

    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("connected " + UID);
    assertThat(server.takeRequest(10, TimeUnit.SECONDS).getHeader("Authorization")).isEqualTo("at-1");
  }

  @Test void anAddedListenerHearsTheNewsAfterItInOrderOnTheChannelsThread() throws Exception {
    server.enqueue(echoingSocket());
    channel = channelBuilder().build();
    connect();
    List<String> added = Collections.synchronizedList(new ArrayList<>());
    Set<String> threads = Collections.synchronizedSet(new HashSet<>());
    channel.addListener(new InteractionChannel.Listener() {
      @Override public void onResult(InteractionResult result) {
        threads.add(Thread.currentThread().getName());
        added.add("result " + result.seq() + " " + result.text());
      }

      @Override public void onConnected(String uid) {
        added.add("connected " + uid);
      }
    });
    assertThat(channel.listenerCount()).isEqualTo(2);

    int writes = 30;
    for (int i = 1; i <= writes; i++) channel.writeText("w" + i, null);
    List<String> expected = new ArrayList<>();
    for (int i = 1; i <= writes; i++) {
      expected.add("result " + i + " w" + i);
      assertThat(nextEvent()).isEqualTo("result " + i + " w" + i + " []");
    }
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(added).as("the news after addListener, not the greeting before it")
        .containsExactlyElementsOf(expected);
    assertThat(threads).as("where the builder's listener is called").isNotEmpty()
        .allMatch(name -> name.startsWith("voicelink-io"));
  }

  @Test void aRemovedListenerIsToldNothingMoreAndTheBuildersListenerCanBeRemovedToo()
      throws Exception {
    server.enqueue(echoingSocket());
    BlockingQueue<String> first = new LinkedBlockingQueue<>();
    CountDownLatch connected = new CountDownLatch(1);
    InteractionChannel.Listener builders = new InteractionChannel.Listener() {
      @Override public void onConnected(String uid) {
        connected.countDown();
      }

      @Override public void onResult(InteractionResult result) {
        first.add("result " + result.seq());
      }
    };
    channel = channelBuilder().listener(builders).build();
    channel.connect();
    time.runDueTasks();
    assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
    BlockingQueue<String> second = new LinkedBlockingQueue<>();
    InteractionChannel.Listener added = result -> second.add("result " + result.seq());
    channel.addListener(added);
    channel.writeText("one", null);
    assertThat(first.poll(10, TimeUnit.SECONDS)).isEqualTo("result 1");
    assertThat(second.poll(10, TimeUnit.SECONDS)).isEqualTo("result 1");

    channel.removeListener(added);
    channel.removeListener(added); // a second time: no effect
    assertThat(channel.listenerCount()).isEqualTo(1);
    channel.writeText("two", null);
    assertThat(first.poll(10, TimeUnit.SECONDS)).isEqualTo("result 2");
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(second).as("removed before the second result").isEmpty();

    channel.addListener(added);
    channel.removeListener(builders);
    channel.writeText("three", null);
    assertThat(second.poll(10, TimeUnit.SECONDS)).isEqualTo("result 3");
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(first).as("the builder's listener, removed like any other").isEmpty();
  }

  @Test void aListenerRemovedWhileItsNewsWaitsIsNotToldIt() throws Exception {
    assertThat(heardByAListenerRemovedWhileConnectedWaits(false)).isEmpty();
  }

  @Test void aListenerRemovedAndAddedAgainWhileItsNewsWaitsHearsOnlyTheNewsAfter() throws Exception {
    assertThat(heardByAListenerRemovedWhileConnectedWaits(true)).containsExactly("result 1");
  }

  /**
   * What a listener hears that is removed (and, if {@code addAgain}, added again) while "connected"
   * waits for it behind another listener's call in progress; then text 1 is written and answered.
   */
  private List<String> heardByAListenerRemovedWhileConnectedWaits(boolean addAgain) throws Exception {
    server.enqueue(echoingSocket());
    channel = channelBuilder().build();
    CountDownLatch inOnConnected = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> heard = Collections.synchronizedList(new ArrayList<>());
    InteractionChannel.Listener blocking = new InteractionChannel.Listener() {
      @Override public void onConnected(String uid) {
        inOnConnected.countDown();
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }

      @Override public void onResult(InteractionResult result) {
      }
    };
    InteractionChannel.Listener late = new InteractionChannel.Listener() {
      @Override public void onConnected(String uid) {
        heard.add("connected");
      }

      @Override public void onResult(InteractionResult result) {
        heard.add("result " + result.seq());
      }
    };
    channel.addListener(blocking);
    channel.addListener(late);
    channel.connect();
    time.runDueTasks();
    assertThat(inOnConnected.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    // "connected" is queued for `late` behind the call in progress: removed now, it never hears it
    channel.removeListener(late);
    if (addAgain) channel.addListener(late);
    release.countDown();
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(channel.writeText("hello", null)).isEqualTo(1);
    assertThat(nextEvent()).isEqualTo("result 1 hello []");
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    return heard;
  }

  @Test void aListenerThatThrowsKeepsNoNewsFromTheOthers() throws Exception {
    server.enqueue(echoingSocket());
    channel = channelBuilder().build();
    connect();
    channel.addListener(result -> {
      throw KotlinThrows.checked(new Exception("listener bug"));
    });
    BlockingQueue<String> after = new LinkedBlockingQueue<>();
    channel.addListener(result -> after.add("result " + result.seq()));
    channel.writeText("one", null);
    assertThat(nextEvent()).isEqualTo("result 1 one []");
    assertThat(after.poll(10, TimeUnit.SECONDS)).isEqualTo("result 1");
  }

  @Test void closingLetsGoOfEveryListenerAndAddingAfterwardsHasNoEffect() throws Exception {
    server.enqueue(echoingSocket());
    channel = channelBuilder().build();
    connect();
    channel.addListener(result -> { });
    assertThat(channel.listenerCount()).isEqualTo(2);
    channel.close();
    assertThat(channel.listenerCount()).isZero();
    channel.addListener(result -> { });
    assertThat(channel.listenerCount()).as("a closed channel tells nobody anything").isZero();
    assertThatThrownBy(() -> channel.addListener(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("listener must not be null");
  }

  @Test void listenersAddedAndRemovedFromManyThreadsEachHearAnUnbrokenRun() throws Exception {
    server.enqueue(echoingSocket());
    channel = channelBuilder().build();
    connect();
    int threads = 8;
    int writes = 40;
    List<List<Integer>> heard = new CopyOnWriteArrayList<>();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch done = new CountDownLatch(threads);
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> {
        List<Integer> seqs = new CopyOnWriteArrayList<>();
        heard.add(seqs);
        InteractionChannel.Listener listener = result -> seqs.add(result.seq());
        ready.countDown();
        channel.addListener(listener);
        Thread.yield();
        channel.removeListener(listener);
        channel.addListener(listener);
        done.countDown();
      }, "adder-" + t);
      thread.start();
      started.add(thread);
    }
    assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
    for (int i = 1; i <= writes; i++) channel.writeText("w" + i, null);
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    for (Thread thread : started) thread.join(10_000);
    int before = writes;
    channel.writeText("last", null);
    for (int i = 1; i <= writes + 1; i++) assertThat(nextEvent()).startsWith("result " + i + " ");
    assertThat(channel.awaitDelivered(10, TimeUnit.SECONDS)).isTrue();
    assertThat(channel.listenerCount()).isEqualTo(threads + 1);
    for (List<Integer> seqs : heard) {
      // whatever each heard, it heard once and in order, up to the write made after every thread
      // had added it for good
      assertThat(seqs).isSorted().doesNotHaveDuplicates().endsWith(before + 1);
    }
  }
}
