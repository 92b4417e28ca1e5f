package dev.voicelink.android.internal;

import dev.voicelink.android.AgentEvent;
import dev.voicelink.core.internal.Seam;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.interact.InteractionResult;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Makes agent events for {@code voicelink-fixtures}, each built by the code the agent builds its own
 * with. Not API.
 */
public interface AgentResults {
  Seam<AgentResults> SEAM = new Seam<>(AgentEvent.class);

  /** {@code data} values are Integer (kept as int) or anything else (kept as its string). */
  AgentEvent agentEvent(int eventType, int arg1, int arg2, String info, Map<String, Object> data);

  AgentEvent connected(String uid);

  AgentEvent disconnected();

  AgentEvent syncReturned(String sid, @Nullable String tag);

  /** The reply to a CMD_SYNC or CMD_QUERY_SYNC_STATUS whose web API call failed with {@code failure}. */
  AgentEvent commandFailed(int command, @Nullable String sid, @Nullable String tag, Exception failure);

  AgentEvent syncStatus(CheckResult result, @Nullable String tag);

  AgentEvent writeResult(InteractionResult result, String dataType, @Nullable String tag);

  AgentEvent error(int code, String info);
}
