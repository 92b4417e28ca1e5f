package dev.voicelink.testing;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ServerSocketFactory;
import org.jspecify.annotations.Nullable;

/**
 * The server's sockets. They note who is calling (protocol 5.4: the IP whitelist checks the caller's
 * IP; MockWebServer does not tell a dispatcher the peer of a request, so a socket notes its peer on
 * the thread that reads from it, the thread that then handles the request it read). And they keep the
 * time each kept-alive connection has been idle, on the server's clock, to close it as {@link
 * IdleClose} says once it has been idle for the keep-alive timeout.
 */
final class ServerConnections extends ServerSocketFactory {
  private static final ThreadLocal<String> CALLER = new ThreadLocal<>();
  /** What an upgraded connection's answer starts with: it carries frames from then on, not requests. */
  private static final String SWITCHING_PROTOCOLS = "HTTP/1.1 101";

  private final ServerClock clock;
  /** 0: connections are never closed for idleness. */
  private final long keepAliveMillis;
  private final IdleClose how;
  private final Set<Connection> open =
      Collections.newSetFromMap(new ConcurrentHashMap<Connection, Boolean>());
  private final AtomicInteger closedIdle = new AtomicInteger();
  private final AtomicInteger droppedRequests = new AtomicInteger();

  ServerConnections(ServerClock clock, long keepAliveMillis, IdleClose how) {
    this.clock = clock;
    this.keepAliveMillis = keepAliveMillis;
    this.how = how;
  }

  /** The address of the peer whose request this thread read last; null off a server socket. */
  static @Nullable String caller() {
    return CALLER.get();
  }

  /** Connections closed because they were idle for the keep-alive timeout, either way. */
  int closedIdle() {
    return closedIdle.get();
  }

  /** Requests that arrived on a connection idle for the timeout, never read ({@link IdleClose#AS_REQUEST_ARRIVES}). */
  int droppedRequests() {
    return droppedRequests.get();
  }

  /** Closes each connection idle for the timeout, for {@link IdleClose#WHEN_IDLE}. */
  void sweep() {
    if (keepAliveMillis == 0 || how != IdleClose.WHEN_IDLE) return;
    long now = clock.nowMillis();
    for (Connection connection : open) {
      if (connection.idleFor(now) >= keepAliveMillis) connection.closeIdle();
    }
  }

  @Override public ServerSocket createServerSocket() throws IOException {
    return new TrackingServerSocket();
  }

  @Override public ServerSocket createServerSocket(int port) throws IOException {
    return createServerSocket(port, 50, null);
  }

  @Override public ServerSocket createServerSocket(int port, int backlog) throws IOException {
    return createServerSocket(port, backlog, null);
  }

  @Override public ServerSocket createServerSocket(int port, int backlog,
      @Nullable InetAddress address) throws IOException {
    ServerSocket socket = new TrackingServerSocket();
    socket.bind(new InetSocketAddress(address, port), backlog);
    return socket;
  }

  private final class TrackingServerSocket extends ServerSocket {
    TrackingServerSocket() throws IOException {
      super();
    }

    @Override public Socket accept() throws IOException {
      if (isClosed()) throw new SocketException("Socket is closed");
      Connection socket = new Connection();
      implAccept(socket);
      open.add(socket);
      return socket;
    }
  }

  /**
   * One client connection. Between the end of an answer and the first byte of the next request it is
   * idle; once it switched protocols (a WebSocket) it never is.
   */
  private final class Connection extends Socket {
    private @Nullable InputStream input;
    private @Nullable OutputStream output;
    /**
     * Server time at which the last write of an answer began; -1 before the first answer. Read before
     * the write, as a client that read the answer may move a manual clock before this thread runs
     * again; on a real clock it is early by one write's duration.
     */
    private volatile long answeredAt = -1;
    /** True from the end of an answer's write until the next request's first byte. */
    private volatile boolean idle;
    /** True from the first byte of an answer until the next request's first byte. */
    private volatile boolean answering;
    private volatile boolean upgraded;

    long idleFor(long now) {
      return idle && !upgraded && answeredAt >= 0 ? now - answeredAt : -1;
    }

    void closeIdle() {
      if (isClosed()) return;
      closedIdle.incrementAndGet();
      closeQuietly();
    }

    private void closeQuietly() {
      try {
        close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }

    @Override public synchronized void close() throws IOException {
      open.remove(this);
      super.close();
    }

    @Override public synchronized InputStream getInputStream() throws IOException {
      if (input == null) {
        final String peer = getInetAddress().getHostAddress();
        input = new FilterInputStream(super.getInputStream()) {
          @Override public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
          }

          @Override public int read(byte[] buffer, int offset, int length) throws IOException {
            CALLER.set(peer);
            int n = super.read(buffer, offset, length);
            if (n > 0 && requestArrived()) return -1;
            return n;
          }
        };
      }
      return input;
    }

    /**
     * The first bytes of a request arrived: whether the connection was idle so long that the server
     * drops them with it, as {@link IdleClose#AS_REQUEST_ARRIVES} says.
     */
    private boolean requestArrived() {
      answering = false;
      if (!idle) return false;
      idle = false;
      if (keepAliveMillis == 0 || how != IdleClose.AS_REQUEST_ARRIVES || upgraded
          || clock.nowMillis() - answeredAt < keepAliveMillis) {
        return false;
      }
      droppedRequests.incrementAndGet();
      closeIdle();
      return true;
    }

    @Override public synchronized OutputStream getOutputStream() throws IOException {
      if (output == null) {
        output = new FilterOutputStream(super.getOutputStream()) {
          @Override public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override public void write(byte[] buffer, int offset, int length) throws IOException {
            if (!answering) {
              answering = true;
              String start = new String(buffer, offset, Math.min(length, SWITCHING_PROTOCOLS.length()),
                  StandardCharsets.ISO_8859_1);
              if (start.equals(SWITCHING_PROTOCOLS)) upgraded = true;
            }
            // Read before writing: the client may read the answer, and move a manual clock, before
            // this thread runs again after the write.
            long at = clock.nowMillis();
            idle = false; // a sweep must not close it while a write is blocked
            this.out.write(buffer, offset, length); // the socket's stream: not a byte at a time
            answeredAt = at;
            idle = true;
          }
        };
      }
      return output;
    }
  }
}
