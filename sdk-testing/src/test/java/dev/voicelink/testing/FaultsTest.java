package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultsTest {
  ServerClock clock = ServerClock.manual(AuthFlowTest.T0);
  ReferenceServer server;
  String tokenUrl;
  static final String POLL = "{\"client_id\":\"vl-speaker-01\",\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt_x\"}";

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(clock).build().start();
    tokenUrl = server.authUrl() + "/oauth/ivs/token";
  }

  @AfterEach void stop() throws IOException {
    server.close();
  }

  @Test void statusFaultWithRetryAfterAppliesTimesThenStops() throws IOException {
    server.faults().on(Endpoint.TOKEN, Fault.status(503).retryAfter(1).times(2));
    for (int i = 0; i < 2; i++) {
      Wire.Answer a = Wire.postJson(tokenUrl, POLL);
      assertThat(a.status).isEqualTo(503);
      assertThat(a.header("Retry-After")).isEqualTo("1");
    }
    assertThat(Wire.postJson(tokenUrl, POLL).status).isEqualTo(400);
    assertThat(server.journal().count("/oauth/ivs/token")).isEqualTo(3);
  }

  @Test void faultsAreScopedToTheirEndpoint() throws IOException {
    server.faults().on(Endpoint.CLOUD_TOKEN, Fault.status(500));
    assertThat(Wire.postJson(tokenUrl, POLL).status).isEqualTo(400);
    assertThat(Wire.postJson(server.authUrl() + "/oauth/token", "{}").status).isEqualTo(500);
    server.faults().clear();
    assertThat(Wire.postJson(server.authUrl() + "/oauth/token", "{}").status).isEqualTo(400);
  }

  @Test void disconnectAtStartGivesNoResponse() {
    server.faults().on(Endpoint.TOKEN, Fault.disconnectAtStart().times(1));
    assertThatThrownBy(() -> Wire.postJson(tokenUrl, POLL)).isInstanceOf(IOException.class);
    assertThat(server.journal().get(0).responseStatus()).isEqualTo(-1);
  }

  @Test void disconnectMidBodyCutsTheBody() throws IOException {
    server.faults().on(Endpoint.TOKEN, Fault.disconnectMidBody());
    Request request = new Request.Builder().url(tokenUrl).post(RequestBody.create(POLL, Wire.JSON)).build();
    try (Response r = Wire.HTTP.newCall(request).execute()) {
      // The status and headers arrive (unlike disconnectAtStart); the body stops short.
      assertThat(r.code()).isEqualTo(200);
      assertThat(r.body().contentLength()).isPositive();
      assertThatThrownBy(() -> r.body().string()).isInstanceOf(IOException.class);
    }
    assertThat(server.journal().get(0).responseStatus()).isEqualTo(200);
  }

  @Test void malformedHtmlAndEmptyBodies() throws IOException {
    server.faults().on(Endpoint.DEVICE_CODE, Fault.malformedJson().times(1));
    Wire.Answer a = Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id", "x");
    assertThat(a.status).isEqualTo(200);
    assertThat(Json.parse(a.body)).isNull();
    server.faults().on(Endpoint.UPLOAD_RESOURCE, Fault.htmlErrorPage().times(1));
    Wire.Answer html = Wire.postForm(server.baseUrl() + "/v2/voicelink/entity/upload-resource", "sid", "x");
    assertThat(html.status).isEqualTo(502);
    assertThat(html.header("Content-Type")).startsWith("text/html");
    server.faults().on(Endpoint.CHECK_RESOURCE, Fault.emptyBody().times(1));
    Wire.Answer empty = Wire.postForm(server.baseUrl() + "/v2/voicelink/entity/check-resource", "sid", "x");
    assertThat(empty.status).isEqualTo(200);
    assertThat(empty.body).isEmpty();
  }

  @Test void delayAnswersNormallyAfterTheDelay() throws IOException {
    server.faults().on(Endpoint.TOKEN, Fault.delay(1500).times(1));
    OkHttpClient impatient = Wire.HTTP.newBuilder().readTimeout(300, TimeUnit.MILLISECONDS).build();
    Request request = new Request.Builder().url(tokenUrl).post(RequestBody.create(POLL, Wire.JSON)).build();
    assertThatThrownBy(() -> impatient.newCall(request).execute().close()).isInstanceOf(IOException.class);
    try (Response r = Wire.HTTP.newCall(request).execute()) { // the fault is spent: a normal answer
      assertThat(r.code()).isEqualTo(400);
    }
  }

  @Test void closingTheServerEndsADelayStillWaiting() throws IOException {
    server.faults().on(Endpoint.TOKEN, Fault.delay(60_000).times(1));
    OkHttpClient impatient = Wire.HTTP.newBuilder().readTimeout(300, TimeUnit.MILLISECONDS).build();
    Request request = new Request.Builder().url(tokenUrl).post(RequestBody.create(POLL, Wire.JSON)).build();
    assertThatThrownBy(() -> impatient.newCall(request).execute().close()).isInstanceOf(IOException.class);

    server.close(); // MockWebServer gives up after 5 s on a thread still sleeping, and throws

    assertThat(Thread.getAllStackTraces().values()).as("no answer still waiting").noneMatch(stack ->
        java.util.Arrays.stream(stack)
            .anyMatch(frame -> frame.getClassName().equals(Router.class.getName())));
  }

  @Test void holdUntilAnswersOnlyOnceReleasedButHandlesTheCallAtOnce() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server.faults().on(Endpoint.DEVICE_CODE, Fault.holdUntil(release).times(1));
    String before = server.stateSummary();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<Wire.Answer> answer = caller.submit(() -> Wire.postForm(server.authUrl()
          + "/oauth/ivs/device_code", "client_id", DefaultConsole.CLIENT_ID, "scope", "user_ivs_all",
          "scope_data", AuthFlowTest.SCOPE_DATA));
      assertThat(server.journal().awaitSize(1, 10, TimeUnit.SECONDS)).isTrue();
      assertThat(server.stateSummary()).as("handled while held").isNotEqualTo(before);
      awaitAThreadHoldingAnAnswer();
      assertThat(answer.isDone()).isFalse();
      release.countDown();
      assertThat(answer.get(10, TimeUnit.SECONDS).status).isEqualTo(200);
    } finally {
      release.countDown();
      caller.shutdownNow();
    }
    assertThat(Fault.holdUntil(release).toString()).isEqualTo("Fault{HOLD}");
  }

  @Test void closingTheServerReleasesAHoldTheTestForgot() throws Exception {
    server.faults().on(Endpoint.DEVICE_CODE, Fault.holdUntil(new CountDownLatch(1)));
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<Wire.Answer> answer = caller.submit(() -> Wire.postForm(server.authUrl()
          + "/oauth/ivs/device_code", "client_id", DefaultConsole.CLIENT_ID));
      awaitAThreadHoldingAnAnswer();
      server.close(); // without the release, it gives up on the held thread and throws
      try {
        answer.get(10, TimeUnit.SECONDS); // the call ends: answered, or its socket closed under it
      } catch (ExecutionException socketClosed) {
        assertThat(socketClosed).hasCauseInstanceOf(IOException.class);
      }
    } finally {
      caller.shutdownNow();
    }
  }

  /** Returns once a server thread waits in the hold of a {@link Fault#holdUntil} fault. */
  private static void awaitAThreadHoldingAnAnswer() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!aThreadHoldsAnAnswer()) {
      assertThat(System.nanoTime() - deadline).as("a server thread holds the answer").isNegative();
      Thread.yield();
    }
  }

  private static boolean aThreadHoldsAnAnswer() {
    for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
      for (StackTraceElement frame : thread.getValue()) {
        if (frame.getClassName().equals(Router.class.getName())
            && frame.getMethodName().equals("awaitRelease")
            && thread.getKey().getState() != Thread.State.RUNNABLE) {
          return true;
        }
      }
    }
    return false;
  }

  @Test void aFaultedCallChangesNoState() throws IOException {
    server.faults().on(Endpoint.DEVICE_CODE, Fault.status(500).times(1));
    String before = server.stateSummary();
    Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id", DefaultConsole.CLIENT_ID, "scope",
        "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA);
    assertThat(server.stateSummary()).isEqualTo(before);
  }

  @Test void faultArgumentsAreChecked() {
    assertThatThrownBy(() -> Fault.status(99)).hasMessage("code must be an HTTP status 200..599; was: 99");
    assertThatThrownBy(() -> Fault.delay(5).retryAfter(1)).hasMessage("retryAfter applies to Fault.status(...) only");
    assertThatThrownBy(() -> Fault.emptyBody().times(0)).hasMessage("n must be >= 1; was: 0");
    assertThatThrownBy(() -> Fault.holdUntil(null)).hasMessage("release must not be null");
    assertThatThrownBy(() -> ServerClock.system().advance(1, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
  }
}
