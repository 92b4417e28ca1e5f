package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** The verification page in a real headless Chromium: plain forms, no scripts, all the way to a token. */
class VerificationPageBrowserTest {
  static final File CHROMIUM = new File("/usr/bin/chromium");
  static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

  ReferenceServer server;
  WebDriver browser;
  File profile;

  @BeforeEach void start() throws IOException {
    assumeTrue(CHROMIUM.canExecute() && CHROMEDRIVER.canExecute(),
        "browser test skipped: install Debian packages chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)");
    server = ReferenceServer.builder().clock(ServerClock.manual(AuthFlowTest.T0)).build().start();
    profile = Files.createTempDirectory("vl-chromium").toFile();
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.getPath());
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + profile.getAbsolutePath());
    browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER).build(), options);
    // A form submit navigates asynchronously: on a loaded machine the next page's elements appear
    // a moment after click() returns, so lookups wait for them (the assertions stay exact).
    browser.manage().timeouts().implicitlyWait(Duration.ofSeconds(10));
  }

  @AfterEach void stop() throws IOException {
    if (browser != null) browser.quit();
    if (server != null) server.close();
  }

  Map<String, Object> deviceCode() throws IOException {
    return Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id", DefaultConsole.CLIENT_ID,
        "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).json();
  }

  String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  void signIn(String userCode) {
    browser.get(server.verificationUri() + "?user_code=" + userCode);
    assertThat(text("shown_user_code")).isEqualTo(userCode);
    browser.findElement(By.id("phone")).sendKeys(DefaultConsole.TESTER_PHONE);
    browser.findElement(By.id("send_code")).click();
    assertThat(text("sent")).isEqualTo("A verification code was sent to 138****0000.");
    browser.findElement(By.id("sms_code")).sendKeys(server.lastSmsCode(DefaultConsole.TESTER_PHONE));
    browser.findElement(By.id("login")).click();
    assertThat(text("client_name")).isEqualTo(DefaultConsole.CLIENT_NAME);
    assertThat(text("device_id")).isEqualTo(DefaultConsole.DEVICE_ID);
  }

  @Test void authorizeInABrowserLetsTheDeviceGetItsToken() throws IOException {
    Map<String, Object> dc = deviceCode();
    signIn((String) dc.get("user_code"));
    browser.findElement(By.id("authorize")).click();
    assertThat(text("result")).isEqualTo("Access granted. You can return to your device.");
    Wire.Answer token = Wire.postJson(server.authUrl() + "/oauth/ivs/token", "{\"client_id\":\"" + DefaultConsole.CLIENT_ID
        + "\",\"grant_type\":\"urn:ietf:params:oauth:grant-type:device_code\",\"device_code\":\"" + dc.get("device_code") + "\"}");
    assertThat(token.status).isEqualTo(200);
  }

  @Test void refuseInABrowserDeniesTheDevice() throws IOException {
    Map<String, Object> dc = deviceCode();
    signIn((String) dc.get("user_code"));
    browser.findElement(By.id("refuse")).click();
    assertThat(text("result")).isEqualTo("Access refused. The device was not connected.");
  }

  @Test void aPhoneOffTheWhitelistIsRefusedWithAClearMessage() throws IOException {
    String userCode = (String) deviceCode().get("user_code");
    browser.get(server.verificationUri() + "?user_code=" + userCode);
    browser.findElement(By.id("phone")).sendKeys("13900000000");
    browser.findElement(By.id("send_code")).click();
    assertThat(text("error")).isEqualTo("The phone number 13900000000 is not on the tester whitelist. "
        + "Add it on the console's device test page, or use a whitelisted number.");
    assertThat(server.lastSmsCode("13900000000")).isNull();
  }

  @Test void anUnknownCodeShowsAnErrorPage() {
    browser.get(server.verificationUri() + "?user_code=NOPE");
    assertThat(text("error")).isEqualTo("The code NOPE is not known. Check the code shown on your device.");
    assertThat(browser.getPageSource()).doesNotContain("Exception");
  }
}
