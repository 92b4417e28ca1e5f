package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Redact;
import dev.voicelink.core.internal.Scrub;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import okhttp3.FormBody;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import okio.Buffer;
import okio.BufferedSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpLoggingTest {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  private static final String ACCESS = "at_0123456789abcdef0123456789abcdef";
  private static final String REFRESH = "rt_fedcba9876543210fedcba9876543210";

  private final MockWebServer server = new MockWebServer();
  private final VirtualTime time = new VirtualTime();
  private LogCapture log;

  @BeforeEach void start() throws IOException {
    server.start();
    log = LogCapture.install();
  }

  @AfterEach void stop() throws IOException {
    log.close();
    server.shutdown();
  }

  private OkHttpClient client(HttpLogLevel level) {
    return ClientCore.of(VoiceLinkClient.builder().httpLogging(level).clock(time).scheduler(time)
        .build()).http();
  }

  private Request.Builder request(String path) {
    return new Request.Builder().url(server.url(path));
  }

  @Test void defaultIsNoneAndLogsNothing() throws IOException {
    VoiceLinkClient config = VoiceLinkClient.builder().build();
    server.enqueue(new MockResponse().setBody("{}"));

    ClientCore.of(config).http().newCall(request("/x").build()).execute().close();

    assertThat(ClientCore.of(config).httpLogger()).isNull();
    assertThat(log.messages("http")).isEmpty();
  }

  @Test void nullLevelIsMisuse() {
    assertThatThrownBy(() -> VoiceLinkClient.builder().httpLogging(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("httpLogging must not be null");
  }

  @Test void basicIsOneLineEachWay() throws IOException {
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) {
        time.advance(1234, TimeUnit.MILLISECONDS); // the server takes its time, on the client's clock
        return new MockResponse().setBody("{\"ok\":true}");
      }
    });

    client(HttpLogLevel.BASIC).newCall(request("/oauth/ivs/token")
        .post(RequestBody.create("{}", JSON)).build()).execute().close();

    List<String> lines = log.messages("http");
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).isEqualTo("--> POST " + server.url("/oauth/ivs/token")
        + " (2-byte body)");
    assertThat(lines.get(1)).isEqualTo("<-- 200 OK " + server.url("/oauth/ivs/token")
        + " (1234 ms, 11-byte body)");
  }

  @Test void headersAreLoggedWithCredentialsAndSignaturesRedacted() throws Exception {
    server.enqueue(new MockResponse().setBody("{}").addHeader("Set-Cookie", "session=abc123")
        .addHeader("X-Request-Id", "r-1"));
    String checksum = "0123456789abcdef0123456789abcdef";

    client(HttpLogLevel.HEADERS).newCall(request("/v2/voicelink/entity/check-resource")
        .header("Authorization", ACCESS)
        .header("X-NameSpace", "OS123")
        .header("X-Nonce", "n0nce")
        .header("X-CurTime", "1763712000")
        .header("X-CheckSum", checksum)
        .header("Cookie", "session=abc123")
        .build()).execute().close();

    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getHeader("Authorization")).isEqualTo(ACCESS);
    assertThat(sent.getHeader("X-CheckSum")).isEqualTo(checksum);
    assertThat(sent.getHeader("X-Nonce")).isEqualTo("n0nce");
    String request = log.messages("http").get(0);
    assertThat(request)
        .contains("\nAuthorization: " + Redact.secret(ACCESS) + "\n")
        .contains("\nX-NameSpace: OS123\n")
        .contains("\nX-Nonce: ‹redacted›\n")
        .contains("\nX-CurTime: 1763712000\n")
        .contains("\nX-CheckSum: " + Redact.secret(checksum) + "\n")
        .contains("\nCookie: ‹redacted›")
        .contains("\nHost: ")
        .doesNotContain(ACCESS).doesNotContain(checksum).doesNotContain("n0nce")
        .doesNotContain("abc123");
    String response = log.messages("http").get(1);
    assertThat(response).contains("\nSet-Cookie: ‹redacted›").contains("\nX-Request-Id: r-1")
        .doesNotContain("abc123");
  }

  @Test void bodiesAreLoggedWithSecretFieldsRedactedAndTheWireUnchanged() throws Exception {
    String tokenRecord = "{\"token_type\":\"bearer\",\"access_token\":\"" + ACCESS
        + "\",\"refresh_token\":\"" + REFRESH + "\",\"expires_in\":8640000,\"created_at\":1763712000}";
    server.enqueue(new MockResponse().setBody(tokenRecord)
        .setHeader("Content-Type", "application/json"));
    String refreshRequest = "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + REFRESH + "\"}";

    try (Response response = client(HttpLogLevel.BODY).newCall(request("/oauth/ivs/token")
        .post(RequestBody.create(refreshRequest, JSON)).build()).execute()) {
      assertThat(response.body().string()).isEqualTo(tokenRecord); // peeked, not consumed
    }

    assertThat(server.takeRequest().getBody().readUtf8()).isEqualTo(refreshRequest);
    List<String> lines = log.messages("http");
    assertThat(lines).hasSize(3);
    assertThat(lines.get(1)).isEqualTo("--> body of POST " + server.url("/oauth/ivs/token") + "\n"
        + "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + Redact.secret(REFRESH) + "\"}");
    assertThat(lines.get(2)).endsWith("\n{\"token_type\":\"bearer\",\"access_token\":\""
        + Redact.secret(ACCESS) + "\",\"refresh_token\":\"" + Redact.secret(REFRESH)
        + "\",\"expires_in\":8640000,\"created_at\":1763712000}");
    assertThat(log.text()).doesNotContain(ACCESS).doesNotContain(REFRESH);
  }

  @Test void anAnswerThatEchoesTheRequestsSecretsIsLoggedWithoutThem() throws Exception {
    server.enqueue(new MockResponse().setStatus("HTTP/1.1 400 Token " + ACCESS + " Expired")
        .setHeader("Content-Type", "application/json")
        .setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\"token "
            + ACCESS + " expired\"")
        .setBody("{\"error\":\"invalid_refresh_token\",\"message\":\"refresh token " + REFRESH
            + " is revoked\"}"));
    String refreshRequest = "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + REFRESH + "\"}";

    // As the SDK sends its authorization requests: their body remembered for this
    try (Response response = client(HttpLogLevel.BODY).newCall(Scrub.rememberingBody(
        request("/oauth/ivs/token").header("Authorization", ACCESS)
            .post(RequestBody.create(refreshRequest, JSON)).build())).execute()) {
      assertThat(response.body().string()).contains(REFRESH); // the app still reads what came
    }

    List<String> lines = log.messages("http");
    assertThat(lines.get(2)).startsWith("<-- 400 Token ‹redacted› Expired ")
        .contains("WWW-Authenticate: Bearer error=\"invalid_token\","
        + " error_description=\"token ‹redacted› expired\"")
        .endsWith("\n{\"error\":\"invalid_refresh_token\",\"message\":\"refresh token ‹redacted›"
            + " is revoked\"}");
    assertThat(log.text()).doesNotContain(ACCESS).doesNotContain(REFRESH);
  }

  @Test void formBodiesRedactSecretsAndShowEntityDataOnlyBySize() throws Exception {
    String deviceCode = "dc_00112233445566778899aabbccddeeff";
    server.enqueue(new MockResponse().setBody("{\"device_code\":\"" + deviceCode
        + "\",\"user_code\":\"BCDFGHJK\",\"interval\":2}").setHeader("Content-Type",
        "application/json"));
    server.enqueue(new MockResponse().setBody("{}"));
    OkHttpClient client = client(HttpLogLevel.BODY);

    client.newCall(request("/oauth/ivs/device_code").post(new FormBody.Builder()
        .add("client_id", "vl-speaker-01").add("scope", "user_ivs_all")
        .add("client_secret", "s3cr3t-client-secret-value").build()).build()).execute().close();
    client.newCall(request("/v2/voicelink/entity/upload-resource").post(new FormBody.Builder()
        .add("appid", "5f1a2b3c").add("res_name", "OS123.contacts")
        .add("data", "eyJuYW1lIjoiWmhhbmcgU2FuIn0=").build()).build()).execute().close();

    assertThat(server.takeRequest().getBody().readUtf8())
        .isEqualTo("client_id=vl-speaker-01&scope=user_ivs_all"
            + "&client_secret=s3cr3t-client-secret-value");
    List<String> lines = log.messages("http");
    assertThat(lines.get(1)).endsWith("\nclient_id=vl-speaker-01&scope=user_ivs_all&client_secret="
        + Redact.secret("s3cr3t-client-secret-value"));
    assertThat(lines.get(2)).endsWith("\n{\"device_code\":\"" + Redact.secret(deviceCode)
        + "\",\"user_code\":\"BCDFGHJK\",\"interval\":2}");
    assertThat(lines.get(4)).endsWith("\nappid=5f1a2b3c&res_name=OS123.contacts"
        + "&data=‹30 characters›"); // as sent: "=" is %3D
    assertThat(log.text()).doesNotContain(deviceCode).doesNotContain("s3cr3t")
        .doesNotContain("eyJuYW1l");
  }

  @Test void secretQueryParametersAreRedacted() throws Exception {
    server.enqueue(new MockResponse());

    client(HttpLogLevel.BASIC).newCall(request("/cb?state=s1&access_token=" + ACCESS).build())
        .execute().close();

    assertThat(server.takeRequest().getPath()).isEqualTo("/cb?state=s1&access_token=" + ACCESS);
    assertThat(log.messages("http").get(0)).isEqualTo("--> GET " + server.url("/cb")
        + "?state=s1&access_token=" + Redact.secret(ACCESS));
  }

  /** Like an upload of a large records file: can be written once only. */
  private static final class OneShotBody extends RequestBody {
    static final String PREFIX = "appid=5f1a2b3c&refresh_token=" + REFRESH + "&data=";
    final long length;
    final AtomicInteger writes = new AtomicInteger();

    OneShotBody(long length) {
      this.length = length;
    }

    @Override public @Nullable MediaType contentType() {
      return MediaType.get("application/x-www-form-urlencoded; charset=utf-8");
    }

    @Override public long contentLength() {
      return length;
    }

    @Override public boolean isOneShot() {
      return true;
    }

    @Override public void writeTo(BufferedSink sink) throws IOException {
      if (writes.incrementAndGet() > 1) throw new IllegalStateException("written twice");
      sink.writeUtf8(PREFIX);
      long left = length - PREFIX.length();
      byte[] chunk = new byte[8192];
      java.util.Arrays.fill(chunk, (byte) 'A');
      while (left > 0) {
        int n = (int) Math.min(chunk.length, left);
        sink.write(chunk, 0, n);
        left -= n;
      }
    }
  }

  @Test void aLargeOneShotBodyIsWrittenOnceAndOnlyItsBeginningLogged() throws Exception {
    server.enqueue(new MockResponse().setBody("{}"));
    OneShotBody body = new OneShotBody(8L * 1024 * 1024);
    assertThat(OneShotBody.PREFIX).hasSize(70);

    client(HttpLogLevel.BODY).newCall(request("/upload").post(body).build()).execute().close();

    assertThat(body.writes.get()).isEqualTo(1);
    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getBodySize()).isEqualTo(8L * 1024 * 1024);
    assertThat(sent.getHeader("Content-Length")).isEqualTo(String.valueOf(8L * 1024 * 1024));
    String logged = log.messages("http").get(1);
    assertThat(logged).isEqualTo("--> body of POST " + server.url("/upload") + "\n"
        + "appid=5f1a2b3c&refresh_token=" + Redact.secret(REFRESH) + "&data=‹4026+ characters›\n"
        + "(first 4096 of 8388608 bytes written)");
  }

  @Test void aLargeResponseIsPeekedUpToTheBoundAndStillReadWhole() throws Exception {
    StringBuilder big = new StringBuilder("[");
    for (int i = 0; i < 2000; i++) big.append(i == 0 ? "" : ",").append("{\"n\":").append(i).append('}');
    big.append(']');
    server.enqueue(new MockResponse().setBody(big.toString())
        .setHeader("Content-Type", "application/json"));

    try (Response response = client(HttpLogLevel.BODY).newCall(request("/big").build()).execute()) {
      assertThat(response.body().string()).isEqualTo(big.toString());
    }

    String logged = log.messages("http").get(1);
    assertThat(logged).endsWith("…\n(first 4096 bytes)");
    assertThat(logged.length()).isLessThan(4096 + 300);
  }

  @Test void binaryAndEmptyBodiesAreNotPrinted() throws Exception {
    server.enqueue(new MockResponse().setBody(new Buffer().write(new byte[] {0, 1, 2, 3}))
        .setHeader("Content-Type", "application/octet-stream"));
    server.enqueue(new MockResponse().setResponseCode(204));
    OkHttpClient client = client(HttpLogLevel.BODY);

    client.newCall(request("/audio").build()).execute().close();
    client.newCall(request("/empty").build()).execute().close();

    assertThat(log.messages("http").get(1)).endsWith("\n(binary body of 4 bytes, not logged)");
    assertThat(log.messages("http").get(3)).endsWith("\n(no body)");
  }

  @Test void aFailedCallIsLoggedWithoutItsMessage() throws Exception {
    for (int i = 0; i < 3; i++) {
      server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
    }
    OkHttpClient client = client(HttpLogLevel.BASIC).newBuilder()
        .retryOnConnectionFailure(false).build();

    IOException thrown = catchThrowableOfType(
        () -> client.newCall(request("/x?access_token=s3cr3t-token&page=2").build()).execute(),
        IOException.class);

    String failed = log.messages("http").get(log.messages("http").size() - 1);
    assertThat(failed).isEqualTo("<-- HTTP FAILED: " + thrown.getClass().getSimpleName() + " "
        + server.url("/x") + "?access_token=‹redacted›&page=2");
    assertThat(failed).doesNotContain("s3cr3t-token").doesNotContain(thrown.getMessage());
  }
}
