package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import dev.voicelink.testing.DefaultConsole;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The signed APK the build produced, checked with the tools a device and a store would use. */
class ApkIT {
  private File apk;

  @BeforeEach
  void findApk() {
    String path = System.getProperty("apk.file");
    assertThat(path).as("system property apk.file (set by the build)").isNotNull();
    apk = new File(path);
    assertThat(apk).as("the built APK").isFile();
  }

  @Test
  void badgingShowsPackageLevelsPermissionsAndTheLauncherActivity() throws Exception {
    List<String> badging = run("aapt", "dump", "badging", apk.getPath());

    assertThat(badging.get(0)).startsWith("package: name='dev.voicelink.samples.app' versionCode='1' versionName='0.1.0'");
    assertThat(badging).contains(
        "sdkVersion:'21'",
        "targetSdkVersion:'35'",
        "uses-permission: name='android.permission.INTERNET'",
        "uses-permission: name='android.permission.ACCESS_NETWORK_STATE'",
        "application-label:'VoiceLink Sample'",
        "application-debuggable"); // the debug APK: MainActivity takes a config from an intent extra
    assertThat(badging).anySatisfy(line -> assertThat(line)
        .startsWith("launchable-activity: name='dev.voicelink.samples.app.MainActivity'"));
    assertThat(badging).filteredOn(line -> line.startsWith("uses-permission:")).hasSize(2);
  }

  /**
   * The Activity handles the configuration changes a user makes while approving the code itself, so
   * that they do not recreate it and cancel the device flow (docs/android-sample-app.md): orientation,
   * screenSize, smallestScreenSize, screenLayout, keyboardHidden, uiMode, locale, layoutDirection,
   * fontScale and density.
   */
  @Test
  void theActivityIsNotRecreatedByTheConfigurationChangesOfASignIn() throws Exception {
    List<String> tree = run("aapt", "dump", "xmltree", apk.getPath(), "AndroidManifest.xml");
    int expected = 0x0080 | 0x0400 | 0x0800 | 0x0100 | 0x0020 | 0x0200 | 0x0004 | 0x2000
        | 0x40000000 | 0x1000;
    assertThat(tree).anySatisfy(line -> assertThat(line.trim()).isEqualTo(
        "A: android:configChanges(0x0101001f)=(type 0x11)0x" + Integer.toHexString(expected)));
  }

  @Test
  void signatureVerifiesForApi21AndUp() throws Exception {
    List<String> verify = run("apksigner", "verify", "--verbose", "--min-sdk-version", "21", apk.getPath());

    assertThat(verify).contains("Verifies",
        "Verified using v1 scheme (JAR signing): true",
        "Verified using v2 scheme (APK Signature Scheme v2): true");
  }

  @Test
  void holdsOneDexWithTheAppAndTheSdkAndAnUncompressedResourceTable() throws Exception {
    try (ZipFile zip = new ZipFile(apk)) {
      List<String> names = new ArrayList<>();
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        names.add(e.nextElement().getName());
      }
      assertThat(names).contains("AndroidManifest.xml", "resources.arsc", "classes.dex", "assets/voicelink.json")
          .doesNotContain("classes2.dex");
      // targetSdk 30+ refuses to install an APK whose resources.arsc is compressed
      assertThat(zip.getEntry("resources.arsc").getMethod()).isEqualTo(ZipEntry.STORED);

      String dex = new String(read(zip, "classes.dex"), StandardCharsets.ISO_8859_1);
      assertThat(dex.contains("Ldev/voicelink/testing/")).as("the reference server is a test dependency only")
          .isFalse();
      // boolean checks: a failure must not print three megabytes of dex
      for (String type : new String[] {"Ldev/voicelink/samples/app/MainActivity;", "Lio/nayuki/qrcodegen/QrCode;",
          "Ldev/voicelink/auth/DeviceAuthorizer;", "Lokhttp3/OkHttpClient;", "Lcom/squareup/moshi/JsonReader;"}) {
        assertThat(dex.contains(type)).as("classes.dex holds " + type).isTrue();
      }
    }
  }

  @Test
  void assetConfigPointsAtTheEmulatorHostAndNoEntryHoldsAnAccountKey() throws Exception {
    try (ZipFile zip = new ZipFile(apk)) {
      String config = new String(read(zip, "assets/voicelink.json"), StandardCharsets.UTF_8);
      SampleConfig parsed = SampleConfig.parse(config);
      assertThat(parsed.authUrl).isEqualTo("http://10.0.2.2:8080/auth");
      assertThat(parsed.baseUrl).isEqualTo("http://10.0.2.2:8080/api");
      assertThat(config).doesNotContain("account_key");
      assertThat(Pattern.compile("[0-9a-fA-F]{32}").matcher(config).find()).as("a key-like value").isFalse();
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        String bytes = new String(read(zip, name), StandardCharsets.ISO_8859_1);
        assertThat(bytes.contains(DefaultConsole.ACCOUNT_KEY)).as(name + " holds the test account key").isFalse();
      }
    }
  }

  private static byte[] read(ZipFile zip, String name) throws IOException {
    ZipEntry entry = zip.getEntry(name);
    assertThat(entry).as(name).isNotNull();
    try (InputStream in = zip.getInputStream(entry)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) != -1; ) {
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    }
  }

  private static List<String> run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (InputStream in = process.getInputStream()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) != -1; ) {
        out.write(buffer, 0, n);
      }
      output = new String(out.toByteArray(), StandardCharsets.UTF_8);
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command) + " finished").isTrue();
    assertThat(process.exitValue()).as(String.join(" ", command) + " exit status; output:\n" + output).isZero();
    List<String> lines = new ArrayList<>();
    Collections.addAll(lines, output.split("\n"));
    return lines;
  }
}
