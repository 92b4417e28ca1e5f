package dev.voicelink.samples.app;

import dev.voicelink.android.AgentEvent;
import dev.voicelink.android.AgentListener;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.android.ConnectionEvent;
import dev.voicelink.android.SyncReturn;
import dev.voicelink.entity.ResourceDefinition;
import org.jspecify.annotations.Nullable;

/**
 * The Agent on screen: the four command buttons, each sending its typed message ({@link Commands})
 * through {@link Sender}, and every event the Agent delivers, shown in the log and read with the SDK's
 * readers. The commands are enabled while the Agent is connected; a sync's {@code sid} enables the
 * status query. The Agent is the sender and delivers the events in the app; {@code AgentPanelTest}
 * sends to a list and feeds events made by voicelink-fixtures.
 *
 * <p>Main thread only: the Agent delivers its events there.
 */
final class AgentPanel implements AgentListener {
  /** Where the commands go: {@code Agent.sendMessage}, which never blocks. */
  interface Sender {
    void sendMessage(AgentMessage message);
  }

  private final SampleScreen screen;
  private final ResourceDefinition contacts;
  private final Sender agent;
  private @Nullable String lastSid;
  private int syncCount;
  private boolean connected;

  AgentPanel(SampleScreen screen, ResourceDefinition contacts, Sender agent) {
    this.screen = screen;
    this.contacts = contacts;
    this.agent = agent;
    screen.sync.setOnClickListener(v -> syncContacts());
    screen.query.setOnClickListener(v -> queryStatus());
    screen.setParams.setOnClickListener(v -> setPersParam());
    screen.write.setOnClickListener(v -> writeText());
  }

  @Override public void onEvent(AgentEvent event) {
    screen.log(EventLog.event(event));
    ConnectionEvent connection = ConnectionEvent.from(event);
    if (connection != null && connection.kind() == ConnectionEvent.Kind.CONNECTED) {
      connected = true;
      screen.status.setText("Connected");
      enableCommands();
    } else if (connection != null && connection.kind() == ConnectionEvent.Kind.DISCONNECTED) {
      if (connected) screen.status.setText("Disconnected"); // after a sign-out it is no news
      connected = false;
      enableCommands();
    }
    SyncReturn sync = SyncReturn.from(event);
    String sid = sync == null ? null : sync.sid();
    if (sync != null && sync.isSuccess() && sid != null) {
      lastSid = sid;
      screen.query.setEnabled(true);
    }
  }

  /** The device signed out: the connection goes, and its loss is no news on screen. */
  void signedOut() {
    connected = false;
    enableCommands();
  }

  private void enableCommands() {
    screen.sync.setEnabled(connected);
    screen.setParams.setEnabled(connected);
    screen.write.setEnabled(connected);
    screen.query.setEnabled(connected && lastSid != null);
  }

  private void syncContacts() {
    try {
      send(Commands.syncContacts(contacts, "contacts-" + (++syncCount)));
    } catch (RuntimeException e) { // a contact that breaks the definition: nothing is sent
      screen.log("contacts not synced: " + e.getMessage());
    }
  }

  private void queryStatus() {
    String sid = lastSid;
    if (sid != null) send(Commands.queryStatus(sid));
  }

  private void setPersParam() {
    send(Commands.setPersParam());
  }

  private void writeText() {
    try {
      send(Commands.writeText(screen.writeText.getText().toString()));
    } catch (IllegalArgumentException e) { // an empty text: nothing is sent
      screen.log("text not written: " + e.getMessage());
    }
  }

  private void send(AgentMessage message) {
    screen.log(EventLog.command(message));
    agent.sendMessage(message);
  }
}
