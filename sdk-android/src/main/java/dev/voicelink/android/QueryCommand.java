package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_QUERY_SYNC_STATUS;
import static dev.voicelink.android.AgentConstants.ERROR_ENTITY_NOT_CONFIGURED;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_NOT_CONNECTED;
import static dev.voicelink.android.AgentConstants.SUCCESS;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;

import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.internal.JsonText;
import dev.voicelink.entity.CheckResult;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * CMD_QUERY_SYNC_STATUS: checks the message (its request is the {@code sid} of a CMD_SYNC reply),
 * waits until 10 s after that upload if it was this agent's, asks the web API with an asynchronous
 * call and replies with the result. Confined to the worker thread.
 */
final class QueryCommand {
  static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final @Nullable EntityBackend entities;
  private final String entitiesMissing;
  private final Clock clock;
  private final Scheduler scheduler;
  private final AgentWorker worker;
  private final SyncCommand syncs;
  private final PendingCommands pending;
  private final EventEmitter out;

  QueryCommand(@Nullable EntityBackend entities, String entitiesMissing, Clock clock,
      Scheduler scheduler, AgentWorker worker, SyncCommand syncs, PendingCommands pending,
      EventEmitter out) {
    this.entities = entities;
    this.entitiesMissing = entitiesMissing;
    this.clock = clock;
    this.scheduler = scheduler;
    this.worker = worker;
    this.syncs = syncs;
    this.pending = pending;
    this.out = out;
  }

  void handle(AgentMessage message, boolean connected) {
    // Each read on its own: a reply to a bad tag still names the sid, one to a bad sid the tag.
    String tag = null;
    String badTag = null;
    try {
      tag = CommandParams.tag(message.params(), "CMD_QUERY_SYNC_STATUS");
    } catch (IllegalArgumentException e) {
      badTag = e.getMessage();
    }
    String sid;
    try {
      sid = CommandParams.sid(message.params());
    } catch (IllegalArgumentException e) {
      refuse(ERROR_INVALID_PARAMS, badTag != null ? badTag : e.getMessage(), null, tag);
      return;
    }
    if (badTag != null) {
      refuse(ERROR_INVALID_PARAMS, badTag, sid, null);
      return;
    }
    if (message.arg1() != SYNC_DATA_SCHEMA) {
      refuse(ERROR_INVALID_PARAMS, "CMD_QUERY_SYNC_STATUS arg1 must be SYNC_DATA_SCHEMA (3); was "
          + message.arg1(), sid, tag);
      return;
    }
    if (!connected) {
      refuse(ERROR_NOT_CONNECTED, "CMD_QUERY_SYNC_STATUS refused: not connected to the server; send"
          + " it after EVENT_CONNECTED_TO_SERVER. Nothing was sent.", sid, tag);
      return;
    }
    if (entities == null) {
      refuse(ERROR_ENTITY_NOT_CONFIGURED, entitiesMissing, sid, tag);
      return;
    }
    PendingCommands.PendingCommand command = pending.add(CMD_QUERY_SYNC_STATUS, tag, sid);
    Long uploadedAt = syncs.uploadedAtNanos(sid);
    long waitNanos = uploadedAt == null ? 0 : uploadedAt + WAIT_NANOS - clock.monotonicNanos();
    if (waitNanos <= 0) {
      run(command);
    } else {
      // The platform answers "not processed" to early checks; the spec asks callers to wait, so we do.
      try {
        command.timer = scheduler.schedule(() -> worker.execute(() -> run(command)), waitNanos,
            TimeUnit.NANOSECONDS);
      } catch (RuntimeException e) {
        pending.notStarted(command, e); // a closed client's scheduler: the destroy answers it
      }
    }
  }

  private void run(PendingCommands.PendingCommand command) {
    if (!pending.contains(command)) return;
    EntityBackend backend = entities;
    String sid = command.sid;
    if (backend == null || sid == null) return;
    pending.whenFree(command, () -> pending.call(command, backend.check(sid), result -> {
      pending.reply(command, SUCCESS, "", EventData.query(sid, command.tag, result));
    }));
  }

  /** The reply's {@code result}: the check as JSON text {@code {"sid","csid","reply","error"}}. */
  static String json(CheckResult result) {
    return new JsonText().beginObject()
        .name("sid").value(result.sid())
        .name("csid").value(result.csid())
        .name("reply").value(result.reply())
        .name("error").value(result.error())
        .endObject().text();
  }

  private void refuse(int code, String info, @Nullable String sid, @Nullable String tag) {
    out.cmdReturn(CMD_QUERY_SYNC_STATUS, code, info, EventData.query(sid, tag));
  }
}
