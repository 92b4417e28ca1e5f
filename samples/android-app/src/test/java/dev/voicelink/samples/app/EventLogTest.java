package dev.voicelink.samples.app;

import static dev.voicelink.android.AgentConstants.CMD_SYNC;
import static dev.voicelink.android.AgentConstants.EVENT_CMD_RETURN;
import static dev.voicelink.android.AgentConstants.EVENT_ERROR;
import static dev.voicelink.android.AgentConstants.KEY_SID;
import static dev.voicelink.android.AgentConstants.KEY_SYNC_DTYPE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.android.AgentEvent;
import dev.voicelink.fixtures.AgentFixtures;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;

/** How the sample shows the Agent's events, with events made by voicelink-fixtures. */
@RunWith(RobolectricTestRunner.class)
public final class EventLogTest {
  @Test public void aSyncReplyShowsTheCommandAndItsData() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put(KEY_SYNC_DTYPE, 3);
    data.put(KEY_SID, "psn0001");
    AgentEvent event = AgentFixtures.event(EVENT_CMD_RETURN, CMD_SYNC, 0, "", data);

    assertThat(event.data().getInt(KEY_SYNC_DTYPE)).isEqualTo(3);
    assertThat(EventLog.event(event))
        .isEqualTo("← EVENT_CMD_RETURN arg1=CMD_SYNC arg2=0 sid=psn0001 sync_dtype=3");
  }

  @Test public void anErrorShowsItsInfo() {
    AgentEvent event = AgentFixtures.event(EVENT_ERROR, 10016, 0, "not connected",
        Collections.<String, Object>emptyMap());
    assertThat(EventLog.event(event)).isEqualTo("← EVENT_ERROR arg1=10016 arg2=0 info=not connected");
  }
}
