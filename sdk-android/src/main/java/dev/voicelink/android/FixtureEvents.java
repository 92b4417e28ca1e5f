package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_QUERY_SYNC_STATUS;
import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.EVENT_CMD_RETURN;
import static dev.voicelink.android.AgentConstants.EVENT_CONNECTED_TO_SERVER;
import static dev.voicelink.android.AgentConstants.EVENT_ERROR;
import static dev.voicelink.android.AgentConstants.EVENT_RESULT;
import static dev.voicelink.android.AgentConstants.EVENT_SERVER_DISCONNECTED;
import static dev.voicelink.android.AgentConstants.SUCCESS;

import dev.voicelink.android.internal.AgentResults;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.interact.InteractionResult;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The events of {@code voicelink-fixtures}, made with the same {@link EventData} and failure mapping
 * as the agent's own, so that a test's event is the one an agent would deliver.
 */
final class FixtureEvents implements AgentResults {
  @Override public AgentEvent agentEvent(int eventType, int arg1, int arg2, String info,
      Map<String, Object> data) {
    return new AgentEvent(eventType, arg1, arg2, info, data);
  }

  @Override public AgentEvent connected(String uid) {
    return new AgentEvent(EVENT_CONNECTED_TO_SERVER, 0, 0, "", EventData.connected(uid));
  }

  @Override public AgentEvent disconnected() {
    return new AgentEvent(EVENT_SERVER_DISCONNECTED, 0, 0, "", EventData.none());
  }

  @Override public AgentEvent syncReturned(String sid, @Nullable String tag) {
    return new AgentEvent(EVENT_CMD_RETURN, CMD_SYNC, SUCCESS, "", EventData.sync(sid, tag));
  }

  @Override public AgentEvent commandFailed(int command, @Nullable String sid, @Nullable String tag,
      Exception failure) {
    Map<String, Object> data = command == CMD_SYNC ? EventData.sync(sid, tag)
        : EventData.query(sid, tag);
    int code = PendingCommands.failure(failure, data);
    return new AgentEvent(EVENT_CMD_RETURN, command, code,
        PendingCommands.failureInfo(command, failure), data);
  }

  @Override public AgentEvent syncStatus(CheckResult result, @Nullable String tag) {
    return new AgentEvent(EVENT_CMD_RETURN, CMD_QUERY_SYNC_STATUS, SUCCESS, "",
        EventData.query(result.sid(), tag, result));
  }

  @Override public AgentEvent writeResult(InteractionResult result, String dataType,
      @Nullable String tag) {
    return new AgentEvent(EVENT_RESULT, 0, 0, result.json(),
        EventData.write(result.seq(), dataType, tag, result));
  }

  @Override public AgentEvent error(int code, String info) {
    return new AgentEvent(EVENT_ERROR, code, 0, info, EventData.none());
  }
}
