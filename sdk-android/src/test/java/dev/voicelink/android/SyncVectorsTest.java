package dev.voicelink.android;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.ResourceDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance vectors for CMD_SYNC (conformance/vectors.json): each one's data,
 * from the connected user and the configured appid, becomes exactly the vector's web API form on the
 * wire, or is refused before sending, naming the vector's field.
 */
class SyncVectorsTest {
  private static final JsonAdapter<Map<String, Object>> JSON = new Moshi.Builder().build()
      .adapter(Types.newParameterizedType(Map.class, String.class, Object.class));

  @SuppressWarnings("unchecked")
  @TestFactory List<DynamicTest> everyVectorUploadsItsFormOrIsRefusedNamingItsField()
      throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map<String, Object> vector : ConformanceVectors.list("cmd_sync_to_web_api")) {
      byte[] data = JSON.toJson((Map<String, Object>) vector.get("cmd_sync_data")).getBytes(UTF_8);
      String uid = (String) vector.get("connected_uid");
      String appid = (String) vector.get("config_appid");
      Map<String, Object> expected = (Map<String, Object>) vector.get("web_api_form");
      String field = (String) vector.get("error");
      tests.add(DynamicTest.dynamicTest((String) vector.get("note"), () -> {
        if (field != null) {
          assertThatThrownBy(() -> CommandParams.syncRequest(data, uid, appid))
              .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(field);
          return;
        }
        Map<String, String> form = uploadedForm(CommandParams.syncRequest(data, uid, appid));
        assertThat(form).containsOnlyKeys("appid", "res_name", "pers_param", "data");
        assertThat(form.get("appid")).isEqualTo(expected.get("appid"));
        assertThat(form.get("res_name")).isEqualTo(expected.get("res_name"));
        assertThat(JSON.fromJson(form.get("pers_param"))).isEqualTo(expected.get("pers_param"));
        assertThat(form.get("data")).isEqualTo(expected.get("data"));
      }));
    }
    assertThat(tests).hasSizeGreaterThanOrEqualTo(4);
    return tests;
  }

  /** The form fields of the upload that {@code request} makes, as the server received them. */
  private static Map<String, String> uploadedForm(SyncRequest request) throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse().setHeader("Content-Type", "application/json").setBody(
          "{\"code\":\"00000\",\"data\":{\"sid\":\"psn1\",\"csid\":\"c1\"},\"desc\":\"success\","
              + "\"sid\":\"wapi1\"}"));
      server.start();
      try (VoiceLinkClient client = VoiceLinkClient.builder().baseUrl(server.url("/").toString())
          .build()) {
        EntityWebApi api = EntityWebApi.builder(client).namespace("OS123")
            .accountKey("0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a").build();
        new WebApiEntityBackend(api, Collections.<String, ResourceDefinition>emptyMap())
            .upload(request).execute();
      }
      RecordedRequest upload = server.takeRequest();
      HttpUrl form = HttpUrl.get("http://form/?" + upload.getBody().readUtf8());
      Map<String, String> fields = new LinkedHashMap<>();
      for (String name : form.queryParameterNames()) fields.put(name, form.queryParameter(name));
      return fields;
    }
  }
}
