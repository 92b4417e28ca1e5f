package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerBusyException;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PlatformToolsClientTest {
  final MockWebServer server = new MockWebServer();
  final AtomicInteger tokensAsked = new AtomicInteger();
  final ResourceDefinition contacts = ResourceDefinition.builder().name("OS123.contacts")
      .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();

  @AfterEach void tearDown() throws Exception {
    server.shutdown();
  }

  PlatformToolsClient client() {
    return PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString()).build())
        .userTokens(() -> {
          tokensAsked.incrementAndGet();
          return "user-token";
        }).build();
  }

  @Test void badRecordFailsBeforeAnyTokenOrRequest() {
    assertThatThrownBy(() -> client().uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"\",\"alias\":\"x\"}"), null).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 1 of OS123.contacts: main field name must not be empty");
    assertThat(tokensAsked).hasValue(0);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void missingTokenKindAndCustomDimensionAreMisuse() {
    ResourceDefinition songs = ResourceDefinition.builder().name("OS123.songs").mainField("name")
        .dimension(Dimension.APPLICATION).build();
    assertThatThrownBy(() -> client().uploadEntities(songs, RecordSource.fromText("{\"name\":\"a\"}"),
        null).execute()).isInstanceOf(IllegalStateException.class)
        .hasMessage("no token source for client uploads: set PlatformToolsClient.Builder.cloudTokens"
            + " (type client uses the cloud token of the client-credentials grant)");
    assertThatThrownBy(() -> client().uploadEntities(Dimension.custom("family"),
        ResourceName.parse("OS123.family"), RecordSource.fromText("{\"name\":\"a\"}"), null).execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the platform upload type is user, client or device; custom dimension family is"
            + " uploaded with EntityWebApi");
    // UTF-8 cannot carry a lone surrogate: the "?" sent in its place would name another owner.
    assertThatThrownBy(() -> client().uploadEntities(songs, RecordSource.fromText("{\"name\":\"a\"}"),
        "app\uD83D").execute()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("appid has a lone surrogate U+D83D");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void sendsJsonWithTheRawTokenAndReadsTheRefusal() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(400)
        .setBody("{\"code\":\"40005\",\"message\":\"no resource OS123.contacts is defined\",\"sid\":\"ptu1\"}"));
    assertThatThrownBy(() -> client().uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\",\"n\":1}\n\n{\"name\":\"b\",\"alias\":\"c\"}"),
        "5f1a2b3c").execute())
        .isInstanceOfSatisfying(PlatformUploadException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(400);
          assertThat(e.sid()).isEqualTo("ptu1");
        })
        .hasMessage("40005: no resource OS123.contacts is defined (sid ptu1)");
    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getPath()).isEqualTo("/p/tools/upload_entities");
    assertThat(sent.getHeader("Authorization")).isEqualTo("user-token");
    assertThat(sent.getHeader("Content-Type")).isEqualTo("application/json");
    assertThat(sent.getBody().readUtf8()).isEqualTo("{\"type\":\"user\",\"resource_name\":"
        + "\"OS123.contacts\",\"data\":[{\"name\":\"a\",\"alias\":\"\",\"n\":1},{\"name\":\"b\","
        + "\"alias\":\"c\"}],\"appid\":\"5f1a2b3c\"}");
  }

  @Test void aRefusalThatEchoesTheTokenNamesItNowhere() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(400)
        .setBody("{\"code\":\"40007\",\"message\":\"token user-token may not upload\",\"sid\":\"ptu2\"}"));
    assertThatThrownBy(() -> client().uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), "5f1a2b3c").execute())
        .isInstanceOf(PlatformUploadException.class)
        .hasMessage("40007: token ‹redacted› may not upload (sid ptu2)");
  }

  @Test void anUploadDroppedAfterItWasSentFailsAndIsNotSentAgain() throws Exception {
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu1\"}"));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu2\"}")
        .setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu3\"}"));
    PlatformToolsClient client = client();
    RecordSource records = RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}");

    assertThat(client.uploadEntities(contacts, records, null).execute()).isEqualTo("ptu1");
    // The second upload goes out on the pooled connection, which the server drops unanswered.
    assertThatThrownBy(() -> client.uploadEntities(contacts, records, null).execute())
        .isInstanceOf(IOException.class);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void anUploadRefusedWith401GoesOutAgainWhenTheAppsAuthenticatorAnswersIt() throws Exception {
    uploadAnsweredByTheAppsAuthenticatorAfter(0);
  }

  @Test void aSlowAuthenticatorsRequestIsSentOnAFreshConnectionNotTheRefusedOneAgain()
      throws Exception {
    // a token fetched over a slow network: the refusal's connection is then idle past the limit
    RecordedRequest[] sent = uploadAnsweredByTheAppsAuthenticatorAfter(2);

    assertThat(sent[0].getHeader("Authorization")).isEqualTo("user-token");
    assertThat(sent[1].getSequenceNumber()).as("on a new connection").isZero();
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  /**
   * Over HTTP/2 too, an upload sent again after a slow refresh (2 s on the client's clock) goes out on
   * a new connection, not as a second stream of the one that carried the refusal and rested since.
   */
  @Test void overHttp2AnUploadSentAgainAfterASlowRefreshGoesOutOnAFreshConnection() throws Exception {
    server.setProtocols(Collections.singletonList(Protocol.H2_PRIOR_KNOWLEDGE));
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu1\"}"));
    VirtualTime time = new VirtualTime();
    List<String> invalidated = new ArrayList<>();
    PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString()).clock(time)
        .httpClient(new OkHttpClient.Builder()
            .protocols(Collections.singletonList(Protocol.H2_PRIOR_KNOWLEDGE)).build())
        .build()).userTokens(new TokenSource() {
          @Override public String accessToken() {
            if (invalidated.isEmpty()) return "user-token";
            time.advance(2, TimeUnit.SECONDS); // a refresh over a slow network
            return "user-token-2";
          }

          @Override public void invalidate(String rejectedToken) {
            invalidated.add(rejectedToken);
          }
        }).build();

    assertThat(client.uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute()).isEqualTo("ptu1");

    RecordedRequest refused = server.takeRequest();
    RecordedRequest again = server.takeRequest();
    assertThat(invalidated).containsExactly("user-token");
    assertThat(again.getHeader("Authorization")).isEqualTo("user-token-2");
    assertThat(again.getBody().readUtf8()).isEqualTo(refused.getBody().readUtf8());
    assertThat(again.getSequenceNumber()).as("the first request of a new connection").isZero();
  }

  /**
   * OkHttp leaves the 401 open when the app's authenticator throws; the SDK closes it, so over
   * HTTP/2, where the connection stays in use for other requests, it rests from that answer, and an
   * upload 2 s later goes out on a new connection.
   */
  @Test void overHttp2AnAnswerAnAuthenticatorLeftOpenKeepsNoStaleConnectionInUse() throws Exception {
    server.setProtocols(Collections.singletonList(Protocol.H2_PRIOR_KNOWLEDGE));
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu2\"}"));
    VirtualTime time = new VirtualTime();
    PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString()).clock(time)
        .httpClient(new OkHttpClient.Builder()
            .protocols(Collections.singletonList(Protocol.H2_PRIOR_KNOWLEDGE))
            .authenticator((route, response) -> {
              throw new IOException("the user's session is gone");
            }).build())
        .build()).userTokens(() -> "user-token").build();
    RecordSource records = RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}");
    assertThatThrownBy(() -> client.uploadEntities(contacts, records, null).execute())
        .isInstanceOf(IOException.class).hasMessageContaining("the user's session is gone");
    time.advance(2, TimeUnit.SECONDS);

    assertThat(client.uploadEntities(contacts, records, null).execute()).isEqualTo("ptu2");

    assertThat(server.takeRequest().getSequenceNumber()).isZero();
    assertThat(server.takeRequest().getSequenceNumber()).as("the first request of a new connection")
        .isZero();
  }

  /**
   * A retrying interceptor of the app's (proceed once more after an IOException, as many Android apps
   * add) must not send an upload whose answer was lost: the server may have processed it.
   */
  @Test void anAppInterceptorThatRetriesCannotSendAnUploadWhoseAnswerWasLostAgain() {
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu1\"}"));
    List<String> retried = new ArrayList<>();

    assertNotSentAgain(new OkHttpClient.Builder().readTimeout(300, TimeUnit.MILLISECONDS)
        .addInterceptor(retrying(retried)).build());
    assertThat(retried).containsExactly("SocketTimeoutException");
  }

  /**
   * The answer came and its body broke as an app interceptor read it (a logger, outside the SDK's
   * gate): the server may have processed the upload, so a retrying interceptor cannot send it again.
   */
  @Test void anAppInterceptorThatRetriesCannotSendAnUploadWhoseAnswerBrokeAsItWasReadAgain() {
    String padded = "{\"sid\":\"ptu1\",\"padding\":\""
        + new String(new char[4096]).replace('\0', 'x') + "\"}";
    server.enqueue(new MockResponse().setBody(padded)
        .setSocketPolicy(SocketPolicy.DISCONNECT_DURING_RESPONSE_BODY));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu2\"}"));
    List<String> retried = new ArrayList<>();

    assertNotSentAgain(new OkHttpClient.Builder()
        .addInterceptor(retrying(retried))
        .addInterceptor(chain -> {
          Response response = chain.proceed(chain.request());
          response.peekBody(Long.MAX_VALUE); // logs it
          return response;
        }).build());
    assertThat(retried).hasSize(1);
  }

  /** An app's interceptor that proceeds once more after an IOException, noting its class. */
  private static Interceptor retrying(List<String> retried) {
    return chain -> {
      try {
        return chain.proceed(chain.request());
      } catch (IOException e) {
        retried.add(e.getClass().getSimpleName()); // "timeout" or "Read timed out", as OkHttp words it
        return chain.proceed(chain.request());
      }
    };
  }

  /** An upload through {@code app} fails, its second try refused by the SDK: the server saw one. */
  private void assertNotSentAgain(OkHttpClient app) {
    PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString()).httpClient(app).build())
        .userTokens(() -> "user-token").build();

    assertThatThrownBy(() -> client.uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute())
        .isInstanceOf(IOException.class).hasMessage("not sent again: an earlier attempt of this call"
            + " was written and its answer lost, and the server may have processed it");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /**
   * HTTP/2: a stream the server refused unprocessed (one that crossed the GOAWAY of a server closing
   * an idle connection) is sent again, though its body was written.
   */
  @Test void overHttp2AnUploadWhoseStreamTheServerRefusedUnprocessedIsSentAgain() throws Exception {
    server.setProtocols(Collections.singletonList(Protocol.H2_PRIOR_KNOWLEDGE));
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.RESET_STREAM_AT_START)
        .setHttp2ErrorCode(7)); // REFUSED_STREAM
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu1\"}"));
    PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString())
        .httpClient(new OkHttpClient.Builder()
            .protocols(Collections.singletonList(Protocol.H2_PRIOR_KNOWLEDGE)).build())
        .build()).userTokens(() -> "user-token").build();

    assertThat(client.uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute()).isEqualTo("ptu1");

    assertThat(server.getRequestCount()).isEqualTo(2);
    server.takeRequest(); // refused as it came
    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("{\"type\":\"user\",\"resource_name\":\"OS123.contacts\","
            + "\"data\":[{\"name\":\"a\",\"alias\":\"\"}]}");
  }

  /**
   * A server whose keep-alive is shorter than the SDK's limit (HAProxy's is often a few hundred ms)
   * closed the connection before the next upload of a burst: its close had arrived, so the upload goes
   * out on a new connection instead of failing on the closed one.
   */
  @Test void anUploadAfterTheServersCloseArrivedGoesOutOnANewConnection() throws Exception {
    VirtualTime time = new VirtualTime();
    try (ClosingAfterEachAnswer quick = new ClosingAfterEachAnswer()) {
      PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
          .platformUrl(quick.url()).clock(time).build()).userTokens(() -> "user-token").build();
      RecordSource records = RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}");
      assertThat(client.uploadEntities(contacts, records, null).execute()).isEqualTo("ptu1");
      assertThat(quick.closed.await(10, TimeUnit.SECONDS)).as("the server closed it").isTrue();
      time.advance(600, TimeUnit.MILLISECONDS); // within the limit: the connection would be reused

      assertThat(client.uploadEntities(contacts, records, null).execute()).isEqualTo("ptu1");

      assertThat(quick.requestsPerConnection).containsExactly(1, 1);
    }
  }

  /** An HTTP/1.1 server that answers one upload per connection, then closes it at once. */
  private static final class ClosingAfterEachAnswer implements AutoCloseable {
    final java.net.ServerSocket socket = new java.net.ServerSocket(0, 50,
        java.net.InetAddress.getLoopbackAddress());
    final List<Integer> requestsPerConnection = Collections.synchronizedList(new ArrayList<>());
    final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
    final Thread thread = new Thread(this::serve, "closing-after-each-answer");

    ClosingAfterEachAnswer() throws IOException {
      thread.start();
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/p";
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (java.net.Socket connection = socket.accept()) {
          okio.BufferedSource in = okio.Okio.buffer(okio.Okio.source(connection));
          long length = 0;
          for (String line; !(line = in.readUtf8LineStrict()).isEmpty(); ) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
              length = Long.parseLong(line.substring(15).trim());
            }
          }
          in.skip(length);
          requestsPerConnection.add(1); // before answering: the client may assert as soon as it reads
          String body = "{\"sid\":\"ptu1\"}";
          connection.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
              + "Content-Length: " + body.length() + "\r\n\r\n" + body)
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
          return; // closed
        }
        closed.countDown();
      }
    }

    @Override public void close() throws Exception {
      socket.close();
      thread.join(10_000);
    }
  }

  /**
   * An upload refused with 401, which the app's authenticator answers with {@code user-token-2} after
   * {@code seconds} on the client's clock: it goes out again with that token and the same body.
   * Returns the refused request and the one sent again.
   */
  private RecordedRequest[] uploadAnsweredByTheAppsAuthenticatorAfter(long seconds) throws Exception {
    VirtualTime time = new VirtualTime();
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu1\"}"));
    PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString()).clock(time)
        .httpClient(new OkHttpClient.Builder().authenticator((route, response) -> {
          time.advance(seconds, TimeUnit.SECONDS);
          return response.request().newBuilder().header("Authorization", "user-token-2").build();
        }).build())
        .build()).userTokens(() -> "user-token").build();

    assertThat(client.uploadEntities(contacts, RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"),
        null).execute()).isEqualTo("ptu1");
    RecordedRequest refused = server.takeRequest();
    RecordedRequest again = server.takeRequest();
    assertThat(again.getHeader("Authorization")).as("the authenticator's request, not the refused one")
        .isEqualTo("user-token-2");
    assertThat(again.getBody().readUtf8()).isEqualTo(refused.getBody().readUtf8());
    return new RecordedRequest[] {refused, again};
  }

  @Test void anUploadTheAppsAuthenticatorSentAgainIsNotSentAThirdTime() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(401));
    server.enqueue(new MockResponse().setResponseCode(401)
        .setBody("{\"code\":\"40103\",\"message\":\"the token is unknown or has expired\"}"));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu1\"}"));
    List<String> invalidated = new ArrayList<>();
    PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString())
        .httpClient(new OkHttpClient.Builder().authenticator((route, response) ->
            response.priorResponse() != null ? null
                : response.request().newBuilder().header("Authorization", "user-token-2").build()).build())
        .build()).userTokens(new TokenSource() {
          @Override public String accessToken() {
            return "user-token";
          }

          @Override public void invalidate(String rejectedToken) {
            invalidated.add(rejectedToken);
          }
        }).build();

    assertThatThrownBy(() -> client.uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute())
        .isInstanceOfSatisfying(PlatformUploadException.class,
            e -> assertThat(e.httpStatus()).isEqualTo(401));
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(invalidated).containsExactly("user-token-2");
  }

  /**
   * As above with a slow authenticator (2 s on the client's clock): its request goes out on a fresh
   * connection, and the 401 it gets still shows the first as its prior response, so that the
   * authenticator gives up as it would have on the refused connection.
   */
  @Test void aSlowAuthenticatorsRefusedRequestIsNotAnsweredAgain() throws Exception {
    for (int i = 0; i < 8; i++) {
      server.enqueue(new MockResponse().setResponseCode(401)
          .setBody("{\"code\":\"40103\",\"message\":\"the token is unknown or has expired\"}"));
    }
    VirtualTime time = new VirtualTime();
    AtomicInteger asked = new AtomicInteger();
    PlatformToolsClient client = PlatformToolsClient.builder(VoiceLinkClient.builder()
        .platformUrl(server.url("/p").toString()).clock(time)
        .httpClient(new OkHttpClient.Builder().authenticator((route, response) -> {
          asked.incrementAndGet();
          if (response.priorResponse() != null) return null;
          time.advance(2, TimeUnit.SECONDS); // a token refreshed over a slow network
          return response.request().newBuilder().header("Authorization", "user-token-2").build();
        }).build())
        .build()).userTokens(() -> "user-token").build();

    assertThatThrownBy(() -> client.uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute())
        .isInstanceOfSatisfying(PlatformUploadException.class,
            e -> assertThat(e.httpStatus()).isEqualTo(401));
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(asked).as("the refresh, then the look that gives up").hasValue(2);
    assertThat(server.takeRequest().getHeader("Authorization")).isEqualTo("user-token");
    RecordedRequest again = server.takeRequest();
    assertThat(again.getHeader("Authorization")).isEqualTo("user-token-2");
    assertThat(again.getSequenceNumber()).as("on a new connection").isZero();
  }

  @Test void anUploadAnsweredBusyWithoutAWaitIsNotSentAgainByTheHttpClient() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "0"));
    server.enqueue(new MockResponse().setBody("{\"sid\":\"ptu1\"}"));
    assertThatThrownBy(() -> client().uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute())
        .isInstanceOfSatisfying(ServerBusyException.class,
            e -> assertThat(e.retryAfterMillis()).isZero())
        .hasMessage("malformed upload_entities response (HTTP 503): the body is empty or cut off;"
            + " the server asks to retry after 0 s");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void aRedirectIsNotFollowedWithTheRecords() throws Exception {
    MockWebServer elsewhere = new MockWebServer();
    elsewhere.enqueue(new MockResponse().setBody("{\"sid\":\"ptu9\"}")); // a redirect followed ends at once
    try {
      server.enqueue(new MockResponse().setResponseCode(308)
          .setHeader("Location", elsewhere.url("/upload").toString()));
      assertThatThrownBy(() -> client().uploadEntities(contacts,
          RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute())
          .isExactlyInstanceOf(IOException.class)
          .hasMessage("HTTP 308, a redirect: upload_entities requests are not sent on to another"
              + " address, as the user's records would go with them; configure the address the"
              + " server names");
      assertThat(server.getRequestCount()).isEqualTo(1);
      assertThat(elsewhere.getRequestCount()).isZero();
    } finally {
      elsewhere.shutdown();
    }
  }
}
