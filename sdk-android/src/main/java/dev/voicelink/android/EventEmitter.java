package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.EVENT_CMD_RETURN;
import static dev.voicelink.android.AgentConstants.EVENT_ERROR;

import java.util.Collections;
import java.util.Map;

/**
 * Hands the engine's events to its {@link EventSink}, on the worker thread; nothing once the worker
 * is closed, so that the one reply {@code destroy} gives to each pending command is the last.
 */
final class EventEmitter {
  private final EventSink sink;
  private final AgentWorker worker;

  EventEmitter(EventSink sink, AgentWorker worker) {
    this.sink = sink;
    this.worker = worker;
  }

  void emit(int type, int arg1, int arg2, String info, Map<String, Object> data) {
    if (worker.isClosed()) return;
    sink.emit(type, arg1, arg2, info, Collections.unmodifiableMap(data));
  }

  /** {@code EVENT_CMD_RETURN}: the reply to {@code command}, {@code code} 0 for success. */
  void cmdReturn(int command, int code, String info, Map<String, Object> data) {
    emit(EVENT_CMD_RETURN, command, code, info, data);
  }

  /** {@code EVENT_ERROR} with {@code code}. */
  void error(int code, String info, Map<String, Object> data) {
    emit(EVENT_ERROR, code, 0, info, data);
  }
}
