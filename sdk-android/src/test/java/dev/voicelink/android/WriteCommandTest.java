package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.interact.InteractionChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** CMD_WRITE at the edges of the Agent's life, where the engine cannot set the moment up. */
class WriteCommandTest {
  /**
   * destroy() comes while a write is handled: it passed the first look, and the channel, closed with
   * the Agent's own client, refuses it. The app is told the Agent is gone, not to send it again once
   * connected, which never comes.
   */
  @Test void aWriteWhoseChannelDestroyClosedMeanwhileIsAnsweredDestroyed() {
    VoiceLinkClient client = VoiceLinkClient.builder().baseUrl("https://api.example.com").build();
    InteractionChannel channel = InteractionChannel.builder(client, () -> "at-1").build();
    channel.close();
    List<String> events = new CopyOnWriteArrayList<>();
    EventEmitter out = new EventEmitter((type, arg1, arg2, info, data) -> events.add(type + " " + arg1
        + " " + info + " " + data), new AgentWorker());
    AtomicInteger looks = new AtomicInteger();
    WriteCommand write = new WriteCommand(new SetParamsCommand(null, out), out,
        () -> looks.incrementAndGet() > 1); // destroyed from the second look on

    boolean pending = write.handle(new AgentMessage(CMD_WRITE, 0, 0, "data_type=text,tag=w1",
        "call Zhang San".getBytes(StandardCharsets.UTF_8)), channel);

    assertThat(pending).isFalse();
    assertThat(looks).hasValue(2);
    assertThat(events).containsExactly(AgentConstants.EVENT_ERROR + " " + AgentConstants.ERROR_DESTROYED
        + " the Agent was destroyed before the write was sent. Nothing was sent. {cmd=2,"
        + " data_type=text, tag=w1}");
    client.close();
  }
}
