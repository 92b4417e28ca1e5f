package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_QUERY_SYNC_STATUS;
import static dev.voicelink.android.AgentConstants.CMD_SET_PARAMS;
import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.CMD_WRITE;
import static dev.voicelink.android.AgentConstants.ERROR_CONNECTION_LOST;
import static dev.voicelink.android.AgentConstants.ERROR_DESTROYED;
import static dev.voicelink.android.AgentConstants.ERROR_NOT_AUTHORIZED;
import static dev.voicelink.android.AgentConstants.ERROR_RECONNECT_GAVE_UP;
import static dev.voicelink.android.AgentConstants.ERROR_UNSUPPORTED;
import static dev.voicelink.android.AgentConstants.EVENT_CONNECTED_TO_SERVER;
import static dev.voicelink.android.AgentConstants.EVENT_SERVER_DISCONNECTED;
import static dev.voicelink.android.AgentConstants.EVENT_STATE;
import static dev.voicelink.android.AgentConstants.KEY_CMD;
import static dev.voicelink.android.AgentConstants.STATE_IDLE;
import static dev.voicelink.android.AgentConstants.STATE_READY;
import static dev.voicelink.android.AgentConstants.STATE_WORKING;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Log;
import dev.voicelink.interact.Disconnect;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The agent's logic, free of Android classes. Every piece of state is confined to the worker thread of
 * its {@link AgentWorker}: {@link #send}, network changes, channel callbacks, timers and the results
 * of web API calls all become tasks on it. Each command has its handler ({@link SyncCommand},
 * {@link QueryCommand}, {@link SetParamsCommand}, {@link WriteCommand}); the engine dispatches to
 * them and keeps the connection. The connection itself (token, reconnects, the message set) is sdk-core's {@link
 * InteractionChannel}; the engine maps it to the connection events and the agent's state.
 */
final class AgentEngine implements WriteCommand.Lifecycle {
  private static final String TAG = "VoiceLinkAgent";
  private final ChannelFactory channels;
  private final AgentWorker worker = new AgentWorker();
  private final EventEmitter out;
  private final PendingCommands pending;
  private final SyncCommand sync;
  private final QueryCommand query;
  private final SetParamsCommand setParams;
  private final WriteCommand write;
  /** Why the agent cannot connect without a sign-in, naming where it looked for one. */
  private final String notSignedIn;
  private final Clock clock;
  private final Scheduler scheduler;
  private final Object lifecycle = new Object();
  private volatile boolean destroyed; // written under lifecycle

  // Confined to the worker thread.
  private @Nullable InteractionChannel channel;
  private int generation;
  private @Nullable String uid;
  private boolean networkAvailable = true;
  /** The channel used up its reconnect attempts; a CMD_WRITE or the network's return starts again. */
  private boolean reconnectGaveUp;
  private int state = STATE_IDLE;
  private boolean notAuthorizedReported;
  /**
   * The token source had a token again while not connected: an attempt that asked for one before
   * then fails for want of it, and is followed by one more instead of a lost authorization.
   */
  private boolean tokenCameBack;
  /**
   * When the wait the server asked for with the last refusal's Retry-After ends (monotonic ns), as the
   * channel it refused knew it when it was closed; {@link Long#MIN_VALUE} when it asked none since the
   * last connection. A channel made when the network comes back waits for it: the network's return
   * does not make the server ready sooner.
   */
  private long serverWaitEndsNanos = Long.MIN_VALUE;
  /** The connection put off until {@link #serverWaitEndsNanos}, or null. */
  private @Nullable Cancellable deferredConnect;

  /**
   * An engine on {@code client}: its threads run the web API calls, its clock and scheduler time
   * the queries' waits. Starts nothing: see {@link #start}.
   */
  AgentEngine(AgentConfig config, ClientCore client, ChannelFactory channels,
      @Nullable EntityBackend entities, String entitiesMissing, String notSignedIn, EventSink sink) {
    this.channels = channels;
    this.notSignedIn = notSignedIn;
    this.clock = client.deviceClock();
    this.scheduler = client.scheduler();
    this.out = new EventEmitter(sink, worker);
    this.pending = new PendingCommands(worker, client, out);
    this.sync = new SyncCommand(config.appid(), entities, entitiesMissing, client, pending, out);
    this.query = new QueryCommand(entities, entitiesMissing, client.deviceClock(),
        client.scheduler(), worker, sync, pending, out);
    this.setParams = new SetParamsCommand(config.audioPersParam(), out);
    this.write = new WriteCommand(setParams, out, this);
  }

  /** Starts connecting; {@code online} is whether the device has a network now. */
  void start(boolean online) {
    worker.execute(() -> {
      networkAvailable = online;
      connect();
    });
  }

  void send(AgentMessage message) {
    // Checked and queued under the lock destroy() takes: a command is either refused here or queued
    // before the shutdown, which then replies to it; never dropped without a reply.
    synchronized (lifecycle) {
      if (destroyed) {
        throw new IllegalStateException("Agent was destroyed; create a new Agent to send "
            + AgentConstants.commandName(message.msgType()));
      }
      worker.execute(() -> handle(message));
    }
  }

  void networkAvailable() {
    worker.execute(() -> {
      networkAvailable = true;
      connect();
    });
  }

  void networkLost() {
    worker.execute(this::onNetworkLost);
  }

  /** Runs {@code task} on the worker thread, after everything posted before it. */
  void execute(Runnable task) {
    worker.execute(task);
  }

  /**
   * The device token is gone (none stored, refresh token refused, stored token undecryptable):
   * {@link AgentConstants#ERROR_NOT_AUTHORIZED}, once until the next connection.
   */
  void notAuthorized(String why) {
    worker.execute(() -> reportNotAuthorized(why));
  }

  /** The error text of a device that is not signed in. */
  String notSignedIn() {
    return notSignedIn;
  }

  /**
   * The device signed in (or the app gave its token manager a record): connect with it, whether the
   * channel gave up for want of a token or not, and report a lost sign-in again when it happens. A
   * connection made, or being made, with the credential before is that one's (its uid is another
   * user's, perhaps): it ends, and a new one starts with this credential.
   */
  void signedIn() {
    worker.execute(() -> {
      notAuthorizedReported = false;
      closeChannel();
      lostConnection();
      connect();
    });
  }

  /**
   * The token source has a token again without a sign-in (another manager of its store refreshed the
   * credential, or the store read again a record it had lost): if a lost authorization stopped the
   * connection, it starts again; an attempt that asked for a token before this news and fails for
   * want of one is followed by one more.
   */
  void tokenBack() {
    worker.execute(() -> {
      if (uid == null) tokenCameBack = true;
      if (!notAuthorizedReported) return;
      notAuthorizedReported = false; // a later loss is reported again, connected or not
      connect(); // no effect while connected
    });
  }

  /** The device signed out: the connection made with its token ends now. */
  void signedOut() {
    worker.execute(() -> {
      tokenCameBack = false;
      closeChannel();
      lostConnection();
    });
  }

  @Override public boolean isDestroyed() {
    return destroyed;
  }

  /**
   * Fails pending commands with {@link AgentConstants#ERROR_DESTROYED}, cancels their calls, closes
   * the channel and stops the worker thread.
   */
  void destroy() {
    synchronized (lifecycle) {
      if (destroyed) return;
      destroyed = true;
      worker.stop(this::shutdown);
    }
  }

  /** For tests: see {@link AgentWorker#awaitIdle}. */
  boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
    return worker.awaitIdle(timeout, unit);
  }

  /** For tests: see {@link AgentWorker#awaitWorkerIdle}. */
  boolean awaitWorkerIdle(long timeout, TimeUnit unit) throws InterruptedException {
    return worker.awaitWorkerIdle(timeout, unit);
  }

  /** For tests: the remembered upload times, to be sure they stay bounded. */
  List<String> rememberedUploads() {
    return sync.rememberedUploads();
  }

  private void handle(AgentMessage message) {
    switch (message.msgType()) {
      case CMD_SYNC:
        sync.handle(message, uid);
        connectAgainIfStopped();
        break;
      case CMD_QUERY_SYNC_STATUS:
        query.handle(message, uid != null);
        connectAgainIfStopped();
        break;
      case CMD_SET_PARAMS:
        setParams.handle(message);
        break;
      case CMD_WRITE:
        if (write.handle(message, uid == null ? null : channel)) updateState();
        connectAgainIfStopped();
        break;
      default:
        out.error(ERROR_UNSUPPORTED, "msgType " + message.msgType() + " is not supported; send"
            + " CMD_WRITE (2), CMD_SET_PARAMS (10), CMD_SYNC (13) or CMD_QUERY_SYNC_STATUS (24)",
            EventData.of(KEY_CMD, message.msgType()));
    }
  }

  /**
   * After a command that needs the connection (refused if there is none): when the channel gave up,
   * or the authorization was lost, one more bounded row of attempts, as a network that comes back
   * starts. The app wants to talk while the network stayed up; after a lost authorization, an app's
   * own TokenSource may have a token again, and only a TokenManager tells of its sign-ins.
   */
  private void connectAgainIfStopped() {
    if (reconnectGaveUp || notAuthorizedReported) connect();
  }

  // The interaction channel

  private void connect() {
    // Destroyed: the shutdown is queued, and the channel may be closed with the Agent's own client.
    if (destroyed || worker.isClosed() || !networkAvailable) return;
    reconnectGaveUp = false;
    try {
      if (channel == null) {
        if (deferredConnect != null) return;
        long serverWaitNanos = serverWaitEndsNanos - clock.monotonicNanos();
        if (serverWaitEndsNanos != Long.MIN_VALUE && serverWaitNanos > 0) {
          deferredConnect = scheduler.schedule(() -> worker.execute(() -> {
            deferredConnect = null;
            connect();
          }), serverWaitNanos, TimeUnit.NANOSECONDS);
          return;
        }
        channel = channels.create(new ChannelEvents(++generation));
      }
      channel.connect(); // no effect while connecting or connected
    } catch (IllegalStateException e) {
      // destroy() came meanwhile and closed the Agent's own client: the shutdown queued ends it all.
      if (!destroyed) throw e;
    }
  }

  /** Hears one channel instance; its news is ignored once that instance was replaced. */
  private final class ChannelEvents implements InteractionChannel.Listener {
    private final int gen;

    ChannelEvents(int gen) {
      this.gen = gen;
    }

    @Override public void onConnected(String connectedUid) {
      onCurrent(() -> {
        uid = connectedUid;
        serverWaitEndsNanos = Long.MIN_VALUE;
        notAuthorizedReported = false;
        tokenCameBack = false;
        out.emit(EVENT_CONNECTED_TO_SERVER, 0, 0, "", EventData.connected(connectedUid));
        updateState();
      });
    }

    @Override public void onResult(InteractionResult result) {
      onCurrent(() -> {
        write.result(result);
        updateState();
      });
    }

    @Override public void onWriteError(int seq, String code, String description) {
      onCurrent(() -> {
        write.refused(seq, code, description);
        updateState();
      });
    }

    @Override public void onDisconnected(Disconnect disconnect) {
      onCurrent(() -> {
        // The channel may have connected again and taken a CMD_WRITE before this news reached the
        // worker: only the writes made on the lost connection are lost.
        lostConnection(disconnect.lastSeq());
        if (disconnect.reconnecting()) return;
        boolean wantedAToken = disconnect.cause() == Disconnect.Cause.NOT_SIGNED_IN
            || disconnect.cause() == Disconnect.Cause.TOKEN_REFUSED;
        if (wantedAToken && tokenCameBack) {
          tokenCameBack = false;
          connect();
        } else if (disconnect.cause() == Disconnect.Cause.NOT_SIGNED_IN) {
          reportNotAuthorized(notSignedIn);
        } else if (disconnect.cause() == Disconnect.Cause.TOKEN_REFUSED) {
          reportNotAuthorized("The device token was refused (" + disconnect.detail()
              + "). Sign in again (Agent.signIn).");
        } else {
          reconnectGaveUp = true;
          out.error(ERROR_RECONNECT_GAVE_UP, "Gave up connecting (" + disconnect.detail()
              + "); trying again when the network comes back or at the next CMD_WRITE, CMD_SYNC or"
              + " CMD_QUERY_SYNC_STATUS",
              EventData.none());
        }
      });
    }

    /** Runs {@code task} on the worker thread if this channel is still the current one. */
    private void onCurrent(Runnable task) {
      worker.execute(() -> {
        if (gen == generation) task.run();
      });
    }
  }

  private void reportNotAuthorized(String why) {
    if (notAuthorizedReported) return;
    notAuthorizedReported = true;
    Log.warn(TAG, why, null);
    out.error(ERROR_NOT_AUTHORIZED, why, EventData.none());
  }

  /** The connection is gone, with the channel that made it: fails its writes and tells the app. */
  private void lostConnection() {
    lostConnection(Integer.MAX_VALUE);
  }

  /** The connection is gone: fails its writes, numbered up to {@code lastSeq}, and tells the app. */
  private void lostConnection(int lastSeq) {
    boolean wasConnected = uid != null;
    uid = null;
    write.failUpTo(lastSeq, ERROR_CONNECTION_LOST,
        "the connection to the server was lost before the result");
    if (wasConnected) {
      out.emit(EVENT_SERVER_DISCONNECTED, 0, 0, "", EventData.none());
    }
    updateState();
  }

  private void onNetworkLost() {
    if (!networkAvailable) return;
    networkAvailable = false;
    // Without a network the socket is dead even if no ping has noticed yet: drop it now, and start
    // a fresh channel (with fresh reconnect attempts) when a network is back.
    closeChannel();
    lostConnection();
  }

  private void closeChannel() {
    generation++;
    if (deferredConnect != null) {
      deferredConnect.cancel();
      deferredConnect = null;
    }
    if (channel != null) {
      // The server's wait binds the Agent, not one channel: the next channel keeps to it. Read from
      // the channel, it is known even when its refusal's news has not reached this worker yet (a
      // network lost just after the refusal), news that closing the channel drops.
      long serverWaitMillis = channel.serverWaitMillis();
      if (serverWaitMillis > 0) {
        serverWaitEndsNanos = clock.monotonicNanos() + TimeUnit.MILLISECONDS.toNanos(serverWaitMillis);
      }
      channel.close();
      channel = null;
    }
  }

  private void shutdown() {
    pending.destroyAll();
    write.failAll(ERROR_DESTROYED, "the Agent was destroyed before the result");
    closeChannel();
  }

  private void updateState() {
    int now = uid == null ? STATE_IDLE : write.isEmpty() ? STATE_READY : STATE_WORKING;
    if (now != state) {
      state = now;
      out.emit(EVENT_STATE, now, 0, "", EventData.none());
    }
  }
}
