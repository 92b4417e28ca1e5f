package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.net.Socket;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.Handshake;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.Route;
import org.jspecify.annotations.Nullable;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The once-only connections after the client rested past the idle limit, on a virtual clock. */
class ConnectionIdlenessTest {
  private final VirtualTime time = new VirtualTime();
  private final MockWebServer server = new MockWebServer();
  private final VoiceLinkClient client = VoiceLinkClient.builder().clock(time).scheduler(time).build();
  private final ExecutorService callers = Executors.newFixedThreadPool(3);

  @AfterEach void tearDown() throws IOException {
    callers.shutdownNow();
    client.close();
    server.shutdown();
  }

  @Test void aRequestAfterTheClientRestedGoesOutOnANewConnection() throws Exception {
    CountDownLatch burst = new CountDownLatch(3);
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        burst.countDown(); // the burst's three requests wait for each other: three connections
        burst.await(10, TimeUnit.SECONDS);
        return new MockResponse().setBody("ok");
      }
    });
    server.start();
    ClientCore core = ClientCore.open(client);
    OkHttpClient once = SendOnce.client(core, new OkHttpClient());
    List<Future<String>> answers = new ArrayList<>();
    for (int i = 0; i < 3; i++) answers.add(callers.submit(() -> get(once)));
    for (Future<String> answer : answers) assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("ok");
    assertThat(core.onceOnlyConnections().trackedConnections()).isEqualTo(3);

    time.advance(ConnectionIdleness.LIMIT_MILLIS, TimeUnit.MILLISECONDS);
    assertThat(get(once)).isEqualTo("ok");

    assertThat(core.onceOnlyConnections().trackedConnections()).isEqualTo(1);
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @Test void refusingOneStaleConnectionClosesEveryStaleOneButNotThoseInUse() throws Exception {
    ConnectionIdleness idleness = new ConnectionIdleness(time);
    FakeConnection first = new FakeConnection();
    FakeConnection second = new FakeConnection();
    FakeConnection busy = new FakeConnection();
    idleness.intercept(new OneExchange(first)).close();
    idleness.intercept(new OneExchange(second)).close();
    Response open = idleness.intercept(new OneExchange(busy)); // its body not read yet: in use

    time.advance(ConnectionIdleness.LIMIT_MILLIS, TimeUnit.MILLISECONDS);
    assertThatThrownBy(() -> idleness.intercept(new OneExchange(first)))
        .isInstanceOf(ConnectionIdleness.NotSentException.class)
        .hasMessage("a kept-alive connection idle for 1000 ms was closed before sending on it");

    assertThat(first.socket().isClosed()).isTrue();
    assertThat(second.socket().isClosed()).as("as stale: closed with it").isTrue();
    assertThat(busy.socket().isClosed()).isFalse();
    assertThat(idleness.trackedConnections()).isEqualTo(1);
    open.close();
  }

  /** A connection that is only a socket, closed by nobody else. */
  private static final class FakeConnection implements Connection {
    private final Socket socket = new Socket();

    @Override public Route route() {
      throw new UnsupportedOperationException();
    }

    @Override public Socket socket() {
      return socket;
    }

    @Override public @Nullable Handshake handshake() {
      return null;
    }

    @Override public Protocol protocol() {
      return Protocol.HTTP_1_1;
    }
  }

  /** A network interceptor's chain on {@code connection}, answered at once with a body. */
  private static final class OneExchange implements Interceptor.Chain {
    private final Connection connection;
    private final Request request = new Request.Builder().url("https://auth.example.com/").build();

    OneExchange(Connection connection) {
      this.connection = connection;
    }

    @Override public Request request() {
      return request;
    }

    @Override public Response proceed(Request request) {
      return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(200)
          .message("OK").body(ResponseBody.create("ok", null)).build();
    }

    @Override public Connection connection() {
      return connection;
    }

    @Override public Call call() {
      throw new UnsupportedOperationException();
    }

    @Override public int connectTimeoutMillis() {
      return 0;
    }

    @Override public Interceptor.Chain withConnectTimeout(int timeout, TimeUnit unit) {
      return this;
    }

    @Override public int readTimeoutMillis() {
      return 0;
    }

    @Override public Interceptor.Chain withReadTimeout(int timeout, TimeUnit unit) {
      return this;
    }

    @Override public int writeTimeoutMillis() {
      return 0;
    }

    @Override public Interceptor.Chain withWriteTimeout(int timeout, TimeUnit unit) {
      return this;
    }
  }

  private String get(OkHttpClient once) throws IOException {
    try (Response response = once.newCall(new Request.Builder().url(server.url("/")).build())
        .execute()) {
      return response.body().string();
    }
  }
}
