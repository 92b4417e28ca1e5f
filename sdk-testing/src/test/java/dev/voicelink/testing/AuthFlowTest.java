package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AuthFlowTest {
  static final long T0 = 1_763_712_000_000L;
  static final String SCOPE_DATA = "{\"user_ivs_all\":{\"device_id\":\"" + DefaultConsole.DEVICE_ID + "\"}}";

  ServerClock clock = ServerClock.manual(T0);
  ReferenceServer server;

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(clock).build().start();
  }

  @AfterEach void stop() throws IOException {
    server.close();
  }

  Map<String, Object> deviceCode() throws IOException {
    Wire.Answer a = Wire.postForm(server.authUrl() + "/oauth/ivs/device_code",
        "client_id", DefaultConsole.CLIENT_ID, "scope", "user_ivs_all", "scope_data", SCOPE_DATA);
    assertThat(a.status).isEqualTo(200);
    return a.json();
  }

  Wire.Answer poll(String deviceCode) throws IOException {
    return Wire.postJson(server.authUrl() + "/oauth/ivs/token", "{\"client_id\":\"" + DefaultConsole.CLIENT_ID
        + "\",\"grant_type\":\"urn:ietf:params:oauth:grant-type:device_code\",\"device_code\":\"" + deviceCode + "\"}");
  }

  @Test void deviceCodeAnswersTheFieldsOfSpec21() throws IOException {
    Map<String, Object> dc = deviceCode();
    assertThat(dc).containsOnlyKeys("verification_uri", "user_code", "interval", "expires_in", "device_code");
    assertThat(dc.get("verification_uri")).isEqualTo(server.authUrl() + "/verify");
    assertThat(dc.get("interval")).isEqualTo(2.0);
    assertThat(dc.get("expires_in")).isEqualTo(120.0);
    assertThat((String) dc.get("user_code")).matches("[BCDFGHJKLMNPQRSTVWXZ]{8}");
    assertThat(server.authUrl()).isEqualTo("http://127.0.0.1:" + server.port() + "/auth");
    assertThat(server.platformUrl()).isEqualTo("http://127.0.0.1:" + server.port() + "/platform");
    assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port() + "/api");
  }

  @Test void pendingThenApprovedGivesATokenRecordOnce() throws IOException {
    Map<String, Object> dc = deviceCode();
    String deviceCode = (String) dc.get("device_code");
    Wire.Answer pending = poll(deviceCode);
    assertThat(pending.status).isEqualTo(400);
    assertThat(pending.body).isEqualTo("{\"error\":\"authorization_pending\"}");

    new SimulatedTester(server).approve((String) dc.get("user_code"));
    clock.advance(2, TimeUnit.SECONDS);
    Wire.Answer token = poll(deviceCode);
    assertThat(token.status).isEqualTo(200);
    Map<String, Object> t = token.json();
    assertThat(t).containsOnlyKeys("token_type", "access_token", "refresh_token", "expires_in", "created_at");
    assertThat(t.get("token_type")).isEqualTo("bearer");
    assertThat(t.get("expires_in")).isEqualTo(8_640_000.0);
    assertThat(t.get("created_at")).isEqualTo((double) (T0 / 1000 + 2));

    Wire.Answer again = poll(deviceCode);
    assertThat(again.json()).containsEntry("error", "invalid_grant")
        .containsEntry("message", "device_code was already exchanged for a token");
  }

  @Test void refusedGivesAccessDenied() throws IOException {
    Map<String, Object> dc = deviceCode();
    new SimulatedTester(server).refuse((String) dc.get("user_code"));
    assertThat(poll((String) dc.get("device_code")).body).isEqualTo("{\"error\":\"access_denied\"}");
    assertThatThrownBy(() -> new SimulatedTester(server).approve((String) dc.get("user_code")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("HTTP 409");
  }

  @Test void userCodeExpiresAtExpiresInNotBefore() throws IOException {
    Map<String, Object> dc = deviceCode();
    clock.advance(119_999, TimeUnit.MILLISECONDS);
    assertThat(poll((String) dc.get("device_code")).json()).containsEntry("error", "authorization_pending");
    clock.advance(1, TimeUnit.MILLISECONDS);
    assertThat(poll((String) dc.get("device_code")).json()).containsEntry("error", "expired_token");
    assertThatThrownBy(() -> new SimulatedTester(server).approve((String) dc.get("user_code")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("HTTP 410");
  }

  Map<String, Object> authorizedToken() throws IOException {
    Map<String, Object> dc = deviceCode();
    new SimulatedTester(server).approve((String) dc.get("user_code"));
    return poll((String) dc.get("device_code")).json();
  }

  @Test void refreshRotatesAndAUsedRefreshTokenStopsWorking() throws IOException {
    Map<String, Object> first = authorizedToken();
    String body = "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + first.get("refresh_token") + "\"}";
    clock.advance(10, TimeUnit.SECONDS);
    Wire.Answer second = Wire.postJson(server.authUrl() + "/oauth/ivs/token", body);
    assertThat(second.status).isEqualTo(200);
    assertThat(second.json().get("refresh_token")).isNotEqualTo(first.get("refresh_token"));
    assertThat(second.json().get("access_token")).isNotEqualTo(first.get("access_token"));
    assertThat(second.json().get("created_at")).isEqualTo((double) (T0 / 1000 + 10));

    Wire.Answer reused = Wire.postJson(server.authUrl() + "/oauth/ivs/token", body);
    assertThat(reused.status).isEqualTo(400);
    assertThat(reused.body).isEqualTo(
        "{\"error\":\"invalid_refresh_token\",\"message\":\"refresh_token is unknown or was already used\"}");
  }

  @Test void cloudTokenAndItsRefresh() throws IOException {
    Wire.Answer t = Wire.postJson(server.authUrl() + "/oauth/token", "{\"client_id\":\"" + DefaultConsole.CLIENT_ID
        + "\",\"client_secret\":\"" + DefaultConsole.CLIENT_SECRET + "\",\"grant_type\":\"client_credentials\"}");
    assertThat(t.status).isEqualTo(200);
    assertThat(t.json()).containsEntry("token_type", "bearer");
    Wire.Answer r = Wire.postJson(server.authUrl() + "/oauth/token",
        "{\"refresh_token\":\"" + t.json().get("refresh_token") + "\",\"grant_type\":\"refresh_token\"}");
    assertThat(r.status).isEqualTo(200);
    // a cloud refresh token is not a device refresh token
    Wire.Answer wrongEndpoint = Wire.postJson(server.authUrl() + "/oauth/ivs/token",
        "{\"refresh_token\":\"" + r.json().get("refresh_token") + "\",\"grant_type\":\"refresh_token\"}");
    assertThat(wrongEndpoint.json()).containsEntry("error", "invalid_refresh_token")
        .containsEntry("message", "refresh_token belongs to a cloud token; refresh it at /oauth/token");
  }

  @Test void everyResponseCarriesTheDateOfTheServerClock() throws IOException {
    clock.advance(90, TimeUnit.MINUTES);
    Wire.Answer a = poll("nope");
    assertThat(a.header("Date")).isEqualTo("Fri, 21 Nov 2025 09:30:00 GMT");
  }

  @Test void slowDownWhenEnabledAndPollingFasterThanTheInterval() throws IOException {
    server.console().setSlowDown(true);
    String deviceCode = (String) deviceCode().get("device_code");
    assertThat(poll(deviceCode).json()).containsEntry("error", "authorization_pending");
    clock.advance(1999, TimeUnit.MILLISECONDS);
    assertThat(poll(deviceCode).json()).containsEntry("error", "slow_down");
    clock.advance(7, TimeUnit.SECONDS);
    assertThat(poll(deviceCode).json()).containsEntry("error", "authorization_pending");
  }

  @Test void slowDownIsOffByDefault() throws IOException {
    String deviceCode = (String) deviceCode().get("device_code");
    poll(deviceCode);
    assertThat(poll(deviceCode).json()).containsEntry("error", "authorization_pending");
  }

  @Test void journalRecordsEveryCall() throws IOException {
    String deviceCode = (String) deviceCode().get("device_code");
    poll(deviceCode);
    assertThat(server.journal().count("/oauth/ivs/device_code")).isEqualTo(1);
    RecordedCall c = server.journal().calls("/oauth/ivs/token").get(0);
    assertThat(c.method()).isEqualTo("POST");
    assertThat(c.body()).contains(deviceCode);
    assertThat(c.responseStatus()).isEqualTo(400);
    assertThat(c.receivedAtMillis()).isEqualTo(T0);
    server.journal().clear();
    assertThat(server.journal()).isEmpty();
  }
}
