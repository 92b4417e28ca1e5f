package dev.voicelink.interact;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Fuzzes the text frames of the interaction channel (docs/interaction-channel.md): {@code connected},
 * {@code result} with entities, {@code error}, and anything else a server may send. Property: a message
 * or IOException, never a runtime exception (the socket listener turns IOException into
 * EVENT_ERROR/reconnect, so a runtime exception would be a message silently dropped or a crash).
 */
class InteractionMessageFuzzTest {
  @FuzzTest
  void serverFrame(byte[] input) {
    String frame = new String(input, UTF_8);
    InteractionCodec.Message message;
    try {
      message = InteractionCodec.parse(frame);
    } catch (IOException e) {
      assertThat(e.getMessage()).isNotNull();
      return;
    }
    assertThat(message.text).isNotNull();
    assertThat(message.code).isNotNull();
    assertThat(message.desc).isNotNull();
    InteractionResult result = new InteractionResult(message.seq, message.text, message.entities, frame);
    assertThat(result.entities()).hasSameSizeAs(message.entities);
    assertThat(result.toString()).isNotNull();
  }
}
