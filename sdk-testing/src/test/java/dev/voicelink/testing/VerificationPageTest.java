package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The verification page over plain HTTP (the browser test covers the same page in Chromium). */
class VerificationPageTest {
  ReferenceServer server;
  String userCode;
  String deviceCode;
  String verify;

  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(ServerClock.manual(AuthFlowTest.T0)).build().start();
    verify = server.verificationUri();
    Map<String, Object> dc = Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id",
        DefaultConsole.CLIENT_ID, "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).json();
    userCode = (String) dc.get("user_code");
    deviceCode = (String) dc.get("device_code");
  }

  @AfterEach void stop() throws IOException {
    server.close();
  }

  Wire.Answer sendCode() throws IOException {
    return Wire.postForm(verify + "/send-code", "user_code", userCode, "phone", DefaultConsole.TESTER_PHONE);
  }

  Wire.Answer login(String code) throws IOException {
    return Wire.postForm(verify + "/login", "user_code", userCode, "phone", DefaultConsole.TESTER_PHONE, "sms_code", code);
  }

  static String wrong(String code) {
    return code.equals("000000") ? "000001" : "000000";
  }

  @Test void withoutAUserCodeThePageAsksForIt() throws IOException {
    Wire.Answer a = Wire.call(new Request.Builder().url(verify).build());
    assertThat(a.status).isEqualTo(200);
    assertThat(a.body).contains("<input id=\"user_code\" name=\"user_code\"");
  }

  @Test void theSmsCodeSurvivesFourWrongTriesButNotFive() throws IOException {
    sendCode();
    String code = server.lastSmsCode(DefaultConsole.TESTER_PHONE);
    assertThat(code).matches("[0-9]{6}");
    for (int i = 0; i < VerificationPage.SMS_CODE_MAX_ATTEMPTS - 1; i++) assertThat(login(wrong(code)).status).isEqualTo(401);
    assertThat(login(code).status).isEqualTo(200);

    sendCode();
    String second = server.lastSmsCode(DefaultConsole.TESTER_PHONE);
    for (int i = 0; i < VerificationPage.SMS_CODE_MAX_ATTEMPTS; i++) assertThat(login(wrong(second)).status).isEqualTo(401);
    assertThat(login(second).status).isEqualTo(401);
  }

  @Test void anSmsCodeWorksForTheConsolesLifetimeOnTheServerClock() throws IOException {
    server.console().setSmsCodeLifetimeSeconds(30);
    sendCode();
    server.clock().advance(30, TimeUnit.SECONDS);
    assertThat(login(server.lastSmsCode(DefaultConsole.TESTER_PHONE)).body)
        .contains("The verification code is wrong or has expired.");

    sendCode();
    server.clock().advance(29_999, TimeUnit.MILLISECONDS);
    assertThat(login(server.lastSmsCode(DefaultConsole.TESTER_PHONE)).status).isEqualTo(200);
    assertThat(Console.builder().build().getSmsCodeLifetimeSeconds()).isEqualTo(300);
  }

  @Test void anSmsCodeWorksOnce() throws IOException {
    sendCode();
    String code = server.lastSmsCode(DefaultConsole.TESTER_PHONE);
    assertThat(login(code).status).isEqualTo(200);
    assertThat(login(code).body).contains("The verification code is wrong or has expired.");
  }

  @Test void pagesEscapeWhatTheyEcho() throws IOException {
    Wire.Answer a = Wire.call(new Request.Builder().url(verify + "?user_code=%3Cscript%3E").build());
    assertThat(a.status).isEqualTo(404);
    assertThat(a.body).contains("The code &lt;script&gt; is not known.").doesNotContain("<script>");
  }

  @Test void aPhoneTakenOffTheWhitelistAuthorizesNothing() throws IOException {
    sendCode();
    Wire.Answer consent = login(server.lastSmsCode(DefaultConsole.TESTER_PHONE));
    String session = consent.body.replaceAll("(?s).*name=\"session\" value=\"([^\"]+)\".*", "$1");
    server.console().removeTesterPhone(DefaultConsole.TESTER_PHONE);

    Wire.Answer decided = Wire.postForm(verify + "/decide", "session", session, "decision", "authorize");
    assertThat(decided.status).isEqualTo(403);
    assertThat(decided.body).contains("is not on the tester whitelist");
    Wire.Answer poll = Wire.postJson(server.authUrl() + "/oauth/ivs/token", "{\"client_id\":\""
        + DefaultConsole.CLIENT_ID + "\",\"grant_type\":\"urn:ietf:params:oauth:grant-type:device_code\",\"device_code\":\""
        + deviceCode + "\"}");
    assertThat(poll.json()).containsEntry("error", "authorization_pending");
    assertThat(sendCode().status).as("no code for a number off the list").isEqualTo(403);
    assertThat(login("123456").status).as("no sign-in either").isEqualTo(403);
  }

  @Test void theConfirmationNamesClientAndDevice() throws IOException {
    sendCode();
    Wire.Answer page = login(server.lastSmsCode(DefaultConsole.TESTER_PHONE));
    assertThat(page.body).contains("<strong id=\"client_name\">VoiceLink Demo Speaker</strong>",
        "<code id=\"device_id\">SN-0001-DEMO</code>", "id=\"authorize\"", "id=\"refuse\"");
  }
}
