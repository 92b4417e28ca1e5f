package dev.voicelink.testing;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import javax.net.ServerSocketFactory;
import org.jspecify.annotations.Nullable;

/**
 * Who is calling (protocol 5.4: the IP whitelist checks the caller's IP). MockWebServer does not tell a
 * dispatcher the peer of a request, so the server's sockets note their peer's address on the thread
 * that reads from them: the thread that then handles the request read.
 */
final class CallerAddresses extends ServerSocketFactory {
  private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

  /** The address of the peer whose request this thread read last; null off a server socket. */
  static @Nullable String current() {
    return CURRENT.get();
  }

  @Override public ServerSocket createServerSocket() throws IOException {
    return new NotingServerSocket();
  }

  @Override public ServerSocket createServerSocket(int port) throws IOException {
    return createServerSocket(port, 50, null);
  }

  @Override public ServerSocket createServerSocket(int port, int backlog) throws IOException {
    return createServerSocket(port, backlog, null);
  }

  @Override public ServerSocket createServerSocket(int port, int backlog,
      @Nullable InetAddress address) throws IOException {
    ServerSocket socket = new NotingServerSocket();
    socket.bind(new InetSocketAddress(address, port), backlog);
    return socket;
  }

  private static final class NotingServerSocket extends ServerSocket {
    NotingServerSocket() throws IOException {
      super();
    }

    @Override public Socket accept() throws IOException {
      if (isClosed()) throw new SocketException("Socket is closed");
      Socket socket = new NotingSocket();
      implAccept(socket);
      return socket;
    }
  }

  private static final class NotingSocket extends Socket {
    private @Nullable InputStream in;

    @Override public synchronized InputStream getInputStream() throws IOException {
      if (in == null) {
        final String peer = getInetAddress().getHostAddress();
        in = new FilterInputStream(super.getInputStream()) {
          @Override public int read() throws IOException {
            CURRENT.set(peer);
            return super.read();
          }

          @Override public int read(byte[] buffer, int offset, int length) throws IOException {
            CURRENT.set(peer);
            return super.read(buffer, offset, length);
          }
        };
      }
      return in;
    }
  }
}
