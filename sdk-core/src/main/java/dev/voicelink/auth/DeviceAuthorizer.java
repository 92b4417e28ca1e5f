package dev.voicelink.auth;

import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.AbstractVoiceLinkCall;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Response;

/**
 * Signs a device in with the OAuth 2.0 device authorization grant (protocol 4.1–4.3, 5.1).
 *
 * <ol>
 *   <li>{@link #requestCode(String)} asks the service for a user code and a device code.
 *   <li>The app shows {@link DeviceCode#userCode()} and {@link DeviceCode#link()} (for example as a
 *       QR code); the user opens the link on a phone, logs in and chooses authorize or refuse.
 *   <li>{@link #poll(DeviceCode)} polls the token endpoint until it ends in one {@link
 *       DeviceFlowOutcome}: authorized (with the {@link TokenRecord}), denied, expired or failed.
 * </ol>
 *
 * <p>Or all in one: {@link #authorize(String, DeviceFlowListener)}, whose listener shows the code.
 *
 * <p><b>Two dialects, one flow.</b> {@link #builder(VoiceLinkClient)} speaks the platform's
 * authorization service. {@link #builder(VoiceLinkClient, OAuthServer)} speaks standard OAuth 2.0 to
 * a third-party account's server (RFC 8628; protocol 5.1.3): the request carries {@code client_id} and
 * the {@linkplain Builder#scope scope} (no device_id: use {@link #requestCode()} and {@link
 * #authorize(DeviceFlowListener)}), everything is form-encoded, a client with a {@linkplain
 * Builder#clientSecret secret} authenticates with HTTP Basic or in the form as the server supports,
 * {@code interval} is seconds, the link is {@code verification_uri_complete} when the server sends
 * it, and {@code invalid_grant} ends the flow as {@link DeviceFlowOutcome.Kind#EXPIRED}. The polling
 * rules, outcomes and records are the same; the record names its dialect and token endpoint.
 *
 * <pre>{@code
 * DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build();
 * VoiceLinkCall<DeviceFlowOutcome> flow =
 *     authorizer.authorize("SN-0001-DEMO", code -> screen.showQr(code.link()));
 * flow.enqueue(result -> { ... });   // on the main thread on Android
 * // later, if the user walks away: flow.cancel();
 * }</pre>
 *
 * <p>Polling rules: never faster than the server's {@code interval} (5 s if it sends none or 0; its
 * unit is not stated, see {@link Builder#intervalUnit}); a
 * {@code slow_down} answer adds 5 s for the rest of the flow, and a longer {@code Retry-After} on it or
 * on a pending answer is waited out (up to 60 s); transient failures (connection
 * refused/reset, timeouts, 5xx, empty or unreadable bodies) do not end the flow at once: a poll is
 * retried with a jittered backoff on top of the interval (or after the server's {@code Retry-After},
 * up to 60 s) until the code expires, which then ends the flow {@code EXPIRED} with the last failure,
 * and the device code request at most {@value #MAX_TRANSIENT_RETRIES} times in a row, the next failure
 * ending the flow {@code FAILED}; a 4xx answer other than 408 and 429 that is no OAuth answer (a 404
 * page at a mistyped address) ends it {@code FAILED} at once;
 * the flow ends by itself when {@code expires_in} has elapsed on the monotonic clock, cancelling a
 * poll still queued in the dispatcher then; a poll under way is waited for up to 10 s more, as the
 * server may have issued the token for it in time, and cancelled after that.
 * Cancelling the call stops the poll in flight and the wait before the next one.
 *
 * <p>Immutable and thread-safe; one instance may run any number of flows. It holds no resources of
 * its own: make it once per {@code client_id} and keep it as long as its {@link VoiceLinkClient}.
 */
public final class DeviceAuthorizer {
  /**
   * Retries of a flow's device code request after transient failures in a row: the failure after the
   * last of them (the 9th in a row) ends the flow as {@link DeviceFlowOutcome.Kind#FAILED}. Polls
   * have no such bound: the code's expiry ends them.
   */
  public static final int MAX_TRANSIENT_RETRIES = 8;

  private static final DeviceFlowListener SILENT = code -> { };
  private static final String WITH_DEVICE_ID = "requestCode(deviceId) or authorize(deviceId, listener)";
  private static final String WITHOUT_DEVICE_ID = "requestCode() or authorize(listener)";

  private final ClientCore core;
  private final AuthClient client;
  private final String clientId;
  private final Random random;

  private DeviceAuthorizer(Builder builder, AuthClient client) {
    this(builder.core, client, builder.clientId,
        builder.random);
  }

  /** The flow of a {@link TokenManager}'s sign-in, through its own client. */
  DeviceAuthorizer(ClientCore core, AuthClient client, String clientId, Random random) {
    this.core = core;
    this.client = client;
    this.clientId = clientId;
    this.random = random;
  }

  /** What a sign-in does with the record of an authorized flow before the flow reports it. */
  interface Keep {
    void authorized(TokenRecord record) throws IOException;
  }

  /**
   * A builder of authorizers that use {@code client} and speak the platform's dialect.
   *
   * @throws IllegalStateException if the client has no {@code auth_url} or is closed
   */
  public static Builder builder(VoiceLinkClient client) {
    ClientCore core = ClientCore.open(client);
    core.authUrl(); // fails now, naming the setting, if auth_url is missing
    return new Builder(core, null);
  }

  /**
   * A builder of authorizers that use {@code client} and speak standard OAuth 2.0 to {@code server}
   * (RFC 8628). The client needs no {@code auth_url}.
   *
   * @throws IllegalStateException if the client is closed
   */
  public static Builder builder(VoiceLinkClient client, OAuthServer server) {
    if (server == null) throw new IllegalArgumentException("server must not be null");
    return new Builder(ClientCore.open(client), server);
  }

  /** The {@code client_id} this authorizer signs devices in for. */
  public String clientId() {
    return clientId;
  }

  /**
   * Requests a device authorization for {@code deviceId} (protocol 4.1): one HTTP call. The call fails
   * with an {@link AuthorizationException} if the service refused (for example an unknown
   * device_id), with an {@link IOException} on a transport failure or an answer that is not a device
   * authorization.
   *
   * @param deviceId the device's identifier as imported in the console (its serial number)
   * @throws IllegalArgumentException if {@code deviceId} is empty, too long, or contains spaces or
   *     control characters; nothing is sent then
   */
  public VoiceLinkCall<DeviceCode> requestCode(String deviceId) {
    final String id = Validate.identifier(deviceId, "device_id");
    client.dialect.checkDeviceId(true, WITH_DEVICE_ID, WITHOUT_DEVICE_ID);
    return codeCall(id);
  }

  /**
   * Requests a device authorization from a standard server (RFC 8628 section 3.1): one HTTP call,
   * failing as {@link #requestCode(String)} does.
   *
   * @throws IllegalStateException if this authorizer speaks the platform's dialect, which needs a
   *     device_id
   */
  public VoiceLinkCall<DeviceCode> requestCode() {
    client.dialect.checkDeviceId(false, WITH_DEVICE_ID, WITHOUT_DEVICE_ID);
    return codeCall(null);
  }

  private VoiceLinkCall<DeviceCode> codeCall(final @Nullable String id) {
    return new BlockingCall<DeviceCode>(core) {
      @Override protected DeviceCode run() throws IOException, ServerRefusalException {
        try (Response response = send(client.deviceCodeCall(clientId, id))) {
          return client.readDeviceCode(response);
        }
      }
    };
  }

  /**
   * Polls for the token of an already issued {@code code} until the flow ends in a {@link
   * DeviceFlowOutcome}. Its refusals and failures are outcomes, never failures of the call.
   */
  public VoiceLinkCall<DeviceFlowOutcome> poll(DeviceCode code) {
    return poll(code, SILENT);
  }

  /**
   * As {@link #poll(DeviceCode)}, telling {@code listener} of each poll (its {@link
   * DeviceFlowListener#onCodeIssued} hears of {@code code} first), on the client's callback executor.
   */
  public VoiceLinkCall<DeviceFlowOutcome> poll(DeviceCode code, DeviceFlowListener listener) {
    if (code == null) throw new IllegalArgumentException("code must not be null");
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    return new FlowCall(null, code, listener, null);
  }

  /**
   * The whole flow as one call: requests a code for {@code deviceId}, hands it to {@code listener}
   * (show it to the user), then polls until the flow ends in a {@link DeviceFlowOutcome}. The
   * listener runs on the client's callback executor, before the call's own callback.
   *
   * @throws IllegalArgumentException if {@code deviceId} is invalid; nothing is sent then
   */
  public VoiceLinkCall<DeviceFlowOutcome> authorize(String deviceId, DeviceFlowListener listener) {
    Validate.identifier(deviceId, "device_id");
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    client.dialect.checkDeviceId(true, WITH_DEVICE_ID, WITHOUT_DEVICE_ID);
    return new FlowCall(deviceId, null, listener, null);
  }

  /**
   * The whole flow, for {@code deviceId} (null: a standard server's), whose authorized record {@code
   * keep} takes before the outcome is reported: {@link TokenManager#signIn}.
   */
  VoiceLinkCall<DeviceFlowOutcome> signIn(@Nullable String deviceId, DeviceFlowListener listener,
      Keep keep) {
    if (deviceId != null) Validate.identifier(deviceId, "device_id");
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    client.dialect.checkDeviceId(deviceId != null, "signIn(deviceId, listener)",
        "signIn(listener)");
    return new FlowCall(deviceId, null, listener, keep);
  }

  /**
   * The whole flow against a standard server as one call, as {@link #authorize(String,
   * DeviceFlowListener)} does for the platform.
   *
   * @throws IllegalStateException if this authorizer speaks the platform's dialect, which needs a
   *     device_id
   */
  public VoiceLinkCall<DeviceFlowOutcome> authorize(DeviceFlowListener listener) {
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    client.dialect.checkDeviceId(false, WITH_DEVICE_ID, WITHOUT_DEVICE_ID);
    return new FlowCall(null, null, listener, null);
  }

  /** One device flow: a {@link DevicePoller} run as a call. */
  private final class FlowCall extends AbstractVoiceLinkCall<DeviceFlowOutcome>
      implements DevicePoller.Sink {
    private final @Nullable String deviceId;
    private final @Nullable DeviceCode code;
    private final DevicePoller poller;
    private final @Nullable Keep keep;

    FlowCall(@Nullable String deviceId, @Nullable DeviceCode code, DeviceFlowListener listener,
        @Nullable Keep keep) {
      super(DeviceAuthorizer.this.core);
      this.deviceId = deviceId;
      this.code = code;
      this.keep = keep;
      Backoff backoff = new Backoff(1, 60, TimeUnit.SECONDS, MAX_TRANSIENT_RETRIES, random);
      this.poller = new DevicePoller(client, clientId, backoff, listener, core.callbackExecutor(),
          this);
    }

    @Override protected void start() {
      if (code != null) {
        poller.codeIssued(code);
      } else {
        poller.requestCode(deviceId);
      }
    }

    @Override protected void onCancel() {
      poller.cancel();
    }

    @Override protected Executor callbackExecutor() {
      return poller.events();
    }

    /**
     * An authorized record is kept before the outcome is reported, even when the call was cancelled
     * as the token came: the server has voided the device code, and will not issue it again. It is
     * kept on the client's workers: this runs on whichever thread hands the flow's news over, which
     * is the app's (Android's main thread) when it cancels the call as the token comes, and keeping
     * is store I/O. A client closing meanwhile refuses them; the closing thread then keeps it.
     */
    @Override public void ended(DeviceFlowOutcome outcome) {
      if (keep == null || outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
        succeed(outcome);
        return;
      }
      try {
        core.workers().execute(() -> keepThenSucceed(keep, outcome));
      } catch (RejectedExecutionException closed) {
        keepThenSucceed(keep, outcome);
      }
    }

    private void keepThenSucceed(Keep keep, DeviceFlowOutcome outcome) {
      try {
        keep.authorized(outcome.token());
      } catch (IOException | RuntimeException e) {
        fail(e);
        return;
      }
      succeed(outcome);
    }
  }

  @Override public String toString() {
    return "DeviceAuthorizer{client_id=" + clientId + ", " + client.dialect.deviceCodeAddress()
        + "}";
  }

  /** Builds a {@link DeviceAuthorizer}. Not thread-safe. */
  public static final class Builder {
    private final ClientCore core;
    private final DialectSettings settings;
    private @Nullable String clientId;
    private @Nullable String clientSecret;
    private Random random = new Random();

    Builder(ClientCore core, @Nullable OAuthServer server) {
      this.core = core;
      this.settings = new DialectSettings(server, "DeviceAuthorizer");
    }

    /**
     * The device's {@code client_id}: from the device-access console, or as registered at the
     * standard server. Required.
     */
    public Builder clientId(String clientId) {
      this.clientId = Validate.clientId(clientId);
      return this;
    }

    /**
     * Standard dialect only: the client's secret, for a confidential client (most devices are public
     * clients and have none). Sent as {@link OAuthServer.Builder#clientAuthentication} says, else as the
     * server supports it ({@code client_secret_basic} preferred, else {@code client_secret_post}); kept in
     * memory only, never logged.
     *
     * @throws IllegalStateException if this builder speaks the platform's dialect
     */
    public Builder clientSecret(String clientSecret) {
      settings.requireStandard("clientSecret");
      this.clientSecret = Validate.clientSecret(clientSecret);
      return this;
    }

    /**
     * Standard dialect only: the {@code scope} to ask for, space-separated (for example {@code
     * "profile voicelink.entities"}). Without it the request carries none and the server decides.
     *
     * @throws IllegalArgumentException if {@code scope} is empty or has characters RFC 6749 section
     *     3.3 does not allow
     * @throws IllegalStateException if this builder speaks the platform's dialect
     */
    public Builder scope(String scope) {
      settings.scope(scope);
      return this;
    }

    /**
     * The unit of the server's {@code interval}, which the spec does not state: {@link
     * TimeUnit#SECONDS} or {@link TimeUnit#MILLISECONDS}. By default the SDK reads a value below
     * {@code expires_in} as seconds (the platform's samples: {@code interval: 2, expires_in: 120}) and
     * one that is not, which cannot be seconds, as milliseconds, logging that once. Either way polls
     * are never closer than a second, and an interval not shorter than {@code expires_in} is a
     * malformed answer.
     */
    public Builder intervalUnit(TimeUnit unit) {
      settings.intervalUnit(unit);
      return this;
    }

    /** Source of the retry jitter; tests pass a seeded one. */
    Builder random(Random random) {
      this.random = random;
      return this;
    }

    /**
     * Builds the authorizer.
     *
     * @throws IllegalStateException if {@code client_id} is missing; for a standard server, if it has
     *     no {@code device_authorization_endpoint}, or a client secret is set and it supports neither
     *     secret method
     */
    public DeviceAuthorizer build() {
      if (clientId == null) throw new IllegalStateException("client_id is required");
      OAuthServer server = settings.server;
      if (server != null && server.deviceAuthorizationUrl() == null) {
        throw new IllegalStateException("the server has no device_authorization_endpoint: "
            + server.describe());
      }
      return new DeviceAuthorizer(this, settings.authClient(core, clientSecret));
    }
  }
}
