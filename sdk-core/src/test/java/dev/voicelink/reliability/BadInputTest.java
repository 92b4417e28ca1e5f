package dev.voicelink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.ChecksumSigner;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceEncoder;
import dev.voicelink.entity.ResourceName;
import dev.voicelink.entity.UploadRequest;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Bad input given to the public API: each is refused at once with an error that names the problem,
 * and nothing reaches the network. The messages are published in docs/reliability.md (and pinned by
 * it: a changed message fails the build until the page is regenerated).
 */
class BadInputTest {
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";
  static final String KEY = "0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a";
  static final String CLIENT_SECRET = "cs-9f2e4d6b8a0c1e3f";

  static final MockWebServer server = new MockWebServer();
  /** Counts every request the SDK started, including those that never reached a server. */
  static final AtomicInteger started = new AtomicInteger();
  static VoiceLinkClient config;
  static File dir;
  static final AtomicInteger files = new AtomicInteger();
  static final Map<String, String> table = new LinkedHashMap<>();

  static final ResourceDefinition CONTACTS = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias")
      .dimension(Dimension.USER).build();

  interface Operation {
    void run() throws Exception;
  }

  @BeforeAll static void start() throws IOException {
    config = countingClient(server, started);
    // A fixed place, so that file names in messages are the same on every run.
    dir = new File("target/bad-input");
    dir.mkdirs();
  }

  @AfterAll static void publish() throws IOException {
    server.shutdown();
    assertThat(table).as("distinct bad inputs").hasSizeGreaterThanOrEqualTo(60);
    DocSection.check("reliability.md", "bad-input", markdown(table));
  }

  /**
   * Starts {@code server} and returns a client of it on virtual time whose {@code OkHttpClient}
   * counts into {@code started} every call the SDK starts, including those that never reach a server.
   */
  static VoiceLinkClient countingClient(MockWebServer server, AtomicInteger started)
      throws IOException {
    server.start();
    OkHttpClient app = new OkHttpClient.Builder()
        .addInterceptor(chain -> {
          started.incrementAndGet();
          return chain.proceed(chain.request());
        })
        .build();
    VirtualTime time = new VirtualTime();
    String url = server.url("/").toString();
    return VoiceLinkClient.builder().authUrl(url).platformUrl(url).baseUrl(url)
        .httpClient(app).clock(time).scheduler(time).build();
  }

  /** The published table: one numbered row per bad input, its error as type and whole message. */
  static String markdown(Map<String, String> rows) {
    StringBuilder md = new StringBuilder("| # | Bad input | Error (type: message) |\n|---|---|---|\n");
    int n = 0;
    for (Map.Entry<String, String> row : rows.entrySet()) {
      md.append("| ").append(++n).append(" | ").append(DocSection.cell(row.getKey())).append(" | ")
          .append(DocSection.cell(row.getValue())).append(" |\n");
    }
    return md.toString();
  }

  static EntityWebApi api() {
    return EntityWebApi.builder(config).namespace("OS123").accountKey(KEY).build();
  }

  static UploadRequest.Builder upload(RecordSource records) {
    return UploadRequest.builder().appid("5f1a2b3c").definition(CONTACTS)
        .persParam(PersParam.user(AUTH_ID)).records(records);
  }

  static void uploadText(String text) throws Exception {
    api().uploadResource(upload(RecordSource.fromText(text)).build()).execute();
  }

  static void uploadBytes(byte[] bytes) throws Exception {
    File file = new File(dir, "records-" + files.incrementAndGet() + ".jsonl");
    Files.write(file.toPath(), bytes);
    api().uploadResource(upload(RecordSource.fromFile(file)).build()).execute();
  }

  static Map<String, String> record(String name, String alias) {
    Map<String, String> record = new LinkedHashMap<>();
    record.put("name", name);
    record.put("alias", alias);
    return record;
  }

  static String repeat(char c, int n) {
    char[] chars = new char[n];
    Arrays.fill(chars, c);
    return new String(chars);
  }

  static Map<String, Operation> cases() {
    Map<String, Operation> c = new LinkedHashMap<>();
    // Configuration
    c.put("VoiceLinkClient auth_url empty", () -> VoiceLinkClient.builder().authUrl(""));
    c.put("VoiceLinkClient auth_url not an address", () -> VoiceLinkClient.builder().authUrl("auth.example.com"));
    c.put("VoiceLinkClient auth_url ftp scheme", () -> VoiceLinkClient.builder().authUrl("ftp://auth.example.com"));
    c.put("VoiceLinkClient base_url with a query", () -> VoiceLinkClient.builder().baseUrl("https://api.example.com/?a=1"));
    c.put("VoiceLinkClient base_url with a fragment", () -> VoiceLinkClient.builder().baseUrl("https://api.example.com/#x"));
    c.put("VoiceLinkClient platform_url with user credentials", () -> VoiceLinkClient.builder().platformUrl("https://user:pw@platform.example.com"));
    c.put("EntityWebApi without base_url configured", () -> EntityWebApi.builder(VoiceLinkClient.builder().build()));
    c.put("DeviceAuthorizer without auth_url configured", () -> DeviceAuthorizer.builder(VoiceLinkClient.builder().build()).clientId("vl-speaker-01").build());
    c.put("PlatformToolsClient without platform_url configured", () -> PlatformToolsClient.builder(VoiceLinkClient.builder().build()));
    // Device authorization
    c.put("client_id empty", () -> DeviceAuthorizer.builder(config).clientId(""));
    c.put("client_id ending with a space", () -> DeviceAuthorizer.builder(config).clientId("vl-speaker-01 "));
    c.put("client_id with a line break", () -> DeviceAuthorizer.builder(config).clientId("vl\nspeaker"));
    c.put("DeviceAuthorizer without client_id", () -> DeviceAuthorizer.builder(config).build());
    c.put("device_id empty", () -> DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build().requestCode("").execute());
    c.put("device_id with a line break", () -> DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build().requestCode("SN-1\nSN-2").execute());
    c.put("device_id of 1,000 characters", () -> DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build().requestCode(repeat('7', 1000)).execute());
    c.put("device_id with a control character (flow start)", () -> DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build().authorize("SN\u0000", code -> { }));
    c.put("poll(null) device code", () -> DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build().poll(null));
    // Tokens
    c.put("TokenManager deviceGrant client_id empty", () -> TokenManager.builder(config).deviceGrant(""));
    c.put("TokenManager cloudGrant client_secret empty", () -> TokenManager.builder(config).cloudGrant("vl-backend", ""));
    c.put("TokenManager cloudGrant client_secret read from a file with its line break", () -> TokenManager.builder(config).cloudGrant("vl-backend", CLIENT_SECRET + "\n"));
    c.put("OAuthServer issuer with a line break after it", () -> OAuthServer.discover(config, "https://id.example.com/realms/speakers\n"));
    c.put("TokenManager negative refresh margin", () -> TokenManager.builder(config).refreshMargin(-1, TimeUnit.SECONDS));
    c.put("TokenManager refresh margin without a unit", () -> TokenManager.builder(config).refreshMargin(1, null));
    c.put("TokenManager access token before any device authorization", () -> TokenManager.builder(config).deviceGrant("vl-speaker-01").store(new InMemoryTokenStore()).build().accessToken());
    c.put("TokenManager.setRecord(null)", () -> TokenManager.builder(config).deviceGrant("vl-speaker-01").store(new InMemoryTokenStore()).build().setRecord(null));
    c.put("TokenRecord access_token empty", () -> TokenRecord.builder().accessToken(""));
    c.put("TokenRecord negative expires_in", () -> TokenRecord.builder().expiresInSeconds(-1));
    c.put("TokenRecord expires_in Long.MAX_VALUE (\"never expires\")",
        () -> TokenRecord.builder().expiresInSeconds(Long.MAX_VALUE));
    c.put("TokenRecord without access_token", () -> TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("vl-speaker-01").expiresInSeconds(60).build());
    c.put("token file that is not JSON", () -> {
      File file = new File(dir, "garbage-token.json");
      Files.write(file.toPath(), "not json at all".getBytes(StandardCharsets.UTF_8));
      new FileTokenStore(file).load();
    });
    c.put("token file truncated mid-record", () -> {
      File file = new File(dir, "truncated-token.json");
      Files.write(file.toPath(), "{\"grant\":\"device\",\"access_token\":\"at-1".getBytes(StandardCharsets.UTF_8));
      new FileTokenStore(file).load();
    });
    // Resource names and definitions
    c.put("res_name null", () -> ResourceName.parse(null));
    c.put("res_name empty", () -> ResourceName.parse(""));
    c.put("res_name without namespace", () -> ResourceName.parse("contacts"));
    c.put("res_name with empty namespace", () -> ResourceName.parse(".contacts"));
    c.put("res_name with empty name", () -> ResourceName.parse("OS123."));
    c.put("res_name with a space", () -> ResourceName.parse("OS123.my contacts"));
    c.put("res_name with a line break", () -> ResourceName.parse("OS123.con\ntacts"));
    c.put("definition without name", () -> ResourceDefinition.builder().mainField("name").dimension(Dimension.USER).build());
    c.put("definition without main field", () -> ResourceDefinition.builder().name("OS123.contacts").dimension(Dimension.USER).build());
    c.put("definition without dimension", () -> ResourceDefinition.builder().name("OS123.contacts").mainField("name").build());
    c.put("definition main field empty", () -> ResourceDefinition.builder().mainField(""));
    c.put("definition secondary fields null", () -> ResourceDefinition.builder().secondaryFields((String[]) null));
    c.put("definition secondary field repeats the main field", () -> ResourceDefinition.builder().name("OS123.contacts").mainField("name").secondaryFields("name").dimension(Dimension.USER).build());
    c.put("custom dimension name empty", () -> Dimension.custom(""));
    c.put("custom dimension name null", () -> Dimension.custom(null));
    c.put("custom dimension name with a space", () -> Dimension.custom("car model"));
    // pers_param and auth_id
    c.put("auth_id of 31 characters", () -> PersParam.user(AUTH_ID.substring(1)));
    c.put("auth_id of 33 characters", () -> PersParam.user(AUTH_ID + "a"));
    c.put("auth_id with uppercase letters", () -> PersParam.user(AUTH_ID.toUpperCase()));
    c.put("auth_id with a symbol", () -> PersParam.user(AUTH_ID.substring(1) + "!"));
    c.put("custom pers_param without a value", () -> PersParam.custom("car_model", ""));
    c.put("custom pers_param value only spaces", () -> PersParam.custom("car_model", "  "));
    c.put("application pers_param appid only spaces", () -> PersParam.application(" "));
    c.put("custom pers_param with an empty name", () -> PersParam.custom("", "sedan"));
    c.put("pers_param dimension does not match the definition", () -> upload(RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}")).persParam(PersParam.application("5f1a2b3c")).build());
    c.put("activation pers_param in an upload request", () -> upload(RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}")).persParam(PersParam.activation().user().build()).build());
    c.put("activation pers_param in an upload without a definition", () -> api().uploadResource("5f1a2b3c", CONTACTS.name(), PersParam.activation().user().build(), RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}")));
    c.put("upload appid empty", () -> UploadRequest.builder().appid(""));
    c.put("upload without records", () -> UploadRequest.builder().appid("5f1a2b3c").definition(CONTACTS).persParam(PersParam.user(AUTH_ID)).build());
    // Records
    c.put("records: empty text", () -> uploadText(""));
    c.put("records: line is not JSON", () -> uploadText("name=Li Lei"));
    c.put("records: line is a JSON array", () -> uploadText("[\"Li Lei\"]"));
    c.put("records: main field missing", () -> uploadText("{\"alias\":\"Lei\"}"));
    c.put("records: secondary field missing", () -> uploadText("{\"name\":\"Li Lei\"}"));
    c.put("records: main field empty", () -> uploadText("{\"name\":\"\",\"alias\":\"\"}"));
    c.put("records: main field only spaces", () -> uploadText("{\"name\":\"  \",\"alias\":\"\"}"));
    c.put("records (maps): main field only a tab", () -> api().uploadResource(upload(RecordSource.of(
        java.util.Collections.singletonList(record("\t", "")))).build()).execute());
    c.put("records: field is a number", () -> uploadText("{\"name\":42,\"alias\":\"\"}"));
    c.put("records: second line broken", () -> uploadText("{\"name\":\"Li Lei\",\"alias\":\"\"}\n{\"name\":"));
    c.put("records file: invalid UTF-8", () -> uploadBytes(new byte[] {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', ',', '"', 'a', 'l', 'i', 'a', 's', '"', ':', '"', '"', '}'}));
    c.put("records file: byte-order mark on the second line", () -> uploadBytes(("{\"name\":\"A\",\"alias\":\"\"}\n\uFEFF{\"name\":\"B\",\"alias\":\"\"}").getBytes(StandardCharsets.UTF_8)));
    c.put("records: map with a null key", () -> {
      Map<String, String> record = new LinkedHashMap<>();
      record.put("name", "Li Lei");
      record.put(null, "x");
      api().uploadResource(upload(RecordSource.of(Collections.singletonList(record))).build()).execute();
    });
    c.put("records (maps): half an emoji", () -> api().uploadResource(upload(RecordSource.of(
        Collections.singletonList(record("Li Lei \ud83d", "")))).build()).execute());
    c.put("records: a lone low surrogate", () -> uploadText("{\"name\":\"\ude00\",\"alias\":\"\"}"));
    c.put("records over the size limit", () -> EntityWebApi.builder(config).namespace("OS123").accountKey(KEY).maxResourceBytes(64).build()
        .uploadResource(upload(RecordSource.fromText("{\"name\":\"" + repeat('x', 100) + "\",\"alias\":\"\"}")).build()).execute());
    // Web API client
    c.put("namespace empty", () -> EntityWebApi.builder(config).namespace(""));
    c.put("namespace with a space", () -> EntityWebApi.builder(config).namespace("OS 123"));
    c.put("account key empty", () -> EntityWebApi.builder(config).accountKey(""));
    c.put("account key only spaces", () -> EntityWebApi.builder(config).accountKey("   "));
    c.put("account key read from a file with its line break", () -> EntityWebApi.builder(config).accountKey(KEY + "\n"));
    c.put("EntityWebApi without account key", () -> EntityWebApi.builder(config).namespace("OS123").build());
    c.put("EntityWebApi with both account key and checksum source", () -> EntityWebApi.builder(config).namespace("OS123").accountKey(KEY).checksumSource((nonce, curTime) -> "0").build());
    c.put("ChecksumSigner with both checksum source and account key", () -> ChecksumSigner.builder().namespace("OS123").checksumSource((nonce, curTime) -> "0").accountKey(KEY).build());
    c.put("maxResourceBytes zero", () -> EntityWebApi.builder(config).maxResourceBytes(0));
    c.put("check-resource sid empty", () -> api().checkResource("").execute());
    c.put("awaitProcessed without a receipt", () -> api().awaitProcessed(null, 1, TimeUnit.SECONDS).execute());
    // Platform tools
    c.put("PlatformToolsClient without any token source", () -> PlatformToolsClient.builder(config).build());
    c.put("upload_entities with a custom dimension", () -> PlatformToolsClient.builder(config).userTokens(() -> "at").build()
        .uploadEntities(Dimension.custom("car_model"), ResourceName.parse("OS123.cars"), RecordSource.fromText("{\"name\":\"x\"}"), null));
    c.put("upload_entities definition null", () -> PlatformToolsClient.builder(config).userTokens(() -> "at").build()
        .uploadEntities((ResourceDefinition) null, RecordSource.fromText("{}"), null));
    c.put("upload_entities records null", () -> PlatformToolsClient.builder(config).userTokens(() -> "at").build()
        .uploadEntities(CONTACTS, null, null));
    c.put("ResourceEncoder definition null", () -> ResourceEncoder.base64(null, RecordSource.fromText("{}")));
    c.put("upload_entities appid blank", () -> PlatformToolsClient.builder(config).userTokens(() -> "at").build()
        .uploadEntities(CONTACTS, RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}"), "  "));
    c.put("upload_entities type client without cloud tokens", () -> PlatformToolsClient.builder(config).userTokens(() -> "at").build()
        .uploadEntities(Dimension.APPLICATION, ResourceName.parse("OS123.apps"), RecordSource.fromText("{\"name\":\"x\"}"), null));
    c.put("upload_entities record missing a field", () -> PlatformToolsClient.builder(config).userTokens(() -> "at").build()
        .uploadEntities(CONTACTS, RecordSource.fromText("{\"alias\":\"x\"}"), null).execute());
    c.put("check-resource sid without psn", () -> api().checkResource("wapi0001").execute());
    c.put("activation of a user named by an id that is not an auth_id", () -> PersParam.activation().user("user-1001"));
    return c;
  }

  @TestFactory List<DynamicTest> everyBadInputIsRefusedBeforeAnythingIsSent() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, Operation> entry : cases().entrySet()) {
      tests.add(refusedRow(entry.getKey(), entry.getValue(), started, server, table));
    }
    return tests;
  }

  /**
   * A test that {@code operation} is refused at once with a typed error and a message, while neither
   * {@code started} (the app client's count of calls) nor {@code server} saw a request; the error
   * goes into {@code table} under {@code name}. Shared with the other modules' bad-input tables.
   */
  static DynamicTest refusedRow(String name, Operation operation, AtomicInteger started,
      MockWebServer server, Map<String, String> table) {
    return DynamicTest.dynamicTest(name, () -> {
      int before = started.get();
      Throwable thrown = null;
      try {
        operation.run();
      } catch (Throwable e) {
        thrown = e;
      }
      assertThat(thrown).as("refused").isNotNull();
      assertThat(thrown).as("a typed refusal, not a crash")
          .isNotInstanceOf(NullPointerException.class)
          .isNotInstanceOf(ClassCastException.class)
          .isNotInstanceOf(IndexOutOfBoundsException.class)
          .isNotInstanceOf(AssertionError.class);
      assertThat(thrown.getMessage()).as("message").isNotBlank().doesNotContain(KEY)
          .doesNotContain(CLIENT_SECRET);
      assertThat(started.get() - before).as("requests started").isZero();
      assertThat(server.getRequestCount()).as("requests received").isZero();
      synchronized (table) {
        table.put(name, thrown.getClass().getSimpleName() + ": " + thrown.getMessage());
      }
    });
  }
}
