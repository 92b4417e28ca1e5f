package dev.voicelink.entity;

import static dev.voicelink.entity.WireAssertions.assertSigned;
import static dev.voicelink.entity.WireAssertions.decodeBase64;
import static dev.voicelink.entity.WireAssertions.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.CallResult;
import dev.voicelink.core.HttpDates;
import dev.voicelink.core.KotlinThrows;
import dev.voicelink.core.ServerBusyException;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EntityWebApiTest {
  static final String KEY = "0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a";
  static final String TEXT = "{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}";
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";

  final MockWebServer server = new MockWebServer();
  final VirtualTime time = new VirtualTime();
  VoiceLinkClient config;
  EntityWebApi api;
  final ResourceDefinition contacts = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias")
      .dimension(Dimension.USER).build();
  @TempDir File dir;

  @BeforeEach void setUp() throws IOException {
    server.start();
    config = VoiceLinkClient.builder().baseUrl(server.url("/").toString())
        .clock(time).scheduler(time).build();
    api = EntityWebApi.builder(config).namespace("OS123").accountKey(KEY)
        .random(new CeilingRandom(7)).build();
  }

  @AfterEach void tearDown() throws IOException {
    server.shutdown();
  }

  static MockResponse envelope(String code, String desc, String sid, @Nullable String dataJson) {
    return new MockResponse().setHeader("Content-Type", "application/json")
        .setBody("{\"code\":\"" + code + "\",\"data\":" + dataJson + ",\"desc\":\"" + desc
            + "\",\"sid\":\"" + sid + "\"}");
  }

  static MockResponse uploaded(String sid) {
    return envelope("00000", "success", "wapi0001",
        "{\"sid\":\"" + sid + "\",\"csid\":\"csid-" + sid + "\"}");
  }

  static MockResponse checked(String sid, int error, String reply) {
    return envelope("00000", "success", "wapi0002", "{\"sid\":\"" + sid + "\",\"csid\":\"c2\","
        + "\"reply\":\"" + reply + "\",\"error\":" + error + "}");
  }

  UploadRequest.Builder request() {
    return UploadRequest.builder().appid("5f1a2b3c").definition(contacts)
        .persParam(PersParam.user(AUTH_ID)).records(RecordSource.fromText(TEXT));
  }

  /** Records without end, one per read; the call in {@code cancelAt} is cancelled at record 1000. */
  static RecordSource endlessRecordsCancelling(AtomicReference<VoiceLinkCall<?>> cancelAt,
      AtomicInteger read, CountDownLatch closed) {
    return new RecordSource() {
      @Override Cursor open() {
        return new Cursor() {
          @Override public Object next() {
            int n = read.incrementAndGet();
            if (n == 1000) cancelAt.get().cancel();
            return "{\"name\":\"contact " + n + "\",\"alias\":\"\"}";
          }

          @Override public String position() {
            return "record " + read.get();
          }

          @Override public void close() {
            closed.countDown();
          }
        };
      }

      @Override boolean startsWithByteOrderMark() {
        return false;
      }
    };
  }

  @Test void aCancelledUploadStopsCheckingItsRecordsSoonAfter() throws Exception {
    AtomicReference<VoiceLinkCall<?>> call = new AtomicReference<>();
    AtomicInteger read = new AtomicInteger();
    CountDownLatch closed = new CountDownLatch(1);
    VoiceLinkCall<UploadReceipt> upload = api.uploadResource(
        request().records(endlessRecordsCancelling(call, read, closed)).build());
    call.set(upload);
    BlockingQueue<CallResult<UploadReceipt>> results = new LinkedBlockingQueue<>();

    upload.enqueue(results::add);

    assertThat(results.poll(10, TimeUnit.SECONDS).isCancelled()).isTrue();
    assertThat(closed.await(10, TimeUnit.SECONDS)).as("the read ended and closed its source").isTrue();
    assertThat(read.get()).as("records read after the cancel").isBetween(1000, 1000 + 256);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void uploadSendsEveryFieldSignedWithTheFourHeaders() throws Exception {
    server.enqueue(uploaded("psn0001"));
    UploadReceipt receipt = api.uploadResource(request().build()).execute();

    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getMethod()).isEqualTo("POST");
    assertThat(sent.getPath()).isEqualTo("/v2/voicelink/entity/upload-resource");
    assertThat(assertSigned(sent, "OS123", KEY)).isEqualTo(time.wallMillis() / 1000);
    Map<String, String> form = form(sent);
    assertThat(form.keySet()).containsExactly("appid", "res_name", "pers_param", "data");
    assertThat(form).containsEntry("appid", "5f1a2b3c").containsEntry("res_name", "OS123.contacts")
        .containsEntry("pers_param", "{\"auth_id\":\"" + AUTH_ID + "\"}");
    assertThat(form.get("data")).isEqualTo("eyJuYW1lIjoi5byg5LiJIiwiYWxpYXMiOiLlsI/lvKB86ICB5bygIn0KeyJuYW1lIjoiTGkgTGVpIiwiYWxpYXMiOiIifQ==");
    assertThat(sent.getBodySize()).isEqualTo(Long.parseLong(sent.getHeader("Content-Length")));

    assertThat(receipt.sid()).isEqualTo("psn0001");
    assertThat(receipt.csid()).isEqualTo("csid-psn0001");
    assertThat(receipt.uploadedAtMillis()).isEqualTo(time.wallMillis());
    assertThat(receipt.earliestCheckAtMillis()).isEqualTo(time.wallMillis() + 10_000);
    assertThat(receipt.inEffectAtMillis()).isEqualTo(time.wallMillis() + 300_000);
  }

  @Test void nonceIsFreshForEveryRequest() throws Exception {
    // 40 requests: nonces are drawn 16 at a time, so this crosses two refills
    int checks = 39;
    server.enqueue(uploaded("psn1"));
    for (int i = 0; i < checks; i++) server.enqueue(checked("psn1", 0, "ok"));
    api.uploadResource(request().build()).execute();
    for (int i = 0; i < checks; i++) api.checkResource("psn1").execute();
    List<String> nonces = new ArrayList<>();
    for (int i = 0; i < 1 + checks; i++) {
      RecordedRequest sent = server.takeRequest();
      assertSigned(sent, "OS123", KEY);
      nonces.add(sent.getHeader("X-Nonce"));
    }
    assertThat(nonces).doesNotHaveDuplicates();
  }

  @Test void checkSendsTheSidSignedAndReadsTheResult() throws Exception {
    server.enqueue(checked("psn0001", 0, "data processed"));
    CheckResult result = api.checkResource("psn0001").execute();
    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getPath()).isEqualTo("/v2/voicelink/entity/check-resource");
    assertSigned(sent, "OS123", KEY);
    assertThat(form(sent)).containsOnlyKeys("sid").containsEntry("sid", "psn0001");
    assertThat(result.processed()).isTrue();
    assertThat(result.reply()).isEqualTo("data processed");
    assertThat(result.csid()).isEqualTo("c2");
  }

  @Test void stillProcessingIsNotProcessed() throws Exception {
    server.enqueue(checked("psn0001", 10001, "still processing"));
    CheckResult result = api.checkResource("psn0001").execute();
    assertThat(result.processed()).isFalse();
    assertThat(result.error()).isEqualTo(10001);
  }

  @Test void byteOrderMarkOfAFileIsStripped() throws Exception {
    File file = new File(dir, "contacts.jsonl");
    Files.write(file.toPath(), ("\uFEFF" + TEXT + "\r\n").getBytes(StandardCharsets.UTF_8));
    server.enqueue(uploaded("psn2"));
    api.uploadResource(request().records(RecordSource.fromFile(file)).build()).execute();
    assertThat(decodeBase64(form(server.takeRequest()).get("data"))).isEqualTo(TEXT);
  }

  @Test void recordLackingAFieldFailsBeforeSending() throws Exception {
    UploadRequest bad = request().records(RecordSource.fromText(
        "{\"name\":\"a\",\"alias\":\"\"}\n{\"name\":\"b\"}")).build();
    assertThatThrownBy(() -> api.uploadResource(bad).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 2 of OS123.contacts lacks the field alias; every record needs"
            + " name (non-empty) and alias");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void invalidUtf8FailsBeforeSending() throws Exception {
    File file = new File(dir, "bad.jsonl");
    byte[] good = "{\"name\":\"a\",\"alias\":\"\"}\n{\"name\":\"".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = Arrays.copyOf(good, good.length + 4);
    bytes[good.length] = (byte) 0xc3; // truncated two-byte sequence
    bytes[good.length + 1] = '"';
    bytes[good.length + 2] = '}';
    bytes[good.length + 3] = '\n';
    Files.write(file.toPath(), bytes);
    assertThatThrownBy(() -> api.uploadResource(request().records(RecordSource.fromFile(file)).build()).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("the resource file bad.jsonl is not valid UTF-8; save it as UTF-8");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void sizeLimitFailsBeforeSending() throws Exception {
    EntityWebApi small = EntityWebApi.builder(config).namespace("OS123").accountKey(KEY)
        .maxResourceBytes(50).build();
    assertThatThrownBy(() -> small.uploadResource(request().build()).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("the resource text of OS123.contacts exceeds the maximum of 50 bytes at record 2;"
            + " split the resource or raise maxResourceBytes");
    assertThat(server.getRequestCount()).isZero();
  }

  /**
   * A source over 1 MiB is read twice: to check it, then while the body is written. A list the app
   * changes in between (a database cursor read again) breaks the upload part-way: a failed transfer,
   * not input refused before sending, which the app would take for "nothing was sent".
   */
  @Test void recordsThatChangeBetweenTheCheckAndTheUploadFailTheTransfer() throws Exception {
    List<Map<String, String>> contacts = new ArrayList<>();
    for (int i = 0; i < 40_000; i++) {
      Map<String, String> contact = new java.util.LinkedHashMap<>();
      contact.put("name", String.format("contact %07d", i));
      contact.put("alias", "an alias that makes the text over one mebibyte");
      contacts.add(contact);
    }
    AtomicInteger reads = new AtomicInteger();
    Iterable<Map<String, String>> changing = () -> {
      if (reads.incrementAndGet() == 2) contacts.get(30_000).put("name", "");
      return contacts.iterator();
    };
    server.enqueue(new MockResponse().setBody("{}"));

    assertThatThrownBy(() -> api.uploadResource(request().records(RecordSource.of(changing)).build())
        .execute()).isExactlyInstanceOf(IOException.class)
        .hasMessage("the records changed after they were checked, and their encoding stopped"
            + " part-way: record 30001 of OS123.contacts: main field name must not be empty");
    assertThat(reads).hasValue(2);
  }

  /** The server answers at once and trickles the body: a cancel aborts the read, not only the wait. */
  @Test void aCancelAbortsTheExchangeWhoseAnswerIsStillBeingRead() throws Exception {
    CountDownLatch headersIn = new CountDownLatch(1);
    CountDownLatch aborted = new CountDownLatch(1);
    OkHttpClient app = new OkHttpClient.Builder().eventListener(new okhttp3.EventListener() {
      @Override public void responseHeadersEnd(okhttp3.Call call, okhttp3.Response response) {
        headersIn.countDown();
      }

      @Override public void canceled(okhttp3.Call call) {
        aborted.countDown();
      }
    }).build();
    VoiceLinkClient client = VoiceLinkClient.builder().baseUrl(server.url("/").toString())
        .httpClient(app).clock(time).scheduler(time).build();
    EntityWebApi slow = EntityWebApi.builder(client).namespace("OS123").accountKey(KEY).build();
    server.enqueue(checked("psn1", 0, "in effect").throttleBody(8, 1, TimeUnit.SECONDS));
    VoiceLinkCall<CheckResult> check = slow.checkResource("psn1");
    BlockingQueue<CallResult<CheckResult>> results = new LinkedBlockingQueue<>();
    check.enqueue(results::add);
    assertThat(headersIn.await(10, TimeUnit.SECONDS)).as("the answer's head is in").isTrue();

    check.cancel();

    assertThat(results.poll(10, TimeUnit.SECONDS).isCancelled()).isTrue();
    assertThat(aborted.await(5, TimeUnit.SECONDS)).as("the exchange was cancelled").isTrue();
    client.close();
  }

  @Test void dimensionMismatchFailsAtBuild() {
    assertThatThrownBy(() -> request().persParam(PersParam.application("5f1a2b3c")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pers_param {\"appid\":\"5f1a2b3c\"} is for the application dimension but"
            + " OS123.contacts is defined with the user dimension; use PersParam.user(authId)"
            + " {\"auth_id\":..}");
    assertThatThrownBy(() -> request().persParam(PersParam.activation().user().build()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pers_param {\"uid\":\"\"} is an activation pers_param; an upload needs"
            + " PersParam.user(authId) {\"auth_id\":..}");
  }

  @Test void missingPersParamFailsAtBuild() {
    assertThatThrownBy(() -> UploadRequest.builder().appid("5f1a2b3c").definition(contacts)
        .records(RecordSource.fromText(TEXT)).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("persParam is required: PersParam.user(authId) {\"auth_id\":..}");
  }

  @Test void ipWhitelistRefusalSaysWhatToDo() throws Exception {
    server.enqueue(envelope("20004", "illegal ip", "wapi9", null));
    assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
        .isInstanceOfSatisfying(IpNotWhitelistedException.class, e -> {
          assertThat(e.code()).isEqualTo("20004");
          assertThat(e.description()).isEqualTo("illegal ip");
          assertThat(e.sid()).isEqualTo("wapi9");
        })
        .hasMessage("IP not in whitelist: this device's public IP address is not on the account's IP"
            + " whitelist; add it to the whitelist in the console or turn the whitelist off"
            + " (20004: illegal ip (sid wapi9))");
  }

  @Test void otherCodesAreTypedRefusals() throws Exception {
    server.enqueue(envelope("10105", "no permission", "wapi8", null).setResponseCode(403));
    assertThatThrownBy(() -> api.checkResource("psn1").execute())
        .isExactlyInstanceOf(WebApiException.class)
        .hasMessage("10105: no permission (sid wapi8)");
    assertThat(server.getRequestCount()).as("no retry without clock skew").isEqualTo(1);

    server.enqueue(envelope("31402", "unknown namespace", "wapi7", null));
    assertThatThrownBy(() -> api.checkResource("psn1").execute())
        .isExactlyInstanceOf(WebApiException.class)
        .hasMessage("31402: unknown namespace (sid wapi7)");
  }

  @Test void aDescThatEchoesTheSignatureNamesItNowhere() throws Exception {
    server.setDispatcher(new okhttp3.mockwebserver.Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) {
        return envelope("10106", "checksum " + request.getHeader("X-CheckSum") + " with nonce "
            + request.getHeader("X-Nonce") + " is invalid", "wapi6", null).setResponseCode(403);
      }
    });
    Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
        () -> api.checkResource("psn1").execute());
    RecordedRequest sent = server.takeRequest();
    assertThat(refused).isExactlyInstanceOf(WebApiException.class)
        .hasMessage("10106: checksum ‹redacted› with nonce ‹redacted› is invalid (sid wapi6)")
        .hasMessageNotContaining(sent.getHeader("X-CheckSum"));
  }

  @Test void malformedEnvelopeIsATransportError() {
    server.enqueue(new MockResponse().setBody("{\"code\":\"00000\",\"desc\":\"ok\",\"sid\":\"s\"}"));
    assertThatThrownBy(() -> api.checkResource("psn1").execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed check-resource response (HTTP 200): data is missing");
    server.enqueue(new MockResponse().setResponseCode(502).setBody("<html>bad gateway</html>"));
    assertThatThrownBy(() -> api.checkResource("psn1").execute()).isInstanceOf(IOException.class)
        .hasMessageStartingWith("malformed check-resource response (HTTP 502): ");
    server.enqueue(envelope("00000", "ok", "s", "{\"sid\":\"psn1\",\"csid\":\"c\"}"));
    assertThatThrownBy(() -> api.checkResource("psn1").execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed check-resource response: data.reply is missing (sid s)");
    server.enqueue(envelope("00000", "ok", "s", "{\"token\":\"tok-1\",\"token\":\"tok-2\"}"));
    assertThatThrownBy(() -> api.checkResource("psn1").execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed check-resource response (HTTP 200): member 'token' appears twice in the"
            + " object at path $.data.token"); // the values, whatever they are, are not quoted
  }

  @Test void deviceClockAnHourOffUploadsAfterOneCorrectiveRetry() throws Exception {
    long trueMillis = time.wallMillis();
    time.shiftWallClock(-TimeUnit.HOURS.toMillis(1));
    String serverDate = HttpDates.format(trueMillis);
    server.enqueue(envelope("10105", "checksum expired", "wapi1", null).setHeader("Date", serverDate));
    server.enqueue(uploaded("psn3").setHeader("Date", serverDate));
    server.enqueue(checked("psn3", 0, "ok").setHeader("Date", serverDate));

    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    assertThat(receipt.sid()).isEqualTo("psn3");

    RecordedRequest refused = server.takeRequest();
    RecordedRequest retried = server.takeRequest();
    assertThat(assertSigned(refused, "OS123", KEY)).isEqualTo(trueMillis / 1000 - 3600);
    assertThat(assertSigned(retried, "OS123", KEY)).isEqualTo(trueMillis / 1000);
    assertThat(retried.getHeader("X-Nonce")).isNotEqualTo(refused.getHeader("X-Nonce"));
    assertThat(retried.getBody().readUtf8()).isEqualTo(refused.getBody().readUtf8());
    assertThat(receipt.uploadedAtMillis()).isEqualTo(trueMillis);

    // Learnt once: the next request is signed with the server's time straight away.
    api.checkResource("psn3").execute();
    assertThat(assertSigned(server.takeRequest(), "OS123", KEY)).isEqualTo(trueMillis / 1000);
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  /**
   * An upload on a slow link takes minutes to send; a 10105 then carries a Date minutes after the
   * signing though the device clock is right: it is a refusal (a wrong key, say), and the body is not
   * sent again.
   */
  @Test void aRefusalAfterASlowUploadWithTheClockRightIsNotSentAgain() throws Exception {
    config = VoiceLinkClient.builder().baseUrl(server.url("/").toString()).clock(time).scheduler(time)
        .httpClient(new OkHttpClient.Builder().addNetworkInterceptor(chain -> {
          okhttp3.Response answer = chain.proceed(chain.request());
          time.advance(3, TimeUnit.MINUTES); // the body took three minutes to go out
          return answer;
        }).build())
        .build();
    api = EntityWebApi.builder(config).namespace("OS123").accountKey(KEY)
        .random(new CeilingRandom(7)).build();
    long signedAt = time.wallMillis();
    server.enqueue(envelope("10105", "illegal access", "wapi2", null)
        .setHeader("Date", HttpDates.format(signedAt + TimeUnit.MINUTES.toMillis(3))));

    assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
        .isExactlyInstanceOf(WebApiException.class)
        .hasMessage("10105: illegal access (sid wapi2)");
    assertThat(assertSigned(server.takeRequest(), "OS123", KEY)).isEqualTo(signedAt / 1000);
    assertThat(server.getRequestCount()).as("sent once").isEqualTo(1);
  }

  @Test void aTimeRefusalWithANumericCodeIsSignedAgainToo() throws Exception {
    long trueMillis = time.wallMillis();
    time.shiftWallClock(-TimeUnit.HOURS.toMillis(1));
    String serverDate = HttpDates.format(trueMillis);
    server.enqueue(new MockResponse().setHeader("Date", serverDate).setBody(
        "{\"code\":10105,\"data\":null,\"desc\":\"checksum expired\",\"sid\":\"wapi1\"}"));
    server.enqueue(uploaded("psn3").setHeader("Date", serverDate));

    assertThat(api.uploadResource(request().build()).execute().sid()).isEqualTo("psn3");
    assertThat(assertSigned(server.takeRequest(), "OS123", KEY)).isEqualTo(trueMillis / 1000 - 3600);
    assertThat(assertSigned(server.takeRequest(), "OS123", KEY)).isEqualTo(trueMillis / 1000);
  }

  @Test void aTimeRefusalInAnHttp401IsSignedAgainAndOneWithoutSkewIsARefusal() throws Exception {
    long trueMillis = time.wallMillis();
    time.shiftWallClock(-TimeUnit.HOURS.toMillis(1));
    String serverDate = HttpDates.format(trueMillis);
    server.enqueue(envelope("10113", "X-CurTime is stale", "wapi1", null).setResponseCode(401)
        .setHeader("Date", serverDate));
    server.enqueue(uploaded("psn3").setHeader("Date", serverDate));
    assertThat(api.uploadResource(request().build()).execute().sid()).isEqualTo("psn3");
    assertThat(assertSigned(server.takeRequest(), "OS123", KEY)).isEqualTo(trueMillis / 1000 - 3600);
    assertThat(assertSigned(server.takeRequest(), "OS123", KEY)).isEqualTo(trueMillis / 1000);

    server.enqueue(envelope("10105", "illegal access", "wapi2", null).setResponseCode(401)
        .setHeader("Date", serverDate));
    assertThatThrownBy(() -> api.checkResource("psn3").execute())
        .isExactlyInstanceOf(WebApiException.class)
        .hasMessage("10105: illegal access (sid wapi2)");
    assertThat(server.getRequestCount()).as("the clock is right now: no second signing").isEqualTo(3);
  }

  @Test void correctiveRetryHappensAtMostOnce() throws Exception {
    String farFuture = HttpDates.format(time.wallMillis() + 7_200_000L);
    server.enqueue(envelope("10105", "checksum expired", "wapi1", null).setHeader("Date", farFuture));
    // The server's own clock then jumps as well: the retry is refused again, and surfaces.
    String evenLater = HttpDates.format(time.wallMillis() + 14_400_000L);
    server.enqueue(envelope("10105", "checksum expired", "wapi2", null).setHeader("Date", evenLater));
    server.enqueue(uploaded("never"));
    assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
        .isInstanceOf(WebApiException.class)
        .hasMessage("10105: checksum expired (sid wapi2)");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test void noRequestIsSentASecondTimeByTheHttpClient() throws Exception {
    // An upload dropped unanswered on a pooled connection may have been processed: it fails instead
    // of going out again behind the app's back. A check fails the same way: awaitProcessed counts
    // its checks, and its own backoff decides when the next one goes.
    server.enqueue(checked("psn1", 0, "ok"));
    server.enqueue(checked("psn1", 0, "ok").setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
    server.enqueue(checked("psn1", 0, "ok"));
    api.checkResource("psn1").execute();
    assertThatThrownBy(() -> api.checkResource("psn1").execute()).isInstanceOf(IOException.class);
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(api.checkResource("psn1").execute().processed()).isTrue();

    server.enqueue(uploaded("psn2").setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
    server.enqueue(uploaded("psn3"));
    assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
        .isInstanceOf(IOException.class);
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @Test void anUploadAnsweredBusyWithoutAWaitIsNotSentAgainByTheHttpClient() throws Exception {
    // The HTTP client on its own would repeat the request at once after "Retry-After: 0".
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "0")
        .setBody("busy"));
    server.enqueue(uploaded("psn2"));
    assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
        .isInstanceOfSatisfying(ServerBusyException.class,
            e -> assertThat(e.retryAfterMillis()).isZero())
        .hasMessageEndingWith("; the server asks to retry after 0 s");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void redirectsAreNotFollowedWithTheSignatureOrTheRecords() throws Exception {
    MockWebServer elsewhere = new MockWebServer();
    // answers at once, so that a redirect followed fails the test at once
    elsewhere.enqueue(uploaded("psn9"));
    elsewhere.enqueue(checked("psn9", 0, "ok"));
    try {
      server.enqueue(new MockResponse().setResponseCode(307)
          .setHeader("Location", elsewhere.url("/upload").toString()));
      server.enqueue(new MockResponse().setResponseCode(302)
          .setHeader("Location", elsewhere.url("/check").toString()));
      String refused = "HTTP %d, a redirect: web API requests are not sent on to another address,"
          + " as their signature and body would go with them; configure the address the server"
          + " names";
      assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
          .isExactlyInstanceOf(IOException.class).hasMessage(String.format(refused, 307));
      assertThatThrownBy(() -> api.checkResource("psn1").execute())
          .isExactlyInstanceOf(IOException.class).hasMessage(String.format(refused, 302));
      assertThat(server.getRequestCount()).isEqualTo(2);
      assertThat(elsewhere.getRequestCount()).isZero();
    } finally {
      elsewhere.shutdown();
    }
  }

  @Test void firstCheckIsNeverSentEarlierThanTenSecondsAfterTheUpload() throws Exception {
    server.enqueue(uploaded("psn4"));
    server.enqueue(checked("psn4", 10001, "processing"));
    server.enqueue(checked("psn4", 0, "processed"));
    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    long uploadCurTime = assertSigned(server.takeRequest(), "OS123", KEY);
    time.advance(3, TimeUnit.SECONDS); // the caller starts waiting a little later

    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 2, TimeUnit.MINUTES).enqueue(collect(outcomes));
    assertThat(time.pendingDelaysMillis()).containsExactly(7_000L);
    time.advance(6_999, TimeUnit.MILLISECONDS);
    assertThat(server.getRequestCount()).isEqualTo(1);

    time.advance(1, TimeUnit.MILLISECONDS);
    assertThat(server.getRequestCount()).isEqualTo(2);
    RecordedRequest check = server.takeRequest();
    assertThat(check.getPath()).endsWith("/check-resource");
    assertThat(assertSigned(check, "OS123", KEY)).isEqualTo(uploadCurTime + 10);
    assertThat(outcomes).isEmpty();
    // the 19 checks left are spread over the 290 s until the upload takes effect
    assertThat(time.pendingDelaysMillis()).containsExactly(290_000L / 19);

    time.advance(290_000L / 19 + 1, TimeUnit.MILLISECONDS);
    assertThat(outcomes).hasSize(1);
    assertThat(((CheckResult) outcomes.get(0)).reply()).isEqualTo("processed");
    assertThat(time.pendingDelaysMillis()).isEmpty();
  }

  @Test void aCheckAnsweredWithRetryAfterWaitsThatLongUpToTheCap() throws Exception {
    server.enqueue(uploaded("psn9"));
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "25"));
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "600"));
    server.enqueue(checked("psn9", 0, "processed"));
    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 1, TimeUnit.HOURS).enqueue(collect(outcomes));

    time.advance(10, TimeUnit.SECONDS);
    assertThat(server.getRequestCount()).isEqualTo(2);
    // 25 s asked: longer than the spread (290 s / 19) and the backoff, so it decides.
    assertThat(time.pendingDelaysMillis()).containsExactly(25_000L);
    time.advance(25, TimeUnit.SECONDS);
    assertThat(server.getRequestCount()).isEqualTo(3);
    // 10 minutes asked: the check backoff's 30 s cap keeps the wait bounded.
    assertThat(time.pendingDelaysMillis()).containsExactly(30_000L);
    time.advance(30, TimeUnit.SECONDS);
    assertThat(server.getRequestCount()).isEqualTo(4);
    assertThat(outcomes).hasSize(1);
    assertThat(((CheckResult) outcomes.get(0)).processed()).isTrue();
  }

  @Test void aRetryAfterDateWithoutADateHeaderIsReadOnTheClientsClock() throws Exception {
    // MockWebServer sends no Date header; the client's clock, not the system's, says when "now" is.
    String inFortySeconds = HttpDates.format(time.wallMillis() + 40_000);
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", inFortySeconds));
    assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
        .isInstanceOf(ServerBusyException.class)
        .hasMessageEndingWith("; the server asks to retry after 40 s")
        .extracting(e -> ((ServerBusyException) e).retryAfterMillis()).isEqualTo(40_000L);
  }

  @Test void anUploadRefusedWithRetryAfterTellsTheAppHowLongToWait() throws Exception {
    server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "120")
        .setBody("busy"));
    assertThatThrownBy(() -> api.uploadResource(request().build()).execute())
        .isInstanceOf(ServerBusyException.class)
        .hasMessageStartingWith("malformed upload-resource response (HTTP 503): ")
        .hasMessageEndingWith("; the server asks to retry after 120 s")
        .extracting(e -> ((ServerBusyException) e).retryAfterMillis()).isEqualTo(120_000L);
    // Uploads are not retried by the SDK: only the app knows whether to send this one again.
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /** The largest timeout too: a deadline computed as a sum would overflow and stop after one check. */
  @ParameterizedTest(name = "timeout of {0} days") @ValueSource(longs = {1, Long.MAX_VALUE})
  void checksStopAfterTheBound(long timeoutDays) throws Exception {
    server.enqueue(uploaded("psn5"));
    for (int i = 0; i < EntityWebApi.MAX_CHECKS + 1; i++) {
      server.enqueue(checked("psn5", 10001, "processing " + (i + 1)));
    }
    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, timeoutDays, TimeUnit.DAYS).enqueue(collect(outcomes));
    time.advance(1, TimeUnit.DAYS);
    assertThat(server.getRequestCount()).isEqualTo(1 + EntityWebApi.MAX_CHECKS);
    assertThat(outcomes).hasSize(1);
    CheckResult last = (CheckResult) outcomes.get(0);
    assertThat(last.processed()).isFalse();
    assertThat(last.reply()).isEqualTo("processing " + EntityWebApi.MAX_CHECKS);
  }

  /**
   * Uploads with a checksum source that runs {@code failure} from its second signature on, then
   * waits for processing: its first check meets the failure.
   */
  private List<Object> awaitWithASignerThatFailsAfterTheUpload(Runnable failure) throws Exception {
    AtomicInteger signatures = new AtomicInteger();
    EntityWebApi backendSigned = EntityWebApi.builder(config).namespace("OS123")
        .checksumSource((nonce, curTime) -> {
          if (signatures.incrementAndGet() > 1) failure.run();
          return ChecksumSigner.checksum(KEY, nonce, curTime);
        }).build();
    server.enqueue(uploaded("psn6"));
    UploadReceipt receipt = backendSigned.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    backendSigned.awaitProcessed(receipt, 1, TimeUnit.MINUTES).enqueue(collect(outcomes));
    return outcomes;
  }

  @Test void aCheckThatThrowsAnUncheckedExceptionEndsTheWaitWithIt() throws Exception {
    List<Object> outcomes = awaitWithASignerThatFailsAfterTheUpload(() -> {
      throw new IllegalStateException("backend gone");
    });

    time.advance(10, TimeUnit.SECONDS);
    assertThat(outcomes).hasSize(1);
    assertThat((Throwable) outcomes.get(0)).isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage("backend gone");
    assertThat(time.pendingDelaysMillis()).as("no check left waiting").isEmpty();
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test void aCheckThatThrowsACheckedExceptionAsKotlinCanEndsTheWait() throws Exception {
    List<Object> outcomes = awaitWithASignerThatFailsAfterTheUpload(() -> {
      throw KotlinThrows.checked(new Exception("backend down"));
    });

    time.advance(10, TimeUnit.SECONDS);
    assertThat(outcomes).hasSize(1);
    assertThat((Throwable) outcomes.get(0)).isExactlyInstanceOf(IOException.class)
        .hasMessage("the call ended on an exception from app code: java.lang.Exception: backend down");
    assertThat(time.pendingDelaysMillis()).as("no check left waiting").isEmpty();
  }

  @Test void anUploadWhoseChecksumSourceThrowsACheckedExceptionAsKotlinCanEnds() throws Exception {
    EntityWebApi backendSigned = EntityWebApi.builder(config).namespace("OS123")
        .checksumSource((nonce, curTime) -> {
          throw KotlinThrows.checked(new java.util.concurrent.TimeoutException("backend slow"));
        }).build();

    assertThatThrownBy(() -> backendSigned.uploadResource(request().build()).execute())
        .isExactlyInstanceOf(IOException.class)
        .hasMessage("the call ended on an exception from app code:"
            + " java.util.concurrent.TimeoutException: backend slow");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test void aCheckThatThrowsAnErrorEndsTheWaitAndTheErrorGoesOn() throws Exception {
    AssertionError bug = new AssertionError("checksum source bug");
    List<Object> outcomes = awaitWithASignerThatFailsAfterTheUpload(() -> {
      throw bug;
    });

    // The virtual scheduler runs the check on this thread: the Error reaches it, as it would
    // reach a worker thread's handler.
    assertThatThrownBy(() -> time.advance(10, TimeUnit.SECONDS)).isSameAs(bug);
    assertThat(outcomes).hasSize(1);
    assertThat((Throwable) outcomes.get(0)).isExactlyInstanceOf(IOException.class)
        .hasMessage("the call ended on an error: java.lang.AssertionError: checksum source bug")
        .hasCause(bug);
    assertThat(time.pendingDelaysMillis()).as("no check left waiting").isEmpty();
  }

  @Test void anUploadWhoseWorkThrowsAnErrorEndsOnce() throws Exception {
    server.enqueue(uploaded("psn7"));
    AssertionError bug = new AssertionError("progress listener bug");
    VoiceLinkCall<UploadReceipt> upload = api.uploadResource(request()
        .progressListener(Runnable::run, (written, total) -> {
          throw bug;
        }).build());
    CountDownLatch ended = new CountDownLatch(1);
    List<Object> outcomes = new CopyOnWriteArrayList<>();
    upload.enqueue(result -> {
      outcomes.add(result.isSuccess() ? result.value() : result.failure());
      ended.countDown();
    });
    assertThat(ended.await(10, TimeUnit.SECONDS)).as("the upload ended").isTrue();
    assertThat((Throwable) outcomes.get(0)).isExactlyInstanceOf(IOException.class)
        .hasMessage("the call ended on an error: java.lang.AssertionError: progress listener bug")
        .hasCause(bug);
  }

  @Test void processedAtTheLastAllowedCheckIsReported() throws Exception {
    server.enqueue(uploaded("psn6"));
    for (int i = 0; i < EntityWebApi.MAX_CHECKS - 1; i++) {
      server.enqueue(checked("psn6", 10001, "processing"));
    }
    server.enqueue(checked("psn6", 0, "processed"));
    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 1, TimeUnit.DAYS).enqueue(collect(outcomes));
    time.advance(1, TimeUnit.DAYS);
    assertThat(((CheckResult) outcomes.get(0)).processed()).isTrue();
  }

  @Test void deadlineEndsTheWaitWithTheLastResult() throws Exception {
    server.enqueue(uploaded("psn7"));
    for (int i = 0; i < 5; i++) server.enqueue(checked("psn7", 10001, "processing"));
    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 20, TimeUnit.SECONDS).enqueue(collect(outcomes));
    time.advance(1, TimeUnit.HOURS);
    // checks at 10 s and, as the next would come after it, at the 20 s deadline
    assertThat(server.getRequestCount()).isEqualTo(1 + 2);
    assertThat(((CheckResult) outcomes.get(0)).processed()).isFalse();
  }

  @Test void checksLastAtLeastUntilTheUploadTakesEffect() throws Exception {
    // The shortest jitter every time: without spreading, the 20 checks would be spent in 30 s.
    EntityWebApi eager = EntityWebApi.builder(config).namespace("OS123").accountKey(KEY)
        .random(new Random() {
          @Override public double nextDouble() {
            return 0;
          }
        }).build();
    server.enqueue(uploaded("psn9"));
    for (int i = 0; i < EntityWebApi.MAX_CHECKS - 1; i++) {
      server.enqueue(checked("psn9", 10001, "processing"));
    }
    server.enqueue(checked("psn9", 0, "in effect"));
    UploadReceipt receipt = eager.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    eager.awaitProcessed(receipt, 10, TimeUnit.MINUTES).enqueue(collect(outcomes));

    time.advance(5, TimeUnit.MINUTES);
    assertThat(outcomes).hasSize(1);
    assertThat(((CheckResult) outcomes.get(0)).reply()).isEqualTo("in effect");
    assertThat(server.getRequestCount()).isEqualTo(1 + EntityWebApi.MAX_CHECKS);
    server.takeRequest();
    long lastCheckAt = 0;
    for (int i = 0; i < EntityWebApi.MAX_CHECKS; i++) {
      lastCheckAt = assertSigned(server.takeRequest(), "OS123", KEY);
    }
    // X-CurTime of the last check: the in-effect time (5 min after the upload), not 30 s after it
    assertThat(lastCheckAt - receipt.uploadedAtMillis() / 1000).isEqualTo(300);
  }

  @Test void cancelledWaitNeverChecks() throws Exception {
    server.enqueue(uploaded("psn8"));
    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    VoiceLinkCall<CheckResult> wait = api.awaitProcessed(receipt, 1, TimeUnit.MINUTES);
    wait.enqueue(collect(outcomes));
    wait.cancel();
    time.advance(1, TimeUnit.HOURS);
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(outcomes).containsExactly("cancelled");
    wait.cancel();
    assertThat(outcomes).containsExactly("cancelled");
  }

  @Test void aCheckTheServerHoldsDoesNotHoldUpTheClientsOtherWaits() throws Exception {
    // The client's own scheduler, in real time: its thread only keeps time, and each wait that ends
    // runs on a worker, so one slow check cannot delay another wait (or a device poll).
    CountDownLatch release = new CountDownLatch(1);
    server.setDispatcher(new okhttp3.mockwebserver.Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        String body = request.getBody().clone().readUtf8();
        String sid = body.substring(body.indexOf("sid=") + "sid=".length());
        if (sid.equals("psn-slow")) release.await(1, TimeUnit.MINUTES);
        return checked(sid, 0, "processed");
      }
    });
    OkHttpClient patient = new OkHttpClient.Builder().readTimeout(1, TimeUnit.MINUTES).build();
    try (VoiceLinkClient realTime = VoiceLinkClient.builder().baseUrl(server.url("/").toString())
        .httpClient(patient).build()) {
      EntityWebApi live = EntityWebApi.builder(realTime).namespace("OS123").accountKey(KEY).build();
      List<Object> slow = new CopyOnWriteArrayList<>();
      live.awaitProcessed(uploadedElevenSecondsAgo("psn-slow"), 1, TimeUnit.MINUTES)
          .enqueue(collect(slow));
      assertThat(form(server.takeRequest(5, TimeUnit.SECONDS))).containsEntry("sid", "psn-slow");

      List<Object> quick = new CopyOnWriteArrayList<>();
      CountDownLatch quickEnded = new CountDownLatch(1);
      live.awaitProcessed(uploadedElevenSecondsAgo("psn-quick"), 1, TimeUnit.MINUTES)
          .enqueue(result -> {
            collect(quick).onResult(result);
            quickEnded.countDown();
          });
      try {
        assertThat(quickEnded.await(5, TimeUnit.SECONDS))
            .as("the second wait ended while the server held the first check").isTrue();
        assertThat(((CheckResult) quick.get(0)).sid()).isEqualTo("psn-quick");
        assertThat(slow).isEmpty();
      } finally {
        release.countDown();
      }
    } finally {
      patient.dispatcher().executorService().shutdown();
      patient.connectionPool().evictAll();
    }
  }

  private static UploadReceipt uploadedElevenSecondsAgo(String sid) {
    return new UploadReceipt(sid, "csid-" + sid, System.currentTimeMillis() - 11_000,
        System.nanoTime() - TimeUnit.SECONDS.toNanos(11));
  }

  @Test void refusalDuringTheWaitIsReportedOnce() throws Exception {
    server.enqueue(uploaded("psn9"));
    server.enqueue(envelope("20004", "illegal ip", "w", null));
    UploadReceipt receipt = api.uploadResource(request().build()).execute();
    List<Object> outcomes = new ArrayList<>();
    api.awaitProcessed(receipt, 1, TimeUnit.MINUTES).enqueue(collect(outcomes));
    time.advance(1, TimeUnit.HOURS);
    assertThat(outcomes).hasSize(1);
    assertThat(outcomes.get(0)).isInstanceOf(IpNotWhitelistedException.class);
  }

  @Test void accountKeyNeverShows() throws Exception {
    List<String> logged = new ArrayList<>();
    VoiceLinkLog.Sink previous = VoiceLinkLog.sink();
    VoiceLinkLog.setSink(new VoiceLinkLog.Sink() {
      @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
        return true;
      }

      @Override public void log(VoiceLinkLog.Level level, String tag, String message,
          @Nullable Throwable error) {
        logged.add(message + (error != null ? error.toString() : ""));
      }
    });
    try {
      long trueMillis = time.wallMillis();
      time.shiftWallClock(-TimeUnit.HOURS.toMillis(1));
      String date = HttpDates.format(trueMillis);
      server.enqueue(envelope("10105", "checksum expired", "w", null).setHeader("Date", date));
      server.enqueue(uploaded("psn10"));
      api.uploadResource(request().build()).execute();
    } finally {
      VoiceLinkLog.setSink(previous);
    }
    assertThat(logged).isNotEmpty();
    assertThat(String.join("\n", logged)).doesNotContain(KEY);
    assertThat(api.toString()).doesNotContain(KEY).contains("OS123");
    ChecksumSigner signer = ChecksumSigner.builder().namespace("OS123").accountKey(KEY).build();
    assertThat(signer.toString()).doesNotContain(KEY);
    assertThat(EntityWebApi.builder(config).namespace("OS123").accountKey(KEY).toString())
        .doesNotContain(KEY);
  }

  /** Draws the largest backoff every time, so that waits are predictable; nonces stay random. */
  static final class CeilingRandom extends Random {
    private static final long serialVersionUID = 1L;

    CeilingRandom(long seed) {
      super(seed);
    }

    @Override public double nextDouble() {
      return 0.9999999999;
    }
  }

  /** Adds the value, the failure, or "cancelled". */
  static VoiceLinkCall.Callback<CheckResult> collect(List<Object> outcomes) {
    return result -> outcomes.add(result.isSuccess() ? result.value()
        : result.isCancelled() ? "cancelled" : result.failure());
  }
}
