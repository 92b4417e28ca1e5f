package dev.voicelink.interact;

import dev.voicelink.auth.NotSignedInException;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.Cancellable;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.HttpFailure;
import dev.voicelink.core.internal.HttpLogger;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.Scrub;
import dev.voicelink.core.internal.SerialDelivery;
import dev.voicelink.entity.PersParam;
import dev.voicelink.interact.Disconnect.Cause;
import dev.voicelink.interact.InteractionChannel.Listener;
import dev.voicelink.interact.InteractionChannel.State;
import java.io.IOException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Authenticator;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;

/**
 * The connection state machine behind an {@link InteractionChannel}: opens the socket with a fresh
 * token, reconnects with bounded backoff, retries a rejected token once, and tells the listeners.
 *
 * <p>An attempt ends when its socket fails, when the server's first message is not a readable
 * {@code connected} message, or when that message does not come within the greeting timeout after the
 * upgrade: a server that takes the upgrade and then stays silent is retried like any other failure,
 * never waited on for ever.
 *
 * <p>Every decision is taken under {@link #lock}; the listeners' calls are queued there, one per
 * listener registered at that moment, and handed over after the lock is released, in the order they
 * were decided, to a {@link SerialDelivery} on the client's worker threads: one call at a time,
 * never on the thread that noticed the news (a socket's reader or the shared scheduler), which a slow
 * listener therefore never holds up. A listener removed before its call runs is not called.
 */
final class ChannelConnection {
  private static final String TAG = "interact";
  private static final int NORMAL_CLOSURE = 1000;
  /** The server's code for audio out of order (docs/interaction-channel.md, error codes). */
  private static final String AUDIO_OUT_OF_ORDER = "60003";
  /**
   * How long a connection must stay up after the greeting to end a row of failed attempts. Shorter
   * ones count as failed, so a server that greets and drops at once is given up on like one that
   * refuses, rather than reconnected to for ever. Well under the 30 s and more after which servers,
   * proxies and NATs commonly close a quiet connection: such closes must never add up to giving up
   * (docs/interaction-channel.md).
   */
  private static final long STABLE_CONNECTION_MILLIS = 10_000;
  /**
   * Bytes of a write still queued on the socket above which its result deadline starts again: the
   * write is still being sent. OkHttp counts a frame as queued until just after it is written, so a
   * frame the server already has may still be counted for a moment; a few frames' worth is no real
   * sending.
   */
  private static final long STILL_SENDING_BYTES = 64 * 1024;
  /** The write timeout of an app client without one, when pings are off: OkHttp's default. */
  private static final long NO_PING_WRITE_TIMEOUT_SECONDS = 10;

  private final OkHttpClient client;
  private final ClientCore config;
  private final TokenSource tokens;
  /**
   * The app's listeners, emptied by {@link #close}: news already queued is dropped, and a socket that
   * OkHttp holds while its close handshake times out (up to a minute when offline) keeps no app
   * object (an activity) reachable.
   */
  private final CopyOnWriteArrayList<Registration> listeners = new CopyOnWriteArrayList<>();
  private final Backoff reconnectBackoff;
  private final ChannelDeadlines deadlines;
  /** The bytes given to the current socket so far, as its {@code queueSize()} counts them. */
  private long queuedOnSocket; // guarded by lock
  private final ChannelFrames frames;
  private final SerialDelivery events;

  private final Object lock = new Object();
  private State state = State.IDLE;
  private @Nullable WebSocket socket;
  private @Nullable String uid;
  private @Nullable Cancellable pendingReconnect;
  /** Failed attempts in a row: attempts that failed, and connections shorter than the stable time. */
  private int failedAttempts;
  private long connectedAtNanos;
  private boolean retriedRejectedToken;
  private boolean paused;
  /**
   * When the wait the server asked for with its last refusal's Retry-After ends (monotonic ns, capped
   * as the backoff caps it); {@link Long#MIN_VALUE} when it asked none since the last connection.
   * A resume waits for it too: the network coming back does not make the server ready sooner.
   */
  private long serverWaitEndsNanos = Long.MIN_VALUE;
  private int nextSeq = 1;
  /** Identifies the socket of the current attempt so that news from an older one is ignored. */
  private int generation;
  /** Whether the current attempt's socket was upgraded: before, closing it must cancel the call. */
  private boolean upgraded;

  ChannelConnection(ClientCore config, TokenSource tokens, @Nullable Listener listener, Backoff backoff,
      int pingIntervalSeconds, long greetingTimeoutMillis, long resultTimeoutMillis) {
    this.config = config;
    // A redirect would open the user's session at an address nobody configured, perhaps over ws://,
    // and a 401 from there would void a good token. A 401 is answered here, with one refreshed
    // token, not by an authenticator on the app's client.
    OkHttpClient.Builder channelClient = config.http().newBuilder()
        .pingInterval(pingIntervalSeconds, TimeUnit.SECONDS)
        .followRedirects(false)
        .authenticator(Authenticator.NONE)
        // The upgrade is a GET: sent again after a connection the server closed while it sat in the
        // app's pool, whatever the app's client says for its own requests.
        .retryOnConnectionFailure(true);
    if (config.http().readTimeoutMillis() == 0) {
      // OkHttp reads an upgraded socket without a timeout; the read timeout bounds only the wait
      // for the upgrade's answer, which an app client without one would leave unbounded.
      channelClient.readTimeout(greetingTimeoutMillis, TimeUnit.MILLISECONDS);
    }
    if (config.http().writeTimeoutMillis() == 0) {
      // OkHttp writes an upgraded socket under the client's write timeout, and its pings wait behind
      // a write in progress: without one, a link that takes nothing more would hold a write, and the
      // channel CONNECTED, until the system's TCP timeout. Two ping intervals, as a missed pong counts.
      channelClient.writeTimeout(pingIntervalSeconds > 0 ? 2L * pingIntervalSeconds
          : NO_PING_WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
    this.client = channelClient.build();
    this.tokens = tokens;
    if (listener != null) listeners.add(new Registration(listener));
    this.reconnectBackoff = backoff;
    this.deadlines = new ChannelDeadlines(config.scheduler(), greetingTimeoutMillis,
        resultTimeoutMillis);
    this.frames = new ChannelFrames(config.httpLogger());
    this.events = new SerialDelivery(config.workers(), TAG);
  }

  void connect() {
    synchronized (lock) {
      if (state == State.CLOSED) throw new IllegalStateException("the channel is closed");
      config.checkOpen();
      if (state == State.CONNECTING || state == State.CONNECTED
          || state == State.WAITING_TO_RECONNECT) {
        return;
      }
      failedAttempts = 0;
      retriedRejectedToken = false;
      // After giving up, as after a pause: the server's last Retry-After still holds.
      long waitMillis = serverWaitMillisLocked();
      scheduleAttemptLocked(waitMillis, waitMillis > 0);
    }
  }

  /** What is left of the wait the server asked for with its last refusal, in ms (rounded up). */
  private long serverWaitMillisLocked() {
    if (serverWaitEndsNanos == Long.MIN_VALUE) return 0;
    long waitNanos = serverWaitEndsNanos - config.deviceClock().monotonicNanos();
    return waitNanos <= 0 ? 0 : (waitNanos + 999_999) / 1_000_000;
  }

  long serverWaitMillis() {
    synchronized (lock) {
      return serverWaitMillisLocked();
    }
  }

  State state() {
    synchronized (lock) {
      return state;
    }
  }

  @Nullable String uid() {
    synchronized (lock) {
      return uid;
    }
  }

  /** Sends a text write ({@code sampleRate} 0) or an audio write; returns its sequence number. */
  int write(@Nullable String text, byte @Nullable [] audio, int sampleRate,
      @Nullable String persParam) {
    synchronized (lock) {
      WebSocket open = socket;
      if (state != State.CONNECTED || open == null) {
        throw new IllegalStateException("the interaction channel is not connected (state "
            + state + "); wait for onConnected");
      }
      int seq = nextSeq;
      long sentBefore = queuedOnSocket - open.queueSize();
      long bytes = frames.sendWrite(open, seq, text, audio, sampleRate, persParam);
      if (bytes < 0) {
        // The socket is closing (the server's close came in on its reader thread): the write may be
        // partly sent, and like any write in flight it gets no answer; onDisconnected follows.
        Log.info(TAG, "write " + seq + ": the socket is closing; its loss is reported next");
      } else {
        queuedOnSocket += bytes;
      }
      nextSeq++;
      int writeGeneration = generation;
      long end = queuedOnSocket;
      deadlines.armResult(seq, () -> resultOverdue(writeGeneration, seq, end, sentBefore));
      if (audio != null) deadlines.isAudio(seq);
      return seq;
    }
  }

  void pauseReconnecting() {
    synchronized (lock) {
      paused = true;
      if (state == State.WAITING_TO_RECONNECT) {
        cancelPendingLocked();
        generation++; // an attempt already falling due finds itself stale
        state = State.PAUSED;
      }
    }
  }

  void resumeReconnecting() {
    synchronized (lock) {
      paused = false;
      if (state == State.PAUSED) {
        failedAttempts = 0;
        long waitMillis = serverWaitMillisLocked();
        scheduleAttemptLocked(waitMillis, waitMillis > 0);
      }
    }
  }

  /** Closes the socket and stops reconnecting; returns false if it was closed already. */
  boolean close() {
    WebSocket toClose;
    boolean wasUpgraded;
    synchronized (lock) {
      if (state == State.CLOSED) return false;
      state = State.CLOSED;
      for (Registration registration : listeners) registration.removed = true;
      listeners.clear();
      generation++;
      cancelPendingLocked();
      deadlines.cancelAll();
      toClose = socket;
      socket = null;
      wasUpgraded = upgraded;
    }
    if (toClose != null && wasUpgraded) {
      toClose.close(NORMAL_CLOSURE, "closed by client");
    } else if (toClose != null) {
      // Before its upgrade, a socket's close() only queues a close frame and the upgrade goes on:
      // a late answer would open the user's session on the server after all.
      toClose.cancel();
    }
    return true;
  }

  /**
   * Adds a listener: it is told the news decided after this call. No effect once closed, when no
   * news comes any more.
   */
  void addListener(Listener listener) {
    synchronized (lock) {
      if (state != State.CLOSED) listeners.add(new Registration(listener));
    }
  }

  /**
   * Removes a listener: it is told nothing more, not even news decided before and not yet told; nor
   * that news once added again, which is told only what comes after its new registration.
   */
  void removeListener(Listener listener) {
    for (Registration registration : listeners) {
      if (registration.listener.equals(listener) && listeners.remove(registration)) {
        registration.removed = true;
        return;
      }
    }
  }

  /** How many listeners are registered; for tests. */
  int listenerCount() {
    return listeners.size();
  }

  /** Waits until every listener call decided so far has returned; for tests. */
  boolean awaitDelivered(long timeout, TimeUnit unit) throws InterruptedException {
    return events.awaitIdle(timeout, unit);
  }

  private void scheduleAttemptLocked(long delayMillis, boolean reconnect) {
    final int attemptGeneration = ++generation;
    state = reconnect ? State.WAITING_TO_RECONNECT : State.CONNECTING;
    pendingReconnect = config.scheduler().schedule(
        () -> startAttempt(attemptGeneration), delayMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * On the scheduler's thread: hands the attempt to a worker. The attempt asks for a token, which may
   * read the token store or refresh over the network; the scheduler's one thread keeps every other
   * timer of the client (polls, deadlines) and must not wait for that.
   */
  private void startAttempt(int attemptGeneration) {
    try {
      config.workers().execute(() -> openSocket(attemptGeneration));
    } catch (RejectedExecutionException closed) {
      // The client is closing, and closes this channel with it: there is nothing to connect.
    }
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
      // A Java or Kotlin lambda may break the contract; the attempt must still end, not stall.
      if (token == null) throw new IllegalStateException("the token source returned null");
    } catch (Exception e) { // a checked one too, from a Kotlin token source
      Log.warn(TAG, "no access token for the interaction channel: " + e.getMessage(), null);
      Cause cause = e instanceof NotSignedInException ? Cause.NOT_SIGNED_IN
          : e instanceof ServerRefusalException ? Cause.TOKEN_REFUSED : Cause.TOKEN_UNAVAILABLE;
      connectionLost(attemptGeneration, cause, "no access token: " + e.getMessage(), -1);
      return;
    }
    Request request;
    try {
      request = new Request.Builder()
          .url(config.webApiUrl("interact"))
          .header("Authorization", token)
          .build();
    } catch (IllegalArgumentException e) {
      // OkHttp refuses a header value with a line break or a character beyond ASCII; its message
      // leaves the value of Authorization out. The next token may be a good one.
      connectionLost(attemptGeneration, Cause.TOKEN_UNAVAILABLE,
          "the access token cannot be sent in a header: " + e.getMessage(), -1);
      return;
    }
    synchronized (lock) {
      if (attemptGeneration != generation) return;
      HttpLogger logger = config.httpLogger();
      if (logger != null) logger.logUpgrade(request);
      upgraded = false;
      queuedOnSocket = 0;
      socket = client.newWebSocket(request, new SocketListener(attemptGeneration, request, token));
    }
  }

  /**
   * Ends attempt {@code attemptGeneration} and decides whether to try again: never when the cause
   * {@linkplain Cause#needsAuthorization() needs authorization}. {@code retryAfterMillis} is the
   * server's Retry-After on a refused upgrade, or -1.
   */
  void connectionLost(int attemptGeneration, Cause cause, String detail, long retryAfterMillis) {
    Disconnect disconnect;
    synchronized (lock) {
      if (attemptGeneration != generation || state == State.CLOSED) return;
      disconnect = endAttemptLocked(cause, detail, retryAfterMillis);
    }
    announce(disconnect);
  }

  /**
   * Ends attempt {@code attemptGeneration} as a {@link Cause#PROTOCOL} failure and cancels its socket,
   * if that attempt is still waiting for the server's {@code connected} message.
   *
   * @return whether it was still waiting
   */
  private boolean greetingFailed(int attemptGeneration, WebSocket webSocket, String detail) {
    Disconnect disconnect;
    synchronized (lock) {
      if (attemptGeneration != generation || state != State.CONNECTING) return false;
      disconnect = endAttemptLocked(Cause.PROTOCOL, detail, -1);
    }
    webSocket.cancel();
    announce(disconnect);
    return true;
  }

  private Disconnect endAttemptLocked(Cause cause, String detail, long retryAfterMillis) {
    if (state == State.CONNECTED && config.deviceClock().monotonicNanos() - connectedAtNanos
        >= TimeUnit.MILLISECONDS.toNanos(STABLE_CONNECTION_MILLIS)) {
      failedAttempts = 0;
    }
    generation++; // later news from this attempt's socket is stale
    socket = null;
    deadlines.cancelAll();
    failedAttempts++;
    long serverWaitMillis = reconnectBackoff.honouringRetryAfter(retryAfterMillis, 0);
    if (serverWaitMillis > 0) {
      serverWaitEndsNanos = config.deviceClock().monotonicNanos()
          + TimeUnit.MILLISECONDS.toNanos(serverWaitMillis);
    }
    boolean reconnecting = !cause.needsAuthorization() && reconnectBackoff.allows(failedAttempts);
    Disconnect disconnect = new Disconnect(cause, detail, reconnecting, nextSeq - 1, serverWaitMillis);
    // queued before the reconnect is scheduled, so whoever sees the reconnect finds the news queued
    tellLocked(listener -> listener.onDisconnected(disconnect));
    if (!reconnecting) {
      state = State.DISCONNECTED;
    } else if (paused) {
      state = State.PAUSED;
    } else {
      scheduleAttemptLocked(reconnectBackoff.honouringRetryAfter(retryAfterMillis,
          reconnectBackoff.delayMillis(failedAttempts)), true);
    }
    return disconnect;
  }

  private void announce(Disconnect disconnect) {
    Log.info(TAG, "interaction channel lost: " + disconnect.detail()
        + (disconnect.reconnecting() ? "; reconnecting" : "; giving up"));
    events.flush();
  }

  /** The server named the user: attempt {@code attemptGeneration} is connected. */
  void connected(int attemptGeneration, String connectedUid) {
    synchronized (lock) {
      if (attemptGeneration != generation) return;
      state = State.CONNECTED;
      deadlines.greeted();
      uid = connectedUid;
      connectedAtNanos = config.deviceClock().monotonicNanos();
      serverWaitEndsNanos = Long.MIN_VALUE;
      retriedRejectedToken = false;
      tellLocked(listener -> listener.onConnected(connectedUid));
    }
    events.flush();
  }

  /**
   * The answer to write {@code seq} (a result or an error) from the socket of attempt {@code
   * attemptGeneration}: ends its deadline, and is delivered unless the deadline had passed.
   */
  private void answer(int attemptGeneration, int seq, boolean error, News news) {
    synchronized (lock) {
      if (attemptGeneration != generation) return;
      if (!deadlines.answered(seq, error)) {
        Log.info(TAG, "dropped an answer to write " + seq + ", which waits for none: answered"
            + " already, or after its result timeout");
        return;
      }
      tellLocked(news);
    }
    events.flush();
  }

  /**
   * Write {@code seq} of attempt {@code attemptGeneration}, whose last byte is the {@code end}-th the
   * socket was given, has had no answer within the result timeout. While more than {@link
   * #STILL_SENDING_BYTES} of it are still queued (a long audio write on a slow link), the server
   * cannot have all of it yet: the deadline starts again, as long as bytes went out since {@code
   * sentBefore} (the socket's count when it was last looked at). A link that sends nothing for a
   * whole timeout ends the wait; writes queued after this one do not hold it up.
   */
  private void resultOverdue(int attemptGeneration, int seq, long end, long sentBefore) {
    String description = "no result within " + ChannelDeadlines.describe(deadlines.resultMillis)
        + " of the write";
    synchronized (lock) {
      WebSocket open = socket;
      if (attemptGeneration != generation || open == null || !deadlines.awaiting(seq)) return;
      long sent = queuedOnSocket - open.queueSize();
      if (end - sent > STILL_SENDING_BYTES && sent > sentBefore) {
        deadlines.armResult(seq, () -> resultOverdue(attemptGeneration, seq, end, sent));
        return;
      }
      deadlines.expired(seq);
      tellLocked(listener -> listener.onWriteError(seq, InteractionChannel.RESULT_TIMEOUT,
          description));
    }
    Log.warn(TAG, "write " + seq + ": " + description, null);
    events.flush();
  }

  private boolean refusedAudioOnTheWay(int attemptGeneration) {
    synchronized (lock) {
      return attemptGeneration == generation && deadlines.refusedAudioOnTheWay();
    }
  }

  /** News from the socket of attempt {@code attemptGeneration} that answers no write. */
  void deliver(int attemptGeneration, News news) {
    synchronized (lock) {
      if (attemptGeneration != generation) return;
      tellLocked(news);
    }
    events.flush();
  }

  /**
   * Queues {@code news} for each listener registered now, one call each (so that one that throws
   * does not keep it from the others); a listener removed before its call runs is skipped. Under
   * {@link #lock}; {@code events.flush()} hands the calls over once it is released.
   */
  private void tellLocked(final News news) {
    for (final Registration target : listeners) {
      events.enqueue(() -> {
        if (!target.removed) news.tellTo(target.listener);
      });
    }
  }

  /** One addition of a listener: news queued for it is told only while it stays. */
  private static final class Registration {
    final Listener listener;
    volatile boolean removed;

    Registration(Listener listener) {
      this.listener = listener;
    }
  }

  /** Something to tell a listener. */
  interface News {
    void tellTo(Listener listener);
  }

  private void logUpgradeResponse(Response response) {
    HttpLogger logger = config.httpLogger();
    if (logger != null) logger.logUpgradeResponse(response);
  }

  /** Hears the socket of one attempt, and turns its news into decisions of the connection. */
  private final class SocketListener extends WebSocketListener {
    private final int attemptGeneration;
    /** The upgrade's secrets: a server's text may echo its token, redacted before anything tells it. */
    private final Scrub.Echoes echoes;
    private final String token;

    SocketListener(int attemptGeneration, Request upgrade, String token) {
      this.attemptGeneration = attemptGeneration;
      this.echoes = Scrub.echoesOf(upgrade);
      this.token = token;
    }

    @Override public void onOpen(WebSocket webSocket, Response response) {
      logUpgradeResponse(response);
      String limit = ChannelDeadlines.describe(deadlines.greetingMillis);
      synchronized (lock) {
        if (attemptGeneration != generation || state != State.CONNECTING) return;
        upgraded = true;
        deadlines.armGreeting(() -> greetingFailed(attemptGeneration, webSocket,
            "no \"connected\" message within " + limit + " of the upgrade"));
      }
      // A server that upgrades and then waits for the client to speak first shows as this line,
      // then a PROTOCOL loss at the deadline (docs/troubleshooting.md).
      Log.info(TAG, "interaction socket open; waiting up to " + limit
          + " for the server's \"connected\" message");
    }

    @Override public void onMessage(WebSocket webSocket, String text) {
      frames.received(echoes, text);
      InteractionCodec.Message message;
      try {
        message = InteractionCodec.parse(text);
        if ("connected".equals(message.type)) checkUid(message.uid);
      } catch (IOException e) {
        unreadable(webSocket, e);
        return;
      }
      // Before the greeting, anything else ends the attempt at once: a result or an error then
      // answers nothing the app wrote, and this server does not speak the channel's protocol.
      if (!"connected".equals(message.type) && greetingFailed(attemptGeneration, webSocket,
          "the server's first message is \"" + echoes.inServerText(String.valueOf(message.type))
              + "\", not \"connected\"")) {
        return;
      }
      handle(message, text);
    }

    /** The user the listener is told of, and an Agent fills a {@code pers_param} with. */
    private void checkUid(@Nullable String uid) throws IOException {
      if (uid == null) throw new IOException("connected message without uid");
      try {
        PersParam.user(uid);
      } catch (IllegalArgumentException notAnAuthId) {
        throw new IOException("connected message whose uid is not an auth_id ("
            + notAnAuthId.getMessage() + ")");
      }
    }

    private void unreadable(WebSocket webSocket, IOException e) {
      // Moshi's path in the message names the frame's own member names, which may echo the token.
      String problem = echoes.inServerText(String.valueOf(e.getMessage()));
      // Before the greeting, an unreadable message ends the attempt at once, not at the deadline:
      // this server does not speak the channel's protocol.
      if (greetingFailed(attemptGeneration, webSocket,
          "unreadable first message from the server: " + problem)) {
        return;
      }
      Log.warn(TAG, "unreadable message from the interaction channel: " + problem, null);
      String description = "unreadable message from the server: " + problem;
      deliver(attemptGeneration,
          listener -> listener.onWriteError(0, InteractionChannel.MALFORMED_MESSAGE, description));
    }

    private void handle(InteractionCodec.Message message, String text) {
      String connectedUid = message.uid;
      if ("connected".equals(message.type) && connectedUid != null) {
        connected(attemptGeneration, connectedUid);
      } else if ("result".equals(message.type)) {
        InteractionResult result =
            new InteractionResult(message.seq, message.text, message.entities, text);
        answer(attemptGeneration, message.seq, false, listener -> listener.onResult(result));
      } else if ("error".equals(message.type)) {
        refused(message);
      } else {
        Log.debug(TAG, "ignoring interaction message of type "
            + echoes.inServerText(String.valueOf(message.type)));
      }
    }

    /** An error message: the refusal of write {@code seq}, or news of the connection (seq 0). */
    private void refused(InteractionCodec.Message message) {
      String desc = echoes.inServerText(message.desc);
      String code = echoes.inServerText(message.code);
      if (message.seq != 0) {
        answer(attemptGeneration, message.seq, true,
            listener -> listener.onWriteError(message.seq, code, desc));
      } else if (AUDIO_OUT_OF_ORDER.equals(message.code) && refusedAudioOnTheWay(attemptGeneration)) {
        // Its write was refused and answered already: one error per frame would tell it again.
        Log.debug(TAG, "a frame of a refused audio write was refused too: " + desc);
      } else {
        deliver(attemptGeneration, listener -> listener.onWriteError(0, code, desc));
      }
    }

    @Override public void onClosing(WebSocket webSocket, int code, String reason) {
      webSocket.close(NORMAL_CLOSURE, null);
      connectionLost(attemptGeneration, Cause.CLOSED_BY_SERVER,
          "closed by server (" + code + " " + echoes.inServerText(reason) + ")", -1);
    }

    @Override public void onFailure(WebSocket webSocket, Throwable t, @Nullable Response response) {
      if (response != null) logUpgradeResponse(response);
      if (response != null && response.code() == 401) {
        rejected();
        return;
      }
      if (response != null && response.isRedirect()) {
        connectionLost(attemptGeneration, Cause.UPGRADE_REFUSED, HttpFailure.redirect(response,
            "interaction channel upgrades", "the user's speech and text").getMessage(), -1);
      } else if (response != null) {
        long retryAfterMillis = HttpFailure.retryAfterMillis(response, config.correctedClock());
        connectionLost(attemptGeneration, Cause.UPGRADE_REFUSED,
            "HTTP " + response.code() + " on upgrade", retryAfterMillis);
      } else {
        connectionLost(attemptGeneration, Cause.NETWORK, t.getClass().getSimpleName()
            + (t.getMessage() != null ? ": " + t.getMessage() : ""), -1);
      }
    }

    /** The server rejected the token: one immediate retry with a refreshed one; a second is final. */
    private void rejected() {
      boolean retryNow;
      synchronized (lock) {
        retryNow = !retriedRejectedToken && attemptGeneration == generation
            && state != State.CLOSED;
        retriedRejectedToken = true;
      }
      try {
        tokens.invalidate(token);
      } catch (Exception e) { // a checked one too, from a Kotlin token source
        // The app's source failed to drop the token: the retry asks it again all the same, and an
        // attempt that ended here would otherwise leave the channel connecting for ever.
        Log.warn(TAG, "the token source failed to invalidate a rejected token: " + e, null);
      }
      if (retryNow) {
        synchronized (lock) {
          if (attemptGeneration == generation) scheduleAttemptLocked(0, false);
        }
        return;
      }
      connectionLost(attemptGeneration, Cause.TOKEN_REFUSED,
          "the server rejected the access token (HTTP 401)", -1);
    }
  }
}
