package dev.voicelink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.internal.Log;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
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

  @Test void javaUtilLoggingRecordsNameTheSdksLoggerAsTheirSource() {
    Logger logger = Logger.getLogger("dev.voicelink.auth"); // held: JUL keeps loggers weakly
    List<LogRecord> records = new ArrayList<>();
    Handler handler = new Handler() {
      @Override public void publish(LogRecord record) {
        records.add(record);
      }

      @Override public void flush() {
      }

      @Override public void close() {
      }
    };
    logger.addHandler(handler);
    try {
      VoiceLinkLog.setSink(VoiceLinkLog.javaUtilLogging());
      Log.info("auth", "signed in");
      IOException failure = new IOException("timeout");
      Log.warn("auth", "refresh failed", failure);
    } finally {
      logger.removeHandler(handler);
    }
    assertThat(records).hasSize(2);
    LogRecord info = records.get(0);
    assertThat(info.getLoggerName()).isEqualTo("dev.voicelink.auth");
    assertThat(info.getSourceClassName()).isEqualTo("dev.voicelink.auth");
    assertThat(info.getSourceMethodName()).isNull();
    assertThat(info.getLevel()).isEqualTo(java.util.logging.Level.INFO);
    assertThat(info.getMessage()).isEqualTo("signed in");
    String nl = System.lineSeparator();
    String formatted = new SimpleFormatter().format(info);
    assertThat(formatted.substring(formatted.indexOf(" dev.voicelink."))).isEqualTo(
        " dev.voicelink.auth" + nl + info.getLevel().getLocalizedName() + ": signed in" + nl);
    LogRecord warning = records.get(1);
    assertThat(warning.getSourceClassName()).isEqualTo("dev.voicelink.auth");
    assertThat(warning.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
    assertThat(warning.getThrown()).hasMessage("timeout");
  }

  /** 2025-11-21 08:00:00.250 UTC. */
  private static final long NOW = 1_763_712_000_250L;

  @Test void printToWritesOneLinePerEntryFromItsLevelUp() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    VoiceLinkLog.setSink(VoiceLinkLog.printTo(new PrintStream(bytes, true, "UTF-8"),
        VoiceLinkLog.Level.INFO, new VirtualTime(NOW), TimeZone.getTimeZone("UTC")));
    assertThat(Log.isLoggable(VoiceLinkLog.Level.DEBUG, "http")).isFalse();
    assertThat(Log.isLoggable(VoiceLinkLog.Level.INFO, "http")).isTrue();

    Log.verbose("interact", "frame");
    Log.debug("http", "--> POST");
    Log.info("auth", "signed in");
    Log.warn("entity", "check-resource psn1 failed (check 3)\nfrom here",
        new IOException("timeout", new SocketTimeoutException("read\r\ntimed out")));
    Log.error("entity", "broken", null);

    String nl = System.lineSeparator();
    assertThat(new String(bytes.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(
        "2025-11-21 08:00:00.250 I/auth: signed in" + nl
        + "2025-11-21 08:00:00.250 W/entity: check-resource psn1 failed (check 3)\\nfrom here:"
        + " java.io.IOException: timeout; caused by: java.net.SocketTimeoutException: read\\ntimed out"
        + nl
        + "2025-11-21 08:00:00.250 E/entity: broken" + nl);
  }

  @Test void printToWritesEveryLevelsLetterAndStopsAtACauseLoop() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    VoiceLinkLog.setSink(VoiceLinkLog.printTo(new PrintStream(bytes, true, "UTF-8"),
        VoiceLinkLog.Level.VERBOSE, new VirtualTime(NOW), TimeZone.getTimeZone("GMT+08:00")));
    Log.verbose("interact", "v");
    Log.debug("http", "d");
    IllegalStateException first = new IllegalStateException("a");
    IllegalStateException second = new IllegalStateException("b");
    first.initCause(second);
    second.initCause(first);
    Log.error("core", "loop", first);

    String nl = System.lineSeparator();
    StringBuilder loop = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      loop.append(i == 0 ? ": " : "; caused by: ").append("java.lang.IllegalStateException: ")
          .append(i % 2 == 0 ? "a" : "b");
    }
    assertThat(new String(bytes.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(
        "2025-11-21 16:00:00.250 V/interact: v" + nl
        + "2025-11-21 16:00:00.250 D/http: d" + nl
        + "2025-11-21 16:00:00.250 E/core: loop" + loop + "; …" + nl);
  }

  @Test void printToRefusesNothingToPrintTo() {
    assertThatThrownBy(() -> VoiceLinkLog.printTo(null, VoiceLinkLog.Level.INFO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("out must not be null");
    assertThatThrownBy(() -> VoiceLinkLog.printTo(System.err, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("minimum must not be null");
    assertThat(VoiceLinkLog.printTo(System.err, VoiceLinkLog.Level.WARN).toString())
        .isEqualTo("VoiceLinkLog.printTo(" + System.err + ", WARN)");
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
