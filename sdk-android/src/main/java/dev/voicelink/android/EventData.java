package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_WRITE;
import static dev.voicelink.android.AgentConstants.KEY_CMD;
import static dev.voicelink.android.AgentConstants.KEY_DATA_TYPE;
import static dev.voicelink.android.AgentConstants.KEY_RESULT;
import static dev.voicelink.android.AgentConstants.KEY_SEQ;
import static dev.voicelink.android.AgentConstants.KEY_SID;
import static dev.voicelink.android.AgentConstants.KEY_SYNC_DTYPE;
import static dev.voicelink.android.AgentConstants.KEY_TAG;
import static dev.voicelink.android.AgentConstants.KEY_UID;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_QUERY;
import static dev.voicelink.android.AgentConstants.SYNC_DATA_SCHEMA;

import dev.voicelink.entity.CheckResult;
import dev.voicelink.interact.InteractionResult;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code data} of the agent's events, built in the order its keys are documented in {@link
 * AgentConstants}. Each call returns a new map that the caller may add to before emitting it.
 */
final class EventData {
  private EventData() {
  }

  /** No data. */
  static Map<String, Object> none() {
    return new LinkedHashMap<>();
  }

  static Map<String, Object> of(String key, Object value) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put(key, value);
    return data;
  }

  /** The data of EVENT_CONNECTED_TO_SERVER: the connected user. */
  static Map<String, Object> connected(String uid) {
    return of(KEY_UID, uid);
  }

  /** The reply data of CMD_SYNC. */
  static Map<String, Object> sync(@Nullable String sid, @Nullable String tag) {
    return sidAndTag(of(KEY_SYNC_DTYPE, SYNC_DATA_SCHEMA), sid, tag);
  }

  /** The reply data of CMD_QUERY_SYNC_STATUS. */
  static Map<String, Object> query(@Nullable String sid, @Nullable String tag) {
    return sidAndTag(of(KEY_SYNC_DTYPE, SYNC_DATA_QUERY), sid, tag);
  }

  /** The reply data of a CMD_QUERY_SYNC_STATUS answered with {@code result}. */
  static Map<String, Object> query(String sid, @Nullable String tag, CheckResult result) {
    Map<String, Object> data = query(sid, tag);
    data.put(KEY_RESULT, QueryCommand.json(result));
    return data;
  }

  /** The data of the EVENT_RESULT of write {@code seq}. */
  static Map<String, Object> write(int seq, String dataType, @Nullable String tag,
      InteractionResult result) {
    Map<String, Object> data = write(seq, dataType, tag);
    data.put(KEY_RESULT, result.json());
    return data;
  }

  /** The data of a CMD_WRITE's result or error. */
  static Map<String, Object> write(@Nullable Integer seq, @Nullable String dataType,
      @Nullable String tag) {
    Map<String, Object> data = of(KEY_CMD, CMD_WRITE);
    if (seq != null) data.put(KEY_SEQ, seq);
    if (dataType != null) data.put(KEY_DATA_TYPE, dataType);
    if (tag != null) data.put(KEY_TAG, tag);
    return data;
  }

  private static Map<String, Object> sidAndTag(Map<String, Object> data, @Nullable String sid,
      @Nullable String tag) {
    if (sid != null) data.put(KEY_SID, sid);
    if (tag != null) data.put(KEY_TAG, tag);
    return data;
  }
}
