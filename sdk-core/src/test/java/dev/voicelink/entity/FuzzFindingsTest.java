package dev.voicelink.entity;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.FakeTransport;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The findings of fuzzing the entity parsers, each pinned by its input (also in the fuzz corpora). */
class FuzzFindingsTest {
  private final FakeTransport transport = new FakeTransport();
  private final EntityWebApi api = EntityWebApi.builder(VoiceLinkClient.builder()
      .baseUrl("https://api.example/").httpClient(transport.client()).build())
      .namespace("OS123").accountKey("0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a").build();

  /** Corpus: WebApiResponseFuzzTestInputs/checkAnswer/huge-error. Was: error = Long.MAX_VALUE. */
  @Test void checkErrorBeyondExactIntegersIsMalformedNotClamped() {
    transport.answer(200, "application/json", ("{\"code\":\"00000\",\"data\":{\"sid\":\"psn0001\","
        + "\"csid\":\"c2\",\"reply\":\"x\",\"error\":1e300},\"desc\":\"success\",\"sid\":\"s\"}")
        .getBytes(UTF_8));
    assertThatThrownBy(() -> api.checkResource("psn0001").execute())
        .isExactlyInstanceOf(IOException.class)
        .hasMessage("malformed check-resource response: error must be an integer (sid s)");
  }
}
