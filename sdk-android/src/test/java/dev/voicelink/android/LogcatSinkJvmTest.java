package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VoiceLinkLog;
import org.junit.jupiter.api.Test;

/**
 * Off Android the default sink stays java.util.logging, even with this library and an Android
 * framework jar on the class path (as in this module's plain JVM tests).
 */
class LogcatSinkJvmTest {
  @Test void onAPlainJvmTheDefaultSinkIsJavaUtilLogging() throws Exception {
    ClassLoader loader = getClass().getClassLoader();
    assertThat(Class.forName("android.util.Log", false, loader)).isNotNull();
    assertThat(Class.forName("dev.voicelink.android.LogcatSink", false, loader)).isNotNull();
    assertThat(VoiceLinkLog.defaultSink()).isSameAs(VoiceLinkLog.javaUtilLogging());
  }
}
