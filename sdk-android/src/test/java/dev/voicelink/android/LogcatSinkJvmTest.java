package dev.voicelink.android;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VoiceLinkLog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How sdk-core finds this library's Logcat sink, checked where a rename would break it: off Android
 * the default sink stays java.util.logging, even with this library and an Android framework jar on
 * the class path (as in this module's plain JVM tests); LogcatSinkTest shows it found on Android.
 */
class LogcatSinkJvmTest {
  /** Where ServiceLoader looks for the sinks of {@code VoiceLinkLog.Sink}. */
  private static final String SERVICES = "META-INF/services/" + VoiceLinkLog.Sink.class.getName();

  @Test void onAPlainJvmTheDefaultSinkIsJavaUtilLogging() throws Exception {
    ClassLoader loader = getClass().getClassLoader();
    assertThat(loader.loadClass("android.util.Log")).isNotNull();
    assertThat(servicesEntries(loader)).isNotEmpty();
    assertThat(VoiceLinkLog.defaultSink()).isSameAs(VoiceLinkLog.javaUtilLogging());
  }

  /**
   * The entry that VoiceLinkLog's lookup reads names LogcatSink, in a file named after the service
   * type: renaming either class without the entry fails here, in the build, rather than leaving
   * Android apps on java.util.logging without a word.
   */
  @Test void theServicesEntryNamesTheLogcatSink() throws IOException {
    assertThat(servicesEntries(getClass().getClassLoader()))
        .containsExactly(LogcatSink.class.getName());
    assertThat(VoiceLinkLog.Sink.class).isAssignableFrom(LogcatSink.class);
    assertThat(LogcatSink.class.getConstructors())
        .anySatisfy(constructor -> assertThat(constructor.getParameterCount()).isZero());
  }

  /** The provider names in every services file of the sink type, as ServiceLoader reads them. */
  private static List<String> servicesEntries(ClassLoader loader) throws IOException {
    List<String> entries = new ArrayList<>();
    for (URL file : Collections.list(loader.getResources(SERVICES))) {
      try (InputStream in = file.openStream();
          BufferedReader reader = new BufferedReader(new InputStreamReader(in, UTF_8))) {
        for (String line; (line = reader.readLine()) != null; ) {
          int comment = line.indexOf('#');
          String name = (comment >= 0 ? line.substring(0, comment) : line).trim();
          if (!name.isEmpty()) entries.add(name);
        }
      }
    }
    return entries;
  }
}
