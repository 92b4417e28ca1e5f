package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.ERROR_DESTROYED;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_NETWORK;
import static dev.voicelink.android.AgentConstants.ERROR_NOT_CONNECTED;
import static dev.voicelink.android.AgentConstants.ERROR_SERVER_REFUSED;
import static dev.voicelink.android.AgentConstants.EVENT_RESULT;
import static dev.voicelink.android.AgentConstants.KEY_CODE;
import static dev.voicelink.android.AgentConstants.KEY_DESC;

import dev.voicelink.core.internal.Log;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * CMD_WRITE: checks the message into a {@link WriteRequest}, writes it to the interaction channel,
 * and answers it with the channel's result or refusal ({@code EVENT_RESULT} / {@code EVENT_ERROR}),
 * matched by {@code seq}. Confined to the worker thread.
 */
final class WriteCommand {
  private static final String TAG = "VoiceLinkAgent";

  private final SetParamsCommand setParams;
  private final EventEmitter out;
  /** Asked as a write is handled and again when its channel refuses it: destroy() may come between. */
  private final Lifecycle lifecycle;
  private final Map<Integer, PendingWrite> writes = new LinkedHashMap<>();

  /** Whether the Agent was destroyed: its engine. */
  interface Lifecycle {
    boolean isDestroyed();
  }

  WriteCommand(SetParamsCommand setParams, EventEmitter out, Lifecycle lifecycle) {
    this.setParams = setParams;
    this.out = out;
    this.lifecycle = lifecycle;
  }

  /**
   * Sends the write on {@code connected}, the channel when connected (else null). Returns whether a
   * write is now pending (the agent's state may change).
   */
  boolean handle(AgentMessage message, @Nullable InteractionChannel connected) {
    String tag = null;
    WriteRequest request;
    try {
      Map<String, String> params = WriteParams.parse(message.params());
      tag = params.get("tag");
      request = WriteRequest.of(params, message);
    } catch (IllegalArgumentException e) {
      out.error(ERROR_INVALID_PARAMS, e.getMessage(), EventData.write(null, null, tag));
      return false;
    }
    if (lifecycle.isDestroyed()) {
      // Queued before destroy(); the channel may be closed already, with the client the Agent made.
      refuseDestroyed(request, tag);
      return false;
    }
    if (connected == null) {
      out.error(ERROR_NOT_CONNECTED, "CMD_WRITE refused: not connected to the server; send it after"
          + " EVENT_CONNECTED_TO_SERVER. Nothing was sent.", EventData.write(null, request.dataType, tag));
      return false;
    }
    String persParam = request.persParam;
    if (persParam == null && !request.isText()) {
      // Set-params and the config's audioparams activate entities for voice only (protocol 4.10).
      persParam = setParams.audioPersParam();
    }
    int seq;
    try {
      seq = request.isText()
          ? connected.writeText(JsonObjects.utf8(request.data, "a text write's data is not valid"
              + " UTF-8; send the text's UTF-8 bytes"), persParam)
          : connected.writeAudio(request.data, request.sampleRate, persParam);
    } catch (IllegalArgumentException e) {
      // Data that can never be queued on the socket whole (the server refuses such audio too).
      out.error(ERROR_INVALID_PARAMS, "CMD_WRITE data refused: " + e.getMessage() + ". Nothing was"
          + " sent.", EventData.write(null, request.dataType, tag));
      return false;
    } catch (IllegalStateException e) {
      if (connected.state() == InteractionChannel.State.CONNECTED) {
        // Earlier writes still fill the socket's send queue (a slow uplink).
        out.error(ERROR_NETWORK, "CMD_WRITE refused: " + e.getMessage() + ". Nothing was sent.",
            EventData.write(null, request.dataType, tag));
        return false;
      }
      if (lifecycle.isDestroyed()) {
        // destroy() came as this write was handled, and closed the channel with the Agent's client.
        refuseDestroyed(request, tag);
        return false;
      }
      // The socket dropped a moment ago; its onDisconnected is on its way to the worker thread.
      out.error(ERROR_NOT_CONNECTED, "CMD_WRITE refused: the connection to the server was just lost."
          + " Nothing was sent.", EventData.write(null, request.dataType, tag));
      return false;
    }
    writes.put(seq, new PendingWrite(seq, request.dataType, tag));
    return true;
  }

  private void refuseDestroyed(WriteRequest request, @Nullable String tag) {
    out.error(ERROR_DESTROYED, "the Agent was destroyed before the write was sent. Nothing was sent.",
        EventData.write(null, request.dataType, tag));
  }

  /** Whether no write awaits its result. */
  boolean isEmpty() {
    return writes.isEmpty();
  }

  /** The channel's result for a write: {@code EVENT_RESULT}. */
  void result(InteractionResult result) {
    PendingWrite write = writes.remove(result.seq());
    if (write == null) {
      Log.warn(TAG, "ignored a result for no pending write: seq " + result.seq(), null);
      return;
    }
    out.emit(EVENT_RESULT, 0, 0, result.json(),
        EventData.write(write.seq, write.dataType, write.tag, result));
  }

  /**
   * The server refused a write ({@code seq} 0 or unknown: a refusal of no write in particular), or
   * the channel gave up waiting for its answer.
   */
  void refused(int seq, String code, String description) {
    PendingWrite write = writes.remove(seq);
    Map<String, Object> data = write == null ? EventData.none() : write.data();
    data.put(KEY_CODE, code);
    data.put(KEY_DESC, description);
    if (write != null && InteractionChannel.RESULT_TIMEOUT.equals(code)) {
      out.error(ERROR_NETWORK, "write " + write.seq + ": " + description + "; it may be sent again",
          data);
      return;
    }
    out.error(ERROR_SERVER_REFUSED, (write == null ? "the server reported"
        : "write " + write.seq + " refused") + ": " + code
        + (description.isEmpty() ? "" : ": " + description), data);
  }

  /** Answers every pending write with {@code code}: the channel is closed or the agent destroyed. */
  void failAll(int code, String why) {
    failUpTo(Integer.MAX_VALUE, code, why);
  }

  /**
   * Answers the pending writes numbered up to {@code lastSeq} with {@code code}: the connection they
   * were made on is gone. A later one was made on the connection that replaced it and stays pending.
   */
  void failUpTo(int lastSeq, int code, String why) {
    for (Iterator<PendingWrite> i = writes.values().iterator(); i.hasNext(); ) {
      PendingWrite write = i.next();
      if (write.seq > lastSeq) continue;
      i.remove();
      out.error(code, "write " + write.seq + ": " + why, write.data());
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

    Map<String, Object> data() {
      return EventData.write(seq, dataType, tag);
    }
  }
}
