package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;

import android.util.Log;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.shadows.ShadowLog;

/** The SDK's log in Logcat, read back through Robolectric's ShadowLog. */
@RunWith(RobolectricTestRunner.class)
public final class LogcatSinkTest {
  private static final String UID = "d41d8cd98f00b204e9800998ecf8427e";

  @Before public void clearLogcat() {
    ShadowLog.clear();
  }

  @After public void restoreDefaultSink() {
    VoiceLinkLog.setSink(VoiceLinkLog.defaultSink());
  }

  private static List<String> logcat() {
    List<String> lines = new ArrayList<>();
    for (ShadowLog.LogItem item : ShadowLog.getLogsForTag(LogcatSink.TAG)) {
      lines.add(item.type + " " + item.msg + (item.throwable == null ? "" : " !" + item.throwable));
    }
    return lines;
  }

  @Test public void onAndroidTheDefaultSinkIsLogcat() {
    assertThat(VoiceLinkLog.defaultSink()).isInstanceOf(LogcatSink.class);
    assertThat(VoiceLinkLog.sink()).isSameAs(VoiceLinkLog.defaultSink());

    dev.voicelink.core.internal.Log.info("auth", "token refreshed");

    assertThat(logcat()).containsExactly(Log.INFO + " [auth] token refreshed");
  }

  @Test public void levelsMapOneToOneAndDebugNeedsTheTagEnabled() {
    IllegalStateException failure = new IllegalStateException("boom");
    dev.voicelink.core.internal.Log.debug("http", "hidden");
    dev.voicelink.core.internal.Log.verbose("interact", "hidden too");
    dev.voicelink.core.internal.Log.warn("entity", "check failed", failure);
    dev.voicelink.core.internal.Log.error("agent", "gave up", null);
    assertThat(logcat()).containsExactly(
        Log.WARN + " [entity] check failed !" + failure,
        Log.ERROR + " [agent] gave up");

    ShadowLog.clear();
    ShadowLog.setLoggable(LogcatSink.TAG, Log.VERBOSE); // adb shell setprop log.tag.VoiceLink VERBOSE
    dev.voicelink.core.internal.Log.verbose("interact", "frame");
    dev.voicelink.core.internal.Log.debug("http", "--> POST");
    dev.voicelink.core.internal.Log.info("auth", "saved");
    assertThat(logcat()).containsExactly(Log.VERBOSE + " [interact] frame",
        Log.DEBUG + " [http] --> POST", Log.INFO + " [auth] saved");

    LogcatSink sink = new LogcatSink();
    assertThat(LogcatSink.priority(VoiceLinkLog.Level.VERBOSE)).isEqualTo(Log.VERBOSE);
    assertThat(LogcatSink.priority(VoiceLinkLog.Level.DEBUG)).isEqualTo(Log.DEBUG);
    assertThat(LogcatSink.priority(VoiceLinkLog.Level.INFO)).isEqualTo(Log.INFO);
    assertThat(LogcatSink.priority(VoiceLinkLog.Level.WARN)).isEqualTo(Log.WARN);
    assertThat(LogcatSink.priority(VoiceLinkLog.Level.ERROR)).isEqualTo(Log.ERROR);
    assertThat(sink.isLoggable(VoiceLinkLog.Level.VERBOSE, "http")).isTrue();
    ShadowLog.setLoggable(LogcatSink.TAG, Log.INFO);
    assertThat(sink.isLoggable(VoiceLinkLog.Level.DEBUG, "http")).isFalse();
    assertThat(sink.isLoggable(VoiceLinkLog.Level.INFO, "http")).isTrue();
  }

  @Test public void aLongMessageIsSplitAtLineBreaksIntoEntriesLogcatKeeps() {
    StringBuilder body = new StringBuilder("<-- 200 (body)");
    for (int i = 0; i < 300; i++) body.append("\n{\"name\":\"张三 ").append(i).append("\",\"alias\":\"\"}");
    String message = body.toString();
    Throwable failure = new java.io.IOException("cut");

    new LogcatSink().log(VoiceLinkLog.Level.WARN, "http", message, failure);

    List<ShadowLog.LogItem> items = ShadowLog.getLogsForTag(LogcatSink.TAG);
    assertThat(items.size()).isGreaterThan(1);
    StringBuilder joined = new StringBuilder();
    for (int i = 0; i < items.size(); i++) {
      ShadowLog.LogItem item = items.get(i);
      assertThat(item.type).isEqualTo(Log.WARN);
      assertThat(utf8Length(item.msg)).isLessThanOrEqualTo(LogcatSink.MAX_ENTRY_BYTES);
      assertThat(item.msg).doesNotStartWith("\n").doesNotEndWith("\n");
      assertThat(item.throwable).isSameAs(i == items.size() - 1 ? failure : null);
      joined.append(i == 0 ? "" : "\n").append(item.msg);
    }
    assertThat(joined.toString()).isEqualTo("[http] " + message);
  }

  @Test public void aLongLineIsCutBetweenCharactersNeverInsideOne() {
    String pair = "\uD83D\uDE00"; // one character, two chars, four UTF-8 bytes
    StringBuilder line = new StringBuilder("x");
    while (line.length() < 3000) line.append(pair);
    String text = line.toString();
    int end = LogcatSink.chunkEnd(text, 0, 4000);
    assertThat(utf8Length(text.substring(0, end))).isLessThanOrEqualTo(4000).isGreaterThan(3990);
    assertThat(Character.isHighSurrogate(text.charAt(end - 1))).isFalse();
    assertThat(Character.isLowSurrogate(text.charAt(end))).isFalse();
    assertThat(LogcatSink.chunkEnd("short", 0, 4000)).isEqualTo(5);
    assertThat(LogcatSink.chunkEnd("ab\ncd\nef", 0, 6)).isEqualTo(5);
  }

  @Test public void anAppReplacesOrSilencesTheSink() {
    try (LogCapture own = LogCapture.install()) {
      dev.voicelink.core.internal.Log.info("auth", "to the app's sink");
      assertThat(own.lines()).containsExactly("INFO auth to the app's sink");
    }
    VoiceLinkLog.setSink(VoiceLinkLog.silent());
    dev.voicelink.core.internal.Log.error("auth", "dropped", null);
    assertThat(dev.voicelink.core.internal.Log.isLoggable(VoiceLinkLog.Level.ERROR, "auth")).isFalse();
    assertThat(logcat()).isEmpty();

    VoiceLinkLog.setSink(VoiceLinkLog.defaultSink());
    dev.voicelink.core.internal.Log.info("auth", "back in Logcat");
    assertThat(logcat()).containsExactly(Log.INFO + " [auth] back in Logcat");
  }

  /**
   * Device flow, refresh, a refused stale refresh and an upload, every level enabled and HTTP logged
   * with bodies: the lines reach Logcat, and none holds a secret the server knows or handed out.
   */
  @Test public void aWholeSessionLogsToLogcatWithoutASecret() throws Exception {
    ShadowLog.setLoggable(LogcatSink.TAG, Log.VERBOSE);
    VirtualTime time = new VirtualTime();
    LeakScan scan;
    try (ReferenceServer server = ReferenceServer.builder()
        .clock(ServerClock.manual(time.wallMillis())).build().start();
        VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.authUrl())
            .baseUrl(server.baseUrl()).clock(time).scheduler(time)
            .httpLogging(HttpLogLevel.BODY).build()) {
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
          .clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = TestClients.execute(authorizer.requestCode(DefaultConsole.DEVICE_ID));
      new SimulatedTester(server).approve(code.userCode());
      AtomicReference<DeviceFlowOutcome> outcome = new AtomicReference<>();
      Thread poller = new Thread(() -> outcome.set(TestClients.execute(authorizer.poll(code))));
      poller.start();
      for (int i = 0; i < 50 && outcome.get() == null; i++) {
        time.advance(1, TimeUnit.SECONDS);
        poller.join(100);
      }
      TokenRecord first = outcome.get().token();

      TokenManager tokens = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore()).build();
      tokens.setRecord(first);
      tokens.refresh().execute();
      TokenManager stale = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore()).build();
      stale.setRecord(first); // its refresh token was rotated away by the refresh above
      try {
        stale.refresh().execute();
        throw new AssertionError("a rotated refresh token was accepted");
      } catch (ReauthorizationRequiredException expected) {
        // logged as a warning
      }

      EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE)
          .accountKey(DefaultConsole.ACCOUNT_KEY).build()
          .uploadResource(UploadRequest.builder().appid(DefaultConsole.APPID)
              .definition(ResourceDefinition.builder().name(DefaultConsole.CONTACTS)
                  .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build())
              .persParam(PersParam.user(UID))
              .records(RecordSource.fromText("{\"name\":\"张三\",\"alias\":\"老张\"}"))
              .build()).execute();
      scan = LeakScan.of(server);
    }

    String text = String.join("\n", logcat());
    assertThat(text).contains(Log.DEBUG + " [http] --> POST " + "http://")
        .contains("/oauth/ivs/device_code")
        .contains(Log.INFO + " [auth] token refreshed and saved")
        .contains(Log.WARN + " [auth] refresh token refused")
        .contains(Log.INFO + " [entity] uploaded OS123.contacts: sid psn");
    scan.scan("logcat", text);
    scan.assertNoLeak();
    assertThat(scan.counts()).containsKeys("client_secret", "account_key", "device_code",
        "access_token", "refresh_token", "x_checksum");
  }

  private static int utf8Length(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }
}
