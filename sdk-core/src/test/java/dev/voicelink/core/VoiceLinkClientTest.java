package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.EntityWebApi;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.mockwebserver.SocketPolicy;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;

class VoiceLinkClientTest {
  @Test void endpointsAppendToTheConfiguredAddresses() {
    VoiceLinkClient config = VoiceLinkClient.builder()
        .authUrl("https://auth.example.com/")
        .platformUrl("https://platform.example.com/root")
        .baseUrl("http://127.0.0.1:8080/api/")
        .build();

    assertThat(ClientCore.of(config).authEndpoint("oauth/ivs/device_code").toString())
        .isEqualTo("https://auth.example.com/oauth/ivs/device_code");
    assertThat(ClientCore.of(config).platformEndpoint("tools/upload_entities").toString())
        .isEqualTo("https://platform.example.com/root/tools/upload_entities");
    assertThat(ClientCore.of(config).webApiUrl("entity/upload-resource").toString())
        .isEqualTo("http://127.0.0.1:8080/api/v2/voicelink/entity/upload-resource");
  }

  @Test void productSegmentIsOneConstant() {
    assertThat(ClientCore.PRODUCT).isEqualTo("voicelink");
  }

  @Test void invalidAddressesNameTheSetting() {
    assertThatThrownBy(() -> VoiceLinkClient.builder().authUrl("ftp://auth.example.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth_url must be an http or https address such as https://host[:port][/path];"
            + " was: ftp://auth.example.com");
    assertThatThrownBy(() -> VoiceLinkClient.builder().baseUrl(" "))
        .hasMessage("base_url must be an http or https address such as https://host[:port][/path];"
            + " was empty");
    assertThatThrownBy(() -> VoiceLinkClient.builder().platformUrl("https://p.example.com/?x=1"))
        .hasMessage("platform_url must not have a query or fragment; was: https://p.example.com/?x=1");
    assertThatThrownBy(() -> VoiceLinkClient.builder().baseUrl("https://user:pw@h.example.com"))
        .hasMessage("base_url must not contain user credentials");
  }

  @Test void anAddressIsNeverEchoedWithItsCredentialsOrSecretQueryValues() {
    // Credentials are named before the query, so the address is not echoed at all.
    assertThatThrownBy(() -> VoiceLinkClient.builder().baseUrl("https://u:s3cret-pw@h.example.com/?a=1"))
        .hasMessage("base_url must not contain user credentials");
    assertThatThrownBy(() -> VoiceLinkClient.builder().platformUrl("https://p.example.com/?access_token=t0k3n"))
        .hasMessage("platform_url must not have a query or fragment; was:"
            + " https://p.example.com/?access_token=‹redacted›");
    assertThatThrownBy(() -> VoiceLinkClient.builder().authUrl("ftp://u:s3cret-pw@auth.example.com"))
        .hasMessage("auth_url must be an http or https address such as https://host[:port][/path];"
            + " was: ftp://‹redacted›@auth.example.com");
  }

  @Test void missingAddressIsReportedWhenAFeatureNeedsIt() {
    VoiceLinkClient config = VoiceLinkClient.builder().authUrl("https://auth.example.com").build();
    assertThatThrownBy(() -> EntityWebApi.builder(config))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("base_url is not configured; set it with VoiceLinkClient.Builder.baseUrl(...)");
  }

  @Test void derivesFromTheAppsClientAndSharesItsPool() {
    OkHttpClient app = new OkHttpClient.Builder().connectTimeout(3, TimeUnit.SECONDS).build();
    VoiceLinkClient config = VoiceLinkClient.builder().httpClient(app).build();

    assertThat(ClientCore.of(config).http()).isNotSameAs(app);
    assertThat(ClientCore.of(config).http().connectionPool()).isSameAs(app.connectionPool());
    assertThat(ClientCore.of(config).http().dispatcher()).isSameAs(app.dispatcher());
    assertThat(ClientCore.of(config).http().connectTimeoutMillis()).isEqualTo(3000);
  }

  @Test void learnsClockSkewFromTheServersDateHeader() throws Exception {
    VirtualTime time = new VirtualTime(1_763_712_000_000L); // 2025-11-21T08:00:00Z
    VoiceLinkClient config = VoiceLinkClient.builder().clock(time).build();
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setHeader("Date", "Fri, 21 Nov 2025 09:00:00 GMT"));
      server.start();
      try (Response response = ClientCore.of(config).http()
          .newCall(new Request.Builder().url(server.url("/")).build()).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
    }
    assertThat(ClientCore.of(config).correctedClock().offsetMillis()).isEqualTo(TimeUnit.HOURS.toMillis(1));
    assertThat(ClientCore.of(config).correctedClock().wallMillis()).isEqualTo(1_763_715_600_000L);
    assertThat(ClientCore.of(config).deviceClock().wallMillis()).isEqualTo(1_763_712_000_000L);
  }

  @Test void closeIsIdempotentAndServicesOfAClosedClientFailClearly() throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().authUrl("https://auth.example.com").build();
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build();
    VoiceLinkCall<DeviceCode> made = authorizer.requestCode("SN-1");
    client.close();
    client.close();
    assertThat(client.isClosed()).isTrue();
    assertThat(client.toString()).endsWith(", closed}");
    String closed = "the VoiceLinkClient is closed: its services cannot be used any more; build a"
        + " new client";
    assertThatThrownBy(() -> authorizer.requestCode("SN-1"))
        .isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(made::execute).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> DeviceAuthorizer.builder(client))
        .isInstanceOf(IllegalStateException.class).hasMessage(closed);
  }

  @Test void aCallWhoseEnqueueWasRefusedByAClosedClientNeverCallsBack() {
    VoiceLinkClient client = VoiceLinkClient.builder().authUrl("https://auth.example.com")
        .callbackExecutor(Runnable::run).build();
    VoiceLinkCall<DeviceCode> made = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build()
        .requestCode("SN-1");
    client.close();
    List<CallResult<DeviceCode>> results = new ArrayList<>();

    assertThatThrownBy(() -> made.enqueue(results::add)).isInstanceOf(IllegalStateException.class)
        .hasMessage("the VoiceLinkClient is closed: its services cannot be used any more; build a"
            + " new client");
    made.cancel();
    assertThat(results).as("the app was told once, by the exception").isEmpty();
  }

  @Test void closeCancelsRunningCallsAndTheirCallbacksSaySo() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
      server.start();
      VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.url("/").toString()).build();
      List<CallResult<DeviceCode>> results = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch done = new CountDownLatch(1);
      VoiceLinkCall<DeviceCode> call = DeviceAuthorizer.builder(client).clientId("vl-speaker-01")
          .build().requestCode("SN-1");
      call.enqueue(result -> {
        results.add(result);
        done.countDown();
      });
      server.takeRequest(); // the request is on the server: the exchange is in flight
      client.close();
      assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(results).hasSize(1);
      assertThat(results.get(0).isCancelled()).isTrue();
      assertThat(call.isCancelled()).isTrue();
      assertThat(ClientCore.of(client).runningCalls()).isZero();
    }
  }

  @Test void aCallbackThatThrowsAnErrorOnCloseCannotCutTheCloseShort() throws Exception {
    // The calls' threads wait in the app's interceptor, where a cancel cannot reach them, so the
    // closing thread is the one that ends the calls and, on a same-thread callback executor, runs
    // their callbacks. (A thread woken by the cancel from a socket read may end its call first.)
    CountDownLatch entered = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    OkHttpClient app = new OkHttpClient.Builder().addInterceptor(chain -> {
      entered.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException();
      }
      return chain.proceed(chain.request());
    }).build();
    VoiceLinkClient client = VoiceLinkClient.builder().baseUrl("http://127.0.0.1:9/")
        .httpClient(app).callbackExecutor(Runnable::run).build();
    EntityWebApi api = EntityWebApi.builder(client).namespace("OS123")
        .accountKey("0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a").build();
    AssertionError bug = new AssertionError("app bug in a callback");
    List<CallResult<CheckResult>> others = Collections.synchronizedList(new ArrayList<>());
    api.checkResource("psn-1").enqueue(result -> {
      throw bug;
    });
    api.checkResource("psn-2").enqueue(others::add);
    assertThat(entered.await(10, TimeUnit.SECONDS)).as("both calls running").isTrue();

    assertThatThrownBy(client::close).isSameAs(bug);

    assertThat(others).as("the other call was still cancelled").hasSize(1);
    assertThat(others.get(0).isCancelled()).isTrue();
    release.countDown();
    assertThat(client.awaitTermination(10, TimeUnit.SECONDS)).as("and the client shut down").isTrue();
    client.close(); // done already: nothing to do, nothing thrown
  }

  @Test void closeLeavesTheAppsClientAndExecutorsAlone() throws Exception {
    OkHttpClient app = new OkHttpClient();
    ExecutorService callbacks = Executors.newSingleThreadExecutor();
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setBody("ok"));
      server.enqueue(new MockResponse().setBody("still ok"));
      server.start();
      VoiceLinkClient client = VoiceLinkClient.builder().httpClient(app)
          .callbackExecutor(callbacks).build();
      ClientCore.of(client).http().newCall(new Request.Builder().url(server.url("/")).build())
          .execute().close();
      assertThat(app.connectionPool().connectionCount()).isEqualTo(1);
      client.close();
      assertThat(app.dispatcher().executorService().isShutdown()).isFalse();
      assertThat(app.connectionPool().connectionCount()).isEqualTo(1);
      assertThat(callbacks.isShutdown()).isFalse();
      try (Response again = app.newCall(new Request.Builder().url(server.url("/")).build())
          .execute()) {
        assertThat(again.body().string()).isEqualTo("still ok");
      }
    } finally {
      callbacks.shutdown();
      app.connectionPool().evictAll();
    }
  }

  @Test void closeShutsDownWhatTheClientMadeItself() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setBody("ok"));
      server.start();
      VoiceLinkClient client = VoiceLinkClient.builder().build();
      OkHttpClient own = ClientCore.of(client).http();
      own.newCall(new Request.Builder().url(server.url("/")).build()).execute().close();
      assertThat(own.connectionPool().connectionCount()).isEqualTo(1);
      client.close();
      assertThat(own.dispatcher().executorService().isShutdown()).isTrue();
      // The connections are closed by the dispatcher's last task, off the closing thread.
      assertThat(own.dispatcher().executorService().awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(own.connectionPool().connectionCount()).isZero();
    }
  }

  /** ARCHITECTURE's rule for every executor of the SDK's: a forgotten close() keeps no JVM alive. */
  @Test void theClientsOwnHttpThreadsAreDaemons() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setBody("ok"));
      server.start();
      VoiceLinkClient client = VoiceLinkClient.builder().build();
      AtomicReference<Thread> ran = new AtomicReference<>();
      CountDownLatch done = new CountDownLatch(1);
      ClientCore.of(client).http().newBuilder()
          .addInterceptor(chain -> {
            ran.set(Thread.currentThread());
            return chain.proceed(chain.request());
          }).build()
          .newCall(new Request.Builder().url(server.url("/")).build()).enqueue(new Callback() {
            @Override public void onFailure(Call call, IOException e) {
              done.countDown();
            }

            @Override public void onResponse(Call call, Response response) {
              response.close();
              done.countDown();
            }
          });
      assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(ran.get().isDaemon()).as("the dispatcher's thread is a daemon").isTrue();
      client.close();
    }
  }

  @Test void callbacksRunOnTheExecutorTheAppChose() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setBody("{\"error\":\"invalid_client\"}"));
      server.start();
      ExecutorService callbacks = Executors.newSingleThreadExecutor(r -> new Thread(r, "app-ui"));
      VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.url("/").toString())
          .callbackExecutor(callbacks).build();
      AtomicReference<String> thread = new AtomicReference<>();
      AtomicReference<CallResult<DeviceCode>> result = new AtomicReference<>();
      CountDownLatch done = new CountDownLatch(1);
      DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build().requestCode("SN-1")
          .enqueue(r -> {
            thread.set(Thread.currentThread().getName());
            result.set(r);
            done.countDown();
          });
      assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(thread.get()).isEqualTo("app-ui");
      assertThat(result.get().failure()).hasMessage("invalid_client");
      client.close();
      callbacks.shutdown();
    }
  }

  @Test void aCallRunsOnce() throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().authUrl("http://127.0.0.1:9/").build();
    VoiceLinkCall<DeviceCode> call = DeviceAuthorizer.builder(client).clientId("vl-speaker-01")
        .build().requestCode("SN-1");
    call.cancel();
    assertThatThrownBy(call::execute).isInstanceOf(CallCancelledException.class)
        .hasMessage("the call was cancelled");
    assertThatThrownBy(call::execute).isInstanceOf(IllegalStateException.class)
        .hasMessage("the call already ran; make a new one");
    client.close();
  }
}
