package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebApiTest {
  static final String AUTH_ID = "0123456789abcdef0123456789abcdef";
  static final String CONTACTS = "{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}";

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

  @Test void uploadThenCheckWalksThroughTheStages() throws IOException {
    Wire.Answer up = platform.upload(DefaultConsole.CONTACTS, "{\"auth_id\":\"" + AUTH_ID + "\"}", CONTACTS);
    Map<String, Object> env = up.json();
    assertThat(env).containsOnlyKeys("code", "data", "desc", "sid").containsEntry("code", "00000");
    Map<String, Object> data = Platform.data(up);
    assertThat((String) data.get("sid")).startsWith("psn");
    assertThat(data.get("csid")).isEqualTo(env.get("sid"));
    String sid = (String) data.get("sid");

    clock.advance(9, TimeUnit.SECONDS);
    Map<String, Object> early = Platform.data(platform.checkResource(sid));
    assertThat(early).containsOnlyKeys("sid", "csid", "reply", "error");
    assertThat(early.get("error")).isEqualTo(1.0);
    assertThat((String) early.get("reply")).startsWith("still processing");

    clock.advance(1, TimeUnit.SECONDS);
    assertThat(Platform.data(platform.checkResource(sid)).get("error")).isEqualTo(2.0);
    clock.advance(50, TimeUnit.SECONDS);
    assertThat(Platform.data(platform.checkResource(sid)).get("error")).isEqualTo(3.0);
    clock.advance(239_999, TimeUnit.MILLISECONDS);
    assertThat(Platform.data(platform.checkResource(sid)).get("error")).isEqualTo(3.0);
    clock.advance(1, TimeUnit.MILLISECONDS);
    Map<String, Object> done = Platform.data(platform.checkResource(sid));
    assertThat(done.get("error")).isEqualTo(0.0);
    assertThat(done.get("reply")).isEqualTo("in effect since 2025-11-21T08:05:00Z (2 records)");
  }

  @Test void applicationLevelUploadNeedsTheAccountsAppid() throws IOException {
    Wire.Answer ok = platform.upload(DefaultConsole.SONGS, "{\"appid\":\"" + DefaultConsole.APPID + "\"}",
        "{\"name\":\"Yesterday\",\"alias\":\"\"}");
    assertThat(ok.json()).containsEntry("code", "00000");
  }

  @Test void ipWhitelistRefusesWith20004AndNullData() throws IOException {
    server.console().putAccount(Account.create(DefaultConsole.NAMESPACE, DefaultConsole.ACCOUNT_KEY,
        DefaultConsole.APPID).withIpWhitelist(true, Arrays.asList("10.0.0.1")));
    Wire.Answer a = platform.checkResource("psn0");
    assertThat(a.body).matches("\\{\"code\":\"20004\",\"data\":null,\"desc\":\"illegal IP: 127.0.0.1 is not in the IP "
        + "whitelist\",\"sid\":\"vls[0-9a-f]{24}\"}");
    server.console().putAccount(Account.create(DefaultConsole.NAMESPACE, DefaultConsole.ACCOUNT_KEY,
        DefaultConsole.APPID).withIpWhitelist(true, Arrays.asList("10.0.0.1", "127.0.0.1")));
    assertThat(platform.checkResource("psn0").json()).containsEntry("code", "31405");
  }

  @Test void theWhitelistSeesTheCallersAddressNotTheBoundOne() throws IOException {
    // Bound to every interface, called on loopback: the caller is 127.0.0.1, not 0.0.0.0.
    try (ReferenceServer any = ReferenceServer.builder().clock(clock)
        .bindAddress(InetAddress.getByName("0.0.0.0")).build().start()) {
      Platform caller = new Platform(any);
      any.console().putAccount(Account.create(DefaultConsole.NAMESPACE, DefaultConsole.ACCOUNT_KEY,
          DefaultConsole.APPID).withIpWhitelist(true, Arrays.asList("0.0.0.0")));
      assertThat(caller.checkResource("psn0").json()).containsEntry("code", "20004")
          .containsEntry("desc", "illegal IP: 127.0.0.1 is not in the IP whitelist");
      any.console().putAccount(Account.create(DefaultConsole.NAMESPACE, DefaultConsole.ACCOUNT_KEY,
          DefaultConsole.APPID).withIpWhitelist(true, Arrays.asList("127.0.0.1")));
      assertThat(caller.checkResource("psn0").json()).containsEntry("code", "31405");
    }
  }

  @Test void checkResourceOfAnotherNamespaceIsUnknown() throws IOException {
    String sid = (String) Platform.data(platform.upload(DefaultConsole.CONTACTS, "{\"auth_id\":\"" + AUTH_ID + "\"}",
        CONTACTS)).get("sid");
    server.console().putAccount(Account.create("OS999", "other-key", "app999"));
    String cur = platform.curTime();
    Wire.Answer a = Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "x", cur, "other-key")
        .header("X-NameSpace", "OS999").header("X-CheckSum", Wire.md5("other-key" + "x" + cur))
        .post(Wire.form("sid", sid)).build());
    assertThat(a.json()).containsEntry("code", "31405");
  }

  Map<String, Object> checkAt(long curTimeSeconds) throws IOException {
    String cur = Long.toString(curTimeSeconds);
    return Wire.call(platform.signed("/v2/voicelink/entity/check-resource", "n", cur, DefaultConsole.ACCOUNT_KEY)
        .post(Wire.form("sid", "psn0")).build()).json();
  }

  @Test void curTimeWindowIsFiveMinutesEitherWay() throws IOException {
    long now = AuthFlowTest.T0 / 1000;
    assertThat(checkAt(now - 300)).containsEntry("code", "31405");
    assertThat(checkAt(now + 300)).containsEntry("code", "31405");
    assertThat(checkAt(now - 301)).containsEntry("code", "10113");
    assertThat(checkAt(now + 301)).containsEntry("code", "10113");
  }

  @Test void nonceOf128CharactersIsAccepted() throws IOException {
    String nonce = new String(new char[128]).replace('\0', 'z');
    Wire.Answer a = Wire.call(platform.signed("/v2/voicelink/entity/check-resource", nonce, platform.curTime(),
        DefaultConsole.ACCOUNT_KEY).post(Wire.form("sid", "psn0")).build());
    assertThat(a.json()).containsEntry("code", "31405");
  }
}
