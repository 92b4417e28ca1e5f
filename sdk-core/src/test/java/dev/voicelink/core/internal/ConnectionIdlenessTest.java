package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.VirtualTime;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.Handshake;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.Route;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** {@link ConnectionIdleness} on the exchanges of one connection, on a controlled clock. */
class ConnectionIdlenessTest {
  private final VirtualTime time = new VirtualTime();
  private final ConnectionIdleness idleness = new ConnectionIdleness(time);
  private final Http2Connection connection = new Http2Connection();
  private int proceeded;

  /**
   * HTTP/2 hands one connection to several calls at once: after one of them found it stale and
   * closed it, another must not take it for a connection just made and send on it.
   */
  @Test void aConnectionRefusedAsStaleIsRefusedToEveryExchangeOnIt() throws Exception {
    exchange().close();
    time.advance(2, TimeUnit.SECONDS);

    assertThatThrownBy(this::exchange).isInstanceOf(ConnectionIdleness.NotSentException.class)
        .hasMessage("a kept-alive connection idle for 2000 ms was closed before sending on it");
    assertThatThrownBy(this::exchange).isInstanceOf(ConnectionIdleness.NotSentException.class)
        .hasMessage("a kept-alive connection idle for 2000 ms was closed before sending on it");

    assertThat(proceeded).as("only the first exchange went out").isEqualTo(1);
    assertThat(connection.socket.isClosed()).isTrue();
  }

  @Test void exchangesWithinTheLimitGoOutOnTheSameConnection() throws Exception {
    exchange().close();
    time.advance(ConnectionIdleness.LIMIT_MILLIS - 1, TimeUnit.MILLISECONDS);

    exchange().close();

    assertThat(proceeded).isEqualTo(2);
    assertThat(connection.socket.isClosed()).isFalse();
  }

  private ResponseBody exchange() throws Exception {
    Request request = new Request.Builder().url("https://platform.example/v1").build();
    Response response = idleness.intercept(new Chain(request));
    return response.body();
  }

  private final class Chain implements Interceptor.Chain {
    private final Request request;

    Chain(Request request) {
      this.request = request;
    }

    @Override public Request request() {
      return request;
    }

    @Override public Response proceed(Request sent) {
      proceeded++;
      return new Response.Builder().request(sent).protocol(Protocol.HTTP_2).code(200).message("")
          .body(ResponseBody.create("{}", null)).build();
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

  private static final class Http2Connection implements Connection {
    final Socket socket = new Socket();

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
      return Protocol.HTTP_2;
    }
  }
}
