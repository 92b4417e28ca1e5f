package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PlatformToolsTest {
  ServerClock clock = ServerClock.manual(AuthFlowTest.T0);
  ReferenceServer server;
  Platform platform;

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(clock).build().start();
    platform = new Platform(server);
  }

  @AfterEach void stop() throws IOException {
    server.close();
  }

  Wire.Answer upload(String token, String json) throws IOException {
    return Wire.call(new Request.Builder().url(server.platformUrl() + "/tools/upload_entities")
        .header("Authorization", token).post(RequestBody.create(json, Wire.JSON)).build());
  }

  static String body(String type, String resName) {
    return "{\"type\":\"" + type + "\",\"resource_name\":\"" + resName
        + "\",\"data\":[{\"name\":\"Han Meimei\",\"alias\":\"Meimei\"}]}";
  }

  @Test void userTokenUploadsUserLevelEntities() throws IOException {
    String token = (String) platform.deviceToken().get("access_token");
    Wire.Answer a = upload(token, body("user", DefaultConsole.CONTACTS));
    assertThat(a.status).isEqualTo(200);
    assertThat(a.json()).containsOnlyKeys("sid");
  }

  @Test void cloudTokenUploadsClientLevelEntitiesOnly() throws IOException {
    String cloud = (String) platform.cloudToken().get("access_token");
    assertThat(upload(cloud, body("client", DefaultConsole.SONGS)).status).isEqualTo(200);
    Wire.Answer wrong = upload(cloud, body("user", DefaultConsole.CONTACTS));
    assertThat(wrong.status).isEqualTo(400);
    assertThat(wrong.json()).containsOnlyKeys("code", "message", "sid").containsEntry("code", "40301")
        .containsEntry("message", "type user needs a user/device token (device authorization); this is a cloud token");
  }

  @Test void anAccountWithoutTheDynamicEntityPermissionIsRefused() throws IOException {
    String token = (String) platform.deviceToken().get("access_token");
    server.console().putAccount(server.console().account(DefaultConsole.NAMESPACE)
        .withDynamicEntityPermission(false));
    Wire.Answer a = upload(token, body("user", DefaultConsole.CONTACTS));
    assertThat(a.status).isEqualTo(400);
    assertThat(a.json()).containsOnlyKeys("code", "message", "sid").containsEntry("code", "40302")
        .containsEntry("message", "no permission: dynamic entities are not enabled for namespace OS123");
  }

  @Test void deviceTokenCannotUploadClientLevel() throws IOException {
    String token = (String) platform.deviceToken().get("access_token");
    Wire.Answer a = upload(token, body("client", DefaultConsole.SONGS));
    assertThat(a.json()).containsEntry("code", "40301");
  }

  @Test void expiredAccessTokenIsRefused() throws IOException {
    server.console().setAccessTokenLifetimeSeconds(60);
    String token = (String) platform.deviceToken().get("access_token");
    clock.advance(59, TimeUnit.SECONDS);
    assertThat(upload(token, body("user", DefaultConsole.CONTACTS)).status).isEqualTo(200);
    clock.advance(1, TimeUnit.SECONDS);
    Wire.Answer a = upload(token, body("user", DefaultConsole.CONTACTS));
    assertThat(a.status).isEqualTo(400);
    assertThat(a.json()).containsEntry("code", "40103").containsEntry("message", "the token is unknown or has expired");
  }

  @Test void previousAccessTokenStaysValidAfterRefresh() throws IOException {
    Map<String, Object> first = platform.deviceToken();
    Wire.Answer refreshed = Wire.postJson(server.authUrl() + "/oauth/ivs/token",
        "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + first.get("refresh_token") + "\"}");
    assertThat(refreshed.status).isEqualTo(200);
    Object second = refreshed.json().get("access_token");
    assertThat(second).isInstanceOf(String.class).isNotEqualTo(first.get("access_token"));
    assertThat(upload((String) first.get("access_token"), body("user", DefaultConsole.CONTACTS)).status).isEqualTo(200);
    assertThat(upload((String) second, body("user", DefaultConsole.CONTACTS)).status).isEqualTo(200);
  }
}
