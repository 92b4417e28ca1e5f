package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.internal.EntityResults;
import dev.voicelink.interact.Disconnect;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okio.ByteString;

/** An engine wired to a scripted interaction server, fake tokens and a fake entity backend. */
final class EngineHarness implements AutoCloseable {
  static final String UID = "d41d8cd98f00b204e9800998ecf8427e";
  static final String NOT_SIGNED_IN = "device not signed in: no token in the harness's store";
  static final String CONFIG = "{\"login\":{\"appid\":\"5f1a2b3c\"},"
      + "\"server\":{\"base_url\":\"http://localhost\"}}";

  final MockWebServer server = new MockWebServer();
  final VirtualTime time = new VirtualTime();
  final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  final FakeTokens tokens = new FakeTokens();
  final FakeBackend backend = new FakeBackend();
  final BlockingQueue<WebSocket> serverSockets = new LinkedBlockingQueue<>();
  private final List<WebSocket> allServerSockets = Collections.synchronizedList(new ArrayList<WebSocket>());
  /**
   * The news of the engine's channels, heard by a second listener after the engine's own: when one
   * is here, the engine's worker has the task that handles it queued.
   */
  final BlockingQueue<String> channelNews = new LinkedBlockingQueue<>();
  /** What the client sent: text frames as they are, binary frames as "binary:<hex>". */
  final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
  final AgentEngine engine;
  final VoiceLinkClient client;
  /** Results the client's callback executor was given: the engine's calls call back elsewhere. */
  final AtomicInteger clientCallbacks = new AtomicInteger();
  /**
   * Set when a test closes the client as {@code Agent.destroy()} closes its own: the scheduler then
   * refuses new waits, as the client's own scheduler does once closed.
   */
  volatile boolean schedulerClosed;
  /** When set, the engine's channels are made only once it is counted down. */
  volatile @Nullable CountDownLatch holdChannelCreation;
  /** Counted down when a channel's making waits for {@link #holdChannelCreation}. */
  final CountDownLatch channelCreationHeld = new CountDownLatch(1);

  EngineHarness() throws IOException {
    this(CONFIG, 10);
  }

  EngineHarness(String config, int maxReconnectAttempts) throws IOException {
    server.start();
    client = VoiceLinkClient.builder()
        .baseUrl(server.url("/").toString())
        .clock(time)
        .scheduler((task, delay, unit) -> {
          if (schedulerClosed) throw new IllegalStateException("the harness's scheduler is closed");
          return time.schedule(task, delay, unit);
        })
        .httpClient(new OkHttpClient())
        .callbackExecutor(task -> {
          clientCallbacks.incrementAndGet();
          task.run();
        })
        .build();
    backend.core = ClientCore.of(client);
    engine = new AgentEngine(AgentConfig.parse(config), ClientCore.of(client),
        new ChannelFactory(client, tokens, maxReconnectAttempts) {
          @Override InteractionChannel create(InteractionChannel.Listener listener) {
            CountDownLatch hold = holdChannelCreation;
            if (hold != null) {
              channelCreationHeld.countDown();
              await(hold);
            }
            InteractionChannel channel = super.create(listener);
            channel.addListener(new InteractionChannel.Listener() {
              @Override public void onConnected(String uid) {
                channelNews.add("connected " + uid);
              }

              @Override public void onResult(InteractionResult result) {
                channelNews.add("result " + result.seq());
              }

              @Override public void onDisconnected(Disconnect disconnect) {
                channelNews.add("disconnected, last seq " + disconnect.lastSeq());
              }
            });
            return channel;
          }
        }, backend,
        "entity upload is not configured", NOT_SIGNED_IN, new EventSink() {
          @Override public void emit(int type, int arg1, int arg2, String info,
              Map<String, Object> data) {
            events.add(new Event(type, arg1, arg2, info, data));
          }
        });
  }

  /**
   * Runs the channel's next scheduled connection attempt, the n-th task ever scheduled. Count every
   * earlier attempt, and the greeting deadline of every socket that opened.
   */
  void runAttempt(int scheduledTasks) throws InterruptedException {
    time.awaitScheduled(scheduledTasks);
    // Exactly to the attempt, the soonest task: a step past it could also reach the greeting
    // deadline of the socket it opens, scheduled by OkHttp's thread before the greeting is read.
    time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
  }

  /** Serves the next upgrade: greets with {@code uid} (null: no greeting). */
  void acceptNextConnection(final @Nullable String uid) {
    server.enqueue(new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
      @Override public void onOpen(WebSocket webSocket, Response response) {
        serverSockets.add(webSocket);
        allServerSockets.add(webSocket);
        if (uid != null) webSocket.send("{\"type\":\"connected\",\"uid\":\"" + uid + "\"}");
      }

      @Override public void onMessage(WebSocket webSocket, String text) {
        frames.add(text);
      }

      @Override public void onMessage(WebSocket webSocket, ByteString bytes) {
        frames.add("binary:" + bytes.hex());
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }
    }));
  }

  /** Starts and waits for the connection; returns the server's end of the socket. */
  WebSocket startConnected() throws InterruptedException {
    acceptNextConnection(UID);
    engine.start(true);
    runAttempt(1);
    expect(AgentConstants.EVENT_CONNECTED_TO_SERVER);
    expect(AgentConstants.EVENT_STATE);
    return serverSockets.poll(5, TimeUnit.SECONDS);
  }

  /**
   * Keeps the engine's worker busy with a task that waits (10 s at most) until the returned latch is
   * counted down: what is sent meanwhile queues behind it.
   */
  CountDownLatch holdWorker() {
    CountDownLatch release = new CountDownLatch(1);
    engine.execute(() -> await(release));
    return release;
  }

  /** Waits (10 s at most) until {@code latch} is counted down; an interrupt is kept. */
  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  Event next() throws InterruptedException {
    Event event = events.poll(5, TimeUnit.SECONDS);
    assertThat(event).as("an event within 5 s").isNotNull();
    return event;
  }

  Event expect(int type) throws InterruptedException {
    Event event = next();
    assertThat(event.type).as("event type of " + event).isEqualTo(type);
    return event;
  }

  /**
   * Waits until the engine's worker and its calls in flight have nothing left to do (a barrier, not a
   * time window), then checks nothing more was emitted.
   */
  void expectNoEvent() throws InterruptedException {
    assertThat(engine.awaitIdle(5, TimeUnit.SECONDS)).as("the engine idle within 5 s").isTrue();
    assertThat(events.poll()).as("no further event").isNull();
  }

  /**
   * Like {@link #expectNoEvent} while the test holds calls in flight on purpose: waits for the worker
   * thread alone, which every event comes from.
   */
  void expectNoEventWhileIoIsHeld() throws InterruptedException {
    assertThat(engine.awaitWorkerIdle(5, TimeUnit.SECONDS)).as("the worker idle within 5 s").isTrue();
    assertThat(events.poll()).as("no further event").isNull();
  }

  String news() throws InterruptedException {
    String news = channelNews.poll(5, TimeUnit.SECONDS);
    assertThat(news).as("news of the channel within 5 s").isNotNull();
    return news;
  }

  String frame() throws InterruptedException {
    String frame = frames.poll(5, TimeUnit.SECONDS);
    assertThat(frame).as("a frame within 5 s").isNotNull();
    return frame;
  }

  static Map<String, Object> json(String text) throws IOException {
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) com.squareup.moshi.JsonReader
        .of(new okio.Buffer().writeUtf8(text)).readJsonValue();
    return map;
  }

  @Override public void close() throws IOException {
    engine.destroy();
    synchronized (allServerSockets) {
      for (WebSocket socket : allServerSockets) socket.close(1001, "test over");
    }
    server.shutdown();
  }

  static final class Event {
    final int type;
    final int arg1;
    final int arg2;
    final String info;
    final Map<String, Object> data;
    /** The thread that emitted it. */
    final String thread = Thread.currentThread().getName();

    Event(int type, int arg1, int arg2, String info, Map<String, Object> data) {
      this.type = type;
      this.arg1 = arg1;
      this.arg2 = arg2;
      this.info = info;
      this.data = data;
    }

    @Override public String toString() {
      return "Event{" + type + ", " + arg1 + ", " + arg2 + ", " + info + ", " + data + "}";
    }
  }

  static final class FakeTokens implements TokenSource {
    final List<String> rejected = Collections.synchronizedList(new ArrayList<String>());
    int issued;
    volatile @Nullable ServerRefusalException refusal;
    /** Runs as a refusal is about to be thrown: what happens while the channel asks. */
    volatile @Nullable Runnable whileRefusing;

    @Override public synchronized String accessToken() throws ServerRefusalException {
      ServerRefusalException failure = refusal;
      if (failure != null) {
        Runnable meanwhile = whileRefusing;
        if (meanwhile != null) meanwhile.run();
        throw failure;
      }
      issued++;
      return "device-token-" + issued;
    }

    @Override public void invalidate(String token) {
      rejected.add(token);
    }
  }

  static final class FakeBackend implements EntityBackend {
    /** The harness's client, whose threads run the calls, as they run the web API's. */
    volatile @Nullable ClientCore core;
    final BlockingQueue<SyncRequest> uploads = new LinkedBlockingQueue<>();
    /** The threads that decoded the syncs' data (made their upload calls). */
    final BlockingQueue<String> decodedOn = new LinkedBlockingQueue<>();
    final BlockingQueue<String> checks = new LinkedBlockingQueue<>();
    volatile @Nullable CountDownLatch uploadGate;
    volatile @Nullable Exception uploadFailure;
    volatile @Nullable Exception checkFailure;
    int sids;

    @Override public VoiceLinkCall<UploadReceipt> upload(SyncRequest request) {
      decodedOn.add(Thread.currentThread().getName());
      return call(core, () -> EntityResults.SEAM.get().uploadReceipt(uploadNow(request), "c1", 0, 0));
    }

    private String uploadNow(SyncRequest request) throws IOException, ServerRefusalException {
      uploads.add(request);
      CountDownLatch gate = uploadGate;
      if (gate != null) {
        try {
          gate.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          throw new IOException("interrupted", e);
        }
      }
      throwIfSet(uploadFailure);
      synchronized (this) {
        return "psn0000" + (++sids);
      }
    }

    /** Throws {@code failure}, the answer a test set, if there is one. */
    private static void throwIfSet(@Nullable Exception failure)
        throws IOException, ServerRefusalException {
      if (failure instanceof IOException) throw (IOException) failure;
      if (failure instanceof ServerRefusalException) throw (ServerRefusalException) failure;
    }

    @Override public VoiceLinkCall<CheckResult> check(String sid) {
      return call(core, () -> {
        checks.add(sid);
        throwIfSet(checkFailure);
        return EntityResults.SEAM.get().checkResult(sid, "c1", "processed", 0);
      });
    }
  }

  interface Work<T> {
    T run() throws IOException, ServerRefusalException;
  }

  /**
   * An SDK call that runs {@code work} on one of {@code core}'s threads, as the web API's calls do:
   * the engine enqueues them with their results delivered to its worker.
   */
  static <T> VoiceLinkCall<T> call(@Nullable ClientCore core, Work<T> work) {
    if (core == null) throw new IllegalStateException("the harness sets the backend's client");
    return new BlockingCall<T>(core) {
      @Override protected T run() throws IOException, ServerRefusalException {
        return work.run();
      }
    };
  }
}
