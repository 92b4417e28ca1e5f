package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.ERROR_DESTROYED;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_NETWORK;
import static dev.voicelink.android.AgentConstants.ERROR_SERVER_REFUSED;
import static dev.voicelink.android.AgentConstants.KEY_CODE;
import static dev.voicelink.android.AgentConstants.KEY_DESC;
import static dev.voicelink.android.AgentConstants.KEY_SID;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.internal.Log;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The commands that call the web API (CMD_SYNC, CMD_QUERY_SYNC_STATUS) while they are in flight.
 * Each gets exactly one reply: its outcome, or {@link AgentConstants#ERROR_DESTROYED} from {@link
 * #destroyAll}. Confined to the worker thread.
 */
final class PendingCommands {
  private static final String TAG = "VoiceLinkAgent";

  private final AgentWorker worker;
  private final EventEmitter out;
  private final Set<PendingCommand> commands = new LinkedHashSet<>();

  PendingCommands(AgentWorker worker, EventEmitter out) {
    this.worker = worker;
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
   * Runs {@code call} on the I/O pool; then replies with {@code done} or the failure, unless the
   * command got its reply meanwhile (the agent was destroyed).
   */
  <T> void call(PendingCommand pending, AgentWorker.Blocking<T> call, AgentWorker.Then<T> done) {
    worker.offload(call, value -> {
      if (commands.remove(pending)) done.accept(value);
    }, e -> {
      if (commands.remove(pending)) fail(pending, e);
    });
  }

  /** Cancels every pending command and its web API call, and replies ERROR_DESTROYED to each. */
  void destroyAll() {
    for (PendingCommand pending : commands) {
      if (pending.timer != null) pending.timer.cancel();
      pending.cancel();
      out.cmdReturn(pending.command, ERROR_DESTROYED, "the Agent was destroyed before "
          + AgentEngine.commandName(pending.command) + " completed", pending.data());
    }
    commands.clear();
  }

  private void fail(PendingCommand pending, Exception e) {
    Map<String, Object> data = pending.data();
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
      Log.error(TAG, AgentEngine.commandName(pending.command) + " failed unexpectedly", e);
      code = ERROR_NETWORK;
    }
    String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    out.cmdReturn(pending.command, code, AgentEngine.commandName(pending.command) + " failed: "
        + message, data);
  }

  /** One command awaiting its reply. */
  static final class PendingCommand {
    final int command;
    final @Nullable String tag;
    final @Nullable String sid;
    /** The wait before a status query, or null. */
    @Nullable Cancellable timer;
    private @Nullable VoiceLinkCall<String> call;
    private boolean cancelled;

    PendingCommand(int command, @Nullable String tag, @Nullable String sid) {
      this.command = command;
      this.tag = tag;
      this.sid = sid;
    }

    /** The data of this command's reply, without its outcome. */
    Map<String, Object> data() {
      return command == CMD_SYNC ? EventData.sync(null, tag) : EventData.query(sid, tag);
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
}
