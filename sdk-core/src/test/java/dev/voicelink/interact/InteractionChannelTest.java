package dev.voicelink.interact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
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
  private final List<String> invalidated = new ArrayList<>();
  private final String[] currentToken = {"at-1"};
  private InteractionChannel channel;

  @BeforeEach void setUp() throws Exception {
    server.start();
  }

  @AfterEach void tearDown() throws Exception {
    if (channel != null) channel.close();
    server.shutdown();
  }

  private InteractionChannel.Builder channelBuilder() {
    VoiceLinkClient config = VoiceLinkClient.builder()
        .baseUrl(server.url("/api").toString())
        .clock(time)
        .scheduler(time)
        .build();
    TokenSource tokens = new TokenSource() {
      @Override public String accessToken() {
        return currentToken[0];
      }

      @Override public void invalidate(String rejectedToken) {
        invalidated.add(rejectedToken);
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

          @Override public void onDisconnected(String reason, boolean reconnecting) {
            events.add("disconnected reconnecting=" + reconnecting);
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

  @Test void writingBeforeConnectedIsRefusedAtOnce() {
    channel = channelBuilder().build();
    assertThatThrownBy(() -> channel.writeText("hello", null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the interaction channel is not connected (state IDLE); wait for onConnected");
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
    assertThat(nextEvent()).isEqualTo("disconnected reconnecting=true");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.WAITING_TO_RECONNECT);

    long delay = time.pendingDelaysMillis().get(0);
    assertThat(delay).isBetween(0L, 1000L); // first reconnect: full jitter up to the 1 s base
    time.advance(delay, TimeUnit.MILLISECONDS);

    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void givesUpAfterTheBoundedNumberOfAttempts() throws Exception {
    for (int i = 0; i < 4; i++) server.enqueue(new MockResponse().setResponseCode(503));
    channel = channelBuilder().maxReconnectAttempts(3).build();
    channel.connect();
    time.runDueTasks();

    for (int attempt = 1; attempt <= 3; attempt++) {
      assertThat(nextEvent()).isEqualTo("disconnected reconnecting=true");
      long ceiling = Math.min(8_000L, 1_000L << (attempt - 1));
      long delay = time.pendingDelaysMillis().get(0);
      assertThat(delay).isBetween(0L, ceiling);
      time.advance(delay, TimeUnit.MILLISECONDS);
    }
    assertThat(nextEvent()).isEqualTo("disconnected reconnecting=false");
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.DISCONNECTED);
    assertThat(time.pendingDelaysMillis()).isEmpty();
    assertThat(server.getRequestCount()).isEqualTo(4); // the first try + 3 reconnects, no more
  }

  @Test void aRefusedUpgradeWithRetryAfterIsRetriedNoSoonerUpToTheCap() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "5"));
    server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "3600"));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected reconnecting=true");
    assertThat(time.pendingDelaysMillis()).containsExactly(5_000L); // jitter alone would be ≤ 1 s
    time.advance(5, TimeUnit.SECONDS);
    assertThat(nextEvent()).isEqualTo("disconnected reconnecting=true");
    assertThat(time.pendingDelaysMillis()).containsExactly(8_000L); // an hour asked, the 8 s cap
    time.advance(8, TimeUnit.SECONDS);
    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test void rejectedTokenIsInvalidatedAndRetriedOnceWithTheNewOne() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    time.awaitScheduled(2);
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("connected " + UID);
    assertThat(invalidated).containsExactly("at-1");
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("at-1");
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("at-2");
  }

  @Test void secondRejectionIsFinal() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(new MockResponse().setResponseCode(401));
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    time.awaitScheduled(2);
    time.runDueTasks();

    assertThat(nextEvent()).isEqualTo("disconnected reconnecting=false");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void pausedChannelWaitsForResume() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503));
    server.enqueue(greetingSocket());
    channel = channelBuilder().build();
    channel.connect();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("disconnected reconnecting=true");

    channel.pauseReconnecting();
    assertThat(channel.state()).isEqualTo(InteractionChannel.State.PAUSED);
    time.advance(10, TimeUnit.MINUTES);
    assertThat(server.getRequestCount()).isEqualTo(1);

    channel.resumeReconnecting();
    time.runDueTasks();
    assertThat(nextEvent()).isEqualTo("connected " + UID);
  }
}
