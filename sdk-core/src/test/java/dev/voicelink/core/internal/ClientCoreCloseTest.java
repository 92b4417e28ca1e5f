package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VirtualTime;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;

class ClientCoreCloseTest {
  /**
   * Closing a pooled TLS connection writes its close_notify: network I/O, which Android's main
   * thread refuses (NetworkOnMainThreadException), and an Agent's destroy() runs there.
   */
  @Test void closeClosesItsOwnConnectionsOffTheCallingThread() throws Exception {
    ClosingThreads sockets = new ClosingThreads();
    OkHttpClient own = new OkHttpClient.Builder().socketFactory(sockets).build();
    VirtualTime time = new VirtualTime();
    ClientCore core = new ClientCore(null, null, null, own, true, time,
        new SkewCorrectedClock(time), time, Runnable::run, null);
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setBody("ok"));
      server.start();
      own.newCall(new Request.Builder().url(server.url("/")).build()).execute().close();
      assertThat(own.connectionPool().connectionCount()).isEqualTo(1);

      core.close();

      assertThat(own.dispatcher().executorService().awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(own.connectionPool().connectionCount()).isZero();
      assertThat(sockets.closedOn).hasSize(1).doesNotContain(Thread.currentThread().getName());
    }
  }

  /** Makes sockets that note the thread that closes them. */
  private static final class ClosingThreads extends SocketFactory {
    final List<String> closedOn = new CopyOnWriteArrayList<>();

    @Override public Socket createSocket() {
      return new Socket() {
        @Override public synchronized void close() throws IOException {
          if (!isClosed()) closedOn.add(Thread.currentThread().getName());
          super.close();
        }
      };
    }

    @Override public Socket createSocket(String host, int port) {
      throw new UnsupportedOperationException("OkHttp makes unconnected sockets");
    }

    @Override public Socket createSocket(String host, int port, InetAddress local, int localPort) {
      throw new UnsupportedOperationException("OkHttp makes unconnected sockets");
    }

    @Override public Socket createSocket(InetAddress host, int port) {
      throw new UnsupportedOperationException("OkHttp makes unconnected sockets");
    }

    @Override public Socket createSocket(InetAddress address, int port, InetAddress local,
        int localPort) {
      throw new UnsupportedOperationException("OkHttp makes unconnected sockets");
    }
  }
}
