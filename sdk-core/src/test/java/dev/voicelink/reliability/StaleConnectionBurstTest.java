package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Once-only requests after a burst and a rest: the burst leaves as many connections idle as it ran in
 * parallel, and after the rest every one of them is stale. The first request refuses the one it is
 * handed and the others go with it, so it goes out on its second connection, a new one, however many
 * the burst left (docs/reliability.md, "No connection idle for a second or more").
 */
class StaleConnectionBurstTest {
  static final int BURST = 5;

  final VirtualTime time = new VirtualTime(1_763_712_000_000L);
  final MockWebServer server = new MockWebServer();
  final CountDownLatch burstInFlight = new CountDownLatch(BURST);
  final AtomicInteger tokenRequests = new AtomicInteger();
  final AtomicInteger acquired = new AtomicInteger();
  final AtomicInteger connected = new AtomicInteger();
  final ExecutorService burst = Executors.newFixedThreadPool(BURST);
  VoiceLinkClient client;

  @AfterEach void tearDown() throws Exception {
    burst.shutdownNow();
    if (client != null) client.close();
    server.shutdown();
  }

  @Test void theFirstRequestAfterARestRefusesOneStaleConnectionAndTheOthersGoWithIt()
      throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        if (request.getPath().equals("/.well-known/openid-configuration")) {
          String issuer = server.url("/").toString().replaceAll("/$", "");
          return json("{\"issuer\":\"" + issuer + "\",\"token_endpoint\":\"" + issuer + "/token\"}");
        }
        if (tokenRequests.incrementAndGet() <= BURST) {
          // Held until the whole burst is here: each request of it has a connection of its own.
          burstInFlight.countDown();
          burstInFlight.await(10, TimeUnit.SECONDS);
        }
        return json("{\"access_token\":\"at-" + tokenRequests.get()
            + "\",\"token_type\":\"Bearer\",\"expires_in\":3600}");
      }
    });
    server.start();
    OkHttpClient app = new OkHttpClient.Builder().eventListenerFactory(call -> new EventListener() {
      @Override public void connectStart(Call c, java.net.InetSocketAddress address,
          java.net.Proxy proxy) {
        connected.incrementAndGet();
      }

      @Override public void connectionAcquired(Call c, Connection connection) {
        acquired.incrementAndGet();
      }
    }).build();
    client = VoiceLinkClient.builder().httpClient(app).clock(time).scheduler(time)
        .callbackExecutor(Runnable::run).build();
    OAuthServer oauth = OAuthServer.discover(client, server.url("/").toString()).execute();

    List<Future<String>> tokens = new ArrayList<>();
    for (int i = 0; i < BURST; i++) {
      TokenManager manager = cloudTokens(oauth);
      tokens.add(burst.submit(manager::accessToken));
    }
    for (Future<String> token : tokens) assertThat(token.get(10, TimeUnit.SECONDS)).startsWith("at-");
    assertThat(connected.get()).as("connections the burst opened (discovery's is the app's)")
        .isEqualTo(1 + BURST);

    time.advance(2, TimeUnit.SECONDS);
    int acquiredBefore = acquired.get();
    int connectedBefore = connected.get();
    assertThat(cloudTokens(oauth).accessToken()).isEqualTo("at-" + (BURST + 1));
    // One stale connection refused, then a new one. None refused when the pool's own keep-alive
    // (real time, the same second) dropped them first; five, one after another, if they stayed.
    assertThat(acquired.get() - acquiredBefore).as("connections the request was handed")
        .isBetween(1, 2);
    assertThat(connected.get() - connectedBefore).as("connections it opened").isEqualTo(1);
    assertThat(tokenRequests.get()).as("token requests the server read").isEqualTo(BURST + 1);
  }

  private TokenManager cloudTokens(OAuthServer oauth) {
    return TokenManager.builder(client, oauth).cloudGrant("backend", "s3cret")
        .store(new InMemoryTokenStore()).build();
  }

  private static MockResponse json(String body) {
    return new MockResponse().setHeader("Content-Type", "application/json").setBody(body);
  }
}
