package dev.voicelink.samples.app;

import android.app.Activity;
import android.content.pm.ApplicationInfo;
import android.os.Bundle;
import dev.voicelink.android.Agent;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
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
import org.jspecify.annotations.Nullable;

/**
 * The whole sample on one screen: sign the device in (user code, link and QR code: {@link
 * SignInPanel}), then drive the Agent with CMD_SYNC, CMD_QUERY_SYNC_STATUS, CMD_SET_PARAMS and a text
 * CMD_WRITE and show every event as it arrives ({@link AgentPanel}). Everything here runs on the main
 * thread: the SDK reads and writes the saved sign-in on its own threads and calls back here.
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
  // Signs the device in and out and keeps its token fresh and saved (SampleProcess.signIn()) for the
  // Agent and the backend; its store is read and written on SDK threads only.
  private @Nullable TokenManager tokens;
  private final TokenManager.Listener signInState = this::signInStateChanged;
  private @Nullable VoiceLinkCall<OAuthServer> discovery;
  private @Nullable VoiceLinkCall<TokenManager.SignOut> signingOut;
  private @Nullable SignInPanel signIn;
  // Made at the first sign-in; it follows the later sign-outs and sign-ins by itself.
  private @Nullable Agent agent;
  private @Nullable AgentPanel commands;

  private SampleScreen screen; // built first thing in onCreate

  @Override protected void onCreate(@Nullable Bundle savedInstanceState) {
    super.onCreate(savedInstanceState);
    screen = new SampleScreen(this);
    setContentView(screen.root);
    screen.signOut.setOnClickListener(v -> signOut());
    try {
      SampleConfig parsed = SampleConfig.parse(configText());
      config = parsed;
      VoiceLinkClient.Builder core = parsed.clientBuilder().httpClient(SampleProcess.get(this).http());
      if (clockOverride != null) core.clock(clockOverride);
      if (schedulerOverride != null) core.scheduler(schedulerOverride);
      voiceLink = core.build();
      commands = new AgentPanel(screen, contactsDefinition(parsed), message -> {
        Agent connected = agent; // the commands are enabled only once it is connected
        if (connected != null) connected.sendMessage(message);
      });
      screen.writeText.setText(parsed.writeText);
      if (parsed.issuer == null) {
        signInAt(null);
      } else {
        discover(parsed.issuer);
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
      if (result.isCancelled()) return;
      Exception failure = result.failure();
      if (failure != null) {
        configError(failure);
        return;
      }
      try {
        signInAt(result.value());
      } catch (RuntimeException e) {
        configError(e);
      }
    });
  }

  /**
   * Makes the token manager for the platform ({@code server} null) or for a standard OAuth 2.0
   * server, and the sign-in on screen; its state, once the store is read, says whether the saved
   * sign-in resumes or a new one is offered.
   */
  private void signInAt(@Nullable OAuthServer server) {
    SampleConfig parsed = config;
    if (parsed == null || voiceLink == null) return;
    TokenManager.Builder builder = server == null ? TokenManager.builder(voiceLink)
        : TokenManager.builder(voiceLink, server);
    builder.deviceGrant(parsed.clientId).store(SampleProcess.get(this).signIn());
    if (parsed.scope != null) builder.scope(parsed.scope);
    TokenManager manager = builder.build();
    tokens = manager;
    String deviceId = parsed.deviceId;
    signIn = deviceId != null
        ? new SignInPanel(screen, "requesting a device code for " + deviceId,
            listener -> manager.signIn(deviceId, listener))
        : new SignInPanel(screen, "requesting a device code at " + parsed.issuer, manager::signIn);
    screen.status.setText("Reading the saved sign-in…");
    manager.addListener(signInState); // reads the store on an SDK thread; tells us on this one
  }

  @Override protected void onDestroy() {
    if (discovery != null) discovery.cancel();
    if (signIn != null) signIn.cancel();
    if (signingOut != null) signingOut.cancel(); // the sign-out itself is done; a revocation stops
    if (tokens != null) tokens.removeListener(signInState);
    if (agent != null) {
      if (commands != null) agent.removeListener(commands); // the replies destroy() gives: no views
      agent.destroy();
    }
    agent = null;
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

  // ---- sign-in: saved, device flow (SignInPanel), sign-out ----

  /** The token manager's news, on the main thread: what the screen offers, and the Agent. */
  private void signInStateChanged(TokenManager.StateChange change) {
    TokenManager manager = tokens;
    if (manager == null) return;
    Exception failure = change.failure();
    String why = failure == null ? "" : failure.getMessage();
    switch (change.cause()) {
      case READING_STORE:
        screen.status.setText("Reading the saved sign-in…");
        break;
      case STORE_READ:
        TokenRecord saved = manager.record();
        if (change.state() == TokenManager.State.VALID && saved != null) {
          screen.status.setText("Signed in (saved). Connecting…");
          log("signed in from the saved token, valid until " + new Date(saved.expiresAtEpochMillis())
              + "; no new device flow");
          signedIn();
        } else {
          showSignedOut("Not authorized");
        }
        break;
      case RECORD_LOST: // its Keystore key is gone: the device authorizes again
        log("saved sign-in not readable: " + why);
        showSignedOut("Not authorized");
        break;
      case STORE_FAILED:
        if (change.state() == TokenManager.State.VALID) {
          log("token not saved: " + why); // held, and saved first at the next token request
        } else {
          log("saved sign-in not readable: " + why);
          showSignedOut("Not authorized");
        }
        break;
      case SIGNED_IN:
      case RECORD_SET:
        signedIn();
        break;
      case REFRESH_REFUSED:
        if (change.state() == TokenManager.State.REAUTHORIZATION_REQUIRED) {
          log("sign in again: " + why);
          showSignedOut("Not authorized");
        }
        break;
      default:
        break;
    }
  }

  /** A sign-in is held: offer sign-out, and connect the Agent, made the first time. */
  private void signedIn() {
    screen.authorize.setEnabled(false);
    screen.signOut.setEnabled(true);
    if (agent == null) startAgent();
  }

  private void showSignedOut(String state) {
    SampleConfig parsed = config;
    if (parsed == null) return;
    screen.status.setText(state + (parsed.issuer == null
        ? ". Device " + parsed.deviceId + " at " + parsed.authUrl : ". Sign in at " + parsed.issuer));
    screen.authorize.setEnabled(true);
    screen.signOut.setEnabled(false);
  }

  /**
   * Forgets the device's sign-in here and on disk, revoking it where the server offers that; the
   * Agent closes its connection by itself, and the next start offers sign-in again.
   */
  private void signOut() {
    TokenManager manager = tokens;
    if (manager == null) return;
    screen.signOut.setEnabled(false);
    if (commands != null) commands.signedOut();
    VoiceLinkCall<TokenManager.SignOut> started = manager.signOut();
    signingOut = started;
    started.enqueue(result -> { // on the main thread; cancelled in onDestroy
      signingOut = null;
      if (result.isCancelled()) return;
      Exception failure = result.failure();
      if (failure != null) { // the saved record could not be deleted: a restart would read it
        screen.status.setText("Sign-out failed: " + failure.getMessage());
        log("sign-out failed: " + failure.getMessage());
        screen.signOut.setEnabled(true);
        return;
      }
      log("signed out: the saved token is deleted" + revocation(result.value()));
      showSignedOut("Signed out");
    });
  }

  private static String revocation(TokenManager.SignOut outcome) {
    switch (outcome) {
      case REVOKED: return "; the server revoked it";
      case REVOCATION_FAILED: return "; the server could not be asked to revoke it";
      default: return ""; // NOT_OFFERED: the platform shows no revocation
    }
  }

  // ---- the Agent ----

  private void startAgent() {
    SampleConfig parsed = config;
    AgentPanel panel = commands;
    TokenManager manager = tokens;
    if (parsed == null || voiceLink == null || manager == null || panel == null) return;
    try {
      Agent.Builder builder = Agent.builder(this, parsed.text, panel)
          .client(voiceLink)
          .tokenSource(manager)
          .resourceDefinition(contactsDefinition(parsed));
      if (parsed.checksumUrl != null && parsed.namespace != null) {
        // The account key stays on the backend: it signs each web API request for this device.
        builder.entityWebApi(EntityWebApi.builder(voiceLink).namespace(parsed.namespace)
            .checksumSource(new BackendChecksums(SampleProcess.get(this).http(), parsed.checksumUrl,
            manager)).build());
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

  private void log(String line) {
    screen.log(line);
  }
}
