package dev.voicelink.android;

import java.util.Map;

/** Where the engine puts its events; the Agent turns them into {@link AgentEvent}s for the app. */
interface EventSink {
  /** {@code data} values are String or Integer. Called on the agent's worker thread only. */
  void emit(int eventType, int arg1, int arg2, String info, Map<String, Object> data);
}
