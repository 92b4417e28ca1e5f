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

import dev.voicelink.android.internal.Backoff;
import dev.voicelink.android.internal.JsonObjects;
import dev.voicelink.android.internal.NamedThreads;
import dev.voicelink.android.internal.WriteParams;
import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.internal.Json;
import dev.voicelink.core.internal.Log;
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
import javax.annotation.Nullable;
import okio.ByteString;

/**
 * The agent's logic, free of Android classes. Every piece of state is confined to one worker thread:
 * {@link #send}, network changes, channel callbacks, timers and finished I/O all become tasks on it.
 * Blocking work (token refresh, web API calls) runs on a small I/O pool and posts its outcome back.
 */
final class AgentEngine {
  private static final String TAG = "VoiceLinkAgent";
  private static final Charset UTF_8 = Charset.forName("UTF-8");
  static final long QUERY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
  /** Consecutive failed connection attempts after which reconnecting stops until the network returns. */
  static final int MAX_CONNECT_ATTEMPTS = 8;
  static final int AUDIO_CHUNK_BYTES = 32 * 1024;
  private static final int MAX_REMEMBERED_UPLOADS = 256;

  private final AgentConfig config;
  private final Channel.Connector connector;
  private final ChannelTokens tokens;
  private final @Nullable EntityBackend entities;
  private final String entitiesMissing;
  private final Clock clock;
  private final Scheduler scheduler;
  private final Backoff backoff;
  private final EventSink sink;
  private final ExecutorService worker;
  private final ThreadPoolExecutor io;
  private volatile boolean destroyed;

  // Confined to the worker thread.
  private @Nullable Channel channel;
  private @Nullable String channelToken;
  private int generation;
  private boolean connecting;
  private @Nullable String uid;
  private boolean networkAvailable = true;
  private int failedAttempts;
  private @Nullable Cancellable reconnectTask;
  private @Nullable String setParamsPersParam;
  private int nextSeq = 1;
  private int state = STATE_IDLE;
  private boolean closed;
  private final Map<Integer, PendingWrite> writes = new LinkedHashMap<>();
  private final Set<PendingCommand> commands = new LinkedHashSet<>();
  private final Map<String, Long> uploadedAtNanos = new LinkedHashMap<String, Long>() {
    private static final long serialVersionUID = 1L;

    @Override protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > MAX_REMEMBERED_UPLOADS;
    }
  };

  AgentEngine(AgentConfig config, Channel.Connector connector, ChannelTokens tokens,
      @Nullable EntityBackend entities, String entitiesMissing, Clock clock, Scheduler scheduler,
      Backoff backoff, EventSink sink) {
    this.config = config;
    this.connector = connector;
    this.tokens = tokens;
    this.entities = entities;
    this.entitiesMissing = entitiesMissing;
    this.clock = clock;
    this.scheduler = scheduler;
    this.backoff = backoff;
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
          final String sid = backend.upload(request);
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
          final String result = backend.check(sid);
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
      setParamsPersParam = CommandParams.setParamsPersParam(message.params());
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
    Channel current = channel;
    if (uid == null || current == null) {
      emit(EVENT_ERROR, ERROR_NOT_CONNECTED, 0, "CMD_WRITE refused: not connected to the server; send"
          + " it after EVENT_CONNECTED_TO_SERVER. Nothing was sent.", writeData(null, dataType, tag));
      return;
    }
    if (persParam == null && dataType.equals("audio")) {
      // Set-params and the config's audioparams activate entities for voice only (spec 4.10).
      persParam = setParamsPersParam != null ? setParamsPersParam : config.audioPersParam();
    }
    int seq = nextSeq++;
    writes.put(seq, new PendingWrite(seq, dataType, tag));
    byte[] data = message.dataUnsafe();
    Map<String, Object> frame = new LinkedHashMap<>();
    frame.put("type", "write");
    frame.put("data_type", dataType);
    if (dataType.equals("text")) {
      frame.put("text", new String(data, UTF_8));
    } else {
      frame.put("sample_rate", sampleRate);
    }
    if (persParam != null) frame.put("pers_param", persParam);
    frame.put("seq", seq);
    boolean sent = current.sendText(toJson(frame));
    if (dataType.equals("audio")) {
      for (int offset = 0; sent && offset < data.length; offset += AUDIO_CHUNK_BYTES) {
        int count = Math.min(AUDIO_CHUNK_BYTES, data.length - offset);
        sent = current.sendBinary(ByteString.of(data, offset, count));
      }
      Map<String, Object> end = new LinkedHashMap<>();
      end.put("type", "end");
      end.put("seq", seq);
      if (sent) current.sendText(toJson(end));
    }
    // A refused send means the socket is closing: its close callback fails this write.
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
    if (closed || channel != null || connecting || !networkAvailable) return;
    connecting = true;
    final int gen = ++generation;
    io(new Runnable() {
      @Override public void run() {
        final String token;
        try {
          token = tokens.accessToken();
        } catch (IOException e) {
          connectFailed(gen, e);
          return;
        } catch (final ServerRefusalException | RuntimeException e) {
          post(new Runnable() {
            @Override public void run() {
              if (gen != generation) return;
              connecting = false;
              emit(EVENT_ERROR, ERROR_NOT_AUTHORIZED, 0, "No device token for the interaction "
                  + "channel: " + e.getMessage() + ". Authorize the device again, then create a new "
                  + "Agent.", data(KEY_CODE, e instanceof ServerRefusalException
                  ? ((ServerRefusalException) e).code() : ""));
            }
          });
          return;
        }
        post(new Runnable() {
          @Override public void run() {
            if (gen != generation) return;
            channelToken = token;
            channel = connector.open(token, new ChannelCallbacks(gen, token));
          }
        });
      }
    });
  }

  private void connectFailed(final int gen, final Exception e) {
    post(new Runnable() {
      @Override public void run() {
        if (gen != generation) return;
        Log.info(TAG, "could not connect: " + e);
        connecting = false;
        retryLater();
      }
    });
  }

  private final class ChannelCallbacks implements Channel.Listener {
    private final int gen;
    private final String token;

    ChannelCallbacks(int gen, String token) {
      this.gen = gen;
      this.token = token;
    }

    @Override public void onText(final String text) {
      post(new Runnable() {
        @Override public void run() {
          if (gen == generation) received(text);
        }
      });
    }

    @Override public void onClosed(@Nullable final Throwable failure, final int httpCode) {
      post(new Runnable() {
        @Override public void run() {
          if (gen != generation) return;
          if (httpCode == 401 || httpCode == 403) tokens.rejected(token);
          Log.info(TAG, "interaction channel closed: " + (failure != null ? failure.toString()
              : "by the server") + (httpCode != 0 ? " (HTTP " + httpCode + ")" : ""));
          boolean wasConnected = uid != null;
          lostChannel();
          if (wasConnected) failedAttempts = 0;
          retryLater();
        }
      });
    }
  }

  private void received(String text) {
    Map<String, Object> message;
    try {
      message = JsonObjects.parseObject(text, "interaction channel message");
    } catch (IllegalArgumentException e) {
      Log.warn(TAG, "ignored a malformed channel message: " + e.getMessage(), null);
      return;
    }
    Object type = message.get("type");
    if ("connected".equals(type)) {
      Object connectedUid = message.get("uid");
      if (!(connectedUid instanceof String) || ((String) connectedUid).isEmpty()) {
        Log.warn(TAG, "ignored a connected message without uid", null);
        return;
      }
      uid = (String) connectedUid;
      connecting = false;
      failedAttempts = 0;
      emit(EVENT_CONNECTED_TO_SERVER, 0, 0, "", data(KEY_UID, uid));
      updateState();
    } else if ("result".equals(type)) {
      PendingWrite write = writes.remove(seqOf(message));
      if (write == null) {
        Log.warn(TAG, "ignored a result for no pending write: seq " + message.get("seq"), null);
        return;
      }
      Map<String, Object> data = writeData(write.seq, write.dataType, write.tag);
      data.put(KEY_RESULT, text);
      emit(EVENT_RESULT, 0, 0, text, data);
      updateState();
    } else if ("error".equals(type)) {
      PendingWrite write = writes.remove(seqOf(message));
      String code = String.valueOf(stringOrNumber(message.get("code")));
      String desc = String.valueOf(stringOrNumber(message.get("desc")));
      Map<String, Object> data = write == null ? new LinkedHashMap<String, Object>()
          : writeData(write.seq, write.dataType, write.tag);
      data.put(KEY_CODE, code);
      data.put(KEY_DESC, desc);
      emit(EVENT_ERROR, ERROR_SERVER_REFUSED, 0, (write == null ? "the server reported"
          : "write " + write.seq + " refused") + ": " + code + (desc.isEmpty() ? "" : ": " + desc), data);
      updateState();
    } else {
      Log.debug(TAG, "ignored a channel message of type " + type);
    }
  }

  private static int seqOf(Map<String, Object> message) {
    Object seq = message.get("seq");
    return seq instanceof Number ? ((Number) seq).intValue() : -1;
  }

  private static Object stringOrNumber(@Nullable Object value) {
    if (value == null) return "";
    if (value instanceof Double && ((Double) value) == Math.rint((Double) value)) {
      return ((Double) value).longValue();
    }
    return value;
  }

  /** Forgets the connection, fails its writes and tells the app; the caller decides about retrying. */
  private void lostChannel() {
    boolean wasConnected = uid != null;
    generation++;
    Channel old = channel;
    channel = null;
    channelToken = null;
    connecting = false;
    uid = null;
    if (old != null) old.close();
    failWrites(ERROR_CONNECTION_LOST, "the connection to the server was lost before the result");
    if (wasConnected) {
      emit(EVENT_SERVER_DISCONNECTED, 0, 0, "", new LinkedHashMap<String, Object>());
    }
    updateState();
  }

  private void retryLater() {
    if (closed || !networkAvailable || reconnectTask != null) return;
    failedAttempts++;
    if (failedAttempts >= MAX_CONNECT_ATTEMPTS) {
      emit(EVENT_ERROR, ERROR_RECONNECT_GAVE_UP, 0, "Gave up connecting after " + failedAttempts
          + " attempts; trying again when the network comes back", new LinkedHashMap<String, Object>());
      return;
    }
    long delay = backoff.delayMillis(failedAttempts);
    reconnectTask = scheduler.schedule(new Runnable() {
      @Override public void run() {
        post(new Runnable() {
          @Override public void run() {
            reconnectTask = null;
            connect();
          }
        });
      }
    }, delay, TimeUnit.MILLISECONDS);
  }

  private void onNetworkAvailable() {
    if (networkAvailable && (channel != null || connecting || reconnectTask != null)) return;
    networkAvailable = true;
    failedAttempts = 0;
    cancelReconnect();
    connect();
  }

  private void onNetworkLost() {
    if (!networkAvailable) return;
    networkAvailable = false;
    cancelReconnect();
    lostChannel();
  }

  private void cancelReconnect() {
    if (reconnectTask != null) {
      reconnectTask.cancel();
      reconnectTask = null;
    }
  }

  private void shutdown() {
    cancelReconnect();
    for (PendingCommand pending : new ArrayList<>(commands)) {
      if (pending.timer != null) pending.timer.cancel();
      Map<String, Object> data = pending.command == CMD_SYNC
          ? syncData(null, pending.tag) : queryData(pending.sid, pending.tag);
      cmdReturn(pending.command, ERROR_DESTROYED, "the Agent was destroyed before "
          + commandName(pending.command) + " completed", data);
    }
    commands.clear();
    failWrites(ERROR_DESTROYED, "the Agent was destroyed before the result");
    generation++;
    Channel old = channel;
    channel = null;
    if (old != null) old.close();
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
    } else if (e instanceof IllegalStateException) {
      code = ERROR_ENTITY_NOT_CONFIGURED;
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

  private static String toJson(Map<String, Object> frame) {
    return Json.MOSHI.adapter(Object.class).toJson(frame);
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

    PendingCommand(int command, @Nullable String tag, @Nullable String sid) {
      this.command = command;
      this.tag = tag;
      this.sid = sid;
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
