package dev.voicelink.interact;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.entity.PersParam;
import java.io.Closeable;
import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The device's connection to the interaction channel ({@code {base_url}/v2/voicelink/interact}):
 * a WebSocket authenticated by the device's access token, over which the device writes text or
 * audio and receives recognition results.
 *
 * <pre>{@code
 * InteractionChannel channel = InteractionChannel.builder(client, tokenManager)
 *     .listener(result -> show(result.text()))   // a lambda hears results; override more for news
 *     .build();
 * channel.connect();                     // listener.onConnected(uid) follows
 * int seq = channel.writeText("call Zhang San", "{\"uid\":\"\"}");
 * }</pre>
 *
 * <p><b>Lifecycle.</b> {@link #connect()} opens the socket in the background. When the connection
 * drops, or the server does not send its {@code connected} message within {@link
 * Builder#greetingTimeout(long, TimeUnit)} of the upgrade, the channel reconnects by itself with
 * jittered exponential backoff, at most {@link Builder#maxReconnectAttempts(int)} times in a row; a
 * rejected token is refreshed once through the {@link TokenSource}. {@link #pauseReconnecting()}
 * and {@link #resumeReconnecting()} let the app follow the network's availability. {@link #close()}
 * ends it for good; closing its {@link VoiceLinkClient} closes it too. Open one per screen or session
 * that talks, close it when done. A device that only needs to know who signed in calls {@link
 * #fetchUid}, which connects, reads the user and closes.
 *
 * <p><b>Threading.</b> All methods are thread-safe and never block on the network. Listener methods
 * are called one at a time, in the order the channel noticed the news, on one of the client's
 * background threads ({@code voicelink-io}); they should return quickly, as later news waits for
 * them. A listener may call the channel back. Besides the builder's listener, if any, {@link
 * #addListener} lets more than one party hear the channel (a screen, a coroutine {@code Flow}) for as
 * long as it needs to.
 */
public final class InteractionChannel implements Closeable {
  /**
   * The {@code code} of {@link Listener#onWriteError} when a write had no answer within {@link
   * Builder#resultTimeout(long, TimeUnit)}. Made by the client, never sent by the server; the write
   * may be sent again.
   */
  public static final String RESULT_TIMEOUT = "result_timeout";

  /**
   * The {@code code} of {@link Listener#onWriteError} (with {@code seq} 0) for a message from the
   * server that cannot be read. Made by the client, never sent by the server; the connection stays up.
   */
  public static final String MALFORMED_MESSAGE = "malformed_message";

  /** The channel's connection state. */
  public enum State {
    /** Created, {@link #connect()} not called yet. */
    IDLE,
    /** Opening the socket (including fetching a token). */
    CONNECTING,
    /** Open; the server has named the user. */
    CONNECTED,
    /** Dropped; a reconnect is scheduled. */
    WAITING_TO_RECONNECT,
    /** Dropped, and reconnecting is paused (for example the network is down). */
    PAUSED,
    /** Dropped and given up after the bounded number of attempts; {@link #connect()} starts again. */
    DISCONNECTED,
    /** {@link #close()} was called. */
    CLOSED
  }

  /**
   * Receives the channel's news, one call at a time and in order, on a {@code voicelink-io} thread
   * (never on the socket's own). Should return quickly. Only {@link #onResult} is abstract, so a
   * lambda that takes results will do; override the others for the connection's news.
   */
  public interface Listener {
    /** A result for the write with sequence number {@link InteractionResult#seq()}. */
    void onResult(InteractionResult result);

    /** The server accepted the connection and named the user ({@code uid}, the 32-char auth_id). */
    default void onConnected(String uid) {
    }

    /**
     * The server refused the write {@code seq} (or the message, when {@code seq} is 0), or the client
     * gave up on it: {@code code} is then {@link #RESULT_TIMEOUT} or {@link #MALFORMED_MESSAGE}.
     */
    default void onWriteError(int seq, String code, String description) {
    }

    /**
     * The connection was lost, or an attempt to open it failed: {@code disconnect} says why and whether
     * the channel will try again by itself. Writes up to {@link Disconnect#lastSeq()} that had no
     * answer yet will not get one; a later write was made on a later connection.
     */
    default void onDisconnected(Disconnect disconnect) {
    }
  }

  private final ClientCore config;
  private final ChannelConnection connection;

  private InteractionChannel(Builder builder) {
    this.config = builder.config;
    this.connection = new ChannelConnection(builder.config, builder.tokens, builder.listener,
        new Backoff(builder.baseDelayMillis, builder.maxDelayMillis, TimeUnit.MILLISECONDS,
            builder.maxReconnectAttempts, builder.random),
        builder.pingIntervalSeconds, builder.greetingTimeoutMillis, builder.resultTimeoutMillis);
    config.track(this);
  }

  /**
   * A builder of channels on {@code client}'s {@code base_url}, authenticated by {@code tokens}.
   *
   * @throws IllegalStateException if the client has no {@code base_url} or is closed
   */
  public static Builder builder(VoiceLinkClient client, TokenSource tokens) {
    return new Builder(ClientCore.open(client), tokens);
  }

  /**
   * A call that learns the signed-in user's {@code auth_id} without keeping a channel open: it
   * connects once, reads the {@code uid} that the server's {@code connected} message names, and closes
   * the socket. On the platform this message is the only place that names the user: the token answer
   * carries none (protocol 2.2, 2.4). The value is 32 lowercase letters or digits, for {@link
   * PersParam#user(String)}:
   *
   * <pre>{@code
   * String authId = InteractionChannel.fetchUid(client, tokens).execute();
   * UploadRequest.builder().persParam(PersParam.user(authId)) ...
   * }</pre>
   *
   * <p>It makes one attempt and never reconnects. As the channel does, it answers a rejected token
   * (HTTP 401) once with a token refreshed through {@code tokens}, follows no redirect, and gives the
   * server 10 s after the upgrade to send its {@code connected} message ({@link #fetchUid(
   * VoiceLinkClient, TokenSource, long, TimeUnit)} sets another wait); the wait for the upgrade's
   * answer is the read timeout of the client's {@code OkHttpClient} (those 10 s when it has none). The
   * socket is closed in every case: once the user is named, when the attempt fails, when the call is
   * cancelled and when the client is closed.
   *
   * <p>It fails with what {@code tokens} threw when it gave no token (a {@code NotSignedInException}
   * before any sign-in, a {@code ReauthorizationRequiredException}, an {@link java.io.IOException}), with
   * an {@code AuthorizationException} {@code invalid_token} when the server rejected the token again
   * after the refresh, and with an {@link java.io.IOException} naming the reason otherwise: a refused
   * upgrade ({@code the interaction channel did not name the user: HTTP 403 on upgrade}), a network
   * failure, no greeting in time, or a {@code uid} that is not an {@code auth_id}. An enqueued call
   * calls back on the client's callback executor. See docs/dynamic-entities.md, "The user's auth_id".
   *
   * @throws IllegalArgumentException if {@code tokens} is null
   * @throws IllegalStateException if the client has no {@code base_url} or is closed
   */
  public static VoiceLinkCall<String> fetchUid(VoiceLinkClient client, TokenSource tokens) {
    return fetchUid(client, tokens, Builder.DEFAULT_GREETING_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * {@link #fetchUid(VoiceLinkClient, TokenSource)} with {@code greetingTimeout} for the server's
   * {@code connected} message, as {@link Builder#greetingTimeout} sets it for a channel: for a server
   * known to greet late (the failure then says {@code no "connected" message within … of the
   * upgrade}).
   *
   * @throws IllegalArgumentException if {@code tokens} or {@code unit} is null or {@code
   *     greetingTimeout} is not positive
   * @throws IllegalStateException if the client has no {@code base_url} or is closed
   */
  public static VoiceLinkCall<String> fetchUid(VoiceLinkClient client, TokenSource tokens,
      long greetingTimeout, TimeUnit unit) {
    ClientCore core = ClientCore.open(client);
    if (tokens == null) throw new IllegalArgumentException("tokens must not be null");
    long greetingTimeoutMillis = Builder.positiveMillis("greetingTimeout", greetingTimeout, unit);
    core.baseUrl(); // fails now, naming the setting, if base_url is missing
    return new UidCall(core, tokens, greetingTimeoutMillis);
  }

  /**
   * Opens the connection in the background; no effect if already connecting or connected.
   *
   * @throws IllegalStateException if the channel or its client was closed
   */
  public void connect() {
    connection.connect();
  }

  /**
   * Adds a listener of this channel's news, besides the one given to the builder: told the news the
   * channel notices after this call, on the same thread and in the same order as the builder's
   * listener, one call at a time. A listener added twice is told twice. No effect once the channel is
   * closed. Thread-safe; never blocks.
   */
  public void addListener(Listener listener) {
    if (listener == null) throw new IllegalArgumentException("listener must not be null");
    connection.addListener(listener);
  }

  /**
   * Removes a listener (the builder's too): it is told nothing more, not even news noticed before this
   * call and not told yet; added again, it is told only the news noticed after that. Removes one
   * registration of a listener added twice; no effect for one not added. Thread-safe; never blocks,
   * so a call to the listener that had already begun on the SDK's delivery thread when this was called
   * from another thread may still be running, or about to enter the listener, when it returns; called
   * from a listener, it is exact.
   */
  public void removeListener(Listener listener) {
    connection.removeListener(listener);
  }

  /** The state now. */
  public State state() {
    return connection.state();
  }

  /** The connected user's auth_id, or null before the first connection. */
  public @Nullable String uid() {
    return connection.uid();
  }

  /**
   * What is left, in milliseconds (rounded up), of the wait the server asked for with the
   * {@code Retry-After} of its last refusal, or 0: none since the last connection, or it is over.
   * This channel keeps to it by itself; an app that replaces the channel with a new one (after a
   * network change, say) connects the new one no sooner. Known as soon as the refusal is, before
   * any listener hears of it, and still after {@link #close()}.
   */
  public long serverWaitMillis() {
    return connection.serverWaitMillis();
  }

  /**
   * Sends a text write. Dynamic entities are applied only when {@code persParam} (a JSON object text
   * such as {@code {"uid":""}}) is given. Returns the write's sequence number, which its result carries.
   *
   * @throws IllegalArgumentException if {@code persParam} is not an activation text that {@link
   *     PersParam#parseActivation} reads, or the write with its messages is more than the socket's
   *     16 MiB send queue holds
   * @throws IllegalStateException if the channel is not connected, or earlier writes still fill so
   *     much of the send queue that this one does not fit; nothing is sent then
   */
  public int writeText(String text, @Nullable String persParam) {
    if (text == null) throw new IllegalArgumentException("text must not be null");
    if (persParam != null) PersParam.parseActivation(persParam);
    return connection.write(text, null, 0, persParam);
  }

  /**
   * Sends an audio write: a header, the audio in binary frames, and an end marker. Returns its
   * sequence number.
   *
   * @throws IllegalArgumentException if {@code persParam} is not an activation text that {@link
   *     PersParam#parseActivation} reads, or the write with its messages is more than the socket's
   *     16 MiB send queue holds
   * @throws IllegalStateException if the channel is not connected, or earlier writes still fill so
   *     much of the send queue that this one does not fit; nothing is sent then
   */
  public int writeAudio(byte[] audio, int sampleRate, @Nullable String persParam) {
    if (audio == null) throw new IllegalArgumentException("audio must not be null");
    if (sampleRate <= 0) {
      throw new IllegalArgumentException("sample_rate must be a positive number of Hz; was: "
          + sampleRate);
    }
    if (persParam != null) PersParam.parseActivation(persParam);
    return connection.write(null, audio, sampleRate, persParam);
  }

  /** Stops automatic reconnecting (for example when the network is lost). */
  public void pauseReconnecting() {
    connection.pauseReconnecting();
  }

  /**
   * Resumes reconnecting after {@link #pauseReconnecting()}: if the channel is down, at once, or once
   * what is left of the last refusal's {@code Retry-After} is over.
   */
  public void resumeReconnecting() {
    connection.resumeReconnecting();
  }

  /**
   * Closes the socket and stops reconnecting, for good; the listeners are told nothing more (as after
   * {@link #removeListener}, a call already begun on the delivery thread may still finish). Idempotent;
   * never blocks.
   */
  @Override public void close() {
    if (connection.close()) config.untrack(this);
  }

  /** Waits until the listeners have returned from every call decided so far; a barrier for tests. */
  boolean awaitDelivered(long timeout, TimeUnit unit) throws InterruptedException {
    return connection.awaitDelivered(timeout, unit);
  }

  /** How many listeners are registered; for tests. */
  int listenerCount() {
    return connection.listenerCount();
  }

  /**
   * Builds an {@link InteractionChannel}. Setters check their argument at once. Not thread-safe.
   */
  public static final class Builder {
    static final long DEFAULT_GREETING_TIMEOUT_MILLIS = 10_000;

    /** OkHttp's limit: the interval in milliseconds fits an int. */
    private static final int MAX_PING_INTERVAL_SECONDS = Integer.MAX_VALUE / 1000;
    private final ClientCore config;
    private final TokenSource tokens;
    private @Nullable Listener listener;
    private int maxReconnectAttempts = 10;
    private long baseDelayMillis = 1_000;
    private long maxDelayMillis = 60_000;
    private int pingIntervalSeconds = 30;
    private long greetingTimeoutMillis = DEFAULT_GREETING_TIMEOUT_MILLIS;
    private long resultTimeoutMillis = 30_000;
    private Random random = new SecureRandom();

    Builder(ClientCore config, TokenSource tokens) {
      config.baseUrl(); // fails now, naming the setting, if base_url is missing
      if (tokens == null) throw new IllegalArgumentException("tokens must not be null");
      this.config = config;
      this.tokens = tokens;
    }

    /**
     * Receives connection news and results, from the channel's creation on. Optional: {@link
     * InteractionChannel#addListener} adds listeners at any time (a Kotlin flow of the channel's news
     * adds its own), and news that no listener is there to hear is dropped.
     */
    public Builder listener(Listener listener) {
      if (listener == null) throw new IllegalArgumentException("listener must not be null");
      this.listener = listener;
      return this;
    }

    /**
     * How many reconnects in a row before giving up (default 10). A connection that ends within 10 s
     * of the server's greeting does not end the row: a server that greets and drops at once is given
     * up on like one that refuses, and the backoff between its reconnects keeps growing. A server or
     * proxy that closes a quiet connection later than that (commonly after 30 s or more) is
     * reconnected to within the first backoff step, however often it does.
     */
    public Builder maxReconnectAttempts(int maxReconnectAttempts) {
      if (maxReconnectAttempts < 0) {
        throw new IllegalArgumentException("maxReconnectAttempts must be 0 or more; was: "
            + maxReconnectAttempts);
      }
      this.maxReconnectAttempts = maxReconnectAttempts;
      return this;
    }

    /** First reconnect delay ceiling and the cap of the exponential backoff (defaults 1 s, 60 s). */
    public Builder reconnectBackoff(long baseDelay, long maxDelay, TimeUnit unit) {
      if (baseDelay <= 0 || maxDelay < baseDelay) {
        throw new IllegalArgumentException("reconnect backoff needs 0 < baseDelay <= maxDelay");
      }
      if (unit == null) throw new IllegalArgumentException("unit must not be null");
      // the backoff counts in milliseconds: a shorter delay is one
      this.baseDelayMillis = Math.max(1, unit.toMillis(baseDelay));
      this.maxDelayMillis = Math.max(1, unit.toMillis(maxDelay));
      return this;
    }

    /** Keep-alive ping interval; 0 turns pings off (default 30 s). At most 2147483 s (OkHttp's). */
    public Builder pingIntervalSeconds(int seconds) {
      if (seconds < 0 || seconds > MAX_PING_INTERVAL_SECONDS) {
        throw new IllegalArgumentException("pingIntervalSeconds must be 0 to "
            + MAX_PING_INTERVAL_SECONDS + "; was: " + seconds);
      }
      this.pingIntervalSeconds = seconds;
      return this;
    }

    /**
     * How long the server may take, once the socket is open, to send its {@code connected} message
     * (default 10 s). Past it the attempt ends with {@link Disconnect.Cause#PROTOCOL} and the channel
     * tries again like after any other failure. When the app's {@code OkHttpClient} has no read
     * timeout, it also bounds the wait for the upgrade's answer ({@link Disconnect.Cause#NETWORK}).
     */
    public Builder greetingTimeout(long timeout, TimeUnit unit) {
      this.greetingTimeoutMillis = positiveMillis("greetingTimeout", timeout, unit);
      return this;
    }

    /**
     * How long a write may wait for its result or error (default 30 s), counted again while the
     * socket still has more than 64 KiB to send (a long audio write on a slow link). Past it the
     * listener hears {@link Listener#onWriteError} with {@link #RESULT_TIMEOUT}, and an answer that
     * comes later is dropped: each write is answered once. The connection stays up.
     */
    public Builder resultTimeout(long timeout, TimeUnit unit) {
      this.resultTimeoutMillis = positiveMillis("resultTimeout", timeout, unit);
      return this;
    }

    static long positiveMillis(String name, long timeout, TimeUnit unit) {
      if (unit == null) throw new IllegalArgumentException("unit must not be null");
      if (timeout <= 0) {
        throw new IllegalArgumentException(name + " must be positive; was: " + timeout);
      }
      return Math.max(1, unit.toMillis(timeout));
    }

    /** Source of reconnect jitter; tests pass a seeded one. */
    Builder random(Random random) {
      if (random == null) throw new IllegalArgumentException("random must not be null");
      this.random = random;
      return this;
    }

    public InteractionChannel build() {
      return new InteractionChannel(this);
    }
  }
}
