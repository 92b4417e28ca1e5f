package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_QUERY_SYNC_STATUS;
import static dev.voicelink.android.AgentConstants.CMD_SET_PARAMS;
import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.CMD_WRITE;
import static dev.voicelink.android.AgentConstants.EVENT_CMD_RETURN;
import static dev.voicelink.android.AgentConstants.EVENT_CONNECTED_TO_SERVER;
import static dev.voicelink.android.AgentConstants.EVENT_ERROR;
import static dev.voicelink.android.AgentConstants.EVENT_STATE;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_QUERY;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.reliability.DocSection;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.ByteString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Bad commands and config texts given to the Agent: each gets its error event (code and a message that
 * names the problem) or, for a config, an exception at creation, and nothing is sent. The Agent's logic
 * (the engine) runs with the real entity backend on sdk-core's {@link EntityWebApi}, against one
 * loopback server for both the interaction channel and the web API. Published in docs/reliability.md.
 */
class AgentBadInputTest {
  static final String UID = "d41d8cd98f00b204e9800998ecf8427e";
  static final String ACCOUNT_KEY = "0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a";
  static final String CONFIG = "{\"login\":{\"appid\":\"5f1a2b3c\"},"
      + "\"server\":{\"base_url\":\"http://localhost\"}}";
  static final String CONTACTS = "{\"name\":\"Li Lei\",\"alias\":\"\"}";

  static final MockWebServer server = new MockWebServer();
  static final VirtualTime time = new VirtualTime();
  /** Web API requests (anything but the interaction channel's upgrade). */
  static final AtomicInteger webApiRequests = new AtomicInteger();
  /** What arrived over the interaction channel, in order. */
  static final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
  static final BlockingQueue<EngineHarness.Event> events = new LinkedBlockingQueue<>();
  static final BlockingQueue<EngineHarness.Event> offlineEvents = new LinkedBlockingQueue<>();
  static AgentEngine engine;
  /** Never connected: for commands sent in the wrong state. */
  static AgentEngine offline;
  static final Map<String, String> table = new LinkedHashMap<>();
  static final List<WebSocket> serverSockets = new java.util.concurrent.CopyOnWriteArrayList<>();
  static int barriers;

  @BeforeAll static void start() throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override public MockResponse dispatch(RecordedRequest request) {
        if (request.getPath() != null && request.getPath().endsWith("/v2/voicelink/interact")) {
          return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
            @Override public void onOpen(WebSocket webSocket, Response response) {
              serverSockets.add(webSocket);
              webSocket.send("{\"type\":\"connected\",\"uid\":\"" + UID + "\"}");
            }

            @Override public void onMessage(WebSocket webSocket, String text) {
              frames.add(text);
            }

            @Override public void onMessage(WebSocket webSocket, ByteString bytes) {
              frames.add("binary:" + bytes.hex());
            }

            @Override public void onClosing(WebSocket webSocket, int code, String reason) {
              webSocket.close(1000, null);
            }
          });
        }
        webApiRequests.incrementAndGet();
        return new MockResponse().setResponseCode(500);
      }
    });
    server.start();
    engine = engine(events);
    offline = engine(offlineEvents);
    engine.start(true);
    time.awaitScheduled(1);
    time.runDueTasks();
    assertThat(next(events).type).isEqualTo(EVENT_CONNECTED_TO_SERVER);
  }

  static AgentEngine engine(final BlockingQueue<EngineHarness.Event> sink) {
    VoiceLinkClient core = VoiceLinkClient.builder().baseUrl(server.url("/").toString())
        .clock(time).scheduler(time).httpClient(new OkHttpClient()).build();
    Map<String, ResourceDefinition> definitions = new HashMap<>();
    definitions.put("OS123.contacts", ResourceDefinition.builder().name("OS123.contacts")
        .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build());
    definitions.put("OS123.apps", ResourceDefinition.builder().name("OS123.apps")
        .mainField("name").dimension(Dimension.APPLICATION).build());
    EntityWebApi api = EntityWebApi.builder(core).namespace("OS123").accountKey(ACCOUNT_KEY).build();
    TokenSource tokens = new TokenSource() {
      @Override public String accessToken() {
        return "device-token";
      }

      @Override public void invalidate(String token) {
      }
    };
    return new AgentEngine(AgentConfig.parse(CONFIG), ClientCore.of(core),
        new ChannelFactory(core, tokens, 3), new WebApiEntityBackend(api, definitions),
        "not configured", "not signed in", new EventSink() {
          @Override public void emit(int type, int arg1, int arg2, String info,
              Map<String, Object> data) {
            if (type != EVENT_STATE) sink.add(new EngineHarness.Event(type, arg1, arg2, info, data));
          }
        });
  }

  @AfterAll static void publish() throws IOException {
    engine.destroy();
    offline.destroy();
    // The server's end closes too, or shutdown waits for a socket the client may not have closed yet.
    for (WebSocket socket : serverSockets) socket.close(1001, "test over");
    server.shutdown();
    assertThat(table).as("distinct bad inputs").hasSizeGreaterThanOrEqualTo(25);
    StringBuilder md = new StringBuilder("| # | Bad input | Outcome |\n|---|---|---|\n");
    int n = 0;
    for (Map.Entry<String, String> row : table.entrySet()) {
      md.append("| ").append(++n).append(" | ").append(DocSection.cell(row.getKey())).append(" | ")
          .append(DocSection.cell(row.getValue())).append(" |\n");
    }
    DocSection.check("reliability.md", "bad-input-agent", md.toString());
  }

  static EngineHarness.Event next(BlockingQueue<EngineHarness.Event> queue)
      throws InterruptedException {
    EngineHarness.Event event = queue.poll(5, TimeUnit.SECONDS);
    assertThat(event).as("an event within 5 s").isNotNull();
    return event;
  }

  static AgentMessage write(String params, String text) {
    return new AgentMessage(CMD_WRITE, 0, 0, params,
        text == null ? null : text.getBytes(StandardCharsets.UTF_8));
  }

  static AgentMessage sync(String data) {
    return new AgentMessage(CMD_SYNC, SYNC_DATA_SCHEMA, 0, "{\"tag\":\"t\"}",
        data == null ? null : data.getBytes(StandardCharsets.UTF_8));
  }

  /** CMD_SYNC data with the given param members and the records as Base64. */
  static AgentMessage sync(String param, byte[] records) {
    return sync("{\"param\":{" + param + "},\"data\":\"" + ByteString.of(records).base64() + "\"}");
  }

  static AgentMessage contacts(String param) {
    return sync(param, CONTACTS.getBytes(StandardCharsets.UTF_8));
  }

  /** CMD_SYNC data whose custom id_value is 张三 in GBK, as a port of a GBK app might send it. */
  static byte[] gbkIdValue() {
    byte[] head = ("{\"param\":{\"id_name\":\"family\",\"id_value\":\"")
        .getBytes(StandardCharsets.UTF_8);
    byte[] gbk = {(byte) 0xD5, (byte) 0xC5, (byte) 0xC8, (byte) 0xFD};
    byte[] tail = ("\",\"res_name\":\"OS123.contacts\"},\"data\":\"e30=\"}").getBytes(StandardCharsets.UTF_8);
    byte[] data = new byte[head.length + gbk.length + tail.length];
    System.arraycopy(head, 0, data, 0, head.length);
    System.arraycopy(gbk, 0, data, head.length, gbk.length);
    System.arraycopy(tail, 0, data, head.length + gbk.length, tail.length);
    return data;
  }

  static AgentMessage setParams(String params) {
    return new AgentMessage(CMD_SET_PARAMS, 0, 0, params, null);
  }

  static final String USER = "\"id_name\":\"uid\",\"id_value\":\"\",\"res_name\":\"OS123.contacts\"";

  /** A row: a message for the connected engine, the offline one, or a config text. */
  static final class Case {
    final AgentMessage message;
    final boolean offline;
    final String config;

    Case(AgentMessage message, boolean offline, String config) {
      this.message = message;
      this.offline = offline;
      this.config = config;
    }
  }

  static Map<String, Case> cases() {
    Map<String, Case> c = new LinkedHashMap<>();
    // CMD_WRITE params and data
    c.put("CMD_WRITE without params", new Case(write("", "hello"), false, null));
    c.put("CMD_WRITE data_type=video", new Case(write("data_type=video", "hello"), false, null));
    c.put("CMD_WRITE pairs separated by ; instead of ,", new Case(
        write("data_type=text;sample_rate=16000", "hello"), false, null));
    c.put("CMD_WRITE sample_rate=abc", new Case(write("data_type=audio,sample_rate=abc", "pcm"), false,
        null));
    c.put("CMD_WRITE sample_rate=0", new Case(write("data_type=audio,sample_rate=0", "pcm"), false, null));
    c.put("CMD_WRITE sample_rate beyond an int", new Case(
        write("data_type=audio,sample_rate=99999999999", "pcm"), false, null));
    c.put("CMD_WRITE pers_param object never closed", new Case(
        write("data_type=text,pers_param={\"uid\":\"\"", "hello"), false, null));
    c.put("CMD_WRITE pers_param object with a missing value", new Case(
        write("data_type=text,pers_param={\"uid\":}", "hello"), false, null));
    c.put("CMD_WRITE pers_param is a JSON array", new Case(
        write("data_type=text,pers_param=[\"uid\"]", "hello"), false, null));
    c.put("CMD_WRITE pers_param is a bare word", new Case(write("data_type=text,pers_param=uid", "hello"),
        false, null));
    c.put("CMD_WRITE pers_param with a number value", new Case(
        write("data_type=text,pers_param={\"uid\":1}", "hello"), false, null));
    c.put("CMD_WRITE pers_param empty object (activates nothing)", new Case(
        write("data_type=text,pers_param={}", "hello"), false, null));
    c.put("CMD_WRITE pers_param custom dimension without its value", new Case(
        write("data_type=text,pers_param={\"uid\":\"\",\"family\":\"\"}", "hello"), false, null));
    c.put("CMD_WRITE pers_param uid neither empty nor an auth_id", new Case(
        write("data_type=text,pers_param={\"uid\":\"BAD\"}", "hello"), false, null));
    c.put("CMD_WRITE text after the pers_param object", new Case(
        write("data_type=text,pers_param={\"uid\":\"\"}x", "hello"), false, null));
    c.put("CMD_WRITE data_type given twice", new Case(write("data_type=text,data_type=audio", "hello"),
        false, null));
    c.put("CMD_WRITE key without a value", new Case(write("data_type", "hello"), false, null));
    c.put("CMD_WRITE value without a key", new Case(write("=text", "hello"), false, null));
    c.put("CMD_WRITE text without data", new Case(write("data_type=text", null), false, null));
    c.put("CMD_WRITE audio with empty data", new Case(write("data_type=audio", ""), false, null));
    c.put("CMD_WRITE text that is not UTF-8 (GBK bytes)", new Case(new AgentMessage(CMD_WRITE, 0, 0,
        "data_type=text,tag=t", new byte[] {(byte) 0xD5, (byte) 0xC5, (byte) 0xC8, (byte) 0xFD}), false,
        null));
    // CMD_SYNC
    c.put("CMD_SYNC arg1 SYNC_DATA_QUERY instead of SYNC_DATA_SCHEMA", new Case(
        contacts(USER).newBuilder().arg1(SYNC_DATA_QUERY).build(), false, null));
    c.put("CMD_SYNC params not JSON (tag=x)", new Case(contacts(USER).newBuilder().params("tag=x").build(),
        false, null));
    c.put("CMD_SYNC params tag is a number", new Case(
        contacts(USER).newBuilder().params("{\"tag\":7}").build(), false, null));
    c.put("CMD_SYNC without data", new Case(sync((String) null), false, null));
    c.put("CMD_SYNC data that is not UTF-8 (a GBK id_value)", new Case(new AgentMessage(CMD_SYNC,
        SYNC_DATA_SCHEMA, 0, "{\"tag\":\"t\"}", gbkIdValue()), false, null));
    c.put("CMD_SYNC data not JSON", new Case(sync("res_name=OS123.contacts"), false, null));
    c.put("CMD_SYNC data without param", new Case(sync("{\"data\":\"e30=\"}"), false, null));
    c.put("CMD_SYNC data.param is a string", new Case(sync("{\"param\":\"uid\",\"data\":\"e30=\"}"),
        false, null));
    c.put("CMD_SYNC without id_name", new Case(contacts("\"res_name\":\"OS123.contacts\""), false, null));
    c.put("CMD_SYNC without res_name", new Case(contacts("\"id_name\":\"uid\""), false, null));
    c.put("CMD_SYNC res_name without namespace", new Case(
        contacts("\"id_name\":\"uid\",\"res_name\":\"contacts\""), false, null));
    c.put("CMD_SYNC res_name with a space", new Case(
        contacts("\"id_name\":\"uid\",\"res_name\":\"OS123.my contacts\""), false, null));
    c.put("CMD_SYNC custom id_name without id_value", new Case(
        contacts("\"id_name\":\"car_model\",\"res_name\":\"OS123.contacts\""), false, null));
    c.put("CMD_SYNC id_value not an auth_id (wrong auth_id)", new Case(
        contacts("\"id_name\":\"uid\",\"id_value\":\"" + UID.substring(1)
            + "\",\"res_name\":\"OS123.contacts\""), false, null));
    c.put("CMD_SYNC id_name appid for a user resource (mismatched dimension)", new Case(
        contacts("\"id_name\":\"appid\",\"res_name\":\"OS123.contacts\""), false, null));
    c.put("CMD_SYNC id_name uid for an application resource (mismatched dimension)", new Case(
        sync("\"id_name\":\"uid\",\"res_name\":\"OS123.apps\"",
            "{\"name\":\"Maps\"}".getBytes(StandardCharsets.UTF_8)), false, null));
    c.put("CMD_SYNC custom id_name with a space (malformed pers_param)", new Case(
        contacts("\"id_name\":\"car model\",\"id_value\":\"sedan\",\"res_name\":\"OS123.contacts\""),
        false, null));
    c.put("CMD_SYNC appid is a number", new Case(contacts(USER + ",\"appid\":5"), false, null));
    c.put("CMD_SYNC data.data empty", new Case(sync("{\"param\":{" + USER + "},\"data\":\"\"}"), false,
        null));
    c.put("CMD_SYNC data.data not Base64", new Case(sync("{\"param\":{" + USER + "},\"data\":\"%%%\"}"),
        false, null));
    c.put("CMD_SYNC records missing a field", new Case(sync(USER,
        "{\"name\":\"Li Lei\"}".getBytes(StandardCharsets.UTF_8)), false, null));
    c.put("CMD_SYNC records with a BOM on the second line", new Case(sync(USER,
        (CONTACTS + "\n\uFEFF" + CONTACTS).getBytes(StandardCharsets.UTF_8)), false, null));
    c.put("CMD_SYNC records not valid UTF-8", new Case(sync(USER,
        "{\"name\":\"Jos\u00e9\",\"alias\":\"\"}".getBytes(StandardCharsets.ISO_8859_1)), false, null));
    c.put("CMD_SYNC records empty", new Case(sync(USER, "\n".getBytes(StandardCharsets.UTF_8)), false,
        null));
    // CMD_SET_PARAMS
    c.put("CMD_SET_PARAMS audioparams is a string", new Case(setParams("{\"audioparams\":\"x\"}"),
        false, null));
    c.put("CMD_SET_PARAMS pers_param an object, not JSON text", new Case(
        setParams("{\"audioparams\":{\"pers_param\":{\"uid\":\"\"}}}"), false, null));
    c.put("CMD_SET_PARAMS pers_param text not a JSON object", new Case(
        setParams("{\"audioparams\":{\"pers_param\":\"uid\"}}"), false, null));
    c.put("CMD_SET_PARAMS pers_param with a number value", new Case(
        setParams("{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":1}\"}}"), false, null));
    c.put("CMD_SET_PARAMS pers_param empty object (activates nothing)", new Case(
        setParams("{\"audioparams\":{\"pers_param\":\"{}\"}}"), false, null));
    // CMD_QUERY_SYNC_STATUS and unknown commands
    c.put("CMD_QUERY_SYNC_STATUS without params", new Case(
        new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, "", null), false, null));
    c.put("CMD_QUERY_SYNC_STATUS sid empty", new Case(
        new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, "{\"sid\":\" \"}", null), false,
        null));
    c.put("unknown command (msgType 99)", new Case(new AgentMessage(99, 0, 0, "", null), false, null));
    // Commands in the wrong state
    c.put("CMD_WRITE before EVENT_CONNECTED_TO_SERVER", new Case(write("data_type=text", "hello"), true,
        null));
    c.put("CMD_SYNC before EVENT_CONNECTED_TO_SERVER", new Case(contacts(USER), true, null));
    c.put("CMD_QUERY_SYNC_STATUS before EVENT_CONNECTED_TO_SERVER", new Case(
        new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, "{\"sid\":\"psn1\"}", null), true,
        null));
    // Config texts
    c.put("config without login.appid", new Case(null, false,
        "{\"server\":{\"base_url\":\"https://api.example.com\"}}"));
    c.put("config login.appid empty", new Case(null, false,
        "{\"login\":{\"appid\":\" \"},\"server\":{\"base_url\":\"https://api.example.com\"}}"));
    c.put("config login.appid a number", new Case(null, false,
        "{\"login\":{\"appid\":5},\"server\":{\"base_url\":\"https://api.example.com\"}}"));
    c.put("config with a BOM and a /* comment never closed", new Case(null, false,
        "\uFEFF{\"login\":{\"appid\":\"5f1a2b3c\"} /* server comes later"));
    c.put("config with a trailing comma", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},}"));
    c.put("config with a second BOM after the first", new Case(null, false,
        "\uFEFF\uFEFF{\"login\":{\"appid\":\"5f1a2b3c\"}}"));
    c.put("config of two objects", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"}} {}"));
    c.put("config that is an array", new Case(null, false, "[{\"login\":{\"appid\":\"5f1a2b3c\"}}]"));
    c.put("config with the entity section twice", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"entity\":{\"namespace\":\"OS123\",\"account_key\":\"" + ACCOUNT_KEY + "\"},"
            + "\"entity\":{\"namespace\":\"OS124\",\"account_key\":\"" + ACCOUNT_KEY + "\"}}"));
    c.put("config without server.base_url", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"}} // base_url forgotten"));
    c.put("config server.base_url ftp", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"ftp://api.example.com\"}}"));
    c.put("config audioparams.pers_param not a JSON object", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"audioparams\":{\"pers_param\":\"uid\"}}"));
    c.put("config audioparams.pers_param with a number value", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":1}\"}}"));
    c.put("config entity.account_key empty", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"entity\":{\"namespace\":\"OS123\",\"account_key\":\"\"}}"));
    c.put("config entity.namespace with a space", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"entity\":{\"namespace\":\"OS 123\",\"account_key\":\"k\"}}"));
    c.put("config entity.account_key with a tab inside", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"entity\":{\"namespace\":\"OS123\",\"account_key\":\"ab\\tcd\"}}"));
    c.put("config entity.account_key without entity.namespace", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"entity\":{\"account_key\":\"" + ACCOUNT_KEY + "\"}}"));
    c.put("config auth.device_id with a space", new Case(null, false,
        "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
            + "\"auth\":{\"client_id\":\"vl-speaker-01\",\"device_id\":\"SN 0001\"}}"));
    c.put("CMD_QUERY_SYNC_STATUS sid without psn", new Case(
        new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0, "{\"sid\":\"wapi0001\"}", null),
        false, null));
    return c;
  }

  static final Map<Integer, String> NAMES = names();

  static Map<Integer, String> names() {
    Map<Integer, String> names = new HashMap<>();
    for (Field field : AgentConstants.class.getFields()) {
      if (!Modifier.isStatic(field.getModifiers()) || field.getType() != int.class) continue;
      try {
        String name = field.getName();
        if (name.startsWith("ERROR_") || name.startsWith("EVENT_") || name.startsWith("CMD_")) {
          names.put((name.startsWith("ERROR_") ? 0 : name.startsWith("EVENT_") ? 1 : 2) * 1_000_000
              + field.getInt(null), name);
        }
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
    return names;
  }

  static String describe(EngineHarness.Event event) {
    String type = NAMES.get(1_000_000 + event.type);
    if (event.type == EVENT_CMD_RETURN) {
      return type + " " + NAMES.get(2_000_000 + event.arg1) + ", " + NAMES.get(event.arg2) + ": "
          + event.info;
    }
    return type + " " + NAMES.get(event.arg1) + ": " + event.info;
  }

  /**
   * Proves nothing was written to the interaction channel before now: a good write sent after the bad
   * one must be the next frame the server receives (the channel keeps order).
   */
  static void assertNothingWasWritten() throws InterruptedException {
    String marker = "barrier-" + (++barriers);
    engine.send(write("data_type=text", marker));
    String frame = frames.poll(5, TimeUnit.SECONDS);
    assertThat(frame).as("the barrier write arrives").isNotNull();
    assertThat(frame).as("the first frame after the bad input").contains(marker);
  }

  /** The reply to a query with a bad tag still names its sid, by which the app matches it. */
  @Test void aQueryRefusedForItsTagStillNamesItsSid() throws InterruptedException {
    engine.send(new AgentMessage(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, 0,
        "{\"sid\":\"psn123\",\"tag\":7}", null));

    EngineHarness.Event reply = next(events);
    assertThat(reply.type).isEqualTo(EVENT_CMD_RETURN);
    assertThat(reply.arg2).isEqualTo(AgentConstants.ERROR_INVALID_PARAMS);
    assertThat(reply.data).containsEntry(AgentConstants.KEY_SID, "psn123")
        .doesNotContainKey(AgentConstants.KEY_TAG);
    assertThat(engine.awaitIdle(5, TimeUnit.SECONDS)).isTrue();
    assertThat(events.poll()).as("one event only").isNull();
  }

  @TestFactory List<DynamicTest> everyBadInputGetsItsErrorAndSendsNothing() {
    List<DynamicTest> tests = new ArrayList<>();
    for (final Map.Entry<String, Case> entry : cases().entrySet()) {
      tests.add(DynamicTest.dynamicTest(entry.getKey(), () -> {
        Case bad = entry.getValue();
        int webApiBefore = webApiRequests.get();
        String outcome;
        if (bad.config != null) {
          Throwable thrown = null;
          try {
            AgentConfig.parse(bad.config);
          } catch (Throwable e) {
            thrown = e;
          }
          assertThat(thrown).as("refused").isInstanceOf(IllegalArgumentException.class);
          assertThat(thrown.getMessage()).as("message").doesNotContain(ACCOUNT_KEY);
          outcome = thrown.getClass().getSimpleName() + ": " + thrown.getMessage();
        } else {
          BlockingQueue<EngineHarness.Event> queue = bad.offline ? offlineEvents : events;
          (bad.offline ? offline : engine).send(bad.message);
          EngineHarness.Event event = next(queue);
          int command = bad.message.msgType();
          if (command == CMD_SYNC || command == CMD_QUERY_SYNC_STATUS) {
            assertThat(event.type).as("reply of %s", event).isEqualTo(EVENT_CMD_RETURN);
            assertThat(event.arg1).isEqualTo(command);
            assertThat(event.arg2).as("error code of %s", event).isNotZero();
            if (command == CMD_SYNC) {
              assertThat(event.data.get(AgentConstants.KEY_SID)).as("no sid: nothing uploaded").isNull();
            }
          } else {
            assertThat(event.type).as("error of %s", event).isEqualTo(EVENT_ERROR);
          }
          assertThat(event.info).as("message").isNotBlank().doesNotContain(ACCOUNT_KEY);
          outcome = describe(event);
          assertThat((bad.offline ? offline : engine).awaitIdle(5, TimeUnit.SECONDS))
              .as("the engine idle within 5 s").isTrue();
          assertThat(queue.poll()).as("one event only").isNull();
          if (!bad.offline) assertNothingWasWritten();
        }
        assertThat(webApiRequests.get() - webApiBefore).as("web API requests").isZero();
        synchronized (table) {
          table.put(entry.getKey(), outcome);
        }
      }));
    }
    return tests;
  }
}
