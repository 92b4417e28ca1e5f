package dev.voicelink.samples.app;

import static dev.voicelink.android.AgentConstants.CMD_QUERY_SYNC_STATUS;
import static dev.voicelink.android.AgentConstants.CMD_SET_PARAMS;
import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.CMD_WRITE;
import static dev.voicelink.android.AgentConstants.EVENT_CMD_RETURN;
import static dev.voicelink.android.AgentConstants.EVENT_CONNECTED_TO_SERVER;
import static dev.voicelink.android.AgentConstants.EVENT_SERVER_DISCONNECTED;
import static dev.voicelink.android.AgentConstants.KEY_SID;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;

import android.app.Activity;
import android.content.pm.ApplicationInfo;
import android.os.Bundle;
import android.view.View;
import dev.voicelink.android.Agent;
import dev.voicelink.android.AgentEvent;
import dev.voicelink.android.AgentListener;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.ResourceDefinition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;

/**
 * The whole sample on one screen: authorize the device (user code, link and QR code), then drive the
 * Agent with CMD_SYNC, CMD_QUERY_SYNC_STATUS, CMD_SET_PARAMS and a text CMD_WRITE, and show every event
 * as it arrives.
 *
 * <p>The config text comes from the intent extra {@link #EXTRA_CONFIG} when present in a debuggable
 * build (handy with {@code adb shell am start --es}), else from the asset {@code voicelink.json}.
 */
public final class MainActivity extends Activity {
  /** A config text that replaces the asset {@code voicelink.json}. */
  public static final String EXTRA_CONFIG = "dev.voicelink.samples.app.CONFIG";
  static final String CONFIG_ASSET = "voicelink.json";

  static final String TAG_STATUS = "status";
  static final String TAG_AUTHORIZE = "authorize";
  static final String TAG_SIGN_OUT = "sign_out";
  static final String TAG_USER_CODE = "user_code";
  static final String TAG_LINK = "link";
  static final String TAG_QR = "qr";
  static final String TAG_SYNC = "sync";
  static final String TAG_QUERY = "query";
  static final String TAG_SET_PARAMS = "set_params";
  static final String TAG_WRITE_TEXT = "write_text";
  static final String TAG_WRITE = "write";
  static final String TAG_EVENT_LOG = "event_log";

  // Tests drive time by hand: they set both before the Activity starts. Null: the system's.
  static @Nullable Clock clockOverride;
  static @Nullable Scheduler schedulerOverride;

  private @Nullable SampleConfig config;
  // The sample reads its addresses per launch (its tests point each launch at another server), so
  // it holds its client for the Activity's life and closes it in onDestroy. An app with fixed
  // addresses builds one in its Application instead (docs/lifecycle.md).
  private @Nullable VoiceLinkClient voiceLink;
  private @Nullable DeviceAuthorizer authorizer;
  // Keeps the device's token fresh and saved (SampleProcess.signIn()) for the Agent and the backend.
  private @Nullable TokenManager tokens;
  private @Nullable VoiceLinkCall<OAuthServer> discovery;
  private @Nullable VoiceLinkCall<DeviceFlowOutcome> flow;
  private @Nullable Agent agent;
  private @Nullable String lastSid;
  private int syncCount;
  private boolean destroyed;
  // Reads and writes of the token store: file and Keystore I/O, never on the main thread. Ended in
  // onDestroy.
  private final ExecutorService tokenStore = Executors.newSingleThreadExecutor(runnable -> {
    Thread thread = new Thread(runnable, "sample-token-store");
    thread.setDaemon(true);
    return thread;
  });

  private SampleScreen screen; // built first thing in onCreate

  @Override protected void onCreate(@Nullable Bundle savedInstanceState) {
    super.onCreate(savedInstanceState);
    screen = new SampleScreen(this);
    setContentView(screen.root);
    screen.authorize.setOnClickListener(v -> startAuthorization());
    screen.signOut.setOnClickListener(v -> signOut());
    screen.sync.setOnClickListener(v -> syncContacts());
    screen.query.setOnClickListener(v -> queryStatus());
    screen.setParams.setOnClickListener(v -> setPersParam());
    screen.write.setOnClickListener(v -> writeText());
    try {
      config = SampleConfig.parse(configText());
      SampleProcess process = SampleProcess.get(this);
      VoiceLinkClient.Builder core = config.clientBuilder().httpClient(process.http());
      if (clockOverride != null) core.clock(clockOverride);
      if (schedulerOverride != null) core.scheduler(schedulerOverride);
      voiceLink = core.build();
      screen.writeText.setText(config.writeText);
      if (config.issuer == null) {
        signInAt(null);
      } else {
        discover(config.issuer);
      }
    } catch (IOException | RuntimeException e) {
      configError(e);
    }
  }

  private void configError(Exception e) {
    screen.status.setText("Config error: " + e.getMessage());
    log("config error: " + e.getMessage());
  }

  /** Reads the standard server's endpoints from its issuer, then offers sign-in there. */
  private void discover(String issuer) {
    screen.status.setText("Reading " + issuer + "…");
    VoiceLinkCall<OAuthServer> started = OAuthServer.discover(voiceLink, issuer);
    discovery = started;
    started.enqueue(result -> { // on the main thread; cancelled in onDestroy
      discovery = null;
      if (result.isCancelled() || destroyed) return;
      Exception failure = result.failure();
      if (failure != null) {
        configError(failure);
        return;
      }
      try {
        signInAt(result.value());
      } catch (IOException | RuntimeException e) {
        configError(e);
      }
    });
  }

  /**
   * Makes the device flow and the token manager for the platform ({@code server} null) or for a
   * standard OAuth 2.0 server, then resumes the saved sign-in or offers a new one.
   */
  private void signInAt(@Nullable OAuthServer server) throws IOException {
    if (config == null || voiceLink == null) return;
    DeviceAuthorizer.Builder flowBuilder = server == null ? DeviceAuthorizer.builder(voiceLink)
        : DeviceAuthorizer.builder(voiceLink, server);
    flowBuilder.clientId(config.clientId);
    if (config.scope != null) flowBuilder.scope(config.scope);
    authorizer = flowBuilder.build();
    tokens = (server == null ? TokenManager.builder(voiceLink) : TokenManager.builder(voiceLink, server))
        .deviceGrant(config.clientId).store(SampleProcess.get(this).signIn()).build();
    resumeSavedSignIn();
  }

  @Override protected void onDestroy() {
    destroyed = true; // a flow outcome already posted must not start an Agent now
    if (discovery != null) discovery.cancel();
    if (flow != null) flow.cancel();
    if (agent != null) agent.destroy();
    agent = null;
    tokenStore.shutdown(); // a read or write under way still ends; its news is dropped
    if (voiceLink != null) voiceLink.close(); // ends what the client made; HTTP stays the app's
    super.onDestroy();
  }

  private String configText() throws IOException {
    // The activity is exported: in a release build another app could start it with a config naming
    // its own servers and receive the saved sign-in's tokens there.
    boolean debuggable = (getApplicationInfo().flags & ApplicationInfo.FLAG_DEBUGGABLE) != 0;
    String extra = !debuggable || getIntent() == null ? null
        : getIntent().getStringExtra(EXTRA_CONFIG);
    if (extra != null) return extra;
    InputStream in = getAssets().open(CONFIG_ASSET);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      for (int n; (n = in.read(buffer)) != -1; ) {
        bytes.write(buffer, 0, n);
      }
      return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    } finally {
      in.close();
    }
  }

  // ---- sign-in: saved, device flow, sign-out ----

  /** Starts the Agent on the sign-in saved by an earlier run, if there is one; else offers sign-in. */
  private void resumeSavedSignIn() {
    TokenManager manager = tokens;
    if (manager == null || config == null) return;
    screen.status.setText("Reading the saved sign-in…");
    // The manager reads its store on an SDK thread and tells what it found here, on the main thread.
    manager.addListener(new TokenManager.Listener() {
      @Override public void onStateChanged(TokenManager.StateChange change) {
        if (change.state() == TokenManager.State.LOADING) return;
        manager.removeListener(this);
        if (change.failure() != null) log("saved sign-in not readable: " + change.failure().getMessage());
        if (!destroyed) savedSignInRead(manager.record());
      }
    });
  }

  private void savedSignInRead(@Nullable TokenRecord saved) {
    if (saved == null) {
      showSignedOut("Not authorized");
      return;
    }
    screen.status.setText("Signed in (saved). Connecting…");
    log("signed in from the saved token, valid until " + new Date(saved.expiresAtEpochMillis())
        + "; no new device flow");
    screen.signOut.setEnabled(true);
    startAgent();
  }

  private void showSignedOut(String state) {
    if (config == null) return;
    screen.status.setText(state + (config.issuer == null
        ? ". Device " + config.deviceId + " at " + config.authUrl : ". Sign in at " + config.issuer));
    screen.authorize.setEnabled(true);
    screen.signOut.setEnabled(false);
  }

  /** Forgets the device's token here and on disk; the next start offers sign-in again. */
  private void signOut() {
    if (agent != null) agent.destroy();
    agent = null;
    setConnected(false);
    TokenManager manager = tokens;
    if (manager == null) return;
    screen.signOut.setEnabled(false);
    manager.signOut().enqueue(result -> {
      if (destroyed) return;
      if (result.isSuccess()) {
        log("signed out: the saved token is deleted");
        showSignedOut("Signed out");
      } else if (!result.isCancelled()) {
        screen.status.setText("Sign-out failed: " + result.failure().getMessage());
        log("sign-out failed: " + result.failure().getMessage());
        screen.signOut.setEnabled(true);
      }
    });
  }

  /** Back on the main thread, unless the Activity is gone meanwhile. */
  private void onMainThread(Runnable step) {
    runOnUiThread(() -> {
      if (!destroyed) step.run();
    });
  }


  private void startAuthorization() {
    if (authorizer == null || config == null) return;
    screen.authorize.setEnabled(false);
    screen.status.setText("Requesting a code…");
    DeviceFlowListener listener = new DeviceFlowListener() {
      @Override public void onCodeIssued(DeviceCode code) {
        showCode(code);
      }

      @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
        screen.status.setText("Waiting for the user (poll " + pollNumber + ": " + result + ")");
      }
    };
    VoiceLinkCall<DeviceFlowOutcome> started;
    if (config.deviceId != null) {
      log("requesting a device code for " + config.deviceId);
      started = authorizer.authorize(config.deviceId, listener);
    } else {
      log("requesting a device code at " + config.issuer);
      started = authorizer.authorize(listener);
    }
    flow = started;
    // On the main thread, like the listener; cancelled in onDestroy.
    started.enqueue(new VoiceLinkCall.Callback<DeviceFlowOutcome>() {
      @Override public void onResult(CallResult<DeviceFlowOutcome> result) {
        flow = null;
        if (result.isCancelled() || destroyed) return;
        if (result.isSuccess()) {
          authorizationEnded(result.value());
        } else {
          screen.status.setText("Not authorized: " + result.failure());
          screen.authorize.setEnabled(true);
        }
      }
    });
  }

  private void showCode(DeviceCode code) {
    screen.userCode.setText(code.userCode());
    screen.link.setText(code.link());
    try {
      screen.qr.setImageBitmap(QrCodes.bitmap(code.link()));
      screen.qr.setVisibility(View.VISIBLE);
    } catch (IllegalArgumentException e) {
      log("no QR code: " + e.getMessage()); // the link and the code are on screen anyway
    }
    screen.status.setText("Open the link or scan the code, then authorize");
    log("user code " + code.userCode() + ", link " + code.link());
  }

  private void authorizationEnded(DeviceFlowOutcome outcome) {
    if (outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
      Exception failure = outcome.failure();
      screen.status.setText("Not authorized: " + outcome.kind());
      log("authorization ended: " + outcome.kind() + (failure == null ? "" : " (" + failure.getMessage() + ")"));
      screen.authorize.setEnabled(true);
      return;
    }
    screen.userCode.setText("");
    screen.link.setText("");
    screen.qr.setVisibility(View.GONE);
    TokenManager manager = tokens;
    if (manager == null) return;
    screen.status.setText("Authorized; saving the sign-in…");
    manager.setRecord(outcome.token()); // saved on an SDK thread: a restart stays signed in
    signInSaved();
  }

  private void signInSaved() {
    screen.status.setText("Authorized; connecting…");
    log("authorized");
    screen.signOut.setEnabled(true);
    startAgent();
  }

  // ---- the Agent ----

  private void startAgent() {
    if (config == null || voiceLink == null || tokens == null) return;
    try {
      Agent.Builder builder = Agent.builder(this, config.text, new AgentListener() {
        @Override public void onEvent(AgentEvent event) {
          onAgentEvent(event);
        }
      })
          .client(voiceLink)
          .tokenSource(tokens)
          .resourceDefinition(contactsDefinition(config));
      if (config.checksumUrl != null && config.namespace != null) {
        // The account key stays on the backend: it signs each web API request for this device.
        builder.entityWebApi(EntityWebApi.builder(voiceLink).namespace(config.namespace)
            .checksumSource(new BackendChecksums(SampleProcess.get(this).http(), config.checksumUrl,
            tokens)).build());
      }
      agent = builder.build();
    } catch (RuntimeException e) {
      screen.status.setText("Agent error: " + e.getMessage());
      log("agent not created: " + e.getMessage());
    }
  }

  /** The contacts resource as defined on the platform: phrase in "name", an alias, user level. */
  static ResourceDefinition contactsDefinition(SampleConfig config) {
    return ResourceDefinition.builder()
        .name(config.contactsResource)
        .mainField("name")
        .secondaryFields("alias")
        .dimension(Dimension.USER)
        .build();
  }

  private void onAgentEvent(AgentEvent event) {
    if (destroyed) return; // destroy() still replies ERROR_DESTROYED to pending commands: no views now
    log(EventLog.event(event));
    switch (event.eventType()) {
      case EVENT_CONNECTED_TO_SERVER:
        screen.status.setText("Connected");
        setConnected(true);
        break;
      case EVENT_SERVER_DISCONNECTED:
        screen.status.setText("Disconnected");
        setConnected(false);
        break;
      case EVENT_CMD_RETURN:
        String sid = event.data().getString(KEY_SID);
        if (event.arg1() == CMD_SYNC && event.arg2() == 0 && sid != null) {
          lastSid = sid;
          screen.query.setEnabled(true);
        }
        break;
      default:
        break;
    }
  }

  private void setConnected(boolean connected) {
    screen.sync.setEnabled(connected);
    screen.setParams.setEnabled(connected);
    screen.write.setEnabled(connected);
    screen.query.setEnabled(connected && lastSid != null);
  }

  private void syncContacts() {
    if (config == null) return;
    try {
      byte[] data = Commands.syncUserResource(contactsDefinition(config), Commands.sampleContacts());
      send(CMD_SYNC, SYNC_DATA_SCHEMA, Commands.syncParams("contacts-" + (++syncCount)), data);
    } catch (IOException | RuntimeException e) {
      log("contacts not synced: " + e.getMessage());
    }
  }

  private void queryStatus() {
    if (lastSid == null) return;
    send(CMD_QUERY_SYNC_STATUS, SYNC_DATA_SCHEMA, Commands.queryParams(lastSid), null);
  }

  private void setPersParam() {
    send(CMD_SET_PARAMS, 0, Commands.setParams(Commands.USER_PERS_PARAM), null);
  }

  private void writeText() {
    byte[] text = screen.writeText.getText().toString().getBytes(StandardCharsets.UTF_8);
    send(CMD_WRITE, 0, Commands.textWriteParams(Commands.USER_PERS_PARAM), text);
  }

  private void send(int msgType, int arg1, String params, byte @Nullable [] data) {
    if (agent == null) return;
    AgentMessage message = new AgentMessage(msgType, arg1, 0, params, data);
    log(EventLog.command(message));
    agent.sendMessage(message);
  }

  private void log(String line) {
    screen.log(line);
  }
}
