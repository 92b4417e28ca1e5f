package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The verification page in a real headless Chromium: plain forms, no scripts, all the way to a token;
 * its layout at a phone's and a desktop's width; and the screenshots that docs/reference-server.md
 * shows (written to target/screenshots; to docs/images with {@code -Dscreenshots.write=true}).
 */
class VerificationPageBrowserTest {
  static final File CHROMIUM = new File("/usr/bin/chromium");
  static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");
  /** A small Android phone, in CSS pixels (screenshots at one device pixel per CSS pixel). */
  static final int PHONE_WIDTH = 360;
  static final int PHONE_HEIGHT = 740;
  static final int DESKTOP_WIDTH = 1280;
  static final int DESKTOP_HEIGHT = 800;
  static final File DOCS = new File("../docs");
  /**
   * How long a lookup waits for its element: a form submit navigates asynchronously, and on a loaded
   * machine the next page's elements appear a moment after click() returns (the assertions stay exact).
   */
  static final Duration IMPLICIT_WAIT = Duration.ofSeconds(10);
  /** Every screenshot docs/reference-server.md shows, and the width it is taken at. */
  static final Map<String, Integer> SCREENSHOTS = new LinkedHashMap<>();

  static {
    SCREENSHOTS.put("verification-phone-sign-in.png", PHONE_WIDTH);
    SCREENSHOTS.put("verification-phone-code-sent.png", PHONE_WIDTH);
    SCREENSHOTS.put("verification-phone-wrong-code.png", PHONE_WIDTH);
    SCREENSHOTS.put("verification-phone-allow.png", PHONE_WIDTH);
    SCREENSHOTS.put("verification-phone-authorized.png", PHONE_WIDTH);
    SCREENSHOTS.put("verification-phone-refused.png", PHONE_WIDTH);
    SCREENSHOTS.put("verification-phone-expired.png", PHONE_WIDTH);
    SCREENSHOTS.put("verification-desktop-allow.png", DESKTOP_WIDTH);
  }

  ReferenceServer server;
  /** One browser for the class: starting Chromium is most of a test's time. */
  static WebDriver browser;
  /** Chromium's user data directory; JUnit deletes it after the class. */
  @TempDir static Path profile;

  @BeforeAll static void startBrowser() {
    assumeTrue(CHROMIUM.canExecute() && CHROMEDRIVER.canExecute(),
        "browser test skipped: install Debian packages chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)");
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.getPath());
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + profile);
    browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER).build(), options);
    browser.manage().timeouts().implicitlyWait(IMPLICIT_WAIT);
  }

  @AfterAll static void stopBrowser() {
    if (browser != null) browser.quit();
  }

  /**
   * A server of its own for each test, and a browser as if new: cookies are per host, not per port,
   * so the last test's session cookie would otherwise reach this test's server; no emulated screen.
   */
  @BeforeEach void start() throws IOException {
    server = ReferenceServer.builder().clock(ServerClock.manual(AuthFlowTest.T0)).build().start();
    ChromeDriver chrome = (ChromeDriver) browser;
    chrome.executeCdpCommand("Network.clearBrowserCookies", new HashMap<>());
    chrome.executeCdpCommand("Emulation.clearDeviceMetricsOverride", new HashMap<>());
    browser.get("about:blank");
  }

  @AfterEach void stop() throws IOException {
    if (server != null) server.close();
  }

  Map<String, Object> deviceCode() throws IOException {
    return Wire.postForm(server.authUrl() + "/oauth/ivs/device_code", "client_id", DefaultConsole.CLIENT_ID,
        "scope", "user_ivs_all", "scope_data", AuthFlowTest.SCOPE_DATA).json();
  }

  String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  Object script(String js) {
    return ((JavascriptExecutor) browser).executeScript(js);
  }

  /** The viewport as a phone (touch, the page's viewport meta honoured) or a desktop window has it. */
  void viewport(int width, int height, boolean mobile) {
    Map<String, Object> metrics = new HashMap<>();
    metrics.put("width", width);
    metrics.put("height", height);
    metrics.put("deviceScaleFactor", 1);
    metrics.put("mobile", mobile);
    ((ChromeDriver) browser).executeCdpCommand("Emulation.setDeviceMetricsOverride", metrics);
  }

  long top(String id) {
    return (Long) script("return Math.round(document.getElementById('" + id + "').getBoundingClientRect().top);");
  }

  double pixels(String selector, String property) {
    return Double.parseDouble(((String) script("return getComputedStyle(document.querySelector('" + selector
        + "')).getPropertyValue('" + property + "');")).replace("px", ""));
  }

  /** The classes of the panel around the element {@code id}. */
  String state(String id) {
    return (String) script("return document.getElementById('" + id + "').parentElement.className;");
  }

  void assertNoHorizontalScroll(String page) {
    assertThat((Long) script("return document.documentElement.scrollWidth - window.innerWidth;"))
        .as("horizontal overflow on %s", page).isLessThanOrEqualTo(0L);
  }

  /**
   * Nothing wider than the screen; every field and button a full-width touch target (48 px high) with
   * text of at least 16 px, which phones do not zoom into; nothing loaded besides the page itself.
   */
  void assertFitsAPhone(String page) {
    assertThat((Long) script("return window.innerWidth;")).isEqualTo((long) PHONE_WIDTH);
    assertNoHorizontalScroll(page);
    List<WebElement> controls = controlsNow();
    assertThat(controls).as("controls on %s", page).allSatisfy(control -> {
      assertThat(control.getSize().getHeight()).as("%s height on %s", control.getAttribute("id"), page)
          .isGreaterThanOrEqualTo(48);
      assertThat(control.getSize().getWidth()).as("%s width on %s", control.getAttribute("id"), page)
          .isGreaterThanOrEqualTo(PHONE_WIDTH - 60);
      assertThat(Double.parseDouble(control.getCssValue("font-size").replace("px", "")))
          .as("%s font size on %s", control.getAttribute("id"), page).isGreaterThanOrEqualTo(16);
    });
    assertThat(script("return performance.getEntriesByType('resource').map(function (r) { return r.name; });"))
        .as("resources loaded by %s", page).asList().isEmpty();
    assertThat(browser.getPageSource().replace("<link rel=\"icon\" href=\"data:,\">", ""))
        .doesNotContain("<script", "<link", "src=", "url(", "@import");
  }

  /**
   * The page's controls, without the implicit wait: the page is there (the caller found its text), and
   * on a result page with none, waiting for one would only cost the {@link #IMPLICIT_WAIT}.
   */
  List<WebElement> controlsNow() {
    browser.manage().timeouts().implicitlyWait(Duration.ZERO);
    try {
      return browser.findElements(By.cssSelector("input:not([type=hidden]), button"));
    } finally {
      browser.manage().timeouts().implicitlyWait(IMPLICIT_WAIT);
    }
  }

  /** The page down to its last element, as a PNG (phones leave the rest of the screen blank). */
  byte[] screenshot() throws IOException {
    long bottom = (Long) script("var last = document.querySelector('main').lastElementChild;"
        + " return Math.ceil(last.getBoundingClientRect().bottom + window.scrollY + 24);");
    Map<String, Object> clip = new HashMap<>();
    clip.put("x", 0);
    clip.put("y", 0);
    clip.put("width", script("return window.innerWidth;"));
    clip.put("height", bottom);
    clip.put("scale", 1);
    Map<String, Object> params = new HashMap<>();
    params.put("format", "png");
    params.put("captureBeyondViewport", true);
    params.put("clip", clip);
    Map<String, Object> shot = ((ChromeDriver) browser).executeCdpCommand("Page.captureScreenshot", params);
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode((String) shot.get("data"))));
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(image, "png", png); // re-encoded: no metadata, often smaller
    return png.toByteArray();
  }

  /**
   * Writes the screenshots to target/screenshots, and to docs/images when asked. Either way the
   * committed images must exist at the width they are taken at, and the docs must show each one.
   */
  static void publish(Map<String, byte[]> shots) throws IOException {
    File target = new File("target/screenshots");
    target.mkdirs();
    boolean write = Boolean.getBoolean("screenshots.write");
    for (Map.Entry<String, byte[]> shot : shots.entrySet()) {
      Files.write(new File(target, shot.getKey()).toPath(), shot.getValue());
      if (write) Files.write(new File(DOCS, "images/" + shot.getKey()).toPath(), shot.getValue());
    }
    String page = new String(Files.readAllBytes(new File(DOCS, "reference-server.md").toPath()),
        StandardCharsets.UTF_8);
    for (Map.Entry<String, Integer> expected : SCREENSHOTS.entrySet()) {
      File committed = new File(DOCS, "images/" + expected.getKey());
      assertThat(committed).as("regenerate with -Dscreenshots.write=true").isFile();
      assertThat(ImageIO.read(committed).getWidth()).as(expected.getKey()).isEqualTo(expected.getValue());
      assertThat(committed.length()).as("%s stays small", expected.getKey()).isLessThan(60_000L);
      assertThat(page).contains("(images/" + expected.getKey() + ")");
    }
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

  @Test void everyStateFitsAPhoneAndLooksRightOnADesktop() throws Exception {
    Map<String, byte[]> shots = new LinkedHashMap<>();
    viewport(PHONE_WIDTH, PHONE_HEIGHT, true);
    String userCode = (String) deviceCode().get("user_code");
    browser.get(server.verificationUri() + "?user_code=" + userCode);
    assertFitsAPhone("sign-in");
    assertThat(text("shown_user_code")).isEqualTo(userCode);
    assertThat(pixels("#shown_user_code", "font-size")).as("the device's code").isGreaterThanOrEqualTo(28);
    shots.put("verification-phone-sign-in.png", screenshot());

    browser.findElement(By.id("phone")).sendKeys(DefaultConsole.TESTER_PHONE);
    browser.findElement(By.id("send_code")).click();
    assertThat(text("sent")).isEqualTo("A verification code was sent to 138****0000.");
    assertFitsAPhone("code sent");
    assertThat(state("sent")).isEqualTo("state info");
    shots.put("verification-phone-code-sent.png", screenshot());

    String sms = server.lastSmsCode(DefaultConsole.TESTER_PHONE);
    browser.findElement(By.id("sms_code")).sendKeys(sms.equals("000000") ? "000001" : "000000");
    browser.findElement(By.id("login")).click();
    assertThat(text("error")).isEqualTo("The verification code is wrong or has expired. Request a new code if needed.");
    assertFitsAPhone("wrong code");
    assertThat(state("error")).isEqualTo("state error");
    shots.put("verification-phone-wrong-code.png", screenshot());

    browser.findElement(By.id("sms_code")).sendKeys(sms);
    browser.findElement(By.id("login")).click();
    assertThat(text("client_name")).isEqualTo(DefaultConsole.CLIENT_NAME);
    assertFitsAPhone("allow");
    assertThat(top("authorize")).as("buttons stacked on a phone").isLessThan(top("refuse"));
    shots.put("verification-phone-allow.png", screenshot());

    viewport(DESKTOP_WIDTH, DESKTOP_HEIGHT, false);
    assertNoHorizontalScroll("allow, desktop");
    long cardWidth = (Long) script("return Math.round(document.querySelector('main').getBoundingClientRect().width);");
    long cardLeft = (Long) script("return Math.round(document.querySelector('main').getBoundingClientRect().left);");
    assertThat(cardWidth).as("a card, not the whole screen").isBetween(400L, 520L);
    assertThat(cardLeft * 2 + cardWidth).as("centred").isBetween(DESKTOP_WIDTH - 2L, DESKTOP_WIDTH + 2L);
    assertThat(top("authorize")).as("buttons side by side on a desktop").isEqualTo(top("refuse"));
    shots.put("verification-desktop-allow.png", screenshot());

    viewport(PHONE_WIDTH, PHONE_HEIGHT, true);
    browser.findElement(By.id("authorize")).click();
    assertThat(text("result")).isEqualTo("Access granted. You can return to your device.");
    assertFitsAPhone("authorized");
    assertThat(state("result")).isEqualTo("state ok");
    shots.put("verification-phone-authorized.png", screenshot());

    signIn((String) deviceCode().get("user_code"));
    browser.findElement(By.id("refuse")).click();
    assertThat(text("result")).isEqualTo("Access refused. The device was not connected.");
    assertFitsAPhone("refused");
    assertThat(state("result")).isEqualTo("state refused");
    shots.put("verification-phone-refused.png", screenshot());

    String expiring = (String) deviceCode().get("user_code");
    server.clock().advance(3, TimeUnit.MINUTES); // past the code's 120 s
    browser.get(server.verificationUri() + "?user_code=" + expiring);
    assertThat(text("error")).isEqualTo("The code " + expiring + " has expired. Start the connection on your device again.");
    assertFitsAPhone("expired");
    assertThat(state("error")).isEqualTo("state error");
    shots.put("verification-phone-expired.png", screenshot());

    assertThat(shots.keySet()).containsExactlyInAnyOrderElementsOf(SCREENSHOTS.keySet());
    publish(shots);
  }

  @Test void anUnknownCodeShowsAnErrorPage() {
    browser.get(server.verificationUri() + "?user_code=NOPE");
    assertThat(text("error")).isEqualTo("The code NOPE is not known. Check the code shown on your device.");
    assertThat(browser.getPageSource()).doesNotContain("Exception");
  }
}
