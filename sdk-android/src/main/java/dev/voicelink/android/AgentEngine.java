package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_QUERY_SYNC_STATUS;
import static dev.voicelink.android.AgentConstants.CMD_SET_PARAMS;
import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.CMD_WRITE;
import static dev.voicelink.android.AgentConstants.ERROR_CONNECTION_LOST;
import static dev.voicelink.android.AgentConstants.ERROR_DESTROYED;
import static dev.voicelink.android.AgentConstants.ERROR_ENTITY_NOT_CONFIGURED;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_NETWORK;
import static dev.voicelink.android.AgentConstants.ERROR_NOT_AUTHORIZED;
import static dev.voicelink.android.AgentConstants.ERROR_NOT_CONNECTED;
import static dev.voicelink.android.AgentConstants.ERROR_RECONNECT_GAVE_UP;
import static dev.voicelink.android.AgentConstants.ERROR_SERVER_REFUSED;
import static dev.voicelink.android.AgentConstants.ERROR_UNSUPPORTED;
import static dev.voicelink.android.AgentConstants.EVENT_CMD_RETURN;
import static dev.voicelink.android.AgentConstants.EVENT_CONNECTED_TO_SERVER;
import static dev.voicelink.android.AgentConstants.EVENT_ERROR;
import static dev.voicelink.android.AgentConstants.EVENT_RESULT;
import static dev.voicelink.android.AgentConstants.EVENT_SERVER_DISCONNECTED;
import static dev.voicelink.android.AgentConstants.EVENT_STATE;
import static dev.voicelink.android.AgentConstants.KEY_CMD;
import static dev.voicelink.android.AgentConstants.KEY_CODE;
import static dev.voicelink.android.AgentConstants.KEY_DATA_TYPE;
import static dev.voicelink.android.AgentConstants.KEY_DESC;
import static dev.voicelink.android.AgentConstants.KEY_RESULT;
import static dev.voicelink.android.AgentConstants.KEY_SEQ;
import static dev.voicelink.android.AgentConstants.KEY_SID;
import static dev.voicelink.android.AgentConstants.KEY_SYNC_DTYPE;
import static dev.voicelink.android.AgentConstants.KEY_TAG;
import static dev.voicelink.android.AgentConstants.KEY_UID;
import static dev.voicelink.android.AgentConstants.STATE_IDLE;
import static dev.voicelink.android.AgentConstants.STATE_READY;
import static dev.voicelink.android.AgentConstants.STATE_WORKING;
import static dev.voicelink.android.AgentConstants.SUCCESS;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_QUERY;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;

import dev.voicelink.core.internal.NamedThreads;
import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.internal.Log;
import dev.voicelink.interact.Disconnect;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The agent's logic, free of Android classes. Every piece of state is confined to one worker thread:
 * {@link #send}, network changes, channel callbacks, timers and finished I/O all become tasks on it.
 * Blocking work (web API calls) runs on a small I/O pool and posts its outcome back. The connection
 * itself (token, reconnects, the message set) is sdk-core's {@link InteractionChannel}; the engine only
 * maps it to commands and events.
 */
final class AgentEngine {
  private static final String TAG = "VoiceLinkAgent";
  private static final Charset UTF_8 = Charset.forName("UTF-8");
  static final long QUERY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final int MAX_REMEMBERED_UPLOADS = 256;

  private final AgentConfig config;
  private final ChannelFactory channels;
  private final @Nullable EntityBackend entities;
  private final String entitiesMissing;
  private final Clock clock;
  private final Scheduler scheduler;
  private final EventSink sink;
  private final ExecutorService worker;
  private final ThreadPoolExecutor io;
  private volatile boolean destroyed;

  // Confined to the worker thread.
  private @Nullable InteractionChannel channel;
  private int generation;
  private @Nullable String uid;
  private boolean networkAvailable = true;
  /** pers_param of voice writes set by CMD_SET_PARAMS: null if never set, "" once cleared. */
  private @Nullable String setParamsPersParam;
  private int state = STATE_IDLE;
  private boolean closed;
  private boolean notAuthorizedReported;
  private final Map<Integer, PendingWrite> writes = new LinkedHashMap<>();
  private final Set<PendingCommand> commands = new LinkedHashSet<>();
  private final Map<String, Long> uploadedAtNanos = new LinkedHashMap<String, Long>() {
    private static final long serialVersionUID = 1L;

    @Override protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > MAX_REMEMBERED_UPLOADS;
    }
  };

  AgentEngine(AgentConfig config, ChannelFactory channels, @Nullable EntityBackend entities,
      String entitiesMissing, Clock clock, Scheduler scheduler, EventSink sink) {
    this.config = config;
    this.channels = channels;
    this.entities = entities;
    this.entitiesMissing = entitiesMissing;
    this.clock = clock;
    this.scheduler = scheduler;
    this.sink = sink;
    this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<Runnable>(), new NamedThreads("voicelink-agent"));
    this.io = new ThreadPoolExecutor(3, 3, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<Runnable>(), new NamedThreads("voicelink-agent-io"));
    this.io.allowCoreThreadTimeOut(true);
  }

  /** Starts connecting; {@code online} is whether the device has a network now. */
  void start(final boolean online) {
    post(new Runnable() {
      @Override public void run() {
        networkAvailable = online;
        connect();
      }
    });
  }

  void send(final AgentMessage message) {
    if (destroyed) {
      throw new IllegalStateException("Agent was destroyed; create a new Agent to send "
          + commandName(message.msgType()));
    }
    post(new Runnable() {
      @Override public void run() {
        handle(message);
      }
    });
  }

  void networkAvailable() {
    post(new Runnable() {
      @Override public void run() {
        onNetworkAvailable();
      }
    });
  }

  void networkLost() {
    post(new Runnable() {
      @Override public void run() {
        onNetworkLost();
      }
    });
  }

  /** Runs {@code task} on the worker thread, after everything posted before it. */
  void execute(Runnable task) {
    post(task);
  }

  /**
   * The device token is gone (none stored, refresh token refused, stored token undecryptable):
   * {@link AgentConstants#ERROR_NOT_AUTHORIZED}, once until the next connection.
   */
  void notAuthorized(final String why) {
    post(new Runnable() {
      @Override public void run() {
        reportNotAuthorized(why);
      }
    });
  }

  boolean isDestroyed() {
    return destroyed;
  }

  /** Fails pending commands with {@link AgentConstants#ERROR_DESTROYED}, closes and stops the threads. */
  void destroy() {
    if (destroyed) return;
    destroyed = true;
    post(new Runnable() {
      @Override public void run() {
        shutdown();
      }
    });
  }

  private void post(final Runnable task) {
    try {
      worker.execute(new Runnable() {
        @Override public void run() {
          if (closed) return;
          try {
            task.run();
          } catch (RuntimeException e) {
            Log.error(TAG, "agent task failed", e);
          }
        }
      });
    } catch (RejectedExecutionException ignored) {
      // Destroyed: late I/O outcomes and channel callbacks have nobody left to tell.
    }
  }

  private void handle(AgentMessage message) {
    switch (message.msgType()) {
      case CMD_SYNC:
        sync(message);
        break;
      case CMD_QUERY_SYNC_STATUS:
        query(message);
        break;
      case CMD_SET_PARAMS:
        setParams(message);
        break;
      case CMD_WRITE:
        write(message);
        break;
      default:
        emit(EVENT_ERROR, ERROR_UNSUPPORTED, 0, "msgType " + message.msgType() + " is not supported;"
            + " send CMD_WRITE (2), CMD_SET_PARAMS (10), CMD_SYNC (13) or CMD_QUERY_SYNC_STATUS (24)",
            data(KEY_CMD, message.msgType()));
    }
  }

  // CMD_SYNC

  private void sync(AgentMessage message) {
    String tag;
    try {
      tag = CommandParams.tag(message.params(), "CMD_SYNC");
    } catch (IllegalArgumentException e) {
      cmdReturn(CMD_SYNC, ERROR_INVALID_PARAMS, e.getMessage(), syncData(null, null));
      return;
    }
    if (message.arg1() != SYNC_DATA_SCHEMA) {
      cmdReturn(CMD_SYNC, ERROR_INVALID_PARAMS, "CMD_SYNC arg1 must be SYNC_DATA_SCHEMA (3); was "
          + message.arg1(), syncData(null, tag));
      return;
    }
    String connectedUid = uid;
    if (connectedUid == null) {
      cmdReturn(CMD_SYNC, ERROR_NOT_CONNECTED, "CMD_SYNC refused: not connected to the server; send"
          + " it after EVENT_CONNECTED_TO_SERVER. Nothing was sent.", syncData(null, tag));
      return;
    }
    final SyncRequest request;
    try {
      request = CommandParams.syncRequest(message.dataUnsafe(), connectedUid, config.appid());
    } catch (IllegalArgumentException e) {
      cmdReturn(CMD_SYNC, ERROR_INVALID_PARAMS, e.getMessage(), syncData(null, tag));
      return;
    }
    final EntityBackend backend = entities;
    if (backend == null) {
      cmdReturn(CMD_SYNC, ERROR_ENTITY_NOT_CONFIGURED, entitiesMissing, syncData(null, tag));
      return;
    }
    final PendingCommand pending = new PendingCommand(CMD_SYNC, tag, null);
    commands.add(pending);
    io(new Runnable() {
      @Override public void run() {
        try {
          final String sid = pending.run(backend.upload(request));
          final long uploadedAt = clock.monotonicNanos();
          post(new Runnable() {
            @Override public void run() {
              if (!commands.remove(pending)) return;
              uploadedAtNanos.put(sid, uploadedAt);
              cmdReturn(CMD_SYNC, SUCCESS, "", syncData(sid, pending.tag));
            }
          });
        } catch (final Exception e) {
          post(new Runnable() {
            @Override public void run() {
              if (!commands.remove(pending)) return;
              fail(pending, e);
            }
          });
        }
      }
    });
  }

  // CMD_QUERY_SYNC_STATUS

  private void query(AgentMessage message) {
    String tag = null;
    String sid;
    try {
      tag = CommandParams.tag(message.params(), "CMD_QUERY_SYNC_STATUS");
      sid = CommandParams.sid(message.params());
    } catch (IllegalArgumentException e) {
      cmdReturn(CMD_QUERY_SYNC_STATUS, ERROR_INVALID_PARAMS, e.getMessage(), queryData(null, tag));
      return;
    }
    if (message.arg1() != SYNC_DATA_SCHEMA) {
      cmdReturn(CMD_QUERY_SYNC_STATUS, ERROR_INVALID_PARAMS, "CMD_QUERY_SYNC_STATUS arg1 must be "
          + "SYNC_DATA_SCHEMA (3); was " + message.arg1(), queryData(sid, tag));
      return;
    }
    if (uid == null) {
      cmdReturn(CMD_QUERY_SYNC_STATUS, ERROR_NOT_CONNECTED, "CMD_QUERY_SYNC_STATUS refused: not "
          + "connected to the server; send it after EVENT_CONNECTED_TO_SERVER. Nothing was sent.",
          queryData(sid, tag));
      return;
    }
    if (entities == null) {
      cmdReturn(CMD_QUERY_SYNC_STATUS, ERROR_ENTITY_NOT_CONFIGURED, entitiesMissing,
          queryData(sid, tag));
      return;
    }
    final PendingCommand pending = new PendingCommand(CMD_QUERY_SYNC_STATUS, tag, sid);
    commands.add(pending);
    Long uploadedAt = uploadedAtNanos.get(sid);
    long waitNanos = uploadedAt == null ? 0 : uploadedAt + QUERY_WAIT_NANOS - clock.monotonicNanos();
    if (waitNanos <= 0) {
      runQuery(pending);
    } else {
      // The platform answers "not processed" to early checks; the spec asks callers to wait, so we do.
      pending.timer = scheduler.schedule(new Runnable() {
        @Override public void run() {
          post(new Runnable() {
            @Override public void run() {
              runQuery(pending);
            }
          });
        }
      }, waitNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void runQuery(final PendingCommand pending) {
    if (!commands.contains(pending)) return;
    final EntityBackend backend = entities;
    final String sid = pending.sid;
    if (backend == null || sid == null) return;
    io(new Runnable() {
      @Override public void run() {
        try {
          final String result = pending.run(backend.check(sid));
          post(new Runnable() {
            @Override public void run() {
              if (!commands.remove(pending)) return;
              Map<String, Object> data = queryData(sid, pending.tag);
              data.put(KEY_RESULT, result);
              cmdReturn(CMD_QUERY_SYNC_STATUS, SUCCESS, "", data);
            }
          });
        } catch (final Exception e) {
          post(new Runnable() {
            @Override public void run() {
              if (!commands.remove(pending)) return;
              fail(pending, e);
            }
          });
        }
      }
    });
  }

  // CMD_SET_PARAMS

  private void setParams(AgentMessage message) {
    try {
      String persParam = CommandParams.setParamsPersParam(message.params());
      if (persParam != null) setParamsPersParam = persParam;
    } catch (IllegalArgumentException e) {
      emit(EVENT_ERROR, ERROR_INVALID_PARAMS, 0, e.getMessage(), data(KEY_CMD, CMD_SET_PARAMS));
    }
  }

  // CMD_WRITE

  private void write(AgentMessage message) {
    Map<String, String> params;
    String dataType;
    String tag = null;
    int sampleRate = 16000;
    String persParam;
    try {
      params = WriteParams.parse(message.params());
      tag = params.get("tag");
      dataType = params.get("data_type");
      if (dataType == null) {
        throw new IllegalArgumentException("CMD_WRITE param data_type is required: data_type=audio or"
            + " data_type=text");
      }
      if (!dataType.equals("audio") && !dataType.equals("text")) {
        throw new IllegalArgumentException("CMD_WRITE param data_type must be audio or text; was: "
            + dataType);
      }
      String rate = params.get("sample_rate");
      if (rate != null) sampleRate = sampleRate(rate);
      persParam = params.get("pers_param");
      if (persParam != null) JsonObjects.parseObject(persParam, "CMD_WRITE param pers_param");
      if (message.dataLength() == 0) {
        throw new IllegalArgumentException("CMD_WRITE data is required: the " + (dataType.equals("text")
            ? "UTF-8 text" : "audio bytes") + " to send");
      }
    } catch (IllegalArgumentException e) {
      emit(EVENT_ERROR, ERROR_INVALID_PARAMS, 0, e.getMessage(), writeData(null, null, tag));
      return;
    }
    InteractionChannel current = channel;
    if (uid == null || current == null) {
      emit(EVENT_ERROR, ERROR_NOT_CONNECTED, 0, "CMD_WRITE refused: not connected to the server; send"
          + " it after EVENT_CONNECTED_TO_SERVER. Nothing was sent.", writeData(null, dataType, tag));
      return;
    }
    if (persParam == null && dataType.equals("audio")) {
      // Set-params and the config's audioparams activate entities for voice only (spec 4.10).
      persParam = setParamsPersParam == null ? config.audioPersParam()
          : setParamsPersParam.isEmpty() ? null : setParamsPersParam;
    }
    byte[] data = message.dataUnsafe();
    int seq;
    try {
      seq = dataType.equals("text")
          ? current.writeText(new String(data, UTF_8), persParam)
          : current.writeAudio(data, sampleRate, persParam);
    } catch (IllegalStateException e) {
      // The socket dropped a moment ago; its onDisconnected is on its way to this thread.
      emit(EVENT_ERROR, ERROR_NOT_CONNECTED, 0, "CMD_WRITE refused: the connection to the server was"
          + " just lost. Nothing was sent.", writeData(null, dataType, tag));
      return;
    }
    writes.put(seq, new PendingWrite(seq, dataType, tag));
    updateState();
  }

  private static int sampleRate(String text) {
    try {
      int rate = Integer.parseInt(text);
      if (rate > 0) return rate;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("CMD_WRITE param sample_rate must be a positive integer such as"
        + " 16000; was: " + text);
  }

  // The interaction channel

  private void connect() {
    if (closed || !networkAvailable) return;
    if (channel == null) {
      final int gen = ++generation;
      channel = channels.create(new ChannelEvents(gen));
    }
    channel.connect(); // no effect while connecting or connected
  }

  /** Hears one channel instance; its news is ignored once that instance was replaced. */
  private final class ChannelEvents implements InteractionChannel.Listener {
    private final int gen;

    ChannelEvents(int gen) {
      this.gen = gen;
    }

    @Override public void onConnected(final String connectedUid) {
      post(new Runnable() {
        @Override public void run() {
          if (gen != generation) return;
          uid = connectedUid;
          notAuthorizedReported = false;
          emit(EVENT_CONNECTED_TO_SERVER, 0, 0, "", data(KEY_UID, connectedUid));
          updateState();
        }
      });
    }

    @Override public void onResult(final InteractionResult result) {
      post(new Runnable() {
        @Override public void run() {
          if (gen != generation) return;
          PendingWrite write = writes.remove(result.seq());
          if (write == null) {
            Log.warn(TAG, "ignored a result for no pending write: seq " + result.seq(), null);
            return;
          }
          Map<String, Object> data = writeData(write.seq, write.dataType, write.tag);
          data.put(KEY_RESULT, result.json());
          emit(EVENT_RESULT, 0, 0, result.json(), data);
          updateState();
        }
      });
    }

    @Override public void onWriteError(final int seq, final String code, final String description) {
      post(new Runnable() {
        @Override public void run() {
          if (gen != generation) return;
          PendingWrite write = writes.remove(seq);
          Map<String, Object> data = write == null ? new LinkedHashMap<String, Object>()
              : writeData(write.seq, write.dataType, write.tag);
          data.put(KEY_CODE, code);
          data.put(KEY_DESC, description);
          emit(EVENT_ERROR, ERROR_SERVER_REFUSED, 0, (write == null ? "the server reported"
              : "write " + write.seq + " refused") + ": " + code
              + (description.isEmpty() ? "" : ": " + description), data);
          updateState();
        }
      });
    }

    @Override public void onDisconnected(final Disconnect disconnect) {
      post(new Runnable() {
        @Override public void run() {
          if (gen != generation) return;
          lostConnection();
          if (disconnect.reconnecting()) return;
          if (disconnect.cause() == Disconnect.Cause.NOT_SIGNED_IN) {
            reportNotAuthorized(NO_TOKEN);
          } else if (disconnect.cause() == Disconnect.Cause.TOKEN_REFUSED) {
            reportNotAuthorized("The device token was refused (" + disconnect.detail()
                + "). Authorize the device again, then create a new Agent.");
          } else {
            emit(EVENT_ERROR, ERROR_RECONNECT_GAVE_UP, 0, "Gave up connecting ("
                + disconnect.detail() + "); trying again when the network comes back",
                new LinkedHashMap<String, Object>());
          }
        }
      });
    }
  }

  static final String NO_TOKEN = "device not authorized: run the device flow (DeviceAuthorizer) and "
      + "TokenManager.setRecord, then create a new Agent";

  private void reportNotAuthorized(String why) {
    if (notAuthorizedReported) return;
    notAuthorizedReported = true;
    emit(EVENT_ERROR, ERROR_NOT_AUTHORIZED, 0, why, new LinkedHashMap<String, Object>());
  }

  /** The connection is gone: fails its writes and tells the app. */
  private void lostConnection() {
    boolean wasConnected = uid != null;
    uid = null;
    failWrites(ERROR_CONNECTION_LOST, "the connection to the server was lost before the result");
    if (wasConnected) {
      emit(EVENT_SERVER_DISCONNECTED, 0, 0, "", new LinkedHashMap<String, Object>());
    }
    updateState();
  }

  private void onNetworkAvailable() {
    networkAvailable = true;
    connect();
  }

  private void onNetworkLost() {
    if (!networkAvailable) return;
    networkAvailable = false;
    // Without a network the socket is dead even if no ping has noticed yet: drop it now, and start
    // a fresh channel (with fresh reconnect attempts) when a network is back.
    generation++;
    if (channel != null) {
      channel.close();
      channel = null;
    }
    lostConnection();
  }

  private void shutdown() {
    for (PendingCommand pending : new ArrayList<>(commands)) {
      if (pending.timer != null) pending.timer.cancel();
      pending.cancel();
      Map<String, Object> data = pending.command == CMD_SYNC
          ? syncData(null, pending.tag) : queryData(pending.sid, pending.tag);
      cmdReturn(pending.command, ERROR_DESTROYED, "the Agent was destroyed before "
          + commandName(pending.command) + " completed", data);
    }
    commands.clear();
    failWrites(ERROR_DESTROYED, "the Agent was destroyed before the result");
    generation++;
    if (channel != null) {
      channel.close();
      channel = null;
    }
    closed = true;
    worker.shutdown();
    io.shutdownNow();
  }

  // Helpers

  private void failWrites(int code, String why) {
    for (Iterator<PendingWrite> i = writes.values().iterator(); i.hasNext(); ) {
      PendingWrite write = i.next();
      i.remove();
      emit(EVENT_ERROR, code, 0, "write " + write.seq + ": " + why,
          writeData(write.seq, write.dataType, write.tag));
    }
  }

  private void fail(PendingCommand pending, Exception e) {
    Map<String, Object> data = pending.command == CMD_SYNC
        ? syncData(null, pending.tag) : queryData(pending.sid, pending.tag);
    int code;
    if (e instanceof ServerRefusalException) {
      ServerRefusalException refusal = (ServerRefusalException) e;
      code = ERROR_SERVER_REFUSED;
      data.put(KEY_CODE, refusal.code());
      data.put(KEY_DESC, refusal.description());
      if (refusal.sid() != null && !data.containsKey(KEY_SID)) data.put(KEY_SID, refusal.sid());
    } else if (e instanceof IOException) {
      code = ERROR_NETWORK;
    } else if (e instanceof IllegalArgumentException) {
      code = ERROR_INVALID_PARAMS;
    } else {
      Log.error(TAG, commandName(pending.command) + " failed unexpectedly", e);
      code = ERROR_NETWORK;
    }
    String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    cmdReturn(pending.command, code, commandName(pending.command) + " failed: " + message, data);
  }

  private void cmdReturn(int command, int code, String info, Map<String, Object> data) {
    emit(EVENT_CMD_RETURN, command, code, info, data);
  }

  private void updateState() {
    int now = uid == null ? STATE_IDLE : writes.isEmpty() ? STATE_READY : STATE_WORKING;
    if (now != state) {
      state = now;
      emit(EVENT_STATE, now, 0, "", new LinkedHashMap<String, Object>());
    }
  }

  private void emit(int type, int arg1, int arg2, String info, Map<String, Object> data) {
    if (closed) return;
    sink.emit(type, arg1, arg2, info, Collections.unmodifiableMap(data));
  }

  private void io(Runnable task) {
    try {
      io.execute(task);
    } catch (RejectedExecutionException ignored) {
      // Destroyed meanwhile; shutdown() has answered every pending command.
    }
  }

  private static Map<String, Object> data(String key, Object value) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put(key, value);
    return data;
  }

  private static Map<String, Object> syncData(@Nullable String sid, @Nullable String tag) {
    Map<String, Object> data = data(KEY_SYNC_DTYPE, SYNC_DATA_SCHEMA);
    if (sid != null) data.put(KEY_SID, sid);
    if (tag != null) data.put(KEY_TAG, tag);
    return data;
  }

  private static Map<String, Object> queryData(@Nullable String sid, @Nullable String tag) {
    Map<String, Object> data = data(KEY_SYNC_DTYPE, SYNC_DATA_QUERY);
    if (sid != null) data.put(KEY_SID, sid);
    if (tag != null) data.put(KEY_TAG, tag);
    return data;
  }

  private static Map<String, Object> writeData(@Nullable Integer seq, @Nullable String dataType,
      @Nullable String tag) {
    Map<String, Object> data = data(KEY_CMD, CMD_WRITE);
    if (seq != null) data.put(KEY_SEQ, seq);
    if (dataType != null) data.put(KEY_DATA_TYPE, dataType);
    if (tag != null) data.put(KEY_TAG, tag);
    return data;
  }

  static String commandName(int msgType) {
    switch (msgType) {
      case CMD_WRITE:
        return "CMD_WRITE";
      case CMD_SET_PARAMS:
        return "CMD_SET_PARAMS";
      case CMD_SYNC:
        return "CMD_SYNC";
      case CMD_QUERY_SYNC_STATUS:
        return "CMD_QUERY_SYNC_STATUS";
      default:
        return "msgType " + msgType;
    }
  }

  private static final class PendingCommand {
    final int command;
    final @Nullable String tag;
    final @Nullable String sid;
    @Nullable Cancellable timer;
    private @Nullable VoiceLinkCall<String> call;
    private boolean cancelled;

    PendingCommand(int command, @Nullable String tag, @Nullable String sid) {
      this.command = command;
      this.tag = tag;
      this.sid = sid;
    }

    /** Runs {@code next} on the calling I/O thread, unless the command was already cancelled. */
    String run(VoiceLinkCall<String> next) throws IOException, ServerRefusalException {
      synchronized (this) {
        if (cancelled) next.cancel();
        call = next;
      }
      return next.execute();
    }

    /** Aborts the web API call of this command, if one is running. */
    synchronized void cancel() {
      cancelled = true;
      if (call != null) call.cancel();
    }
  }

  private static final class PendingWrite {
    final int seq;
    final String dataType;
    final @Nullable String tag;

    PendingWrite(int seq, String dataType, @Nullable String tag) {
      this.seq = seq;
      this.dataType = dataType;
      this.tag = tag;
    }
  }

  /** For tests: the remembered upload times, to be sure they stay bounded. */
  List<String> rememberedUploads() {
    return new ArrayList<>(uploadedAtNanos.keySet());
  }
}
