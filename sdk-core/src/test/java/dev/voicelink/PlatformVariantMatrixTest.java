package dev.voicelink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.PlatformUploadException;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.entity.WebApiException;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sdk-core flow against every {@link PlatformVariant} of the reference server, each alone and
 * all at once: the device flow (with a pending poll, whose error record comes in the variant's
 * status), refresh twice, a refused refresh, a cloud token and its refresh, a web API upload, its
 * checks and a refused check, and platform uploads with the user and the cloud token. The device
 * clock is two hours behind, so the web API calls pass only if the skew was learnt right. Every
 * variant gives the same results; what was tolerated is logged once at WARNING, nothing is logged
 * in the reference reading, and no secret is logged. Time is virtual on both sides.
 */
class PlatformVariantMatrixTest {
  private static final long START = 1_763_712_000_000L;
  private static final long DEVICE_BEHIND = TimeUnit.HOURS.toMillis(2);
  private static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";

  static Stream<Arguments> variants() {
    List<Arguments> rows = new ArrayList<>();
    rows.add(Arguments.of("reference", EnumSet.noneOf(PlatformVariant.class)));
    for (PlatformVariant variant : PlatformVariant.values()) {
      rows.add(Arguments.of(variant.flag(), EnumSet.of(variant)));
    }
    // All at once, but for the variants that leave a field out or zero it (each covered alone): they
    // would hide the forms of that field. Twice: where one variant wins over another, the first row has
    // the winner (milliseconds, no token_type, a numeric success code, statuses by kind) and the second
    // the other (seconds with fractions, "Bearer", "0", HTTP 400); each has its own status of
    // authorization errors.
    EnumSet<PlatformVariant> all = EnumSet.allOf(PlatformVariant.class);
    all.removeAll(EnumSet.of(PlatformVariant.AUTH_ERRORS_HTTP_401, PlatformVariant.AUTH_ERRORS_HTTP_503,
        PlatformVariant.NO_INTERVAL, PlatformVariant.ZERO_INTERVAL, PlatformVariant.NO_EXPIRES_IN));
    rows.add(Arguments.of("all at once", all));
    EnumSet<PlatformVariant> others = EnumSet.copyOf(all);
    others.removeAll(EnumSet.of(PlatformVariant.INTERVAL_MILLIS, PlatformVariant.HUGE_EXPIRES_IN,
        PlatformVariant.CREATED_AT_MILLIS, PlatformVariant.NO_TOKEN_TYPE, PlatformVariant.SUCCESS_CODE_NUMERIC,
        PlatformVariant.WEB_API_REFUSALS_BY_KIND, PlatformVariant.AUTH_ERRORS_HTTP_200));
    others.add(PlatformVariant.AUTH_ERRORS_HTTP_503);
    rows.add(Arguments.of("all at once, the other reading of each pair", others));
    return rows.stream();
  }

  /** The start of each WARNING a variant causes, if any. */
  private static List<String> expectedWarnings(Set<PlatformVariant> variants) {
    List<String> expected = new ArrayList<>();
    // none or 0: 5 s, nothing to say
    boolean interval = !variants.contains(PlatformVariant.NO_INTERVAL)
        && !variants.contains(PlatformVariant.ZERO_INTERVAL);
    if (interval && variants.contains(PlatformVariant.INTERVAL_MILLIS)) {
      expected.add("WARN auth device_code interval 2000 is not below expires_in 120");
    } else if (interval && variants.contains(PlatformVariant.FRACTIONAL_INTERVAL)) {
      expected.add("WARN auth device_code interval 2.5 is not a whole number: polls every 2500 ms");
    }
    if (variants.contains(PlatformVariant.CREATED_AT_MILLIS)) {
      expected.add("WARN auth token created_at ");
    }
    boolean noExpiresIn = variants.contains(PlatformVariant.NO_EXPIRES_IN);
    if (noExpiresIn) {
      expected.add("WARN auth the token answer has no expires_in");
    } else if (variants.contains(PlatformVariant.HUGE_EXPIRES_IN)) {
      expected.add("WARN auth token expires_in 8640000000 is more than 10 years in seconds");
    } else if (variants.contains(PlatformVariant.FRACTIONAL_EXPIRES_IN)) {
      expected.add("WARN auth token expires_in 8639999.5 is not a whole number: read as 8639999 s");
    }
    if (variants.contains(PlatformVariant.NO_TOKEN_TYPE)) {
      expected.add("WARN auth the token answer has no token_type: read as bearer");
    }
    if (variants.contains(PlatformVariant.NO_REFRESH_ROTATION)) {
      expected.add("WARN auth the refresh answer has no refresh_token");
    }
    if (variants.contains(PlatformVariant.SUCCESS_CODE_ZERO)
        || variants.contains(PlatformVariant.SUCCESS_CODE_NUMERIC)) {
      expected.add("WARN entity the web API answered success with code 0");
    }
    if (variants.contains(PlatformVariant.UPLOAD_ENTITIES_CODE)) {
      expected.add("WARN entity upload_entities answered HTTP 200 with code 0");
    }
    if (variants.contains(PlatformVariant.UPLOAD_ENTITIES_TOKEN_401)) {
      expected.add("WARN entity upload_entities answered HTTP 401: the token was refused");
    }
    // the envelope's sid, or the csid at the top
    if (variants.contains(PlatformVariant.NO_CSID) || variants.contains(PlatformVariant.IDS_AT_TOP_LEVEL)) {
      expected.add("WARN entity the web API answer has no data.csid");
    }
    if (variants.contains(PlatformVariant.IDS_AT_TOP_LEVEL)) {
      expected.add("WARN entity the web API answer has no data.sid");
      expected.add("WARN entity the web API answer has no data.reply");
      expected.add("WARN entity the web API answer has no data.error");
    }
    if (variants.contains(PlatformVariant.NUMBERS_AS_TEXT)) {
      expected.add("WARN auth device_code expires_in is a number sent as text");
      expected.add(noExpiresIn ? "WARN auth token created_at is a number sent as text"
          : "WARN auth token expires_in is a number sent as text");
    }
    return expected;
  }

  /** How often the device polls: the console's 2 s in every unit, or RFC 8628's 5 s without one or for 0. */
  private static long pollInterval(Set<PlatformVariant> variants) {
    if (variants.contains(PlatformVariant.NO_INTERVAL) || variants.contains(PlatformVariant.ZERO_INTERVAL)) {
      return 5000;
    }
    if (variants.contains(PlatformVariant.INTERVAL_MILLIS)) return 2000;
    return variants.contains(PlatformVariant.FRACTIONAL_INTERVAL) ? 2500 : 2000;
  }

  @ParameterizedTest(name = "{0}") @MethodSource("variants")
  void everyFlowSucceeds(String name, Set<PlatformVariant> variants) throws Exception {
    VirtualTime time = new VirtualTime(START - DEVICE_BEHIND);
    ServerClock serverClock = ServerClock.manual(START);
    Console console = Console.defaults();
    for (PlatformVariant variant : variants) console.setVariant(variant, true);
    String logText;
    LeakScan scan;
    try (LogCapture log = LogCapture.install();
        ReferenceServer server = ReferenceServer.builder().console(console).clock(serverClock)
            .build().start();
        VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.authUrl())
            .platformUrl(server.platformUrl()).baseUrl(server.baseUrl()).clock(time)
            .scheduler(time).httpLogging(HttpLogLevel.BODY).build()) {

      // Device authorization: one pending poll, then the tester approves.
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
          .clientId(DefaultConsole.CLIENT_ID).build();
      BlockingQueue<Object> flow = new LinkedBlockingQueue<>();
      BlockingQueue<CallResult<DeviceFlowOutcome>> ended = new LinkedBlockingQueue<>();
      int scheduled = time.scheduledCount();
      authorizer.authorize(DefaultConsole.DEVICE_ID, new DeviceFlowListener() {
        @Override public void onCodeIssued(DeviceCode code) {
          flow.add(code);
        }

        @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
          flow.add(result + " " + nextPollDelayMillis);
        }
      }).enqueue(ended::add);
      time.awaitScheduled(scheduled + 1);
      DeviceCode code = (DeviceCode) flow.poll(10, TimeUnit.SECONDS);
      long interval = pollInterval(variants);
      assertThat(code.intervalMillis()).isEqualTo(interval);
      tick(time, serverClock, interval);
      time.awaitScheduled(scheduled + 3); // the first wait, the poll's deadline, the next wait
      assertThat(flow.poll(10, TimeUnit.SECONDS)).isEqualTo("authorization_pending " + interval);
      new SimulatedTester(server).approve(code.userCode());
      tick(time, serverClock, interval);
      DeviceFlowOutcome outcome = ended.poll(10, TimeUnit.SECONDS).get();
      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
      TokenRecord authorized = outcome.token();
      // without expires_in, the SDK's default lifetime until the server says otherwise
      long lifetime = variants.contains(PlatformVariant.NO_EXPIRES_IN) ? 3600
          : variants.contains(PlatformVariant.FRACTIONAL_EXPIRES_IN)
              && !variants.contains(PlatformVariant.HUGE_EXPIRES_IN) ? 8_639_999 : 8_640_000;
      assertThat(authorized.expiresInSeconds()).isEqualTo(lifetime);
      assertThat(authorized.createdAtEpochSeconds()).isEqualTo((START + 2 * interval) / 1000);
      assertThat(ClientCore.of(config).correctedClock().offsetMillis()).isEqualTo(DEVICE_BEHIND);
      List<RecordedCall> polls = server.journal().calls("/oauth/ivs/token");
      assertThat(polls).hasSize(2);
      assertThat(polls.get(1).receivedAtMillis() - polls.get(0).receivedAtMillis()).isEqualTo(interval);

      // Refresh, twice: the second uses whatever refresh token the first left.
      InMemoryTokenStore store = new InMemoryTokenStore();
      TokenManager device = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(store).build();
      device.setRecord(authorized);
      TokenRecord first = device.refresh().execute();
      TokenRecord second = device.refresh().execute();
      assertThat(second.accessToken()).isNotEqualTo(first.accessToken())
          .isNotEqualTo(authorized.accessToken());
      assertThat(second.refreshToken()).isNotNull();
      assertThat(store.load()).isEqualTo(second);
      assertThat(second.expiresInSeconds()).isEqualTo(lifetime);

      // A refused refresh is still a refusal, whatever the status of the error record.
      TokenManager stranger = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore(authorized.newBuilder().refreshToken("rt_unknown").build()))
          .build();
      assertThatThrownBy(() -> stranger.refresh().execute()).isInstanceOf(ReauthorizationRequiredException.class)
          .hasMessage("invalid_refresh_token: refresh_token is unknown or was already used");

      // Cloud token and its refresh.
      TokenManager cloud = TokenManager.builder(config)
          .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
          .store(new InMemoryTokenStore()).build();
      String cloudToken = cloud.accessToken();
      TokenRecord cloudRefreshed = cloud.refresh().execute();
      assertThat(cloudRefreshed.accessToken()).isNotEqualTo(cloudToken);
      assertThat(cloudRefreshed.grant()).isEqualTo(TokenRecord.Grant.CLOUD);
      assertThat(server.journal().calls("/oauth/token")).hasSize(2)
          .allSatisfy(call -> assertThat(call.responseStatus()).isEqualTo(200));

      // Web API upload and check, 10 s and then 5 minutes later.
      ResourceDefinition contacts = ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
          .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
      EntityWebApi api = EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      UploadReceipt receipt = api.uploadResource(UploadRequest.builder()
          .appid(DefaultConsole.APPID).definition(contacts).persParam(PersParam.user(AUTH_ID))
          .records(RecordSource.fromText("{\"name\":\"张三\",\"alias\":\"小张|老张\"}")).build()).execute();
      assertThat(receipt.sid()).startsWith("psn");
      tick(time, serverClock, 10_000);
      CheckResult early = api.checkResource(receipt.sid()).execute();
      assertThat(early.processed()).isFalse();
      tick(time, serverClock, TimeUnit.MINUTES.toMillis(5));
      CheckResult late = api.checkResource(receipt.sid()).execute();
      assertThat(late.processed()).isTrue();
      assertThat(late.sid()).isEqualTo(receipt.sid());
      // A refusal is the platform's code and desc, whatever the status and the JSON type of the code.
      assertThatThrownBy(() -> api.checkResource("psn000").execute())
          .isExactlyInstanceOf(WebApiException.class)
          .satisfies(e -> {
            WebApiException refusal = (WebApiException) e;
            assertThat(refusal.code()).isEqualTo("31405");
            assertThat(refusal.description()).isEqualTo("no upload with sid psn000 in namespace OS123");
            assertThat(refusal.sid()).isNotEmpty();
          });
      assertThat(lastCall(server, "/v2/voicelink/entity/check-resource").responseStatus())
          .isEqualTo(variants.contains(PlatformVariant.WEB_API_REFUSALS_BY_KIND) ? 404
              : variants.contains(PlatformVariant.WEB_API_REFUSALS_HTTP_400) ? 400 : 200);

      // Platform uploads with the user's token and with the cloud token.
      PlatformToolsClient tools = PlatformToolsClient.builder(config).userTokens(device)
          .cloudTokens(cloud).build();
      String userSid = tools.uploadEntities(contacts,
          RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}"), null).execute();
      ResourceDefinition songs = ResourceDefinition.builder().name(DefaultConsole.SONGS)
          .mainField("name").secondaryFields("alias").dimension(Dimension.APPLICATION).build();
      String clientSid = tools.uploadEntities(songs,
          RecordSource.fromText("{\"name\":\"Blue Lotus\",\"alias\":\"\"}"), DefaultConsole.APPID).execute();
      assertThat(userSid).startsWith("psn").isNotEqualTo(clientSid);
      assertThat(server.journal().calls("/tools/upload_entities")).hasSize(2)
          .allSatisfy(call -> assertThat(call.responseStatus()).isEqualTo(200));

      // A token the platform no longer takes, though the device holds it as valid. A 401 refuses the
      // token, not the upload: it goes once more with a fresh token. A 400 is a refusal like any other.
      TokenManager revoked = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore(second.newBuilder().accessToken("at-the-platform-revoked").build()))
          .build();
      PlatformToolsClient revokedTools = PlatformToolsClient.builder(config).userTokens(revoked).build();
      RecordSource hanMeimei = RecordSource.fromText("{\"name\":\"Han Meimei\",\"alias\":\"\"}");
      if (variants.contains(PlatformVariant.UPLOAD_ENTITIES_TOKEN_401)) {
        assertThat(revokedTools.uploadEntities(contacts, hanMeimei, null).execute()).startsWith("psn");
        List<RecordedCall> uploads = server.journal().calls("/tools/upload_entities");
        assertThat(uploads).extracting(RecordedCall::responseStatus).containsExactly(200, 200, 401, 200);
        assertThat(uploads.get(2).header("Authorization")).isEqualTo("at-the-platform-revoked");
        assertThat(uploads.get(3).header("Authorization")).isEqualTo(revoked.record().accessToken())
            .isNotEqualTo("at-the-platform-revoked");
        assertThat(uploads.get(3).body()).isEqualTo(uploads.get(2).body());
      } else {
        assertThatThrownBy(() -> revokedTools.uploadEntities(contacts, hanMeimei, null).execute())
            .isInstanceOfSatisfying(PlatformUploadException.class, e -> {
              assertThat(e.httpStatus()).isEqualTo(400);
              assertThat(e.code()).isEqualTo("40103");
            });
        assertThat(server.journal().calls("/tools/upload_entities"))
            .extracting(RecordedCall::responseStatus).containsExactly(200, 200, 400);
        assertThat(revoked.record().accessToken()).isEqualTo("at-the-platform-revoked");
      }

      assertEverythingSentIsExact(server.journal().snapshot());
      scan = LeakScan.of(server);
      logText = log.text();
      assertTolerated(log.warnings(), expectedWarnings(variants));
    }
    scan.scan("log", logText);
    scan.assertNoLeak();
  }

  /**
   * Whatever the server answered, what the SDK sent is exactly the spec's: the content type of each
   * endpoint, and no request the strict server refused for its shape, fields or signature.
   */
  private static void assertEverythingSentIsExact(List<RecordedCall> calls) {
    assertThat(calls).isNotEmpty();
    for (RecordedCall call : calls) {
      String path = call.path();
      String contentType = call.header("Content-Type");
      if (path.endsWith("/oauth/ivs/device_code")) {
        assertThat(contentType).as(path).isEqualTo("application/x-www-form-urlencoded");
      } else if (path.contains("/oauth/") || path.endsWith("/tools/upload_entities")) {
        assertThat(contentType).as(path).isEqualTo("application/json");
      } else if (path.contains("/entity/")) {
        assertThat(contentType).as(path).isEqualTo("application/x-www-form-urlencoded; charset=utf-8");
      }
      // a refusal code as text or, in refusal-codes-numeric, as a number
      assertThat(call.responseBody()).as("the answer to " + path + " " + call.body())
          .doesNotContain("invalid_request")
          .doesNotContainPattern("\"code\":\"?(10106|10107|10113|10105)\\b");
    }
  }

  /** The tolerance warnings are exactly those expected, each kind once per client at most. */
  private static void assertTolerated(List<String> lines, List<String> expected) {
    List<String> tolerated = new ArrayList<>();
    for (String line : lines) {
      if (line.endsWith("(docs/platform-assumptions.md)")) tolerated.add(line);
    }
    for (String prefix : expected) {
      assertThat(tolerated).as("warnings").anyMatch(line -> line.startsWith(prefix));
    }
    assertThat(tolerated).as("warnings")
        .allMatch(line -> expected.stream().anyMatch(line::startsWith));
    // Three clients read token answers: the device flow's and the two token managers'.
    assertThat(tolerated.size()).as("warnings").isLessThanOrEqualTo(3 * expected.size());
  }

  private static RecordedCall lastCall(ReferenceServer server, String path) {
    List<RecordedCall> calls = server.journal().calls(path);
    return calls.get(calls.size() - 1);
  }

  private static void tick(VirtualTime time, ServerClock serverClock, long millis) {
    serverClock.advance(millis, TimeUnit.MILLISECONDS);
    time.advance(millis, TimeUnit.MILLISECONDS);
  }
}
