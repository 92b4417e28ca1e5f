package dev.voicelink.benchmarks;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

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

  private void serve(Socket connection) {
    try (Socket c = connection) {
      InputStream in = new BufferedInputStream(c.getInputStream(), 16 * 1024);
      OutputStream out = c.getOutputStream();
      StringBuilder line = new StringBuilder();
      while (!closed) {
        long contentLength = 0;
        boolean any = false;
        while (true) {
          line.setLength(0);
          int b;
          while ((b = in.read()) != -1 && b != '\n') {
            if (b != '\r') line.append((char) b);
          }
          if (b == -1) return;
          if (line.length() == 0) {
            if (any) break;
            continue;
          }
          any = true;
          String header = line.toString().toLowerCase(Locale.ROOT);
          if (header.startsWith("content-length:")) {
            contentLength = Long.parseLong(header.substring(15).trim());
          }
        }
        for (long left = contentLength; left > 0; ) {
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

  @Override public void close() throws IOException {
    closed = true;
    socket.close();
  }
}
