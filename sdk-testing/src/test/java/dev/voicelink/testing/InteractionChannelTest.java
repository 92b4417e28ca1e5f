package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InteractionChannelTest {
  ServerClock clock = ServerClock.manual(AuthFlowTest.T0);
  ReferenceServer server;
  Platform platform;
  WebSocket ws;
  final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
  /** The close frames the server sent, as {@code "<code> <reason>"}. */
  final BlockingQueue<String> closes = new LinkedBlockingQueue<>();
  final BlockingQueue<Integer> failures = new LinkedBlockingQueue<>();
  final String uid = Ids.authIdForPhone(DefaultConsole.TESTER_PHONE);

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(clock)
        .recognizer((audio, rate) -> audio.length == 4 && rate == 16000 ? "call laozhang please" : "")
        .build().start();
    platform = new Platform(server);
  }

  @AfterEach void stop() throws IOException {
    if (ws != null) ws.cancel();
    server.close();
  }

  void connect(String token) {
    Request.Builder r = new Request.Builder().url(server.baseUrl().replace("http:", "ws:") + "/v2/voicelink/interact");
    if (token != null) r.header("Authorization", token);
    ws = Wire.HTTP.newWebSocket(r.build(), new WebSocketListener() {
      @Override public void onMessage(WebSocket webSocket, String text) {
        messages.add(text);
      }

      @Override public void onFailure(WebSocket webSocket, Throwable t, Response response) {
        failures.add(response == null ? -1 : response.code());
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        closes.add(code + " " + reason);
      }
    });
  }

  Map<String, Object> next() throws InterruptedException {
    String m = messages.poll(5, TimeUnit.SECONDS);
    assertThat(m).as("a message from the server").isNotNull();
    return Json.parseObject(m);
  }

  void uploadContacts() throws IOException {
    Wire.Answer a = platform.upload(DefaultConsole.CONTACTS, "{\"auth_id\":\"" + uid + "\"}",
        "{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}\n{\"name\":\"Zhang Wei\",\"alias\":\"laozhang\"}");
    assertThat(a.json()).containsEntry("code", "00000");
  }

  @Test void firstMessageNamesTheUser() throws Exception {
    connect((String) platform.deviceToken().get("access_token"));
    assertThat(next()).containsOnlyKeys("type", "uid").containsEntry("type", "connected").containsEntry("uid", uid);
  }

  @Test void aSessionCountsAsOpenUntilItsClientClosesIt() throws Exception {
    assertThat(server.awaitInteractionSessionsClosed(0, TimeUnit.SECONDS)).as("none yet").isTrue();
    connect((String) platform.deviceToken().get("access_token"));
    next();
    assertThat(server.awaitInteractionSessionsClosed(100, TimeUnit.MILLISECONDS))
        .as("a greeted session the client keeps").isFalse();

    ws.close(1000, "done");
    assertThat(server.awaitInteractionSessionsClosed(5, TimeUnit.SECONDS)).isTrue();
    ws = null;
    assertThatThrownBy(() -> server.awaitInteractionSessionsClosed(1, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("unit must not be null");
  }

  @Test void closingIsAnsweredBothWays() throws Exception {
    BlockingQueue<String> closed = new LinkedBlockingQueue<>();
    BlockingQueue<String> closing = new LinkedBlockingQueue<>();
    BlockingQueue<String> greetings = new LinkedBlockingQueue<>();
    WebSocketListener client = new WebSocketListener() {
      @Override public void onMessage(WebSocket webSocket, String text) {
        greetings.add(text);
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        closing.add(code + " " + reason);
        webSocket.close(1000, null);
      }

      @Override public void onClosed(WebSocket webSocket, int code, String reason) {
        closed.add(code + " " + reason);
      }
    };
    Request request = new Request.Builder().url(server.baseUrl() + "/v2/voicelink/interact")
        .header("Authorization", (String) platform.deviceToken().get("access_token")).build();

    WebSocket leaving = Wire.HTTP.newWebSocket(request, client);
    leaving.close(1000, "bye");
    assertThat(closed.poll(5, TimeUnit.SECONDS)).as("the server answers a client's close").isEqualTo("1000 ");

    greetings.clear();
    closing.clear(); // the echo of the first close
    Wire.HTTP.newWebSocket(request, client);
    assertThat(greetings.poll(5, TimeUnit.SECONDS)).as("connected").startsWith("{\"type\":\"connected\"");
    server.close();
    // The close frame is what the client must see; the socket may be torn down before its echo lands.
    assertThat(closing.poll(5, TimeUnit.SECONDS)).as("stopping the server closes its sessions")
        .isEqualTo("1001 server stopping");
  }

  @Test void textWriteFindsEntitiesOnlyOnceInEffectAndOnlyWithPersParam() throws Exception {
    uploadContacts();
    connect((String) platform.deviceToken().get("access_token"));
    next();
    String write = "{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"给老张和li lei打电话\",\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\",\"seq\":1}";
    ws.send(write);
    assertThat(next().get("entities")).isEqualTo(java.util.Collections.emptyList());

    clock.advance(5, TimeUnit.MINUTES);
    ws.send(write);
    Map<String, Object> r = next();
    assertThat(r).containsEntry("type", "result").containsEntry("seq", 1.0).containsEntry("text", "给老张和li lei打电话");
    assertThat(r.get("entities")).isEqualTo(java.util.Arrays.asList(
        Json.obj("res_name", "OS123.contacts", "value", "张三", "matched", "老张"),
        Json.obj("res_name", "OS123.contacts", "value", "Li Lei", "matched", "Li Lei")));

    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"给老张打电话\",\"seq\":2}");
    assertThat(next()).containsEntry("seq", 2.0).containsEntry("entities", java.util.Collections.emptyList());
  }

  @Test void audioWriteIsCountedAndRecognizedByTheHook() throws Exception {
    uploadContacts();
    clock.advance(5, TimeUnit.MINUTES);
    connect((String) platform.deviceToken().get("access_token"));
    next();
    ws.send("{\"type\":\"write\",\"data_type\":\"audio\",\"sample_rate\":16000,\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\",\"seq\":7}");
    ws.send(ByteString.of((byte) 1, (byte) 2));
    ws.send(ByteString.of((byte) 3, (byte) 4));
    ws.send("{\"type\":\"end\",\"seq\":7}");
    Map<String, Object> r = next();
    assertThat(r).containsEntry("seq", 7.0).containsEntry("audio_bytes", 4.0).containsEntry("text", "call laozhang please");
    assertThat(r.get("entities")).isEqualTo(java.util.Arrays.asList(
        Json.obj("res_name", "OS123.contacts", "value", "Zhang Wei", "matched", "laozhang")));

    List<RecordedCall> frames = server.journal().calls("/interact");
    assertThat(frames).extracting(RecordedCall::method).containsExactly("GET", "WS", "WS", "WS", "WS");
    assertThat(frames.get(1).body()).contains("\"sample_rate\":16000");
    assertThat(frames.get(1).responseBody()).isEmpty();
    assertThat(frames.get(2).body()).isEqualTo("<2 bytes of audio>");
    assertThat(frames.get(4).responseBody()).contains("\"audio_bytes\":4");
  }

  @Test void applicationAndCustomLevelsTogether() throws Exception {
    server.console().putEntity(EntityDefinition.create("OS123.family_members", "name", java.util.Arrays.asList("alias"), "family"));
    Wire.Answer fam = platform.upload("OS123.family_members", "{\"family\":\"f-01\"}", "{\"name\":\"Grandma\",\"alias\":\"nana\"}");
    assertThat(fam.json()).containsEntry("code", "00000");
    platform.upload(DefaultConsole.SONGS, "{\"appid\":\"5f1a2b3c\"}", "{\"name\":\"Yesterday\",\"alias\":\"\"}");
    clock.advance(5, TimeUnit.MINUTES);
    connect((String) platform.deviceToken().get("access_token"));
    next();
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"nana plays yesterday\",\"seq\":3,"
        + "\"pers_param\":\"{\\\"appid\\\":\\\"\\\",\\\"uid\\\":\\\"\\\",\\\"family\\\":\\\"f-01\\\"}\"}");
    assertThat(next().get("entities")).isEqualTo(java.util.Arrays.asList(
        Json.obj("res_name", "OS123.family_members", "value", "Grandma", "matched", "nana"),
        Json.obj("res_name", "OS123.songs", "value", "Yesterday", "matched", "Yesterday")));
  }

  @Test void aNewerUploadReplacesTheOlderOnceInEffect() throws Exception {
    uploadContacts();
    clock.advance(5, TimeUnit.MINUTES);
    platform.upload(DefaultConsole.CONTACTS, "{\"auth_id\":\"" + uid + "\"}", "{\"name\":\"Wang Wu\",\"alias\":\"\"}");
    connect((String) platform.deviceToken().get("access_token"));
    next();
    String write = "{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"li lei or wang wu\",\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\",\"seq\":1}";
    ws.send(write);
    assertThat(next().get("entities")).isEqualTo(java.util.Arrays.asList(
        Json.obj("res_name", "OS123.contacts", "value", "Li Lei", "matched", "Li Lei")));
    clock.advance(5, TimeUnit.MINUTES);
    ws.send(write);
    assertThat(next().get("entities")).isEqualTo(java.util.Arrays.asList(
        Json.obj("res_name", "OS123.contacts", "value", "Wang Wu", "matched", "Wang Wu")));
  }

  /**
   * The console changes the entity (a new secondary field) while an upload made before is in
   * effect: that upload's records still match, by the fields they have.
   */
  @Test void anUploadInEffectStillMatchesAfterItsEntityGainsAField() throws Exception {
    uploadContacts();
    clock.advance(5, TimeUnit.MINUTES);
    server.console().putEntity(EntityDefinition.create(DefaultConsole.CONTACTS, "name",
        java.util.Arrays.asList("alias", "nickname"), EntityDefinition.USER));
    connect((String) platform.deviceToken().get("access_token"));
    next();

    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"call laozhang\","
        + "\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\",\"seq\":1}");

    Map<String, Object> r = next();
    assertThat(r).containsEntry("seq", 1.0);
    assertThat(r.get("entities")).isEqualTo(java.util.Arrays.asList(
        Json.obj("res_name", "OS123.contacts", "value", "Zhang Wei", "matched", "laozhang")));
  }

  @Test void upgradeWithoutAValidDeviceTokenIsRefused() throws Exception {
    connect(null);
    assertThat(failures.poll(5, TimeUnit.SECONDS)).isEqualTo(401);
    connect("at_unknown");
    assertThat(failures.poll(5, TimeUnit.SECONDS)).isEqualTo(401);
    connect((String) platform.cloudToken().get("access_token"));
    assertThat(failures.poll(5, TimeUnit.SECONDS)).isEqualTo(403);
    server.console().setAccessTokenLifetimeSeconds(10);
    String token = (String) platform.deviceToken().get("access_token");
    clock.advance(10, TimeUnit.SECONDS);
    connect(token);
    assertThat(failures.poll(5, TimeUnit.SECONDS)).isEqualTo(401);
  }

  @Test void badMessagesGetErrorsAndTheSessionGoesOn() throws Exception {
    connect((String) platform.deviceToken().get("access_token"));
    next();
    ws.send("not json");
    assertThat(next()).containsEntry("type", "error").containsEntry("code", 60001.0);
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"x\",\"seq\":4,\"pers_param\":\"{\\\"uid\\\"\"}");
    assertThat(next()).containsEntry("seq", 4.0).containsEntry("code", 60002.0);
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"x\",\"seq\":5,\"pers_param\":\"{\\\"planet\\\":\\\"mars\\\"}\"}");
    assertThat(next()).containsEntry("code", 60002.0)
        .containsEntry("desc", "pers_param key planet is not the dimension of any resource");
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"x\",\"seq\":10,\"pers_param\":\"{\\\"os_device_id\\\":\\\"SN-0001-DEMO\\\"}\"}");
    assertThat(next()).containsEntry("code", 60002.0).containsEntry("desc", "pers_param key os_device_id is not a"
        + " custom dimension; use appid or uid (device-level resources are not activated)");
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"x\",\"seq\":11,\"pers_param\":\"{\\\"family\\\":\\\" \\\"}\"}");
    assertThat(next()).containsEntry("code", 60002.0).containsEntry("desc", "pers_param.family needs the group value");
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"x\",\"seq\":12,\"pers_param\":\"{}\"}");
    assertThat(next()).containsEntry("seq", 12.0).containsEntry("code", 60002.0).containsEntry("desc",
        "pers_param must name at least one level (appid, uid or a custom dimension): an empty one activates nothing");
    ws.send(ByteString.of((byte) 1));
    assertThat(next()).containsEntry("code", 60003.0);
    ws.send("{\"type\":\"end\",\"seq\":6}");
    assertThat(next()).containsEntry("code", 60003.0);
    ws.send("{\"type\":\"write\",\"data_type\":\"video\",\"seq\":8}");
    assertThat(next()).containsEntry("code", 60001.0);
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"ok\",\"seq\":9}");
    assertThat(next()).containsEntry("type", "result").containsEntry("seq", 9.0);
  }

  /**
   * An upgrade the server cannot answer with a WebSocket (RFC 6455 4.1) is refused in words, never
   * answered with a 101 that opens nothing.
   */
  @Test void anUpgradeItCannotAnswerIsRefusedInWords() throws Exception {
    String token = (String) platform.deviceToken().get("access_token");
    String key = "dGhlIHNhbXBsZSBub25jZQ==";
    assertThat(handshake(token, "keep-alive, Upgrade", key, "13")).isEqualTo("400 {\"error\":"
        + "\"invalid_request\",\"message\":\"Connection must be Upgrade (this server takes no other form);"
        + " was: keep-alive, Upgrade\"}");
    assertThat(handshake(token, "Upgrade", null, "13")).isEqualTo("400 {\"error\":\"invalid_request\","
        + "\"message\":\"Sec-WebSocket-Key must be 16 random bytes in Base64; was: null\"}");
    assertThat(handshake(token, "Upgrade", key, "8")).isEqualTo("426 {\"error\":\"invalid_request\","
        + "\"message\":\"Sec-WebSocket-Version must be 13; was: 8\"} 13");
    assertThat(server.journal()).extracting(RecordedCall::responseStatus).endsWith(400, 400, 426);
  }

  /** An upgrade request with these headers: the answer's status, body and Sec-WebSocket-Version. */
  private String handshake(String token, String connection, String key, String version)
      throws IOException {
    Request.Builder request = new Request.Builder().url(server.baseUrl() + "/v2/voicelink/interact")
        .header("Authorization", token).header("Upgrade", "websocket").header("Connection", connection)
        .header("Sec-WebSocket-Version", version);
    if (key != null) request.header("Sec-WebSocket-Key", key);
    Wire.Answer answer = Wire.call(request.build());
    String versions = answer.header("Sec-WebSocket-Version");
    return answer.status + " " + answer.body + (answer.status == 426 ? " " + versions : "");
  }

  @Test void aTokenThatExpiresDuringTheSessionEndsIt() throws Exception {
    server.console().setAccessTokenLifetimeSeconds(60);
    connect((String) platform.deviceToken().get("access_token"));
    next();
    clock.advance(59, TimeUnit.SECONDS);
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"x\",\"seq\":1}");
    assertThat(next()).containsEntry("type", "result");
    clock.advance(1, TimeUnit.SECONDS);
    ws.send("{\"type\":\"write\",\"data_type\":\"text\",\"text\":\"x\",\"seq\":2}");
    assertThat(next()).containsEntry("type", "error").containsEntry("code", 60005.0)
        .containsEntry("seq", 2.0);
    assertThat(closes.poll(5, TimeUnit.SECONDS)).isEqualTo("4401 token expired");
  }

  @Test void aFailureWhileAnsweringAFrameClosesTheSessionWithInternalError() throws Exception {
    server.close();
    server = ReferenceServer.builder().clock(clock).recognizer((audio, rate) -> {
      throw new IllegalStateException("the recognizer broke");
    }).build().start();
    platform = new Platform(server);
    BlockingQueue<String> closing = new LinkedBlockingQueue<>();
    Request request = new Request.Builder().url(server.baseUrl() + "/v2/voicelink/interact")
        .header("Authorization", (String) platform.deviceToken().get("access_token")).build();
    ws = Wire.HTTP.newWebSocket(request, new WebSocketListener() {
      @Override public void onMessage(WebSocket webSocket, String text) {
        messages.add(text);
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        closing.add(code + " " + reason);
      }
    });
    next();

    ws.send("{\"type\":\"write\",\"data_type\":\"audio\",\"sample_rate\":16000,\"seq\":1}");
    ws.send(ByteString.of((byte) 1, (byte) 2, (byte) 3, (byte) 4));
    ws.send("{\"type\":\"end\",\"seq\":1}");

    assertThat(closing.poll(5, TimeUnit.SECONDS)).isEqualTo("1011 internal error of the reference server");
    assertThat(messages).isEmpty();
  }

  @Test void audioAfterTheTokenExpiredEndsTheSessionToo() throws Exception {
    server.console().setAccessTokenLifetimeSeconds(60);
    connect((String) platform.deviceToken().get("access_token"));
    next();
    ws.send("{\"type\":\"write\",\"data_type\":\"audio\",\"sample_rate\":16000,\"seq\":3}");
    clock.advance(60, TimeUnit.SECONDS);

    ws.send(okio.ByteString.of((byte) 1, (byte) 2));

    assertThat(next()).containsEntry("type", "error").containsEntry("code", 60005.0)
        .containsEntry("seq", 3.0);
    assertThat(closes.poll(5, TimeUnit.SECONDS)).isEqualTo("4401 token expired");
  }
}
