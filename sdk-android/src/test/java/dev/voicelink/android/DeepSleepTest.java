package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.Clock;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.SinceBootClock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadows.ShadowSystemClock;

/**
 * A device that sleeps: Android's {@code System.nanoTime()} stops in deep sleep, so the SDK's clock
 * on Android, {@link SinceBootClock}, counts it. With the looper paused, Robolectric's {@code
 * SystemClock} moves only when the test moves it, as a sleeping device's would; {@code
 * System.nanoTime()} goes on at its own small pace. Robolectric runs on a JVM, where {@code
 * Clock.system()} is the JVM's, so the clients here are given the Android clock.
 */
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
public final class DeepSleepTest {
  private final MockWebServer server = new MockWebServer();
  private VoiceLinkClient client;

  @After public void tearDown() throws Exception {
    if (client != null) client.close();
    server.shutdown();
  }

  @Test public void theAndroidClockCountsTheTimeTheDeviceSleeps() {
    Clock clock = SinceBootClock.find();
    long before = clock.monotonicNanos();
    ShadowSystemClock.advanceBy(Duration.ofHours(1));

    assertThat(clock.monotonicNanos() - before).isEqualTo(TimeUnit.HOURS.toNanos(1));
    assertThat(clock).hasToString("Clock.system()");
  }

  /**
   * The token expires and the server closes its kept-alive connection while the device sleeps. On
   * waking, the token is refreshed before it is handed out, and the refresh, a request that must not
   * be sent twice, goes on a new connection, not on the one the server closed.
   */
  @Test public void aTokenThatExpiredDuringSleepIsRefreshedOnANewConnection() throws Exception {
    server.enqueue(tokenAnswer("at-2", "rt-2"));
    server.enqueue(tokenAnswer("at-3", "rt-3"));
    server.start();
    client = VoiceLinkClient.builder().clock(SinceBootClock.find()).build();
    OAuthServer oauth = OAuthServer.builder().tokenEndpoint(server.url("/token").toString()).build();
    TokenRecord record = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
        .standard(null, oauth.tokenEndpoint(), OAuthServer.ClientAuthentication.NONE)
        .clientId("speaker-public").tokenType("Bearer").accessToken("at-1").refreshToken("rt-1")
        .expiresInSeconds(3600).receivedAtEpochMillis(System.currentTimeMillis()).build();
    TokenManager tokens = TokenManager.builder(client, oauth).deviceGrant("speaker-public")
        .store(new InMemoryTokenStore(record)).build();
    assertThat(tokens.refresh().execute().accessToken()).isEqualTo("at-2");

    ShadowSystemClock.advanceBy(Duration.ofHours(2));

    assertThat(tokens.accessToken()).isEqualTo("at-3");
    RecordedRequest first = server.takeRequest(10, TimeUnit.SECONDS);
    RecordedRequest afterSleep = server.takeRequest(10, TimeUnit.SECONDS);
    assertThat(first.getBody().readUtf8())
        .isEqualTo("grant_type=refresh_token&refresh_token=rt-1&client_id=speaker-public");
    assertThat(afterSleep.getBody().readUtf8())
        .isEqualTo("grant_type=refresh_token&refresh_token=rt-2&client_id=speaker-public");
    assertThat(afterSleep.getSequenceNumber()).as("the first request on its connection").isZero();
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  private static MockResponse tokenAnswer(String accessToken, String refreshToken) {
    return new MockResponse().setHeader("Content-Type", "application/json")
        .setBody("{\"access_token\":\"" + accessToken + "\",\"token_type\":\"Bearer\","
            + "\"expires_in\":3600,\"refresh_token\":\"" + refreshToken + "\"}");
  }
}
