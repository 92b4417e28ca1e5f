package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.ERROR_ENTITY_NOT_CONFIGURED;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_NOT_CONNECTED;
import static dev.voicelink.android.AgentConstants.SUCCESS;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;

import dev.voicelink.core.Clock;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.entity.UploadReceipt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * CMD_SYNC: checks the message into a {@link SyncRequest} (its data on the client's threads),
 * uploads it with an asynchronous call and replies with the sid. Remembers when each recent upload
 * finished, for {@link QueryCommand}. Confined to the worker thread.
 */
final class SyncCommand {
  private static final int MAX_REMEMBERED_UPLOADS = 256;

  private final String appid;
  private final @Nullable EntityBackend entities;
  private final String entitiesMissing;
  private final ClientCore client;
  private final Clock clock;
  private final PendingCommands pending;
  private final EventEmitter out;
  private final Map<String, Long> uploadedAtNanos = new LinkedHashMap<String, Long>() {
    private static final long serialVersionUID = 1L;

    @Override protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > MAX_REMEMBERED_UPLOADS;
    }
  };

  SyncCommand(String appid, @Nullable EntityBackend entities, String entitiesMissing,
      ClientCore client, PendingCommands pending, EventEmitter out) {
    this.appid = appid;
    this.entities = entities;
    this.entitiesMissing = entitiesMissing;
    this.client = client;
    this.clock = client.deviceClock();
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
    PendingCommands.PendingCommand command = pending.add(CMD_SYNC, tag, null);
    byte[] data = message.dataUnsafe();
    pending.whenFree(command, () -> pending.call(command, prepare(data, uid), prepared -> {
      VoiceLinkCall<UploadReceipt> upload = prepared.upload;
      if (upload == null) {
        pending.reply(command, prepared.refusalCode, prepared.refusal, EventData.sync(null, tag));
        return;
      }
      pending.call(command, upload, receipt -> {
        uploadedAtNanos.put(receipt.sid(), clock.monotonicNanos());
        pending.reply(command, SUCCESS, "", EventData.sync(receipt.sid(), command.tag));
      });
    }));
  }

  /**
   * A call that reads a CMD_SYNC's data into a {@link SyncRequest} (checks that it is UTF-8 and
   * parses it, reading past the resource's Base64) and makes its upload, which decodes and checks the
   * records as it reads them; or the refusal when it cannot. Work in proportion to the resource, up
   * to its limit of 32 MiB: it runs on one of the client's threads ({@code voicelink-io}), where the
   * upload that follows reads the records as well; never on the main thread, and not on the worker,
   * which would hold up every other command, result and connection change meanwhile. It is the
   * command's first call, so that at most {@link PendingCommands#MAX_RUNNING} resources are read at
   * once. Between the two calls the worker holds nothing, so the thread that read is free again for
   * the upload.
   */
  private VoiceLinkCall<Prepared> prepare(final byte @Nullable [] data, final String uid) {
    return new BlockingCall<Prepared>(client) {
      @Override protected Prepared run() {
        SyncRequest request;
        try {
          request = CommandParams.syncRequest(data, uid, appid);
        } catch (IllegalArgumentException e) {
          return new Prepared(null, ERROR_INVALID_PARAMS, String.valueOf(e.getMessage()));
        }
        EntityBackend backend = entities;
        if (backend == null) return new Prepared(null, ERROR_ENTITY_NOT_CONFIGURED, entitiesMissing);
        return new Prepared(backend.upload(request), SUCCESS, "");
      }
    };
  }

  /** The upload a CMD_SYNC makes, or the code and whole info of its refusal. */
  private static final class Prepared {
    final @Nullable VoiceLinkCall<UploadReceipt> upload;
    final int refusalCode;
    final String refusal;

    Prepared(@Nullable VoiceLinkCall<UploadReceipt> upload, int refusalCode, String refusal) {
      this.upload = upload;
      this.refusalCode = refusalCode;
      this.refusal = refusal;
    }
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
}
