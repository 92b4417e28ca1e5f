package dev.voicelink.samples.app;

import java.util.Map;
import java.util.TreeMap;

/** The one-line texts of the sample's event log: what was sent and what came back, with names. */
final class EventLog {
  private EventLog() {
  }

  static String event(int eventType, int arg1, int arg2, String info, Map<String, String> data) {
    StringBuilder line = new StringBuilder("← ").append(eventName(eventType));
    if (eventType == Commands.EVENT_CMD_RETURN) {
      line.append(" arg1=").append(commandName(arg1));
    } else {
      line.append(" arg1=").append(arg1);
    }
    line.append(" arg2=").append(arg2);
    for (Map.Entry<String, String> entry : new TreeMap<>(data).entrySet()) {
      line.append(' ').append(entry.getKey()).append('=').append(entry.getValue());
    }
    if (info != null && !info.isEmpty()) line.append(" info=").append(info);
    return line.toString();
  }

  static String command(int msgType, int arg1, String params, byte[] data) {
    StringBuilder line = new StringBuilder("→ ").append(commandName(msgType));
    if (msgType == Commands.CMD_SYNC || msgType == Commands.CMD_QUERY_SYNC_STATUS) {
      line.append(" arg1=").append(arg1 == Commands.SYNC_DATA_SCHEMA ? "SYNC_DATA_SCHEMA" : String.valueOf(arg1));
    }
    if (!params.isEmpty()) line.append(" params=").append(params);
    if (data != null) line.append(" data=").append(data.length).append(" bytes");
    return line.toString();
  }

  static String eventName(int eventType) {
    switch (eventType) {
      case Commands.EVENT_RESULT: return "EVENT_RESULT";
      case Commands.EVENT_ERROR: return "EVENT_ERROR";
      case Commands.EVENT_STATE: return "EVENT_STATE";
      case Commands.EVENT_CMD_RETURN: return "EVENT_CMD_RETURN";
      case Commands.EVENT_CONNECTED_TO_SERVER: return "EVENT_CONNECTED_TO_SERVER";
      case Commands.EVENT_SERVER_DISCONNECTED: return "EVENT_SERVER_DISCONNECTED";
      default: return "EVENT_" + eventType;
    }
  }

  static String commandName(int msgType) {
    switch (msgType) {
      case Commands.CMD_WRITE: return "CMD_WRITE";
      case Commands.CMD_SET_PARAMS: return "CMD_SET_PARAMS";
      case Commands.CMD_SYNC: return "CMD_SYNC";
      case Commands.CMD_QUERY_SYNC_STATUS: return "CMD_QUERY_SYNC_STATUS";
      default: return "CMD_" + msgType;
    }
  }
}
