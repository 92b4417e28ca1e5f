package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AgentConfigTest {
  private static final String KEY = "0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a";

  @Test void theAccountKeyIsUsedButNeverShown() {
    AgentConfig config = AgentConfig.parse("{\"login\":{\"appid\":\"5f1a2b3c\"},"
        + "\"server\":{\"base_url\":\"https://api.example.com\"},"
        + "\"entity\":{\"namespace\":\"OS123\",\"account_key\":\"" + KEY + "\",\"mine\":1},"
        + "\"global\":{\"scene\":\"main\"}}");

    assertThat(config.hasAccountKey()).isTrue();
    assertThat(config.accountKey()).isEqualTo(KEY);
    assertThat(config.value("entity.account_key")).isNull();
    assertThat(new ArrayList<Object>(((Map<?, ?>) config.value("entity")).keySet()))
        .containsExactly("namespace", "mine");
    assertThat(config.value("entity.namespace")).isEqualTo("OS123");
    assertThat(config.value("global.scene")).isEqualTo("main");
    assertThat(config.toString()).doesNotContain(KEY);
    assertThatThrownBy(() -> config.value(null)).isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("dottedPath must not be null");
  }

  @Test void theIntervalUnitIsSecondsOrMilliseconds() {
    String start = "{\"login\":{\"appid\":\"5f1a2b3c\"},"
        + "\"server\":{\"base_url\":\"https://api.example.com\"},\"auth\":{\"interval_unit\":";
    assertThat(AgentConfig.parse(start + "\"milliseconds\"}}").intervalUnit())
        .isEqualTo(TimeUnit.MILLISECONDS);
    assertThat(AgentConfig.parse(start + "\"seconds\"}}").intervalUnit()).isEqualTo(TimeUnit.SECONDS);
    assertThat(AgentConfig.parse(start + "\"milliseconds\"}}").toString())
        .contains(", interval_unit=milliseconds,");
    assertThat(AgentConfig.parse("{\"login\":{\"appid\":\"5f1a2b3c\"},"
        + "\"server\":{\"base_url\":\"https://api.example.com\"}}").intervalUnit())
        .as("the SDK's reading").isNull();
    assertThatThrownBy(() -> AgentConfig.parse(start + "\"ms\"}}"))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth.interval_unit must be \"seconds\" or \"milliseconds\"; was: ms");
  }

  @Test void valuesAreUnmodifiableAtEveryDepth() {
    AgentConfig config = AgentConfig.parse("{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"https://api.example.com\"},"
        + "\"global\":{\"scene\":{\"name\":\"main\",\"tags\":[\"a\",{\"b\":1}]}}}");

    Map<?, ?> global = (Map<?, ?>) config.value("global");
    @SuppressWarnings("unchecked")
    Map<String, Object> scene = (Map<String, Object>) global.get("scene");
    assertThatThrownBy(() -> scene.put("name", "other"))
        .isInstanceOf(UnsupportedOperationException.class);
    @SuppressWarnings("unchecked")
    List<Object> tags = (List<Object>) scene.get("tags");
    assertThatThrownBy(() -> tags.add("c")).isInstanceOf(UnsupportedOperationException.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> inList = (Map<String, Object>) tags.get(1);
    assertThatThrownBy(() -> inList.clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThat(config.value("global.scene.name")).isEqualTo("main");
  }
}
