package dev.voicelink.reliability;

import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.interact.InteractionChannel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Bad input given to the interaction channel's API, checked like sdk-core's ({@link BadInputTest}):
 * refused at once, with an error naming the problem, and nothing sent. Published in
 * docs/reliability.md.
 */
class ChannelBadInputTest {
  static final MockWebServer server = new MockWebServer();
  static final AtomicInteger started = new AtomicInteger();
  static final Map<String, String> table = new LinkedHashMap<>();
  static VoiceLinkClient config;

  @BeforeAll static void start() throws IOException {
    config = BadInputTest.countingClient(server, started);
  }

  @AfterAll static void publish() throws IOException {
    config.close();
    server.shutdown();
    DocSection.check("reliability.md", "bad-input-interact", BadInputTest.markdown(table));
  }

  static InteractionChannel.Builder channel() {
    return InteractionChannel.builder(config, () -> "at");
  }

  static Map<String, BadInputTest.Operation> cases() {
    Map<String, BadInputTest.Operation> c = new LinkedHashMap<>();
    c.put("channel null listener", () -> channel().listener(null));
    c.put("channel null token source", () -> InteractionChannel.builder(config, null));
    c.put("channel negative reconnect attempts", () -> channel().maxReconnectAttempts(-1));
    c.put("channel reconnect backoff base 0", () -> channel().reconnectBackoff(0, 1, TimeUnit.SECONDS));
    c.put("channel reconnect backoff cap below base", () -> channel().reconnectBackoff(2, 1, TimeUnit.SECONDS));
    c.put("channel reconnect backoff without a unit", () -> channel().reconnectBackoff(1, 2, null));
    c.put("channel negative ping interval", () -> channel().pingIntervalSeconds(-1));
    c.put("channel ping interval beyond OkHttp's limit", () -> channel().pingIntervalSeconds(Integer.MAX_VALUE));
    c.put("channel greeting timeout 0", () -> channel().greetingTimeout(0, TimeUnit.SECONDS));
    c.put("channel greeting timeout without a unit", () -> channel().greetingTimeout(10, null));
    c.put("channel result timeout 0", () -> channel().resultTimeout(0, TimeUnit.SECONDS));
    c.put("channel write before connect", () -> channel().listener(result -> { }).build().writeText("hello", null));
    c.put("channel null text", () -> channel().listener(result -> { }).build().writeText(null, null));
    c.put("channel null audio", () -> channel().listener(result -> { }).build().writeAudio(null, 16000, null));
    c.put("channel audio with sample rate 0", () -> channel().listener(result -> { }).build().writeAudio(new byte[4], 0, null));
    c.put("channel connect after close", () -> {
      InteractionChannel closed = channel().listener(result -> { }).build();
      closed.close();
      closed.connect();
    });
    c.put("fetchUid null token source", () -> InteractionChannel.fetchUid(config, null));
    c.put("fetchUid greeting timeout 0", () -> InteractionChannel.fetchUid(config, () -> "at", 0,
        TimeUnit.SECONDS));
    c.put("fetchUid greeting timeout without unit", () -> InteractionChannel.fetchUid(config,
        () -> "at", 5, null));
    c.put("fetchUid run twice", () -> {
      VoiceLinkCall<String> once = InteractionChannel.fetchUid(config, () -> "at");
      once.cancel();
      once.enqueue(result -> { });
      once.enqueue(result -> { });
    });
    return c;
  }

  @TestFactory List<DynamicTest> everyBadInputIsRefusedBeforeAnythingIsSent() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, BadInputTest.Operation> entry : cases().entrySet()) {
      tests.add(BadInputTest.refusedRow(entry.getKey(), entry.getValue(), started, server, table));
    }
    return tests;
  }
}
