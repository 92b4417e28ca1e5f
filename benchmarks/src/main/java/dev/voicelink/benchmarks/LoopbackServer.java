package dev.voicelink.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal HTTP/1.1 server on the loopback interface that answers every request with the same small
 * JSON response, keeping connections alive. It records nothing (unlike MockWebServer, whose request
 * queue would grow by one entry per measured call), so it adds the same tiny cost to every variant.
 */
public final class LoopbackServer implements AutoCloseable {
  static final String BODY = "{\"code\":\"00000\",\"data\":null,\"desc\":\"success\",\"sid\":\"s000001\"}";
  private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\n"
      + "Content-Type: application/json; charset=utf-8\r\n"
      + "Content-Length: " + BODY.length() + "\r\n"
      + "\r\n"
      + BODY).getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket socket;
  private volatile boolean closed;

  public LoopbackServer() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "loopback-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public String url(String path) {
    return "http://127.0.0.1:" + socket.getLocalPort() + path;
  }

  private void accept() {
    while (!closed) {
      try {
        Socket connection = socket.accept();
        connection.setTcpNoDelay(true);
        Thread serve = new Thread(() -> serve(connection), "loopback-connection");
        serve.setDaemon(true);
        serve.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /**
   * Serves one kept-alive connection: reads each request head in bulk, finds its end and its
   * Content-Length without building strings, skips the body and answers. The per-byte cost stays far
   * below a round trip's, as in a production server, so a client that sends more header bytes (the
   * signer's four) is not charged this server's parsing speed.
   */
  private void serve(Socket connection) {
    try (Socket c = connection) {
      InputStream in = c.getInputStream();
      OutputStream out = c.getOutputStream();
      byte[] buffer = new byte[16 * 1024];
      int filled = 0;
      while (!closed) {
        int headEnd;
        while ((headEnd = headEnd(buffer, filled)) < 0) {
          if (filled == buffer.length) return; // a head this server does not expect
          int read = in.read(buffer, filled, buffer.length - filled);
          if (read == -1) return;
          filled += read;
        }
        long left = contentLength(buffer, headEnd);
        int bodyInBuffer = (int) Math.min(left, filled - headEnd);
        int consumed = headEnd + bodyInBuffer;
        left -= bodyInBuffer;
        System.arraycopy(buffer, consumed, buffer, 0, filled - consumed);
        filled -= consumed;
        for (; left > 0; ) {
          long skipped = in.skip(left);
          if (skipped <= 0) {
            if (in.read() == -1) return;
            skipped = 1;
          }
          left -= skipped;
        }
        out.write(RESPONSE);
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  /** The index just past the head's blank line, or -1 if it has not all arrived. */
  private static int headEnd(byte[] b, int length) {
    for (int i = 3; i < length; i++) {
      if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') return i + 1;
    }
    return -1;
  }

  private static long contentLength(byte[] b, int headEnd) {
    int lineStart = 0;
    for (int i = 0; i < headEnd; i++) {
      if (b[i] != '\n') continue;
      if (startsWithIgnoringCase(b, lineStart, i, CONTENT_LENGTH)) {
        long value = 0;
        for (int k = lineStart + CONTENT_LENGTH.length; k < i; k++) {
          if (b[k] >= '0' && b[k] <= '9') value = value * 10 + (b[k] - '0');
        }
        return value;
      }
      lineStart = i + 1;
    }
    return 0;
  }

  private static boolean startsWithIgnoringCase(byte[] b, int from, int to, byte[] prefix) {
    if (to - from < prefix.length) return false;
    for (int k = 0; k < prefix.length; k++) {
      if (Character.toLowerCase((char) b[from + k]) != prefix[k]) return false;
    }
    return true;
  }

  @Override public void close() throws IOException {
    closed = true;
    socket.close();
  }
}
