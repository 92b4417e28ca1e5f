package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.internal.Log;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class VoiceLinkLogTest {
  @AfterEach void restore() {
    VoiceLinkLog.setSink(VoiceLinkLog.defaultSink());
  }

  @Test void offAndroidTheDefaultSinkIsJavaUtilLogging() {
    assertThat(VoiceLinkLog.defaultSink()).isSameAs(VoiceLinkLog.javaUtilLogging());
  }

  @Test void theSilentSinkTakesNothing() {
    VoiceLinkLog.setSink(VoiceLinkLog.silent());
    for (VoiceLinkLog.Level level : VoiceLinkLog.Level.values()) {
      assertThat(Log.isLoggable(level, "auth")).isFalse();
    }
    Log.error("auth", "dropped", new IllegalStateException());
    assertThat(VoiceLinkLog.sink()).isSameAs(VoiceLinkLog.silent());
  }

  @Test void aNullSinkIsRefused() {
    assertThatThrownBy(() -> VoiceLinkLog.setSink(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("sink must not be null");
  }

  @Test void sdkLinesReachTheInstalledSinkOnlyWhenLoggable() {
    List<String> lines = new ArrayList<>();
    VoiceLinkLog.setSink(new VoiceLinkLog.Sink() {
      @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
        return level.compareTo(VoiceLinkLog.Level.INFO) >= 0;
      }

      @Override public void log(VoiceLinkLog.Level level, String tag, String message,
          @Nullable Throwable error) {
        lines.add(level + " " + tag + " " + message);
      }
    });

    Log.debug("auth", "skipped");
    Log.info("auth", "kept");
    Log.warn("entity", "also kept", null);

    assertThat(lines).containsExactly("INFO auth kept", "WARN entity also kept");
  }
}
