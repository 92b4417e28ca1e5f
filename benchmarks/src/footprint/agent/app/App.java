package app;

import android.content.Context;
import dev.voicelink.android.Agent;
import dev.voicelink.android.AgentConstants;
import dev.voicelink.android.AgentEvent;
import dev.voicelink.android.AgentListener;
import dev.voicelink.android.AgentMessage;

/** An Android app's use of the Agent: create it from a configuration, sync a resource, listen. */
public final class App implements AgentListener {
  private App() {}

  // The harness packs app/App.class alone, so the app is its own listener (no nested classes).
  @Override public void onEvent(AgentEvent event) {
    System.out.println(event);
  }

  /** Stands in for an Activity's onCreate: the context comes from the framework. */
  public static Agent start(Context context, String config, byte[] resource) {
    Agent agent = Agent.create(context, config, new App());
    agent.sendMessage(new AgentMessage(AgentConstants.CMD_SYNC, AgentConstants.SYNC_DATA_SCHEMA, 0,
        null, resource));
    return agent;
  }

  public static void main(String[] args) throws Exception {
    // An opaque context, as the framework hands one to an Activity: the shrinker cannot assume it.
    Context context = (Context) Class.forName(args[2]).getDeclaredConstructor().newInstance();
    start(context, args[0], args[1].getBytes("UTF-8"));
  }
}
