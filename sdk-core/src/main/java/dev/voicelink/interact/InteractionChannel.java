package dev.voicelink.interact;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.Cancellable;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.HttpFailure;
import dev.voicelink.core.internal.HttpLogger;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.Scrub;
import java.io.Closeable;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.Buffer;
import okio.ByteString;

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
 * drops, the channel reconnects by itself with jittered exponential backoff, at most {@link
 * Builder#maxReconnectAttempts(int)} times in a row; a rejected token is refreshed once through the
 * {@link TokenSource}. {@link #pauseReconnecting()} and {@link #resumeReconnecting()} let the app follow
 * the network's availability. {@link #close()} ends it for good; closing its {@link
 * VoiceLinkClient} closes it too. Open one per screen or session that talks, close it when done.
 *
 * <p><b>Threading.</b> All methods are thread-safe and never block on the network. Listener methods
 * are called in order on an SDK background thread; they must not block.
 */
public final class InteractionChannel implements Closeable {
  private static final String TAG = "interact";
  private static final int NORMAL_CLOSURE = 1000;
  private static final int AUDIO_FRAME_BYTES = 16 * 1024;

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
   * Receives the channel's news, in order, on an SDK background thread. Must not block. Only {@link
   * #onResult} is abstract, so a lambda that takes results will do; override the others for the
   * connection's news.
   */
  public interface Listener {
    /** A result for the write with sequence number {@link InteractionResult#seq()}. */
    void onResult(InteractionResult result);

    /** The server accepted the connection and named the user ({@code uid}, the 32-char auth_id). */
    default void onConnected(String uid) {
    }

    /** The server refused the write {@code seq} (or the message, when {@code seq} is 0). */
    default void onWriteError(int seq, String code, String description) {
    }

    /**
     * The connection was lost. {@code reconnecting} says whether the channel will try again by itself.
     * Writes that had no answer yet will not get one.
     */
    default void onDisconnected(String reason, boolean reconnecting) {
    }
  }

  private final OkHttpClient client;
  private final ClientCore config;
  private final TokenSource tokens;
  private final Listener listener;
  private final Backoff reconnectBackoff;

  private final Object lock = new Object();
  private State state = State.IDLE;
  private @Nullable WebSocket socket;
  private @Nullable String uid;
  private @Nullable Cancellable pendingReconnect;
  private int failedAttempts;
  private boolean retriedRejectedToken;
  private boolean paused;
  private int nextSeq = 1;
  /** Identifies the socket of the current attempt so that news from an older one is ignored. */
  private int generation;

  private InteractionChannel(Builder builder) {
    this.config = builder.config;
    this.client = builder.config.http().newBuilder()
        .pingInterval(builder.pingIntervalSeconds, TimeUnit.SECONDS)
        .build();
    this.tokens = builder.tokens;
    this.listener = builder.listener;
    this.reconnectBackoff = new Backoff(builder.baseDelayMillis, builder.maxDelayMillis,
        TimeUnit.MILLISECONDS, builder.maxReconnectAttempts, builder.random);
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
   * Opens the connection in the background; no effect if already connecting or connected.
   *
   * @throws IllegalStateException if the channel or its client was closed
   */
  public void connect() {
    synchronized (lock) {
      if (state == State.CLOSED) throw new IllegalStateException("the channel is closed");
      config.checkOpen();
      if (state == State.CONNECTING || state == State.CONNECTED
          || state == State.WAITING_TO_RECONNECT) {
        return;
      }
      failedAttempts = 0;
      retriedRejectedToken = false;
      scheduleAttemptLocked(0, false);
    }
  }

  /** The state now. */
  public State state() {
    synchronized (lock) {
      return state;
    }
  }

  /** The connected user's auth_id, or null before the first connection. */
  public @Nullable String uid() {
    synchronized (lock) {
      return uid;
    }
  }

  /**
   * Sends a text write. Dynamic entities are applied only when {@code persParam} (a JSON object text
   * such as {@code {"uid":""}}) is given. Returns the write's sequence number, which its result carries.
   *
   * @throws IllegalStateException if the channel is not connected
   */
  public int writeText(String text, @Nullable String persParam) {
    if (text == null) throw new IllegalArgumentException("text must not be null");
    synchronized (lock) {
      WebSocket open = requireConnectedLocked();
      int seq = nextSeq++;
      send(open, writeHeader(seq, "text", text, 0, persParam));
      return seq;
    }
  }

  /**
   * Sends an audio write: a header, the audio in binary frames, and an end marker. Returns its
   * sequence number.
   *
   * @throws IllegalStateException if the channel is not connected
   */
  public int writeAudio(byte[] audio, int sampleRate, @Nullable String persParam) {
    if (audio == null) throw new IllegalArgumentException("audio must not be null");
    if (sampleRate <= 0) {
      throw new IllegalArgumentException("sample_rate must be a positive number of Hz; was: "
          + sampleRate);
    }
    synchronized (lock) {
      WebSocket open = requireConnectedLocked();
      int seq = nextSeq++;
      send(open, writeHeader(seq, "audio", null, sampleRate, persParam));
      for (int offset = 0; offset < audio.length; offset += AUDIO_FRAME_BYTES) {
        int count = Math.min(AUDIO_FRAME_BYTES, audio.length - offset);
        if (logFrames()) Log.verbose(TAG, "frame --> binary, " + count + " bytes");
        open.send(ByteString.of(audio, offset, count));
      }
      send(open, endMessage(seq));
      return seq;
    }
  }

  /** Stops automatic reconnecting (for example when the network is lost). */
  public void pauseReconnecting() {
    synchronized (lock) {
      paused = true;
      if (state == State.WAITING_TO_RECONNECT) {
        cancelPendingLocked();
        state = State.PAUSED;
      }
    }
  }

  /** Resumes reconnecting after {@link #pauseReconnecting()}, at once if the channel is down. */
  public void resumeReconnecting() {
    synchronized (lock) {
      paused = false;
      if (state == State.PAUSED) {
        failedAttempts = 0;
        scheduleAttemptLocked(0, false);
      }
    }
  }

  /** Closes the socket and stops reconnecting, for good. Idempotent. */
  @Override public void close() {
    WebSocket toClose;
    synchronized (lock) {
      if (state == State.CLOSED) return;
      state = State.CLOSED;
      generation++;
      cancelPendingLocked();
      toClose = socket;
      socket = null;
    }
    config.untrack(this);
    if (toClose != null) toClose.close(NORMAL_CLOSURE, "closed by client");
  }

  private void send(WebSocket open, String frame) {
    if (logFrames()) Log.verbose(TAG, "frame --> " + Scrub.json(frame, null, false));
    open.send(frame);
  }

  /** Frames are logged with HTTP bodies, at the finest level. */
  private boolean logFrames() {
    return config.httpLogging() == HttpLogLevel.BODY
        && Log.isLoggable(VoiceLinkLog.Level.VERBOSE, TAG);
  }

  private WebSocket requireConnectedLocked() {
    if (state != State.CONNECTED || socket == null) {
      throw new IllegalStateException("the interaction channel is not connected (state "
          + state + "); wait for onConnected");
    }
    return socket;
  }

  private void scheduleAttemptLocked(long delayMillis, boolean reconnect) {
    final int attemptGeneration = ++generation;
    state = reconnect ? State.WAITING_TO_RECONNECT : State.CONNECTING;
    pendingReconnect = config.scheduler().schedule(
        () -> openSocket(attemptGeneration), delayMillis, TimeUnit.MILLISECONDS);
  }

  private void cancelPendingLocked() {
    if (pendingReconnect != null) {
      pendingReconnect.cancel();
      pendingReconnect = null;
    }
  }

  private void openSocket(int attemptGeneration) {
    synchronized (lock) {
      if (attemptGeneration != generation) return;
      state = State.CONNECTING;
    }
    String token;
    try {
      token = tokens.accessToken();
    } catch (IOException | ServerRefusalException | RuntimeException e) {
      Log.warn(TAG, "no access token for the interaction channel: " + e.getMessage(), null);
      connectionLost(attemptGeneration, "no access token: " + e.getMessage(),
          !(e instanceof ServerRefusalException));
      return;
    }
    Request request = new Request.Builder()
        .url(config.webApiUrl("interact"))
        .header("Authorization", token)
        .build();
    synchronized (lock) {
      if (attemptGeneration != generation) return;
      HttpLogger.logUpgrade(config.httpLogging(), request);
      socket = client.newWebSocket(request, new SocketListener(attemptGeneration, token));
    }
  }

  /** Ends the current attempt and decides whether to try again. */
  private void connectionLost(int attemptGeneration, String reason, boolean mayRetry) {
    connectionLost(attemptGeneration, reason, mayRetry, -1);
  }

  /** As above; {@code retryAfterMillis} is the server's Retry-After on a refused upgrade, or -1. */
  private void connectionLost(int attemptGeneration, String reason, boolean mayRetry,
      long retryAfterMillis) {
    boolean reconnecting;
    synchronized (lock) {
      if (attemptGeneration != generation || state == State.CLOSED) return;
      generation++; // later news from this attempt's socket is stale
      socket = null;
      failedAttempts++;
      reconnecting = mayRetry && reconnectBackoff.allows(failedAttempts);
      if (!reconnecting) {
        state = State.DISCONNECTED;
      } else if (paused) {
        state = State.PAUSED;
      } else {
        scheduleAttemptLocked(reconnectBackoff.honouringRetryAfter(retryAfterMillis,
            reconnectBackoff.delayMillis(failedAttempts)), true);
      }
    }
    Log.info(TAG, "interaction channel lost: " + reason
        + (reconnecting ? "; reconnecting" : "; giving up"));
    listener.onDisconnected(reason, reconnecting);
  }

  private final class SocketListener extends WebSocketListener {
    private final int attemptGeneration;
    private final String token;

    SocketListener(int attemptGeneration, String token) {
      this.attemptGeneration = attemptGeneration;
      this.token = token;
    }

    @Override public void onOpen(WebSocket webSocket, Response response) {
      HttpLogger.logUpgradeResponse(config.httpLogging(), response);
    }

    @Override public void onMessage(WebSocket webSocket, String text) {
      if (logFrames()) Log.verbose(TAG, "frame <-- " + Scrub.json(text, null, false));
      try {
        handleMessage(text);
      } catch (IOException | RuntimeException e) {
        boolean connecting;
        synchronized (lock) {
          connecting = attemptGeneration == generation && state == State.CONNECTING;
        }
        if (connecting) {
          // Only a readable "connected" message ends an attempt: without this, a server that upgrades
          // and then sends garbage would keep the channel CONNECTING for ever, never retried.
          connectionLost(attemptGeneration, "unreadable first message from the server: "
              + e.getMessage(), true);
          webSocket.cancel();
          return;
        }
        Log.warn(TAG, "unreadable message from the interaction channel: " + e.getMessage(), null);
        listener.onWriteError(0, "malformed_message", "unreadable message from the server: "
            + e.getMessage());
      }
    }

    private void handleMessage(String text) throws IOException {
      Message message = Message.parse(text);
      String type = message.type;
      String connectedUid = message.uid;
      int seq = message.seq;
      if ("connected".equals(type)) {
        if (connectedUid == null) throw new IOException("connected message without uid");
        synchronized (lock) {
          if (attemptGeneration != generation) return;
          state = State.CONNECTED;
          uid = connectedUid;
          failedAttempts = 0;
          retriedRejectedToken = false;
        }
        listener.onConnected(connectedUid);
      } else if ("result".equals(type)) {
        listener.onResult(new InteractionResult(seq, message.text, message.entities, text));
      } else if ("error".equals(type)) {
        listener.onWriteError(seq, message.code, message.desc);
      } else {
        Log.debug(TAG, "ignoring interaction message of type " + type);
      }
    }

    @Override public void onClosing(WebSocket webSocket, int code, String reason) {
      webSocket.close(NORMAL_CLOSURE, null);
      connectionLost(attemptGeneration, "closed by server (" + code + " " + reason + ")", true);
    }

    @Override public void onFailure(WebSocket webSocket, Throwable t, @Nullable Response response) {
      if (response != null) HttpLogger.logUpgradeResponse(config.httpLogging(), response);
      if (response != null && response.code() == 401) {
        boolean retryNow;
        synchronized (lock) {
          retryNow = !retriedRejectedToken && attemptGeneration == generation
              && state != State.CLOSED;
          retriedRejectedToken = true;
        }
        tokens.invalidate(token);
        if (retryNow) {
          // One immediate retry with a refreshed token; a second 401 is a real refusal.
          synchronized (lock) {
            if (attemptGeneration == generation) scheduleAttemptLocked(0, false);
          }
          return;
        }
        connectionLost(attemptGeneration, "the server rejected the access token (HTTP 401)", false);
        return;
      }
      String reason = response != null
          ? "HTTP " + response.code() + " on upgrade"
          : t.getClass().getSimpleName() + (t.getMessage() != null ? ": " + t.getMessage() : "");
      connectionLost(attemptGeneration, reason, true,
          response != null ? HttpFailure.retryAfterMillis(response) : -1);
    }
  }

  /** One text frame from the server, read strictly; unknown members are skipped. */
  static final class Message {
    @Nullable String type;
    @Nullable String uid;
    int seq;
    String text = "";
    String code = "";
    String desc = "";
    final List<RecognizedEntity> entities = new ArrayList<>();

    /** Throws IOException (never a runtime exception) when the frame is not such a message. */
    static Message parse(String frame) throws IOException {
      Message m = new Message();
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(frame));
      try {
        reader.beginObject();
        while (reader.hasNext()) {
          switch (reader.nextName()) {
            case "type": m.type = reader.nextString(); break;
            case "uid": m.uid = reader.nextString(); break;
            case "seq": m.seq = reader.nextInt(); break;
            case "text": m.text = reader.nextString(); break;
            case "code": m.code = readScalar(reader); break;
            case "desc": m.desc = reader.nextString(); break;
            case "entities": readEntities(reader, m.entities); break;
            default: reader.skipValue();
          }
        }
        reader.endObject();
      } catch (JsonDataException e) {
        throw new IOException(e.getMessage(), e);
      }
      return m;
    }
  }

  private static String readScalar(JsonReader reader) throws IOException {
    return reader.peek() == JsonReader.Token.NUMBER
        ? String.valueOf(reader.nextLong())
        : reader.nextString();
  }

  private static void readEntities(JsonReader reader, List<RecognizedEntity> into)
      throws IOException {
    reader.beginArray();
    while (reader.hasNext()) {
      String resName = "";
      String value = "";
      String matched = "";
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.nextName()) {
          case "res_name": resName = reader.nextString(); break;
          case "value": value = reader.nextString(); break;
          case "matched": matched = reader.nextString(); break;
          default: reader.skipValue();
        }
      }
      reader.endObject();
      into.add(new RecognizedEntity(resName, value, matched));
    }
    reader.endArray();
  }

  private static String writeHeader(int seq, String dataType, @Nullable String text,
      int sampleRate, @Nullable String persParam) {
    Buffer buffer = new Buffer();
    try (JsonWriter writer = JsonWriter.of(buffer)) {
      writer.beginObject();
      writer.name("type").value("write");
      writer.name("data_type").value(dataType);
      if (text != null) writer.name("text").value(text);
      if (sampleRate > 0) writer.name("sample_rate").value(sampleRate);
      if (persParam != null) writer.name("pers_param").value(persParam);
      writer.name("seq").value(seq);
      writer.endObject();
    } catch (IOException e) {
      throw new AssertionError(e); // a Buffer does not fail
    }
    return buffer.readUtf8();
  }

  private static String endMessage(int seq) {
    return "{\"type\":\"end\",\"seq\":" + seq + "}";
  }

  /**
   * Builds an {@link InteractionChannel}. Setters check their argument at once. Not thread-safe.
   */
  public static final class Builder {
    private final ClientCore config;
    private final TokenSource tokens;
    private @Nullable Listener listener;
    private int maxReconnectAttempts = 10;
    private long baseDelayMillis = 1_000;
    private long maxDelayMillis = 60_000;
    private int pingIntervalSeconds = 30;
    private Random random = new SecureRandom();

    Builder(ClientCore config, TokenSource tokens) {
      config.baseUrl(); // fails now, naming the setting, if base_url is missing
      if (tokens == null) throw new IllegalArgumentException("tokens must not be null");
      this.config = config;
      this.tokens = tokens;
    }

    /** Receives connection news and results. Required. */
    public Builder listener(Listener listener) {
      if (listener == null) throw new IllegalArgumentException("listener must not be null");
      this.listener = listener;
      return this;
    }

    /** How many reconnects in a row before giving up (default 10). */
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
      this.baseDelayMillis = unit.toMillis(baseDelay);
      this.maxDelayMillis = unit.toMillis(maxDelay);
      return this;
    }

    /** Keep-alive ping interval; 0 turns pings off (default 30 s). */
    public Builder pingIntervalSeconds(int seconds) {
      if (seconds < 0) throw new IllegalArgumentException("pingIntervalSeconds must be >= 0");
      this.pingIntervalSeconds = seconds;
      return this;
    }

    /** Source of reconnect jitter; tests pass a seeded one. */
    Builder random(Random random) {
      if (random == null) throw new IllegalArgumentException("random must not be null");
      this.random = random;
      return this;
    }

    public InteractionChannel build() {
      if (listener == null) {
        throw new IllegalStateException("listener is required: call listener(...) before build()");
      }
      return new InteractionChannel(this);
    }
  }
}
