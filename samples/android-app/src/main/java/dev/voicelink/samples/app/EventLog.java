package dev.voicelink.samples.app;

import static dev.voicelink.android.AgentConstants.*;

import android.os.Bundle;
import dev.voicelink.android.AgentEvent;
import dev.voicelink.android.AgentMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The one-line texts of the sample's event log: what was sent and what came back, with names. */
final class EventLog {
  private EventLog() {
  }

  static String event(AgentEvent event) {
    StringBuilder line = new StringBuilder("← ").append(eventName(event.eventType()));
    line.append(" arg1=").append(event.eventType() == EVENT_CMD_RETURN ? commandName(event.arg1())
        : String.valueOf(event.arg1()));
    line.append(" arg2=").append(event.arg2());
    Bundle data = event.data();
    List<String> keys = new ArrayList<>(data.keySet());
    Collections.sort(keys);
    boolean infoShown = false;
    for (String key : keys) {
      String value = String.valueOf(data.get(key));
      infoShown |= value.equals(event.info());
      line.append(' ').append(key).append('=').append(value);
    }
    if (!infoShown && event.info() != null && !event.info().isEmpty()) line.append(" info=").append(event.info());
    return line.toString();
  }

  static String command(AgentMessage message) {
    StringBuilder line = new StringBuilder("→ ").append(commandName(message.msgType()));
    if (message.msgType() == CMD_SYNC || message.msgType() == CMD_QUERY_SYNC_STATUS) {
      line.append(" arg1=").append(message.arg1() == SYNC_DATA_SCHEMA ? "SYNC_DATA_SCHEMA"
          : String.valueOf(message.arg1()));
    }
    if (!message.params().isEmpty()) line.append(" params=").append(message.params());
    byte[] data = message.data();
    if (data != null) line.append(" data=").append(data.length).append(" bytes");
    return line.toString();
  }

  static String eventName(int eventType) {
    switch (eventType) {
      case EVENT_RESULT: return "EVENT_RESULT";
      case EVENT_ERROR: return "EVENT_ERROR";
      case EVENT_STATE: return "EVENT_STATE";
      case EVENT_CMD_RETURN: return "EVENT_CMD_RETURN";
      case EVENT_CONNECTED_TO_SERVER: return "EVENT_CONNECTED_TO_SERVER";
      case EVENT_SERVER_DISCONNECTED: return "EVENT_SERVER_DISCONNECTED";
      default: return "EVENT_" + eventType;
    }
  }

  static String commandName(int msgType) {
    switch (msgType) {
      case CMD_WRITE: return "CMD_WRITE";
      case CMD_SET_PARAMS: return "CMD_SET_PARAMS";
      case CMD_SYNC: return "CMD_SYNC";
      case CMD_QUERY_SYNC_STATUS: return "CMD_QUERY_SYNC_STATUS";
      default: return "CMD_" + msgType;
    }
  }
}
