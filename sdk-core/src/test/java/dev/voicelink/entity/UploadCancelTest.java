package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.CallResult;
import dev.voicelink.core.Clock;
import dev.voicelink.core.ResourceCensus;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An upload cancelled half-way through its body: the server sees the connection closed before the
 * body's end, the callback reports the cancellation once, and nothing is sent again; the same with a
 * progress listener counting the body, which is then never told the body was sent whole. The server
 * is a plain socket, so that what arrives is counted byte by byte.
 */
class UploadCancelTest {
  private static final String KEY = "0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a";
  /** The server reads this much of the body, then stops reading until the client has cancelled. */
  private static final int READ_BEFORE_CANCEL = 256 * 1024;

  @ParameterizedTest(name = "progress listener: {0}") @ValueSource(booleans = {false, true})
  void cancelMidBodyClosesTheConnectionReportsCancelledAndRetriesNothing(boolean progress)
      throws Exception {
    ResourceCensus baseline = ResourceCensus.take();
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      AtomicInteger connections = new AtomicInteger();
      AtomicLong contentLength = new AtomicLong(-1);
      AtomicLong bodyReceived = new AtomicLong();
      CountDownLatch midBody = new CountDownLatch(1);
      CountDownLatch cancelled = new CountDownLatch(1);
      BlockingQueue<String> end = new LinkedBlockingQueue<>();
      Thread server = new Thread(() -> serve(listener, connections, contentLength, bodyReceived,
          midBody, cancelled, end), "upload-cancel-server");
      server.start();

      VoiceLinkClient client = VoiceLinkClient.builder()
          .baseUrl("http://127.0.0.1:" + listener.getLocalPort()).clock(new SteppingClock()).build();
      EntityWebApi api = EntityWebApi.builder(client).namespace("OS123").accountKey(KEY).build();
      UploadRequest.Builder request = UploadRequest.builder()
          .appid("5f1a2b3c")
          .definition(ResourceDefinition.builder().name("OS123.contacts").mainField("name")
              .secondaryFields("alias").dimension(Dimension.USER).build())
          .persParam(PersParam.user("0123456789abcdef0123456789abcdef"))
          .records(RecordSource.of(contacts(200_000)));  // about 14 MB of form body
      List<long[]> reports = Collections.synchronizedList(new ArrayList<long[]>());
      if (progress) {
        request.progressListener(Runnable::run,
            (written, total) -> reports.add(new long[] {written, total}));
      }
      VoiceLinkCall<UploadReceipt> upload = api.uploadResource(request.build());
      BlockingQueue<CallResult<UploadReceipt>> results = new LinkedBlockingQueue<>();
      upload.enqueue(results::add);

      assertThat(midBody.await(30, TimeUnit.SECONDS))
          .as("the body is on its way; the call ended with %s", results.peek()).isTrue();
      upload.cancel();
      cancelled.countDown();

      CallResult<UploadReceipt> result = results.poll(10, TimeUnit.SECONDS);
      assertThat(result).as("the callback").isNotNull();
      assertThat(result.isCancelled()).isTrue();
      assertThat(result.failure()).isNull();
      assertThat(end.poll(10, TimeUnit.SECONDS)).as("what the server saw at the end")
          .isIn("end of stream", "connection reset");
      assertThat(bodyReceived.get()).as("body bytes received of " + contentLength.get())
          .isGreaterThanOrEqualTo(READ_BEFORE_CANCEL).isLessThan(contentLength.get());
      synchronized (reports) {
        if (progress) assertThat(reports).as("progress reported while the body was sent").isNotEmpty();
        for (long[] report : reports) {
          assertThat(report[1]).as("the total reported").isEqualTo(contentLength.get());
          assertThat(report[0]).as("bytes reported written").isLessThan(contentLength.get());
        }
      }

      // Once the client is closed and its threads have ended, nothing can send any more: one
      // connection, one request, ever.
      client.close();
      assertThat(ResourceCensus.take(baseline).newSdkThreads(baseline)).isEmpty();
      assertThat(connections.get()).as("connections accepted").isEqualTo(1);
      assertThat(results).as("no second callback").isEmpty();
      listener.close();
      server.join(10_000);
    }
  }

  /** A clock on which every reading is a progress interval after the one before. */
  private static final class SteppingClock extends Clock {
    private final AtomicLong nanos = new AtomicLong();

    @Override public long wallMillis() {
      return System.currentTimeMillis();
    }

    @Override public long monotonicNanos() {
      return nanos.addAndGet(ProgressBody.INTERVAL_NANOS);
    }
  }

  /** Records generated as they are read, never all held at once. */
  private static List<Map<String, String>> contacts(final int count) {
    return new AbstractList<Map<String, String>>() {
      @Override public Map<String, String> get(int index) {
        Map<String, String> record = new LinkedHashMap<>();
        record.put("name", String.format(Locale.ROOT, "contact number %08d", index));
        record.put("alias", "a name long enough to make the body large");
        return record;
      }

      @Override public int size() {
        return count;
      }
    };
  }

  private static void serve(ServerSocket listener, AtomicInteger connections,
      AtomicLong contentLength, AtomicLong bodyReceived, CountDownLatch midBody,
      CountDownLatch cancelled, BlockingQueue<String> end) {
    try {
      Socket socket = listener.accept();
      connections.incrementAndGet();
      socket.setSoTimeout(20_000);
      InputStream in = socket.getInputStream();
      contentLength.set(readHeaders(in));
      byte[] buffer = new byte[8192];
      long received = 0;
      while (received < READ_BEFORE_CANCEL) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, READ_BEFORE_CANCEL - received));
        if (n < 0) break;
        received += n;
      }
      bodyReceived.set(received);
      midBody.countDown();
      cancelled.await(30, TimeUnit.SECONDS); // the client's buffers fill up meanwhile
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) bodyReceived.addAndGet(n);
        end.add("end of stream");
      } catch (SocketTimeoutException e) {
        end.add("still open");
      } catch (IOException e) {
        end.add("connection reset");
      }
      socket.close();
      // Any further connection would be a retry.
      listener.setSoTimeout(0);
      while (true) {
        listener.accept().close();
        connections.incrementAndGet();
      }
    } catch (IOException | InterruptedException e) {
      // the listener was closed by the test: done
    }
  }

  /** Reads the request head; returns its Content-Length. */
  private static long readHeaders(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) throw new IOException("closed in the head");
      head.append((char) b);
    }
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Long.parseLong(line.substring("content-length:".length()).trim());
      }
    }
    return -1;
  }

}
