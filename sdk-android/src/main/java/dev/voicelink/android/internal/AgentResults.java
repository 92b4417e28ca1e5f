package dev.voicelink.android.internal;

import dev.voicelink.android.AgentEvent;
import dev.voicelink.core.internal.Seam;
import java.util.Map;

/** Makes agent events for {@code voicelink-fixtures}. Not API. */
public interface AgentResults {
  Seam<AgentResults> SEAM = new Seam<>(AgentEvent.class);

  /** {@code data} values are Integer (kept as int) or anything else (kept as its string). */
  AgentEvent agentEvent(int eventType, int arg1, int arg2, String info, Map<String, Object> data);
}
