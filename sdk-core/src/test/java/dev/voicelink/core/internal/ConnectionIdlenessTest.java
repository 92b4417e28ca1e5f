package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.VirtualTime;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import okhttp3.Connection;
import okhttp3.Handshake;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.Route;
import okio.Buffer;
import okio.Okio;
import okio.Source;
import okio.Timeout;
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

  /**
   * HTTP/2 carries other exchanges while an answer is still arriving: a silence of more than the
   * limit between its head and its next frame (a slow server, a lossy link) must not close the
   * connection under it, or that answer, perhaps of a request the server processed, is lost.
   */
  @Test void anHttp2AnswerStillArrivingKeepsItsConnectionInUseThroughASilence() throws Exception {
    ResponseBody arriving = exchange(ResponseBody.create(Okio.buffer(trickle("abc")), null, 3));
    time.advance(ConnectionIdleness.LIMIT_MILLIS + 500, TimeUnit.MILLISECONDS);
    arriving.source().readByte();
    time.advance(ConnectionIdleness.LIMIT_MILLIS + 500, TimeUnit.MILLISECONDS);

    exchange().close();

    assertThat(proceeded).isEqualTo(2);
    assertThat(connection.socket.isClosed()).isFalse();
    assertThat(arriving.string()).isEqualTo("bc");
  }

  /** A body that brings one byte per read, as a stream whose frames come one at a time. */
  private static Source trickle(String text) {
    Buffer left = new Buffer().writeUtf8(text);
    return new Source() {
      @Override public long read(Buffer sink, long byteCount) throws java.io.IOException {
        if (left.size() == 0) return -1;
        sink.writeByte(left.readByte());
        return 1;
      }

      @Override public Timeout timeout() {
        return Timeout.NONE;
      }

      @Override public void close() {
      }
    };
  }

  private ResponseBody exchange() throws Exception {
    return exchange(ResponseBody.create("{}", null));
  }

  /** One exchange through the interceptor, on {@link #connection}, as OkHttp's chain would run it. */
  private ResponseBody exchange(ResponseBody answer) throws Exception {
    Request request = new Request.Builder().url("https://platform.example/v1").build();
    Interceptor.Chain chain = (Interceptor.Chain) Proxy.newProxyInstance(
        Interceptor.Chain.class.getClassLoader(), new Class<?>[] {Interceptor.Chain.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "request":
              return request;
            case "connection":
              return connection;
            case "proceed":
              proceeded++;
              return new Response.Builder().request((Request) args[0]).protocol(Protocol.HTTP_2)
                  .code(200).message("").body(answer).build();
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
    return idleness.intercept(chain).body();
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
