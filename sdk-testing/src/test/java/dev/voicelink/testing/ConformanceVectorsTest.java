package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.Okio;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server side of the conformance vectors (conformance/vectors.json, on the test class path). */
class ConformanceVectorsTest {
  ReferenceServer server;
  Map<String, Object> vectors;

  @BeforeEach void load() throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/conformance/vectors.json")) {
      vectors = Json.parseObject(Okio.buffer(Okio.source(in)).readUtf8());
    }
  }

  @AfterEach void stop() throws IOException {
    if (server != null) server.close();
  }

  void start(Console console, long nowMillis) throws IOException {
    server = ReferenceServer.builder().console(console).clock(ServerClock.manual(nowMillis)).build().start();
  }

  @SuppressWarnings("unchecked")
  List<Map<String, Object>> list(String key) {
    return (List<Map<String, Object>>) vectors.get(key);
  }

  @Test void checksumVectorsAreAcceptedAndAnyOtherChecksumIsNot() throws IOException {
    for (Map<String, Object> v : list("checksum")) {
      String key = (String) v.get("account_key");
      String nonce = (String) v.get("nonce");
      String curTime = (String) v.get("cur_time");
      start(Console.builder().account(Account.create("NS", key, "app")).build(), Long.parseLong(curTime) * 1000);
      assertThat(check(nonce, curTime, (String) v.get("checksum"))).as(v.toString()).containsEntry("code", "31405");
      assertThat(check(nonce, curTime, "0" + ((String) v.get("checksum")).substring(1)).get("code")).isNotEqualTo("31405");
      server.close();
      server = null;
    }
  }

  Map<String, Object> check(String nonce, String curTime, String checkSum) throws IOException {
    return Wire.call(new Request.Builder().url(server.baseUrl() + "/v2/voicelink/entity/check-resource")
        .header("X-NameSpace", "NS").header("X-Nonce", nonce).header("X-CurTime", curTime).header("X-CheckSum", checkSum)
        .post(Wire.form("sid", "psn0")).build()).json();
  }

  Console withFamily() {
    Console c = Console.defaults();
    c.putEntity(EntityDefinition.create("OS123.family_members", "name", Collections.singletonList("alias"), "family"));
    return c;
  }

  @Test void resourceEncodingVectorsUploadAndTheBomVariantIsRefused() throws IOException {
    start(Console.defaults(), AuthFlowTest.T0);
    Platform p = new Platform(server);
    for (Map<String, Object> v : list("resource_encoding")) {
      String pers = "{\"auth_id\":\"" + WebApiTest.AUTH_ID + "\"}";
      Wire.Answer ok = p.webApi("/v2/voicelink/entity/upload-resource", "appid", DefaultConsole.APPID, "res_name",
          DefaultConsole.CONTACTS, "pers_param", pers, "data", (String) v.get("data_base64"));
      assertThat(ok.json()).as((String) v.get("note")).containsEntry("code", "00000");
      if (v.containsKey("input_text_with_bom")) {
        String bom = Base64.getEncoder().encodeToString(((String) v.get("input_text_with_bom")).getBytes(StandardCharsets.UTF_8));
        assertThat(p.webApi("/v2/voicelink/entity/upload-resource", "appid", DefaultConsole.APPID, "res_name",
            DefaultConsole.CONTACTS, "pers_param", pers, "data", bom).json()).containsEntry("code", "32115");
      }
    }
  }

  @Test void badResourcesAreRefusedNamingTheVectorsField() throws IOException {
    start(Console.defaults(), AuthFlowTest.T0);
    Platform p = new Platform(server);
    for (Map<String, Object> v : list("bad_resources")) {
      StringBuilder text = new StringBuilder();
      for (Object record : (List<?>) v.get("records")) text.append(Json.write(record)).append('\n');
      Map<String, Object> env = p.webApi("/v2/voicelink/entity/upload-resource", "appid", DefaultConsole.APPID,
          "res_name", (String) v.get("res_name"), "pers_param", "{\"auth_id\":\"" + WebApiTest.AUTH_ID + "\"}",
          "data", Platform.base64(text.toString())).json();
      Object field = v.get("error");
      String note = (String) v.get("note");
      if (field == null) {
        assertThat(env).as(note).containsEntry("code", "00000");
      } else if (field.equals("res_name")) {
        assertThat(env).as(note).containsEntry("code", "10107")
            .containsEntry("desc", "res_name must be <namespace>.<name>, e.g. OS123.contacts; was: " + v.get("res_name"));
      } else if (field.equals(((List<?>) v.get("fields")).get(0))) {
        assertThat(env).as(note).containsEntry("code", "32117")
            .containsEntry("desc", "line 1: main field " + field + " must not be empty");
      } else {
        assertThat(env).as(note).containsEntry("code", "32117");
        assertThat(env).as(note).containsEntry("desc", "line 1 lacks field " + field + " (" + v.get("res_name")
            + " defines " + v.get("fields") + ")");
      }
    }
  }

  @Test @SuppressWarnings("unchecked") void authIdVectors() throws IOException {
    start(Console.defaults(), AuthFlowTest.T0);
    Platform p = new Platform(server);
    Map<String, Object> ids = (Map<String, Object>) vectors.get("auth_id");
    for (Object valid : (List<Object>) ids.get("valid")) {
      assertThat(p.upload(DefaultConsole.CONTACTS, "{\"auth_id\":\"" + valid + "\"}", "{\"name\":\"a\",\"alias\":\"\"}")
          .json()).as((String) valid).containsEntry("code", "00000");
    }
    for (Object invalid : (List<Object>) ids.get("invalid")) {
      assertThat(p.upload(DefaultConsole.CONTACTS, "{\"auth_id\":\"" + invalid + "\"}", "{\"name\":\"a\",\"alias\":\"\"}")
          .json()).as((String) invalid).containsEntry("code", "10107");
    }
  }

  @Test @SuppressWarnings("unchecked") void cmdSyncWebApiFormsAreAccepted() throws IOException {
    start(withFamily(), AuthFlowTest.T0);
    Platform p = new Platform(server);
    for (Map<String, Object> v : list("cmd_sync_to_web_api")) {
      Map<String, Object> form = (Map<String, Object>) v.get("web_api_form");
      if (form == null) continue; // refused on the client before sending
      assertThat(p.webApi("/v2/voicelink/entity/upload-resource", "appid", (String) form.get("appid"), "res_name",
          (String) form.get("res_name"), "pers_param", Json.write(form.get("pers_param")), "data", (String) form.get("data"))
          .json()).as((String) v.get("note")).containsEntry("code", "00000");
    }
  }

  @Test @SuppressWarnings("unchecked") void activationPersParamsAreAcceptedOnTheChannel() throws Exception {
    start(withFamily(), AuthFlowTest.T0);
    String token = (String) new Platform(server).deviceToken().get("access_token");
    java.util.concurrent.BlockingQueue<String> messages = new java.util.concurrent.LinkedBlockingQueue<>();
    WebSocket ws = Wire.HTTP.newWebSocket(new Request.Builder().url(server.baseUrl().replace("http:", "ws:")
        + "/v2/voicelink/interact").header("Authorization", token).build(), new WebSocketListener() {
          @Override public void onMessage(WebSocket webSocket, String text) {
            messages.add(text);
          }

          @Override public void onFailure(WebSocket webSocket, Throwable t, Response response) {
            messages.add("failure");
          }
        });
    try {
      assertThat(messages.poll(5, TimeUnit.SECONDS)).contains("connected");
      int seq = 0;
      for (Map<String, Object> v : list("activation_pers_param")) {
        ws.send(Json.write(Json.obj("type", "write", "data_type", "text", "text", "hello", "seq", ++seq,
            "pers_param", Json.write(v.get("pers_param")))));
        assertThat(Json.parseObject(messages.poll(5, TimeUnit.SECONDS))).as((String) v.get("level"))
            .containsEntry("type", "result");
      }
    } finally {
      ws.cancel();
    }
  }
}
