package dev.voicelink.android;

import android.os.Bundle;
import dev.voicelink.android.internal.AgentResults;
import java.util.Map;

/**
 * What an {@link Agent} tells the app: an event type ({@link AgentConstants#EVENT_CMD_RETURN} and the
 * other {@code EVENT_} values), two integer arguments, an info text and a data {@link Bundle}, in the
 * shape of the platform's established device SDK.
 *
 * <pre>{@code
 * public void onEvent(AgentEvent event) {
 *   if (event.eventType() == AgentConstants.EVENT_CMD_RETURN
 *       && event.arg1() == AgentConstants.CMD_SYNC) {
 *     if (event.arg2() == 0) {
 *       String sid = event.data().getString(AgentConstants.KEY_SID);
 *     } else {
 *       Log.w(TAG, "sync failed: " + event.info());
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>Immutable: {@link #data()} returns a fresh copy each time. Apps' tests make events with {@code
 * voicelink-fixtures}. The keys of the data are the {@code
 * KEY_} constants of {@link AgentConstants}; each event's keys are listed in {@code docs/agent.md}.
 */
public final class AgentEvent {
  static {
    AgentResults.SEAM.install(new FixtureEvents());
  }

  private final int eventType;
  private final int arg1;
  private final int arg2;
  private final String info;
  private final Bundle data;

  AgentEvent(int eventType, int arg1, int arg2, String info, Map<String, Object> values) {
    this.eventType = eventType;
    this.arg1 = arg1;
    this.arg2 = arg2;
    this.info = info;
    Bundle bundle = new Bundle();
    for (Map.Entry<String, Object> entry : values.entrySet()) {
      Object value = entry.getValue();
      if (value instanceof Integer) {
        bundle.putInt(entry.getKey(), (Integer) value);
      } else {
        bundle.putString(entry.getKey(), String.valueOf(value));
      }
    }
    this.data = bundle;
  }

  public int eventType() {
    return eventType;
  }

  public int arg1() {
    return arg1;
  }

  public int arg2() {
    return arg2;
  }

  /** A description: the reason of an error, or the result text of {@link AgentConstants#EVENT_RESULT}. */
  public String info() {
    return info;
  }

  /** A copy of the event's data. */
  public Bundle data() {
    return new Bundle(data);
  }

  @Override public String toString() {
    return "AgentEvent{eventType=" + eventType + ", arg1=" + arg1 + ", arg2=" + arg2 + ", info="
        + info + ", data=" + data.keySet() + "}";
  }
}
