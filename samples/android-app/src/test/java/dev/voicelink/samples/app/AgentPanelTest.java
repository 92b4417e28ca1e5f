package dev.voicelink.samples.app;

import static org.assertj.core.api.Assertions.assertThat;

import android.app.Activity;
import dev.voicelink.android.AgentCommands;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.WebApiException;
import dev.voicelink.fixtures.AgentFixtures;
import dev.voicelink.fixtures.VoiceLinkFixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;

/**
 * The sample's Agent panel without an Agent: its commands go to a list, and the Agent's events are made
 * by voicelink-fixtures, exactly as the Agent makes them (MainActivityTest sees the same log lines from
 * a real Agent and the reference server).
 */
@RunWith(RobolectricTestRunner.class)
public final class AgentPanelTest {
  private static final String UID = "3f0c8d2e6b1a4c5d9e7f8a0b1c2d3e4f";
  private static final ResourceDefinition CONTACTS = ResourceDefinition.builder().name("OS123.contacts")
      .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();

  private final List<AgentMessage> sent = new ArrayList<>();
  private SampleScreen screen;
  private AgentPanel panel;

  @Before public void makeThePanel() {
    screen = new SampleScreen(Robolectric.buildActivity(Activity.class).setup().get());
    panel = new AgentPanel(screen, CONTACTS, sent::add);
    screen.writeText.setText("call Old Zhang");
  }

  private String lastLine() {
    String[] lines = screen.eventLog.getText().toString().split("\n");
    return lines[lines.length - 1];
  }

  @Test public void theCommandsWaitForTheConnectionThenSendTheTypedMessages() {
    assertThat(screen.sync.isEnabled()).isFalse();

    panel.onEvent(AgentFixtures.connected(UID));
    assertThat(screen.status.getText().toString()).isEqualTo("Connected");
    assertThat(lastLine()).isEqualTo("← EVENT_CONNECTED_TO_SERVER arg1=0 arg2=0 uid=" + UID);
    assertThat(screen.sync.isEnabled()).isTrue();
    assertThat(screen.setParams.isEnabled()).isTrue();
    assertThat(screen.write.isEnabled()).isTrue();
    assertThat(screen.query.isEnabled()).as("nothing synced yet").isFalse();

    screen.sync.performClick();
    AgentMessage sync = AgentCommands.sync(CONTACTS).records(Commands.sampleContacts()).tag("contacts-1")
        .build();
    assertThat(sent).containsExactly(sync);
    assertThat(lastLine()).isEqualTo("→ CMD_SYNC arg1=SYNC_DATA_SCHEMA params={\"tag\":\"contacts-1\"} data="
        + sync.data().length + " bytes");

    panel.onEvent(AgentFixtures.syncReturned("psn0001", "contacts-1"));
    assertThat(lastLine()).isEqualTo("← EVENT_CMD_RETURN arg1=CMD_SYNC arg2=0 sid=psn0001 sync_dtype=3"
        + " tag=contacts-1");
    assertThat(screen.query.isEnabled()).isTrue();

    screen.query.performClick();
    screen.setParams.performClick();
    screen.write.performClick();
    assertThat(sent).containsExactly(sync, AgentCommands.querySyncStatus("psn0001"),
        AgentCommands.setPersParam(Commands.USER),
        AgentCommands.writeText("call Old Zhang").persParam(Commands.USER).build());

    panel.onEvent(AgentFixtures.syncStatus(VoiceLinkFixtures.checkResult("psn0001", 0, "in effect"), null));
    assertThat(lastLine()).isEqualTo("← EVENT_CMD_RETURN arg1=CMD_QUERY_SYNC_STATUS arg2=0 result={\"sid\":"
        + "\"psn0001\",\"csid\":\"cpsn0001\",\"reply\":\"in effect\",\"error\":0} sid=psn0001 sync_dtype=4");
  }

  @Test public void aFailedSyncKeepsTheSidOfTheLastOneThatWorked() {
    panel.onEvent(AgentFixtures.connected(UID));
    screen.sync.performClick();
    panel.onEvent(AgentFixtures.syncReturned("psn0001", "contacts-1"));
    screen.sync.performClick();
    panel.onEvent(AgentFixtures.syncFailed(new WebApiException("20004", "IP not in whitelist", "psn0002"),
        "contacts-2"));

    assertThat(lastLine()).isEqualTo("← EVENT_CMD_RETURN arg1=CMD_SYNC arg2=60005 code=20004"
        + " desc=IP not in whitelist sid=psn0002 sync_dtype=3 tag=contacts-2"
        + " info=CMD_SYNC failed: 20004: IP not in whitelist (sid psn0002)");
    screen.query.performClick();
    assertThat(sent.get(sent.size() - 1)).isEqualTo(AgentCommands.querySyncStatus("psn0001"));
  }

  @Test public void aLostConnectionDisablesTheCommandsAndSaysSo() {
    panel.onEvent(AgentFixtures.connected(UID));
    panel.onEvent(AgentFixtures.syncReturned("psn0001", null));

    panel.onEvent(AgentFixtures.disconnected());

    assertThat(screen.status.getText().toString()).isEqualTo("Disconnected");
    assertThat(screen.sync.isEnabled()).isFalse();
    assertThat(screen.query.isEnabled()).isFalse();
    assertThat(screen.setParams.isEnabled()).isFalse();
    assertThat(screen.write.isEnabled()).isFalse();
    panel.onEvent(AgentFixtures.connected(UID));
    assertThat(screen.query.isEnabled()).as("the sid is kept across reconnections").isTrue();
  }

  @Test public void theDisconnectionOfASignOutIsNoNews() {
    panel.onEvent(AgentFixtures.connected(UID));
    screen.status.setText("Signed out. Device SN-0001-DEMO at http://127.0.0.1/auth");

    panel.signedOut();
    assertThat(screen.write.isEnabled()).as("at once, before the Agent's news").isFalse();
    panel.onEvent(AgentFixtures.disconnected());

    assertThat(screen.status.getText().toString())
        .isEqualTo("Signed out. Device SN-0001-DEMO at http://127.0.0.1/auth");
    assertThat(lastLine()).isEqualTo("← EVENT_SERVER_DISCONNECTED arg1=0 arg2=0");
  }

  @Test public void anEmptyTextIsNotWritten() {
    panel.onEvent(AgentFixtures.connected(UID));
    screen.writeText.setText("");

    screen.write.performClick();

    assertThat(sent).isEmpty();
    assertThat(lastLine()).isEqualTo("text not written: text must not be empty");
  }
}
