package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.ERROR_DESTROYED;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_NETWORK;
import static dev.voicelink.android.AgentConstants.ERROR_SERVER_REFUSED;
import static dev.voicelink.android.AgentConstants.KEY_CODE;
import static dev.voicelink.android.AgentConstants.KEY_DESC;
import static dev.voicelink.android.AgentConstants.KEY_SID;

import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.Cancellable;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Log;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The commands that call the web API (CMD_SYNC, CMD_QUERY_SYNC_STATUS) while they await their reply.
 * Each gets exactly one reply: its outcome, or {@link AgentConstants#ERROR_DESTROYED} from {@link
 * #destroyAll}. At most {@link #MAX_RUNNING} of them run their calls at once; the others wait their
 * turn here, holding no thread. Confined to the worker thread.
 */
final class PendingCommands {
  private static final String TAG = "VoiceLinkAgent";
  /**
   * Commands whose calls run at once, at most: each takes a thread of the client's pool while its
   * request is on the wire, and a burst of syncs must neither start a thread apiece nor crowd the
   * server. Three, the size of the I/O pool that ran them before they were asynchronous.
   */
  static final int MAX_RUNNING = 3;

  private final AgentWorker worker;
  private final ClientCore client;
  private final EventEmitter out;
  private final Set<PendingCommand> commands = new LinkedHashSet<>();
  private final ArrayDeque<PendingCommand> waiting = new ArrayDeque<>();
  private int running;
  private boolean starting;

  PendingCommands(AgentWorker worker, ClientCore client, EventEmitter out) {
    this.worker = worker;
    this.client = client;
    this.out = out;
  }

  PendingCommand add(int command, @Nullable String tag, @Nullable String sid) {
    PendingCommand pending = new PendingCommand(command, tag, sid);
    commands.add(pending);
    return pending;
  }

  /** Whether {@code pending} still awaits its reply. */
  boolean contains(PendingCommand pending) {
    return commands.contains(pending);
  }

  /**
   * Runs {@code start}, which starts the command's first call, as soon as fewer than {@link
   * #MAX_RUNNING} commands are running; the command runs until its reply.
   */
  void whenFree(PendingCommand pending, Runnable start) {
    pending.start = start;
    waiting.add(pending);
    startWaiting();
  }

  /**
   * Enqueues {@code call} as the command's call now; on the worker thread, runs {@code done} with its
   * value (which replies, or starts the command's next call) or replies with its failure, unless the
   * command got its reply meanwhile (the agent was destroyed).
   */
  <T> void call(PendingCommand pending, VoiceLinkCall<T> call, AgentWorker.Then<T> done) {
    pending.call = call;
    try {
      worker.enqueue(call, result -> {
        if (!commands.contains(pending)) return;
        if (result.isSuccess()) {
          done.accept(result.value());
        } else if (!client.isClosed()) {
          Exception failure = result.failure();
          fail(pending, failure != null ? failure : new CallCancelledException());
        }
        // A closed client failed or cancelled it: see notStarted.
      });
    } catch (RuntimeException e) {
      notStarted(pending, e);
    }
  }

  /** Replies to {@code pending}: {@code code} 0 for success. */
  void reply(PendingCommand pending, int code, String info, Map<String, Object> data) {
    if (!answered(pending)) return;
    out.cmdReturn(pending.command, code, info, data);
    startWaiting();
  }

  /** Cancels every pending command and its call, and replies ERROR_DESTROYED to each. */
  void destroyAll() {
    for (PendingCommand pending : commands) {
      if (pending.timer != null) pending.timer.cancel();
      VoiceLinkCall<?> call = pending.call;
      if (call != null) call.cancel(); // its result comes to a stopped worker: dropped
      out.cmdReturn(pending.command, ERROR_DESTROYED, "the Agent was destroyed before "
          + AgentConstants.commandName(pending.command) + " completed", pending.data());
    }
    commands.clear();
    waiting.clear();
    running = 0;
  }

  private void startWaiting() {
    if (starting) return; // a reply given while starting: the loop below fills its place
    starting = true;
    try {
      while (running < MAX_RUNNING && !waiting.isEmpty()) {
        PendingCommand next = waiting.poll();
        next.running = true;
        running++;
        try {
          next.start.run();
        } catch (RuntimeException e) {
          notStarted(next, e);
        }
      }
    } finally {
      starting = false;
    }
  }

  /**
   * A command whose call or wait could not be made or started: a closed client refuses them.
   * Closing a client destroys the agents on it before anything else, and the agent's own client
   * closes only in its destroy(), so the shutdown queued then answers the command ERROR_DESTROYED, as
   * it answers a call the closing cancelled. Anything else is a failure of the command.
   */
  void notStarted(PendingCommand pending, RuntimeException e) {
    if (!client.isClosed()) fail(pending, e);
  }

  /** Takes {@code pending} off the list; false if it had its reply already. */
  private boolean answered(PendingCommand pending) {
    if (!commands.remove(pending)) return false;
    if (pending.running) {
      running--;
    } else {
      waiting.remove(pending);
    }
    return true;
  }

  private void fail(PendingCommand pending, Exception e) {
    if (!(e instanceof ServerRefusalException || e instanceof IOException
        || e instanceof IllegalArgumentException)) {
      Log.error(TAG, AgentConstants.commandName(pending.command) + " failed unexpectedly", e);
    }
    Map<String, Object> data = pending.data();
    int code = failure(e, data);
    reply(pending, code, failureInfo(pending.command, e), data);
  }

  /**
   * The error code of a command whose call failed with {@code e}; a server's refusal adds its code,
   * description and sid to {@code data}. The fixtures' events are made by it too.
   */
  static int failure(Exception e, Map<String, Object> data) {
    if (e instanceof ServerRefusalException) {
      ServerRefusalException refusal = (ServerRefusalException) e;
      data.put(KEY_CODE, refusal.code());
      data.put(KEY_DESC, refusal.description());
      if (refusal.sid() != null && !data.containsKey(KEY_SID)) data.put(KEY_SID, refusal.sid());
      return ERROR_SERVER_REFUSED;
    }
    if (e instanceof IllegalArgumentException) return ERROR_INVALID_PARAMS;
    return ERROR_NETWORK; // an IOException, or a failure nobody expected
  }

  /** The info of the reply to {@code command} whose call failed with {@code e}. */
  static String failureInfo(int command, Exception e) {
    String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    return AgentConstants.commandName(command) + " failed: " + message;
  }

  /** One command awaiting its reply. Confined to the worker thread. */
  static final class PendingCommand {
    final int command;
    final @Nullable String tag;
    final @Nullable String sid;
    /** The wait before a status query, or null. */
    @Nullable Cancellable timer;
    /** What starts its first call once it may run. */
    private Runnable start = () -> { };
    /** Whether it holds one of the {@link #MAX_RUNNING} places. */
    private boolean running;
    /** Its call now, which {@link #destroyAll} cancels; null before the first. */
    private @Nullable VoiceLinkCall<?> call;

    PendingCommand(int command, @Nullable String tag, @Nullable String sid) {
      this.command = command;
      this.tag = tag;
      this.sid = sid;
    }

    /** The data of this command's reply, without its outcome. */
    Map<String, Object> data() {
      return command == CMD_SYNC ? EventData.sync(null, tag) : EventData.query(sid, tag);
    }
  }
}
