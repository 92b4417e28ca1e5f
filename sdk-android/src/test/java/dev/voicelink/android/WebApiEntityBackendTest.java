package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.InvalidResourceException;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import okhttp3.HttpUrl;
import okio.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CMD_SYNC's uploads against the reference server: with a registered definition every field is
 * checked before sending; without one (the established SDK needs none, so ported apps register none)
 * what can be checked without it is checked, and the records are sent.
 */
class WebApiEntityBackendTest {
  private static final String UID = "d41d8cd98f00b204e9800998ecf8427e";
  private static final String RECORDS = "{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n"
      + "{\"name\":\"Li Lei\",\"alias\":\"\"}";

  private final VirtualTime time = new VirtualTime();
  private ReferenceServer server;
  private VoiceLinkClient client;
  private EntityWebApi api;

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().console(Console.defaults())
        .clock(ServerClock.manual(time.wallMillis())).build().start();
    client = VoiceLinkClient.builder().baseUrl(server.baseUrl()).clock(time).scheduler(time)
        .callbackExecutor(Runnable::run).build();
    api = EntityWebApi.builder(client).namespace(DefaultConsole.NAMESPACE)
        .accountKey(DefaultConsole.ACCOUNT_KEY).build();
  }

  @AfterEach void stop() throws IOException {
    client.close();
    server.close();
  }

  private static SyncRequest sync(byte[] records) {
    return CommandParams.syncRequest(("{\"param\":{\"id_name\":\"uid\",\"res_name\":\""
        + DefaultConsole.CONTACTS + "\"},\"data\":\"" + ByteString.of(records).base64() + "\"}")
        .getBytes(StandardCharsets.UTF_8), UID, DefaultConsole.APPID);
  }

  private List<RecordedCall> uploads() {
    return server.journal().calls("/entity/upload-resource");
  }

  @Test void withoutADefinitionTheRecordsAreSent() throws Exception {
    WebApiEntityBackend backend = new WebApiEntityBackend(api,
        Collections.<String, ResourceDefinition>emptyMap());

    String sid = backend.upload(sync(("\uFEFF" + RECORDS).getBytes(StandardCharsets.UTF_8)))
        .execute().sid();

    assertThat(sid).startsWith("psn");
    assertThat(uploads()).hasSize(1);
    assertThat(uploads().get(0).responseBody()).contains("\"code\":\"00000\"");
    HttpUrl form = HttpUrl.get("http://form/?" + uploads().get(0).body());
    assertThat(form.queryParameter("res_name")).isEqualTo(DefaultConsole.CONTACTS);
    assertThat(form.queryParameter("pers_param")).isEqualTo("{\"auth_id\":\"" + UID + "\"}");
    assertThat(ByteString.decodeBase64(form.queryParameter("data")).utf8()).isEqualTo(RECORDS);
  }

  @Test void withoutADefinitionEachLineMustStillBeAJsonObjectInUtf8() {
    WebApiEntityBackend backend = new WebApiEntityBackend(api,
        Collections.<String, ResourceDefinition>emptyMap());

    assertThatThrownBy(() -> backend.upload(sync("{\"name\":\"a\"}\nname=b"
        .getBytes(StandardCharsets.UTF_8))).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 2 of OS123.contacts is not a JSON object: malformed JSON (not a quoted"
            + " string, number, object, array, true, false or null) at path $");
    assertThatThrownBy(() -> backend.upload(sync("{\"name\":\"Jos\u00e9\"}"
        .getBytes(StandardCharsets.ISO_8859_1))).execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("data.data of OS123.contacts is not UTF-8 once Base64-decoded; encode the"
            + " records as UTF-8 before Base64");
    assertThat(uploads()).isEmpty();
  }

  @Test void withADefinitionEveryFieldIsChecked() {
    WebApiEntityBackend backend = new WebApiEntityBackend(api, Collections.singletonMap(
        DefaultConsole.CONTACTS, ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
            .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build()));

    assertThatThrownBy(() -> backend.upload(sync("{\"name\":\"Li Lei\"}"
        .getBytes(StandardCharsets.UTF_8))).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 1 of OS123.contacts lacks the field alias; every record needs name"
            + " (non-empty) and alias");
    assertThat(uploads()).isEmpty();
  }
}
