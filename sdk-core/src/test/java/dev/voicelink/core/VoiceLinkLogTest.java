package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.internal.Log;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class VoiceLinkLogTest {
  @AfterEach void restore() {
    VoiceLinkLog.setSink(VoiceLinkLog.javaUtilLogging());
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
