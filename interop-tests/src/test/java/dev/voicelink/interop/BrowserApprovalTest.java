package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.BOB;
import static dev.voicelink.interop.InteropAccounts.CUSTOM_SCOPE;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_PUBLIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A person approves and refuses in headless Chromium, on the server's own pages with its own scripts:
 * the login page, the code page, the consent page (whose Cancel button is a script).
 */
@ExtendWith(SharedServer.class)
class BrowserApprovalTest {
  static final File CHROMIUM = new File("/usr/bin/chromium");
  static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

  WebDriver browser;
  /** Chromium's user data directory; JUnit deletes it after each test. */
  @TempDir Path profile;

  @BeforeEach void start() throws IOException {
    assumeTrue(CHROMIUM.canExecute() && CHROMEDRIVER.canExecute(),
        "browser test skipped: install Debian packages chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)");
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.getPath());
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        // the consent page links a style sheet on a public CDN: names resolve to nothing, only 127.0.0.1 is reached
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--user-data-dir=" + profile);
    browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER).build(), options);
    // a submitted form navigates asynchronously: lookups wait, bounded, for the next page's elements
    browser.manage().timeouts().implicitlyWait(Duration.ofSeconds(10));
  }

  @AfterEach void stop() throws IOException {
    if (browser != null) browser.quit();
  }

  void signIn(InteropAccounts.User user) {
    assertThat(browser.getTitle()).isEqualTo("Please sign in");
    browser.findElement(By.id("username")).sendKeys(user.username());
    browser.findElement(By.id("password")).sendKeys(user.password());
    browser.findElement(By.cssSelector("button[type=submit]")).click();
  }

  @Test void typingTheCodeAndApproving(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_PUBLIC);

    browser.get(codes.verificationUri());
    signIn(ALICE);
    browser.findElement(By.id("user_code")).sendKeys(codes.userCode());
    browser.findElement(By.id("submit-code")).click();
    // the server's consent page: the client, the person, the code to compare, one box per scope
    WebElement submit = browser.findElement(By.id("submit-consent"));
    assertThat(browser.getTitle()).isEqualTo("Consent required");
    assertThat(browser.findElement(By.tagName("body")).getText())
        .contains("speaker-public wants to access your account alice")
        .contains("You have provided the code " + codes.userCode() + ".");
    List<WebElement> boxes = browser.findElements(By.name("scope"));
    assertThat(boxes).extracting(box -> box.getAttribute("value")).containsExactlyInAnyOrder("profile", CUSTOM_SCOPE);
    for (WebElement box : boxes) box.click();
    submit.click();

    assertThat(browser.findElement(By.id("connected")).getText()).isEqualTo("Device connected");
    assertThat(browser.getCurrentUrl()).isEqualTo(server.issuer() + "/?success");
    Wire.Answer token = DeviceFlow.poll(server, DEVICE_PUBLIC, codes.deviceCode());
    assertThat(token.status()).as("%s", token).isEqualTo(200);
    assertThat(((String) token.json().get("scope")).split(" ")).containsExactlyInAnyOrder("profile", CUSTOM_SCOPE);
  }

  @Test void followingTheLinkAndPressingCancel(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_BASIC);

    browser.get(codes.verificationUriComplete());
    signIn(BOB);
    browser.findElement(By.id("cancel-consent")).click();

    // The consent page has an h1 too, and the lookup may find it while the script navigates: wait, bounded,
    // until the h1 is the error page's (a timeout fails the test).
    new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(ExpectedConditions.textToBe(By.tagName("h1"), "HTTP Status 400 – Bad Request"));
    assertThat(browser.findElement(By.tagName("body")).getText()).contains("[access_denied]");
    // what the script sent: the form with every box cleared
    Exchange consent = server.journal().last(server.deviceVerificationPath());
    assertThat(consent.method()).isEqualTo("POST");
    assertThat(consent.parameterNames()).containsExactlyInAnyOrder("client_id", "state", "user_code");
    assertThat(DeviceFlow.poll(server, DEVICE_BASIC, codes.deviceCode()).json()).containsEntry("error", "access_denied");
  }
}
