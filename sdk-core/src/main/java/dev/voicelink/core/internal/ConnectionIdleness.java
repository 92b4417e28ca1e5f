package dev.voicelink.core.internal;

import dev.voicelink.core.Clock;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Connection;
import okhttp3.ConnectionPool;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;

/**
 * The connections that carry a client's once-only requests ({@link SendOnce}), and how long each has
 * been idle on the client's clock. As a network interceptor it refuses a connection idle for {@link
 * #LIMIT_MILLIS} or more: it closes it, and the others idle in the pool, before writing a byte and
 * throws {@link NotSentException}, and the request goes out on another connection.
 *
 * <p>Servers, proxies and NATs close kept-alive connections that sit idle: Node's HTTP server after 5
 * s (a second or so later in fact), Gunicorn after 2 s, nginx after 75 s, load balancers after about a
 * minute, carriers' NATs after minutes. A request sent as the close crosses it is lost, or read and
 * answered by nothing; the client cannot tell which, so it must not send it again. A connection
 * younger than the shortest of those closes cannot be one. The SDK's requests come in bursts (a
 * refresh, then an upload) and then rest: the pool keeps connections no longer than the limit, so
 * this client holds none between bursts.
 *
 * <p>A connection is idle, as its server sees it, from the last answer it sent: from the moment an
 * answer's head arrived, or its body was read to the end, not from when the caller closed it. A
 * caller that holds an answer while it does something slow (fetches a fresh token after a 401, say)
 * leaves the connection idle all that time.
 *
 * <p>The pool is this client's own, not the app's: every exchange on it passes here, so the idle
 * time is known. Thread-safe.
 */
public final class ConnectionIdleness implements Interceptor {
  /**
   * How long a connection may have been idle and still carry a request: below the shortest idle
   * timeout of common servers (Gunicorn's 2 s), with room for the close to travel.
   */
  public static final long LIMIT_MILLIS = 1000;
  /**
   * Connections the pool keeps idle, and the most stale connections one request refuses: the first
   * refusal empties the pool of its idle ones, so a request is rarely handed a second.
   */
  static final int MAX_IDLE_CONNECTIONS = 5;

  private final Clock clock;
  private final ConnectionPool pool =
      new ConnectionPool(MAX_IDLE_CONNECTIONS, LIMIT_MILLIS, TimeUnit.MILLISECONDS);
  private final Map<Connection, Idleness> idleness = new WeakHashMap<>();

  ConnectionIdleness(Clock clock) {
    this.clock = clock;
  }

  /** The pool of these connections. */
  ConnectionPool pool() {
    return pool;
  }

  /**
   * Thrown before a request is written when its connection was idle too long: nothing of it was
   * sent, so it may go out on another connection.
   */
  static final class NotSentException extends IOException {
    private static final long serialVersionUID = 1L;

    NotSentException(long idleMillis, boolean closedByServer) {
      super(closedByServer
          ? "the server had closed a kept-alive connection (idle " + idleMillis
              + " ms); nothing was sent on it"
          : "a kept-alive connection idle for " + idleMillis + " ms was closed before sending on it");
    }
  }

  @Override public Response intercept(Chain chain) throws IOException {
    Connection connection = chain.connection();
    if (connection == null) return chain.proceed(chain.request()); // not a network interceptor
    long now = clock.monotonicNanos();
    Exchange exchange = null;
    boolean reused = false;
    long idleNanos;
    synchronized (idleness) {
      Idleness known = idleness.get(connection);
      if (known == null) {
        known = new Idleness();
        known.lastHeardNanos = now; // just connected: the server is waiting for this request
        idleness.put(connection, known);
      } else {
        reused = known.exchanges == 0;
      }
      idleNanos = now - known.lastHeardNanos;
      // Once refused, refused to every exchange: HTTP/2 hands one connection to several calls, and
      // one that came after the refusal must not take the closing connection for a new one.
      if (known.refused
          || known.exchanges == 0 && idleNanos >= TimeUnit.MILLISECONDS.toNanos(LIMIT_MILLIS)) {
        known.refused = true;
      } else {
        known.exchanges++;
        exchange = new Exchange(known);
      }
    }
    boolean serverClosed = false;
    if (exchange != null && reused && isHttp1(connection) && closedByServer(connection.socket())) {
      serverClosed = true;
      // A server whose keep-alive is shorter than the limit (HAProxy's is often a few hundred ms)
      // closed it while it rested: the close is here already, so nothing need be lost to it.
      synchronized (idleness) {
        exchange.connection.refused = true;
      }
      ended(exchange);
      exchange = null;
    }
    if (exchange == null) {
      closeQuietly(connection.socket());
      // The others idle in the pool rested as long: they go too, or a request after a burst of more
      // connections than it has tries would be handed one stale connection after another. The pool
      // evicts only connections no call holds; a call holding one refuses it here itself.
      pool.evictAll();
      throw new NotSentException(TimeUnit.NANOSECONDS.toMillis(idleNanos), serverClosed);
    }
    Response response;
    try {
      response = chain.proceed(chain.request());
    } catch (IOException | RuntimeException | Error e) {
      ended(exchange);
      throw e;
    }
    heard(exchange, false);
    ResponseBody body = response.body();
    if (body == null) {
      ended(exchange);
      return response;
    }
    return response.newBuilder().body(new EndsExchange(body, exchange)).build();
  }

  /** Closes the idle connections, as the client that made them closes. */
  void evictAll() {
    pool.evictAll();
  }

  /** The server sent the head of an answer, or the end of its body: its connection rests from now. */
  private void heard(Exchange exchange, boolean andEnded) {
    long now = clock.monotonicNanos();
    synchronized (idleness) {
      if (exchange.ended) return;
      exchange.connection.lastHeardNanos = now;
      if (andEnded) ended(exchange);
    }
  }

  /** The caller is done with the answer (or it failed): the connection may carry another request. */
  private void ended(Exchange exchange) {
    synchronized (idleness) {
      if (exchange.ended) return;
      exchange.ended = true;
      exchange.connection.exchanges--;
    }
  }

  private static boolean isHttp1(Connection connection) {
    return connection.protocol() == Protocol.HTTP_1_1 || connection.protocol() == Protocol.HTTP_1_0;
  }

  /**
   * Whether the server's close of a resting HTTP/1 connection has arrived: a read that waits 1 ms
   * finds the end of the stream (or bytes no request asked for, which make it as unusable). An
   * HTTP/1 connection between exchanges has nothing else to read; OkHttp looks the same way, but only
   * at connections idle 10 s or more. On HTTP/2 a reader thread owns the socket, and GOAWAY says it.
   */
  static boolean closedByServer(Socket socket) {
    try {
      int timeout = socket.getSoTimeout();
      try {
        socket.setSoTimeout(1);
        socket.getInputStream().read();
        return true;
      } finally {
        socket.setSoTimeout(timeout);
      }
    } catch (SocketTimeoutException e) {
      return false; // nothing came: open, as far as anyone can know
    } catch (IOException e) {
      return true;
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // it is being dropped anyway
    }
  }

  /**
   * A connection's open exchanges, when its server last answered on it, and whether it was refused
   * as stale; guarded by the map.
   */
  private static final class Idleness {
    int exchanges;
    long lastHeardNanos;
    boolean refused;
  }

  /** One exchange on a connection: in progress until its answer's body is closed or read to its end. */
  private static final class Exchange {
    final Idleness connection;
    /** Guarded by the map. */
    boolean ended;

    Exchange(Idleness connection) {
      this.connection = connection;
    }
  }

  /** The answer's body as it is; closing or exhausting it ends its exchange. */
  private final class EndsExchange extends ResponseBody {
    private final ResponseBody delegate;
    private final BufferedSource source;

    EndsExchange(ResponseBody delegate, Exchange exchange) {
      this.delegate = delegate;
      this.source = Okio.buffer(new ForwardingSource(delegate.source()) {
        @Override public long read(Buffer sink, long byteCount) throws IOException {
          long read;
          try {
            read = super.read(sink, byteCount);
          } catch (IOException e) {
            ended(exchange);
            throw e;
          }
          if (read == -1) heard(exchange, true);
          return read;
        }

        @Override public void close() throws IOException {
          ended(exchange);
          super.close();
        }
      });
    }

    @Override public @Nullable MediaType contentType() {
      return delegate.contentType();
    }

    @Override public long contentLength() {
      return delegate.contentLength();
    }

    @Override public BufferedSource source() {
      return source;
    }
  }
}
