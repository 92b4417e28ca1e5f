package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import android.content.Context;
import android.content.Intent;
import android.graphics.Bitmap;
import android.graphics.drawable.BitmapDrawable;
import android.os.Build;
import android.os.Looper;
import android.view.View;
import android.widget.Button;
import android.widget.ImageView;
import android.widget.TextView;
import com.google.zxing.BinaryBitmap;
import com.google.zxing.LuminanceSource;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLooper;

// Runs once per SDK level of robolectric.properties. The reference server runs in-process on loopback;
// the Activity talks to it over real HTTP, exactly as on a device.
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
public final class MainActivityTest {
  private static final long START = 1_700_000_000_000L;

  private ReferenceServer server;
  private ActivityController<MainActivity> controller;
  private MainActivity activity;
  private AgentPort.Factory originalFactory;
  private final List<String> sent = Collections.synchronizedList(new ArrayList<String>());
  private AgentPort.Listener agentListener;
  private TokenRecord agentToken;

  @Before
  public void startServer() throws Exception {
    server = ReferenceServer.builder().clock(ServerClock.manual(START)).build().start();
    originalFactory = MainActivity.agentFactory;
    MainActivity.agentFactory = new AgentPort.Factory() {
      @Override public AgentPort create(Context context, String configText, TokenRecord token,
          AgentPort.Listener listener) {
        agentToken = token;
        agentListener = listener;
        return new AgentPort() {
          @Override public void sendMessage(int msgType, int arg1, int arg2, String params, byte[] data) {
            sent.add(msgType + "/" + arg1 + "/" + params + "/"
                + (data == null ? "-" : new String(data, StandardCharsets.UTF_8)));
          }

          @Override public void destroy() {
            sent.add("destroyed");
          }
        };
      }
    };
  }

  @After
  public void stop() throws Exception {
    if (controller != null) controller.pause().stop().destroy();
    MainActivity.agentFactory = originalFactory;
    server.close();
  }

  @Test
  public void authorizesShowsTheCodeAndLinkThenDrivesTheAgent() throws Exception {
    launch(config(server));
    assertThat(Build.VERSION.SDK_INT).isIn(21, 28, 35);
    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo(
        "Not authorized. Device SN-0001-DEMO at " + server.authUrl());
    assertThat(button(MainActivity.TAG_SYNC).isEnabled()).isFalse();

    click(MainActivity.TAG_AUTHORIZE);
    assertThat(button(MainActivity.TAG_AUTHORIZE).isEnabled()).as("one flow at a time").isFalse();
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");
    String userCode = text(MainActivity.TAG_USER_CODE);
    assertThat(text(MainActivity.TAG_LINK)).isEqualTo(server.verificationUri() + "?user_code=" + userCode);
    assertThat(eventLog()).contains("user code " + userCode + ", link " + server.verificationUri()
        + "?user_code=" + userCode);
    assertThat(view(MainActivity.TAG_QR).getVisibility()).isEqualTo(View.VISIBLE);
    assertThat(qrText()).as("the QR code on screen").isEqualTo(text(MainActivity.TAG_LINK));

    new SimulatedTester(server).approve(userCode);
    awaitUi(() -> agentListener != null, "the Agent to be created");
    assertThat(eventLog()).contains("authorized");
    assertThat(agentToken.accessToken()).as("the Agent got the token the server issued").isNotEmpty();
    assertThat(text(MainActivity.TAG_USER_CODE)).isEmpty();

    List<RecordedCall> deviceCodes = server.journal().calls("/oauth/ivs/device_code");
    assertThat(deviceCodes).hasSize(1);
    assertThat(deviceCodes.get(0).body()).contains("client_id=vl-speaker-01", "scope=user_ivs_all");
    assertThat(server.journal().calls("/oauth/ivs/token")).last()
        .satisfies(call -> assertThat(call.responseBody()).contains("access_token"));

    emit(Commands.EVENT_CONNECTED_TO_SERVER, 0, 0, "", map("uid", "u1"));
    assertThat(eventLog()).endsWith("← EVENT_CONNECTED_TO_SERVER arg1=0 arg2=0 uid=u1");
    assertThat(button(MainActivity.TAG_SYNC).isEnabled()).isTrue();
    assertThat(button(MainActivity.TAG_QUERY).isEnabled()).as("nothing synced yet").isFalse();

    click(MainActivity.TAG_SYNC);
    assertThat(sent).hasSize(1);
    String sync = sent.get(0);
    assertThat(sync).startsWith("13/3/{\"tag\":\"contacts-1\"}/{\"param\":{\"id_name\":\"uid\",\"id_value\":\"\","
        + "\"res_name\":\"OS123.contacts\"},\"data\":\"");
    assertThat(eventLog()).contains("→ CMD_SYNC arg1=SYNC_DATA_SCHEMA params={\"tag\":\"contacts-1\"} data=");

    emit(Commands.EVENT_CMD_RETURN, Commands.CMD_SYNC, 0, "", map("sync_dtype", "3", "sid", "psn0001", "tag", "contacts-1"));
    assertThat(eventLog()).endsWith("← EVENT_CMD_RETURN arg1=CMD_SYNC arg2=0 sid=psn0001 sync_dtype=3 tag=contacts-1");

    click(MainActivity.TAG_QUERY);
    assertThat(sent.get(1)).isEqualTo("24/3/{\"sid\":\"psn0001\"}/-");

    click(MainActivity.TAG_SET_PARAMS);
    assertThat(sent.get(2)).isEqualTo("10/0/{\"audioparams\":{\"pers_param\":\"{\\\"uid\\\":\\\"\\\"}\"}}/-");

    click(MainActivity.TAG_WRITE);
    assertThat(sent.get(3)).isEqualTo("2/0/data_type=text,pers_param={\"uid\":\"\"}/call Old Zhang");
    assertThat(eventLog()).contains("→ CMD_WRITE params=data_type=text,pers_param={\"uid\":\"\"} data=14 bytes");
  }

  @Test
  public void refusalIsShownAndAuthorizeCanBePressedAgain() throws Exception {
    launch(config(server));
    click(MainActivity.TAG_AUTHORIZE);
    awaitUi(() -> !text(MainActivity.TAG_USER_CODE).isEmpty(), "the user code");

    new SimulatedTester(server).refuse(text(MainActivity.TAG_USER_CODE));
    awaitUi(() -> button(MainActivity.TAG_AUTHORIZE).isEnabled(), "the flow to end");

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo("Not authorized: DENIED");
    assertThat(eventLog()).contains("authorization ended: DENIED");
    assertThat(agentListener).as("no Agent without a token").isNull();
  }

  @Test
  public void configWithoutAppidIsReportedAndNothingIsSent() {
    launch(config(server).replace("\"login\": {\"appid\": \"5f1a2b3c\"},", ""));

    assertThat(text(MainActivity.TAG_STATUS)).isEqualTo(
        "Config error: login.appid is missing from the config; add \"login\": {\"appid\": \"...\"}");
    assertThat(button(MainActivity.TAG_AUTHORIZE).isEnabled()).isFalse();
    assertThat(server.journal()).isEmpty();
  }

  static String config(ReferenceServer server) {
    return "// test config\n{\n"
        + "\"login\": {\"appid\": \"" + DefaultConsole.APPID + "\"},\n"
        + "\"server\": {\"auth_url\": \"" + server.authUrl() + "\", \"platform_url\": \"" + server.platformUrl()
        + "\", \"base_url\": \"" + server.baseUrl() + "\"},\n"
        + "\"auth\": {\"client_id\": \"" + DefaultConsole.CLIENT_ID + "\", \"device_id\": \""
        + DefaultConsole.DEVICE_ID + "\"},\n"
        + "\"sample\": {\"contacts_resource\": \"" + DefaultConsole.CONTACTS + "\"}\n}";
  }

  private void launch(String config) {
    Intent intent = new Intent(Intent.ACTION_MAIN).putExtra(MainActivity.EXTRA_CONFIG, config);
    controller = Robolectric.buildActivity(MainActivity.class, intent).setup();
    activity = controller.get();
  }

  private void emit(int type, int arg1, int arg2, String info, Map<String, String> data) {
    agentListener.onEvent(type, arg1, arg2, info, data);
    mainLooper().idle();
  }

  private static Map<String, String> map(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  private View view(String tag) {
    View view = activity.getWindow().getDecorView().findViewWithTag(tag);
    assertThat(view).as("view tagged " + tag).isNotNull();
    return view;
  }

  private String text(String tag) {
    return ((TextView) view(tag)).getText().toString();
  }

  private Button button(String tag) {
    return (Button) view(tag);
  }

  private String qrText() throws Exception {
    Bitmap bitmap = ((BitmapDrawable) ((ImageView) view(MainActivity.TAG_QR)).getDrawable()).getBitmap();
    int width = bitmap.getWidth();
    int height = bitmap.getHeight();
    int[] pixels = new int[width * height];
    bitmap.getPixels(pixels, 0, width, 0, 0, width, height);
    LuminanceSource source = new RGBLuminanceSource(width, height, pixels);
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(source))).getText();
  }

  private String eventLog() {
    return text(MainActivity.TAG_EVENT_LOG);
  }

  private void click(String tag) {
    assertThat(button(tag).isEnabled()).as(tag + " enabled").isTrue();
    assertThat(button(tag).performClick()).isTrue();
    mainLooper().idle();
  }

  // Work happens on SDK threads and reaches the UI through the main looper: run it until the
  // condition holds. A bound on real time only keeps a broken build from hanging.
  private void awaitUi(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      mainLooper().idle();
      if (condition.getAsBoolean()) return;
      if (System.nanoTime() > deadline) fail("timed out waiting for " + what + "; event log:\n" + eventLog());
      Thread.sleep(10);
    }
  }

  private static ShadowLooper mainLooper() {
    return Shadow.extract(Looper.getMainLooper());
  }
}
