package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Opens the AAR the build produced, as an Android build would consume it. */
class AarLayoutIT {
  private static final String ANDROID_NS = "http://schemas.android.com/apk/res/android";

  private ZipFile aar;

  @BeforeEach
  void openAar() throws IOException {
    String path = System.getProperty("aar.file");
    assertThat(path).as("system property aar.file (set by the build)").isNotNull();
    File file = new File(path);
    assertThat(file).as("the built AAR").isFile();
    aar = new ZipFile(file);
  }

  @AfterEach
  void closeAar() throws IOException {
    aar.close();
  }

  @Test
  void hasTheEntriesOfAnAndroidLibrary() {
    assertThat(entryNames(aar)).containsExactlyInAnyOrder(
        "classes.jar", "AndroidManifest.xml", "R.txt", "proguard.txt");
    assertThat(aar.getEntry("R.txt").getSize()).as("R.txt: the SDK has no resources").isZero();
  }

  @Test
  void manifestNamesThePackageMinSdk21AndTheNetworkPermissions() throws Exception {
    Document manifest = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(read("AndroidManifest.xml")));
    // namespace-aware parsing is off: attributes are read by their qualified names
    Element root = manifest.getDocumentElement();
    assertThat(root.getTagName()).isEqualTo("manifest");
    assertThat(root.getAttribute("xmlns:android")).isEqualTo(ANDROID_NS);
    assertThat(root.getAttribute("package")).isEqualTo("dev.voicelink.android");

    NodeList usesSdk = root.getElementsByTagName("uses-sdk");
    assertThat(usesSdk.getLength()).isEqualTo(1);
    assertThat(((Element) usesSdk.item(0)).getAttribute("android:minSdkVersion")).isEqualTo("21");

    List<String> permissions = new ArrayList<>();
    NodeList uses = root.getElementsByTagName("uses-permission");
    for (int i = 0; i < uses.getLength(); i++) {
      permissions.add(((Element) uses.item(i)).getAttribute("android:name"));
    }
    assertThat(permissions).containsExactlyInAnyOrder(
        "android.permission.INTERNET", "android.permission.ACCESS_NETWORK_STATE");
  }

  @Test
  void classesJarHoldsTheSdkClassesAndItsConsumerRules() throws Exception {
    List<String> classesJar = new ArrayList<>();
    byte[] embeddedRules = null;
    try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(read("classes.jar")))) {
      for (ZipEntry entry; (entry = jar.getNextEntry()) != null; ) {
        classesJar.add(entry.getName());
        if (entry.getName().equals("META-INF/proguard/voicelink-android.pro")) {
          embeddedRules = readAll(jar);
        }
      }
    }
    assertThat(classesJar).contains(
        "dev/voicelink/android/Agent.class",
        "dev/voicelink/android/internal/package-info.class");
    // sdk-core and the other dependencies come in through the POM, not inside the AAR
    assertThat(classesJar).noneMatch(name -> name.startsWith("dev/voicelink/core/")
        || name.startsWith("okhttp3/") || name.startsWith("com/squareup/moshi/"));
    // android-all is provided by the device
    assertThat(classesJar).noneMatch(name -> name.startsWith("android/"));

    byte[] aarRules = read("proguard.txt");
    assertThat(new String(aarRules, StandardCharsets.UTF_8)).contains("-keepclassmembers");
    assertThat(embeddedRules).as("the jar's rules are the AAR's rules").isEqualTo(aarRules);
  }

  private byte[] read(String name) throws IOException {
    ZipEntry entry = aar.getEntry(name);
    assertThat(entry).as(name + " in the AAR").isNotNull();
    try (InputStream in = aar.getInputStream(entry)) {
      return readAll(in);
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) != -1; ) {
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  private static List<String> entryNames(ZipFile zip) {
    List<String> names = new ArrayList<>();
    for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
      names.add(e.nextElement().getName());
    }
    return names;
  }
}
