package dev.voicelink.android;

/**
 * Receives the {@link AgentEvent}s of one {@link Agent}.
 *
 * <p>Called on the agent's event executor: the main thread unless the app chose another with {@link
 * Agent.Builder#eventExecutor}. Calls are never concurrent and arrive in the order the agent produced
 * the events. Keep the method quick; it delays the events behind it.
 */
public interface AgentListener {
  void onEvent(AgentEvent event);
}
