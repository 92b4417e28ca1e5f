package dev.voicelink.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.voicelink.core.CapturedLog;
import dev.voicelink.core.FakeTransport;
import dev.voicelink.core.SecretScan;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes what the authorization service answers: the device_code answer (protocol 2.1), token answers of the
 * refresh and client-credentials grants (2.2, 2.3) and the stored form of a token record. Each input runs
 * the real request-and-parse path over an in-process transport. Property: a value or the documented
 * error (IOException, AuthorizationException), never another exception, never a secret in a message,
 * never a stored token lost.
 *
 * <p>Input layout: first byte picks the HTTP status ({@link FakeTransport#STATUSES}, index = byte % 8;
 * in {@link #tokenAnswer} bit 3 of it also picks the cloud grant), the rest is the body.
 */
class AuthResponseFuzzTest {
  private static final String CLIENT_ID = "vl-speaker-01";
  private static final String CLIENT_SECRET = "cs-9f2e4d6b8a0c1e3f";
  private static final String OLD_ACCESS = "AT-old-5c7e9a1b3d5f7a9c";
  private static final String OLD_REFRESH = "RT-old-8d1f3a5c2b4e6a8c";
  private static final String[] SECRET_FIELDS = {"access_token", "refresh_token", "device_code"};

  private final FakeTransport transport = new FakeTransport();
  private final VirtualTime time = new VirtualTime();
  private final VoiceLinkClient config = VoiceLinkClient.builder()
      .authUrl("https://auth.example/")
      .httpClient(transport.client())
      .clock(time)
      .scheduler(time)
      .build();
  private final DeviceAuthorizer authorizer =
      DeviceAuthorizer.builder(config).clientId(CLIENT_ID).build();

  @FuzzTest
  void deviceCodeAnswer(byte[] input) {
    byte[] body = FakeTransport.body(input);
    transport.answer(FakeTransport.status(input), "application/json; charset=utf-8", body);
    List<String> secrets = SecretScan.secretsIn(new String(body, UTF_8), SECRET_FIELDS);
    CapturedLog log = CapturedLog.install();
    try {
      DeviceCode code = authorizer.requestCode("SN-0001-DEMO").execute();
      assertThat(code.deviceCode()).isNotEmpty();
      assertThat(code.userCode()).isNotEmpty();
      assertThat(code.intervalSeconds()).isPositive();
      assertThat(code.expiresInSeconds()).isPositive();
      // The secrets worth scanning for, as everywhere else: a short device code the server also
      // repeats in a public field (input device-code-inside-verification-uri) is not the SDK's leak.
      SecretScan.assertNotIn(code.toString(), secrets, "DeviceCode");
    } catch (ServerRefusalException | IOException e) {
      SecretScan.assertNotIn(e, secrets);
    }
    SecretScan.assertNotIn(log.text(), secrets, "log");
  }

  @FuzzTest
  void tokenAnswer(byte[] input) throws IOException {
    boolean cloud = input.length > 0 && (input[0] & 8) != 0;
    byte[] body = FakeTransport.body(input);
    transport.answer(FakeTransport.status(input), "application/json; charset=utf-8", body);
    TokenRecord old = TokenRecord.builder()
        .grant(cloud ? TokenRecord.Grant.CLOUD : TokenRecord.Grant.DEVICE)
        .clientId(CLIENT_ID)
        .accessToken(OLD_ACCESS)
        .refreshToken(OLD_REFRESH)
        .expiresInSeconds(3600)
        .receivedAtEpochMillis(time.wallMillis())
        .build();
    InMemoryTokenStore store = new InMemoryTokenStore(old);
    TokenManager.Builder builder = TokenManager.builder(config).store(store);
    if (cloud) builder.cloudGrant(CLIENT_ID, CLIENT_SECRET);
    else builder.deviceGrant(CLIENT_ID);
    TokenManager manager = builder.build();

    String bodyText = new String(body, UTF_8);
    CapturedLog log = CapturedLog.install();
    TokenRecord fresh = null;
    Exception refused = null;
    try {
      fresh = manager.refresh().execute();
    } catch (ServerRefusalException | IOException e) {
      refused = e;
    }
    List<String> secrets = new ArrayList<>(SecretScan.secretsIn(bodyText, SECRET_FIELDS));
    secrets.addAll(SecretScan.ownSecrets(transport.lastRequest(), bodyText,
        OLD_ACCESS, OLD_REFRESH, CLIENT_SECRET));
    if (fresh != null) {
      assertThat(fresh.accessToken()).isNotEmpty();
      assertThat(store.load()).isEqualTo(fresh);
      SecretScan.assertNotIn(fresh.toString(), secrets, "TokenRecord");
    } else {
      SecretScan.assertNotIn(refused, secrets);
      // The record is kept; an unusable answer that still names a new refresh token has voided the
      // old one (protocol 3.2), so that one is kept with the current access token.
      TokenRecord stored = store.load();
      assertThat(stored.newBuilder().refreshToken(OLD_REFRESH).build())
          .as("the stored record after a failed refresh").isEqualTo(old);
      if (!OLD_REFRESH.equals(stored.refreshToken())) {
        assertThat(stored.refreshToken()).as("a refresh token the answer named")
            .isIn(namedRefreshToken(body), bodyText.contains(stored.refreshToken())
                ? stored.refreshToken() : null);
      }
    }
    SecretScan.assertNotIn(manager.toString(), secrets, "TokenManager");
    SecretScan.assertNotIn(log.text(), secrets, "log");
  }

  /** The answer's refresh_token as JSON reads it (escapes decoded), or null. */
  private static @Nullable Object namedRefreshToken(byte[] body) {
    try {
      com.squareup.moshi.JsonReader reader =
          com.squareup.moshi.JsonReader.of(new okio.Buffer().write(body));
      reader.setLenient(true);
      Object value = reader.readJsonValue();
      return value instanceof java.util.Map ? ((java.util.Map<?, ?>) value).get("refresh_token") : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  @FuzzTest
  void storageJson(byte[] input) {
    String text = new String(input, UTF_8);
    List<String> secrets = SecretScan.secretsIn(text, SECRET_FIELDS);
    try {
      TokenRecord record = TokenRecord.fromStorageJson(text);
      assertThat(TokenRecord.fromStorageJson(record.toStorageJson())).isEqualTo(record);
      SecretScan.assertNotIn(record.toString(), secrets, "TokenRecord");
    } catch (IOException e) {
      SecretScan.assertNotIn(e, secrets);
    }
  }
}
