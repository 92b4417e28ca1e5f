package dev.voicelink.auth;

import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.core.internal.Backoff;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Call;
import okhttp3.Response;

/**
 * Signs a device in with the OAuth 2.0 device authorization grant (spec 4.1–4.3, 5.1).
 *
 * <ol>
 *   <li>{@link #requestCode(String)} asks the service for a user code and a device code.
 *   <li>The app shows {@link DeviceCode#userCode()} and {@link DeviceCode#link()} (for example as a
 *       QR code); the user opens the link on a phone, logs in and chooses authorize or refuse.
 *   <li>{@link #poll(DeviceCode)} polls the token endpoint until it ends in one {@link
 *       DeviceFlowOutcome}: authorized (with the {@link TokenRecord}), denied, expired, cancelled or
 *       failed.
 * </ol>
 *
 * <p>Or all in one, asynchronously: {@link #start(String, DeviceFlowListener, Executor)}.
 *
 * <pre>{@code
 * DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build();
 * DeviceFlow flow = authorizer.start("SN-0001-DEMO", new DeviceFlowListener() {
 *   @Override public void onCodeIssued(DeviceCode code) { screen.showQr(code.link()); }
 *   @Override public void onOutcome(DeviceFlowOutcome outcome) { ... }
 * }, mainThreadExecutor);
 * // later, if the user walks away: flow.cancel();
 * }</pre>
 *
 * <p>Polling rules: never faster than the server's {@code interval} (5 s if it sends none or 0; its
 * unit is not stated, see {@link Builder#intervalUnit}); a
 * {@code slow_down} answer adds 5 s for the rest of the flow; transient failures (connection
 * refused/reset, timeouts, 5xx, empty or unreadable bodies) do not end the flow but are retried with
 * a jittered backoff on top of the interval (or after the server's {@code Retry-After}, up to 60 s),
 * at most {@value #MAX_TRANSIENT_RETRIES} times in a row;
 * the flow ends by itself when {@code expires_in} has elapsed on the monotonic clock.
 *
 * <p>Immutable and thread-safe; one instance may run any number of flows.
 */
public final class DeviceAuthorizer {
  /** Transient failures in a row after which a flow ends as {@link DeviceFlowOutcome.Kind#FAILED}. */
  public static final int MAX_TRANSIENT_RETRIES = 8;

  private final AuthClient client;
  private final String clientId;
  private final Random random;

  private DeviceAuthorizer(Builder builder) {
    this.client = new AuthClient(builder.config, builder.intervalUnit);
    this.clientId = builder.clientId;
    this.random = builder.random;
  }

  public static Builder builder(VoiceLinkConfig config) {
    return new Builder(config);
  }

  /** The {@code client_id} this authorizer signs devices in for. */
  public String clientId() {
    return clientId;
  }

  /**
   * Requests a device authorization for {@code deviceId} (spec 4.1). Blocks for one HTTP call.
   *
   * @param deviceId the device's identifier as imported in the console (its serial number)
   * @throws IllegalArgumentException if {@code deviceId} is empty, too long, or contains spaces or
   *     control characters; nothing is sent then
   * @throws AuthorizationException if the service refused (for example an unknown device_id)
   * @throws IOException on a transport failure or an answer that is not a device authorization
   */
  public DeviceCode requestCode(String deviceId) throws IOException, AuthorizationException {
    Validate.identifier(deviceId, "device_id");
    Call call = client.deviceCodeCall(clientId, deviceId);
    try (Response response = call.execute()) {
      return client.readDeviceCode(response);
    }
  }

  /**
   * Polls for the token of {@code code} until the flow ends, blocking the calling thread. Interrupt the
   * thread to cancel: the outcome is then {@link DeviceFlowOutcome.Kind#CANCELLED}.
   */
  public DeviceFlowOutcome poll(DeviceCode code) {
    if (code == null) throw new IllegalArgumentException("code must not be null");
    DevicePoller poller = newPoller(new DeviceFlowListener() {
      @Override public void onOutcome(DeviceFlowOutcome outcome) {
      }
    }, Runnable::run);
    poller.codeIssued(code);
    return poller.await();
  }

  /**
   * Polls for the token of an already issued {@code code} asynchronously. Listener calls run on
   * {@code executor}, one at a time, in order; {@link DeviceFlowListener#onOutcome} exactly once.
   */
  public DeviceFlow start(DeviceCode code, DeviceFlowListener listener, Executor executor) {
    if (code == null) throw new IllegalArgumentException("code must not be null");
    DevicePoller poller = newPoller(listener, executor);
    poller.codeIssued(code);
    return new DeviceFlow(poller);
  }

  /**
   * Runs the whole flow asynchronously: requests a code for {@code deviceId}, reports it with {@link
   * DeviceFlowListener#onCodeIssued}, then polls. Listener calls run on {@code executor} (for example
   * the UI thread's), one at a time and in order, and {@link DeviceFlowListener#onOutcome} is called
   * exactly once, last. Returns at once.
   *
   * @throws IllegalArgumentException if {@code deviceId} is invalid; nothing is sent then
   */
  public DeviceFlow start(String deviceId, DeviceFlowListener listener, Executor executor) {
    Validate.identifier(deviceId, "device_id");
    DevicePoller poller = newPoller(listener, executor);
    poller.requestCode(deviceId);
    return new DeviceFlow(poller);
  }

  private DevicePoller newPoller(DeviceFlowListener listener, Executor executor) {
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    if (executor == null) throw new IllegalArgumentException("executor must not be null");
    Backoff backoff = new Backoff(1, 60, TimeUnit.SECONDS, MAX_TRANSIENT_RETRIES, random);
    return new DevicePoller(client, clientId, backoff, listener, executor);
  }

  @Override public String toString() {
    return "DeviceAuthorizer{client_id=" + clientId + ", auth_url=" + client.config.authUrl() + "}";
  }

  /** Builds a {@link DeviceAuthorizer}. Not thread-safe. */
  public static final class Builder {
    private final VoiceLinkConfig config;
    private @Nullable String clientId;
    private Random random = new Random();
    private @Nullable TimeUnit intervalUnit;

    Builder(VoiceLinkConfig config) {
      if (config == null) throw new IllegalArgumentException("config must not be null");
      this.config = config;
    }

    /** The device's {@code client_id} from the device-access console. Required. */
    public Builder clientId(String clientId) {
      this.clientId = Validate.identifier(clientId, "client_id");
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
      if (unit != TimeUnit.SECONDS && unit != TimeUnit.MILLISECONDS) {
        throw new IllegalArgumentException("intervalUnit must be SECONDS or MILLISECONDS; was: "
            + unit);
      }
      this.intervalUnit = unit;
      return this;
    }

    /** Source of the retry jitter; tests pass a seeded one. */
    Builder random(Random random) {
      this.random = random;
      return this;
    }

    public DeviceAuthorizer build() {
      if (clientId == null) throw new IllegalStateException("client_id is required");
      return new DeviceAuthorizer(this);
    }
  }
}
