package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The server's keep-alive timeout: a kept-alive connection idle that long is closed when the time
 * is up, or dropped with the request that arrives on it; a fresh connection, a connection idle less
 * long and a WebSocket are served as ever. Requests go over raw sockets, so that nothing but the
 * server decides what happens to a connection.
 */
class KeepAliveTimeoutTest {
  private static final long START = 1_763_712_000_000L;
  private final ServerClock clock = ServerClock.manual(START);
  private ReferenceServer server;

  @AfterEach void stop() throws IOException {
    if (server != null) server.close();
  }

  private void start(IdleClose how) throws IOException {
    server = ReferenceServer.builder().clock(clock).keepAliveTimeout(5, TimeUnit.SECONDS, how).build()
        .start();
  }

  /** A kept-alive connection to the server, speaking HTTP/1.1 by hand. */
  private final class Connection implements AutoCloseable {
    final Socket socket;
    final InputStream in;
    final OutputStream out;

    Connection() throws IOException {
      URL base = new URL(server.authUrl());
      socket = new Socket(base.getHost(), base.getPort());
      socket.setSoTimeout(10_000);
      in = socket.getInputStream();
      out = socket.getOutputStream();
    }

    /** Sends a request for a page that does not exist; returns the status line, or null at end of stream. */
    String get(String path) throws IOException {
      out.write(("GET /auth/" + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return readAnswer();
    }

    private String readAnswer() throws IOException {
      String status = line();
      if (status == null) return null;
      int length = 0;
      for (String header = line(); header != null && !header.isEmpty(); header = line()) {
        if (header.toLowerCase().startsWith("content-length:")) {
          length = Integer.parseInt(header.substring("content-length:".length()).trim());
        }
      }
      for (int i = 0; i < length; i++) {
        if (in.read() < 0) throw new IOException("body cut short");
      }
      return status;
    }

    /** One line without its CRLF; null at end of stream. */
    private String line() throws IOException {
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c >= 0; c = in.read()) {
        if (c == '\n') return line.toString().replace("\r", "");
        line.append((char) c);
      }
      return line.length() == 0 ? null : line.toString();
    }

    @Override public void close() throws IOException {
      socket.close();
    }
  }

  @Test void asRequestsArriveARequestOnAConnectionIdleForTheTimeoutIsDroppedUnread() throws Exception {
    start(IdleClose.AS_REQUEST_ARRIVES);
    try (Connection connection = new Connection()) {
      assertThat(connection.get("a")).isEqualTo("HTTP/1.1 404 Client Error");
      clock.advance(4999, TimeUnit.MILLISECONDS);
      assertThat(connection.get("b")).as("idle less than the timeout: served").isEqualTo("HTTP/1.1 404 Client Error");
      clock.advance(5000, TimeUnit.MILLISECONDS);
      assertThat(connection.get("c")).as("idle for the timeout: closed, nothing answered").isNull();
    }
    assertThat(server.journal()).extracting(RecordedCall::path).containsExactly("/auth/a", "/auth/b");
    assertThat(server.requestsDroppedIdle()).isEqualTo(1);
    assertThat(server.idleConnectionsClosed()).isEqualTo(1);

    try (Connection fresh = new Connection()) {
      assertThat(fresh.get("d")).as("a new connection is served").isEqualTo("HTTP/1.1 404 Client Error");
    }
  }

  @Test void whenIdleTheConnectionIsClosedOnceTheTimeIsUpAndNotBefore() throws Exception {
    start(IdleClose.WHEN_IDLE);
    try (Connection connection = new Connection()) {
      assertThat(connection.get("a")).isEqualTo("HTTP/1.1 404 Client Error");
      clock.advance(4999, TimeUnit.MILLISECONDS);
      assertThat(server.idleConnectionsClosed()).isZero();
      assertThat(connection.get("b")).isEqualTo("HTTP/1.1 404 Client Error");
      clock.advance(5000, TimeUnit.MILLISECONDS); // the sweep runs as the manual clock advances
      assertThat(server.idleConnectionsClosed()).isEqualTo(1);
      assertThat(connection.in.read()).as("the server closed its end").isEqualTo(-1);
    }
    assertThat(server.requestsDroppedIdle()).isZero();
    assertThat(server.journal()).hasSize(2);
  }

  @Test void whenIdleOnTheSystemClockASweepClosesTheConnectionSoonAfterTheTimeout() throws Exception {
    server = ReferenceServer.builder().keepAliveTimeout(200, TimeUnit.MILLISECONDS, IdleClose.WHEN_IDLE)
        .build().start();
    try (Connection connection = new Connection()) {
      long answered = System.nanoTime(); // before the answer: the sweep's close counts from after it
      connection.get("a");
      assertThat(connection.in.read()).as("closed by the server").isEqualTo(-1); // blocks until then
      long idleMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - answered);
      assertThat(idleMillis).isBetween(150L, 5_000L);
    }
    assertThat(server.idleConnectionsClosed()).isEqualTo(1);
  }

  @Test void aServerThatCannotStartLeavesNoSweeperRunning() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      ReferenceServer unstartable = ReferenceServer.builder()
          .keepAliveTimeout(200, TimeUnit.MILLISECONDS, IdleClose.WHEN_IDLE)
          .bindAddress(java.net.InetAddress.getLoopbackAddress()).port(taken.getLocalPort()).build();

      java.util.Set<Thread> before = sweepers();

      assertThatThrownBy(unstartable::start).isInstanceOf(IOException.class);

      java.util.Set<Thread> left = sweepers();
      left.removeAll(before);
      assertThat(left).as("sweepers left by the failed start").isEmpty();
    }
  }

  private static java.util.Set<Thread> sweepers() {
    java.util.Set<Thread> sweepers = new java.util.HashSet<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.isAlive() && thread.getName().equals("reference-server-idle-sweep")) sweepers.add(thread);
    }
    return sweepers;
  }

  @ParameterizedTest
  @EnumSource(IdleClose.class)
  void aWebSocketIsNeverClosedForIdleness(IdleClose idleClose) throws Exception {
    start(idleClose);
    String token = (String) new Platform(server).deviceToken().get("access_token");
    BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    WebSocket socket = Wire.HTTP.newWebSocket(new Request.Builder()
        .url(HttpUrl.get(server.baseUrl()).newBuilder().addPathSegments("v2/voicelink/interact").build())
        .header("Authorization", token).build(), new WebSocketListener() {
          @Override public void onMessage(WebSocket webSocket, String text) {
            messages.add(text);
          }
        });
    try {
      assertThat(messages.poll(10, TimeUnit.SECONDS)).as("greeting").contains("\"connected\"");
      clock.advance(1, TimeUnit.HOURS);
      socket.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"hello\",\"seq\":1}");
      assertThat(messages.poll(10, TimeUnit.SECONDS)).as("an answer after an hour of silence").isNotNull();
    } finally {
      socket.close(1000, null);
    }
    // When idle, the sign-in's connections are closed meanwhile; as requests arrive, none is.
    if (idleClose == IdleClose.AS_REQUEST_ARRIVES) assertThat(server.idleConnectionsClosed()).isZero();
  }

  @Test void theStandaloneServerTakesTheTimeoutAndSaysIt() throws IOException {
    try (ReferenceServer standalone = ReferenceServerMain.fromArgs(new String[] {
        "--keep-alive-timeout", "5000", "--idle-close", "as-request-arrives"}).start()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      ReferenceServerMain.describe(standalone, new PrintStream(bytes, true, "UTF-8"));
      assertThat(new String(bytes.toByteArray(), StandardCharsets.UTF_8)).contains("  keep-alive    idle"
          + " connections closed after 5000 ms, as the next request arrives (it is dropped unread)");
    }
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--keep-alive-timeout", "0"}))
        .hasMessage("--keep-alive-timeout must be a number of milliseconds, 1 or more; was: 0");
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--idle-close", "when-idle"}))
        .hasMessage("--idle-close needs --keep-alive-timeout");
    assertThatThrownBy(() -> ReferenceServerMain.fromArgs(new String[] {"--keep-alive-timeout", "10",
        "--idle-close", "later"}))
        .hasMessage("--idle-close must be when-idle or as-request-arrives; was: later");
    assertThatThrownBy(() -> ReferenceServer.builder().keepAliveTimeout(0, TimeUnit.SECONDS,
        IdleClose.WHEN_IDLE)).hasMessage("keepAliveTimeout must be at least 1 ms; was: 0 SECONDS");
  }
}
