package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.ERROR_ENTITY_NOT_CONFIGURED;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_NOT_CONNECTED;
import static dev.voicelink.android.AgentConstants.SUCCESS;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;

import dev.voicelink.core.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * CMD_SYNC: checks the message into a {@link SyncRequest}, uploads it on the I/O pool and replies with
 * the sid. Remembers when each recent upload finished, for {@link QueryCommand}. Confined to the
 * worker thread.
 */
final class SyncCommand {
  private static final int MAX_REMEMBERED_UPLOADS = 256;

  private final String appid;
  private final @Nullable EntityBackend entities;
  private final String entitiesMissing;
  private final Clock clock;
  private final PendingCommands pending;
  private final EventEmitter out;
  private final Map<String, Long> uploadedAtNanos = new LinkedHashMap<String, Long>() {
    private static final long serialVersionUID = 1L;

    @Override protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > MAX_REMEMBERED_UPLOADS;
    }
  };

  SyncCommand(String appid, @Nullable EntityBackend entities, String entitiesMissing, Clock clock,
      PendingCommands pending, EventEmitter out) {
    this.appid = appid;
    this.entities = entities;
    this.entitiesMissing = entitiesMissing;
    this.clock = clock;
    this.pending = pending;
    this.out = out;
  }

  /** {@code uid}: the connected user, or null when not connected. */
  void handle(AgentMessage message, @Nullable String uid) {
    String tag;
    try {
      tag = CommandParams.tag(message.params(), "CMD_SYNC");
    } catch (IllegalArgumentException e) {
      refuse(ERROR_INVALID_PARAMS, e.getMessage(), null);
      return;
    }
    if (message.arg1() != SYNC_DATA_SCHEMA) {
      refuse(ERROR_INVALID_PARAMS, "CMD_SYNC arg1 must be SYNC_DATA_SCHEMA (3); was "
          + message.arg1(), tag);
      return;
    }
    if (uid == null) {
      refuse(ERROR_NOT_CONNECTED, "CMD_SYNC refused: not connected to the server; send it after"
          + " EVENT_CONNECTED_TO_SERVER. Nothing was sent.", tag);
      return;
    }
    SyncRequest request;
    try {
      request = CommandParams.syncRequest(message.dataUnsafe(), uid, appid);
    } catch (IllegalArgumentException e) {
      refuse(ERROR_INVALID_PARAMS, e.getMessage(), tag);
      return;
    }
    EntityBackend backend = entities;
    if (backend == null) {
      refuse(ERROR_ENTITY_NOT_CONFIGURED, entitiesMissing, tag);
      return;
    }
    PendingCommands.PendingCommand command = pending.add(CMD_SYNC, tag, null);
    pending.call(command,
        () -> new Upload(command.run(backend.upload(request)), clock.monotonicNanos()),
        upload -> {
          uploadedAtNanos.put(upload.sid, upload.finishedAtNanos);
          out.cmdReturn(CMD_SYNC, SUCCESS, "", EventData.sync(upload.sid, command.tag));
        });
  }

  /** When the upload of {@code sid} finished, on the clock's monotonic scale, or null if unknown. */
  @Nullable Long uploadedAtNanos(String sid) {
    return uploadedAtNanos.get(sid);
  }

  /** For tests: the remembered uploads, to be sure they stay bounded. */
  List<String> rememberedUploads() {
    return new ArrayList<>(uploadedAtNanos.keySet());
  }

  private void refuse(int code, String info, @Nullable String tag) {
    out.cmdReturn(CMD_SYNC, code, info, EventData.sync(null, tag));
  }

  private static final class Upload {
    final String sid;
    final long finishedAtNanos;

    Upload(String sid, long finishedAtNanos) {
      this.sid = sid;
      this.finishedAtNanos = finishedAtNanos;
    }
  }
}
