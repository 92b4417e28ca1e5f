package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.KotlinThrows;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.RequestBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.ForwardingSink;
import okio.Okio;
import org.junit.jupiter.api.Test;

/** Upload progress: what the listener is told, when, on which executor, and that the wire is unchanged. */
class UploadProgressTest {
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";
  /** Each write that reaches the connection takes this long on the virtual clock. */
  static final long WRITE_MILLIS = 30;

  final VirtualTime time = new VirtualTime();
  final EntityWebApi api = EntityWebApi.builder(VoiceLinkClient.builder().baseUrl("http://127.0.0.1:9")
      .clock(time).scheduler(time).build())
      .namespace(DefaultConsole.NAMESPACE).accountKey(DefaultConsole.ACCOUNT_KEY).build();

  /** One progress call: the figures and when (virtual milliseconds since the write began). */
  static final class Call {
    final long written;
    final long total;
    final long atMillis;
    final String thread = Thread.currentThread().getName();

    Call(long written, long total, long atMillis) {
      this.written = written;
      this.total = total;
      this.atMillis = atMillis;
    }

    @Override public String toString() {
      return written + "/" + total + "@" + atMillis;
    }
  }

  static String records(int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append("{\"name\":\"联系人").append(i).append("\",\"alias\":\"c").append(i).append("\"}\n");
    }
    return text.toString();
  }

  static UploadRequest.Builder request(String records) {
    return UploadRequest.builder().appid(DefaultConsole.APPID)
        .definition(ResourceDefinition.builder().name(DefaultConsole.CONTACTS).mainField("name")
            .secondaryFields("alias").dimension(Dimension.USER).build())
        .persParam(PersParam.user(AUTH_ID))
        .records(RecordSource.fromText(records));
  }

  /** Writes {@code body} to a connection whose every write takes {@link #WRITE_MILLIS}. */
  Buffer send(RequestBody body) throws IOException {
    Buffer wire = new Buffer();
    BufferedSink connection = Okio.buffer(new ForwardingSink(wire) {
      @Override public void write(Buffer source, long byteCount) throws IOException {
        super.write(source, byteCount);
        time.advance(WRITE_MILLIS, TimeUnit.MILLISECONDS);
      }
    });
    body.writeTo(connection);
    connection.flush();
    return wire;
  }

  @Test void newBuilderKeepsTheRequestAndCanGiveItAnotherListener() throws IOException {
    List<String> heard = new ArrayList<>();
    UploadRequest first = request(records(3))
        .progressListener(Runnable::run, (written, total) -> heard.add("first " + written)).build();
    UploadRequest same = first.newBuilder().build();
    UploadRequest other = first.newBuilder()
        .progressListener(Runnable::run, (written, total) -> heard.add("other " + written)).build();
    assertThat(same.toString()).isEqualTo(first.toString());
    assertThat(other.appid()).isEqualTo(first.appid());
    assertThat(other.definition()).isSameAs(first.definition());
    assertThat(other.persParam()).isSameAs(first.persParam());
    assertThat(other.records()).isSameAs(first.records());

    RequestBody sameBody = api.uploadBody(same);
    Buffer sameWire = send(sameBody);
    RequestBody otherBody = api.uploadBody(other);
    Buffer otherWire = send(otherBody);
    assertThat(otherWire).isEqualTo(sameWire);
    assertThat(heard).containsExactly("first " + sameBody.contentLength(),
        "other " + otherBody.contentLength());
  }

  @Test void callsComeEveryHundredMillisecondsAndOnceAtTheEnd() throws IOException {
    List<Call> calls = new ArrayList<>();
    long start = time.monotonicNanos();
    // Over 1 MiB of text: the body is streamed from the source, not kept between passes.
    String text = records(40_000);
    RequestBody body = api.uploadBody(request(text).progressListener(Runnable::run,
        (written, total) -> calls.add(new Call(written, total,
            TimeUnit.NANOSECONDS.toMillis(time.monotonicNanos() - start)))).build());
    assertThat(text.length()).isGreaterThan((int) StreamingBody.KEPT_TEXT_BYTES);

    Buffer wire = send(body);

    long total = body.contentLength();
    assertThat(wire.size()).isEqualTo(total);
    assertThat(wire).isEqualTo(send(api.uploadBody(request(text).build())));
    assertThat(calls.size()).as(calls.toString()).isGreaterThan(10);
    Call last = calls.get(calls.size() - 1);
    assertThat(last.written).isEqualTo(total);
    long previousAt = 0;
    long previousWritten = 0;
    for (Call call : calls) {
      assertThat(call.total).isEqualTo(total);
      assertThat(call.written).isGreaterThan(previousWritten);
      if (call != last) {
        // at most one call per 100 ms, and no longer than one write past it
        assertThat(call.atMillis - previousAt).as(calls.toString())
            .isBetween(100L, 100L + WRITE_MILLIS - 1);
      }
      previousAt = call.atMillis;
      previousWritten = call.written;
    }
  }

  @Test void aSmallBodyWrittenAtOnceGetsOneCall() throws IOException {
    List<Call> calls = new ArrayList<>();
    RequestBody body = api.uploadBody(request(records(3)).progressListener(Runnable::run,
        (written, total) -> calls.add(new Call(written, total, 0))).build());

    send(body);

    assertThat(calls).hasSize(1);
    assertThat(calls.get(0).written).isEqualTo(body.contentLength());
    assertThat(calls.get(0).total).isEqualTo(body.contentLength());
  }

  @Test void aBusyExecutorGetsTheNewestFigureNotABacklog() throws IOException {
    List<Runnable> queued = new ArrayList<>();
    List<Call> calls = new ArrayList<>();
    RequestBody body = api.uploadBody(request(records(40_000)).progressListener(queued::add,
        (written, total) -> calls.add(new Call(written, total, 0))).build());

    send(body);

    assertThat(queued).as("one delivery queued; later figures join it").hasSize(1);
    queued.remove(0).run();
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0).written).isEqualTo(body.contentLength());
    assertThat(queued).isEmpty();
  }

  @Test void aFigureArrivingDuringADeliveryIsDeliveredAfterItNeverBeside() throws Exception {
    ExecutorService app = Executors.newFixedThreadPool(2); // could run two deliveries at once
    CountDownLatch inFirstCall = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch twoCalls = new CountDownLatch(2);
    AtomicInteger running = new AtomicInteger();
    List<Long> delivered = Collections.synchronizedList(new ArrayList<>());
    List<Integer> overlaps = Collections.synchronizedList(new ArrayList<>());
    RequestBody body = api.uploadBody(request(records(40_000)).progressListener(app,
        (written, total) -> {
          overlaps.add(running.incrementAndGet());
          delivered.add(written);
          inFirstCall.countDown();
          await(release);
          running.decrementAndGet();
          twoCalls.countDown();
        }).build());
    Buffer wire = new Buffer();
    BufferedSink connection = Okio.buffer(new ForwardingSink(wire) {
      int writes;

      @Override public void write(Buffer source, long byteCount) throws IOException {
        super.write(source, byteCount);
        time.advance(WRITE_MILLIS, TimeUnit.MILLISECONDS);
        if (++writes == 10) await(inFirstCall); // the app is busy with the first figure from here on
      }
    });
    try {
      body.writeTo(connection);
      connection.flush();
      release.countDown();
      await(twoCalls);
    } finally {
      app.shutdownNow();
    }

    assertThat(delivered).hasSize(2);
    assertThat(delivered.get(1)).isEqualTo(body.contentLength()).isGreaterThan(delivered.get(0));
    assertThat(overlaps).containsExactly(1, 1);
  }

  static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test void aThrowingListenerIsLoggedAndTheUploadGoesOn() throws IOException {
    assertAThrowingListenerLeavesTheUpload(new IllegalStateException("the app's bug"));
  }

  @Test void aCheckedExceptionThrownAsKotlinCanIsLoggedAndTheUploadGoesOn() throws IOException {
    assertAThrowingListenerLeavesTheUpload(new IOException("a Kotlin listener's"));
  }

  /** A listener that throws {@code thrown} at every call: logged; the body still goes out whole. */
  private void assertAThrowingListenerLeavesTheUpload(Exception thrown) throws IOException {
    List<Long> seen = new ArrayList<>();
    RequestBody body = api.uploadBody(request(records(40_000)).progressListener(Runnable::run,
        (written, total) -> {
          seen.add(written);
          throw KotlinThrows.checked(thrown);
        }).build());
    Buffer wire;
    try (LogCapture log = LogCapture.install()) {
      wire = send(body);
      assertThat(log.messages("entity"))
          .anyMatch(line -> line.startsWith("an upload progress listener threw; ignored\n" + thrown));
    }
    assertThat(wire.size()).isEqualTo(body.contentLength());
    assertThat(seen.size()).isGreaterThan(1);
    assertThat(seen.get(seen.size() - 1)).isEqualTo(body.contentLength());
  }


  @Test void withoutAListenerTheBodyIsNotWrapped() throws IOException {
    assertThat(api.uploadBody(request(records(3)).build())).isInstanceOf(StreamingBody.class);
  }

  @Test void theListenerNeedsAnExecutorAndTheExecutorAListener() {
    assertThatThrownBy(() -> request("").progressListener(null, (w, t) -> { }))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("executor must not be null");
    assertThatThrownBy(() -> request("").progressListener(Runnable::run, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("listener must not be null");
  }

  @Test void againstTheReferenceServerTheLastCallIsTheWholeBodyOnTheAppsExecutor() throws Exception {
    ExecutorService appExecutor = Executors.newSingleThreadExecutor(r -> new Thread(r, "app-ui"));
    List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch toldWhole = new CountDownLatch(1);
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        VoiceLinkClient client = VoiceLinkClient.builder().baseUrl(server.baseUrl()).build()) {
      EntityWebApi live = EntityWebApi.builder(client).namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      UploadReceipt receipt = live.uploadResource(request(records(40_000))
          .progressListener(appExecutor, (written, total) -> {
            calls.add(new Call(written, total, 0));
            if (written == total) toldWhole.countDown();
          })
          .build()).execute();
      // Progress reaches the app's executor on its own schedule, not before execute() returns: shut
      // the executor down only once the last figure was told, or it could refuse that figure.
      assertThat(toldWhole.await(10, TimeUnit.SECONDS)).isTrue();
      appExecutor.shutdown();
      assertThat(appExecutor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

      assertThat(receipt.sid()).startsWith("psn");
      RecordedCall upload = server.journal().calls("/entity/upload-resource").get(0);
      long sent = upload.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      assertThat(Long.parseLong(upload.header("Content-Length"))).isEqualTo(sent);
      Call last = calls.get(calls.size() - 1);
      assertThat(last.written).isEqualTo(sent);
      assertThat(last.total).isEqualTo(sent);
      for (Call call : calls) assertThat(call.thread).isEqualTo("app-ui");
    } finally {
      appExecutor.shutdownNow();
    }
  }
}
