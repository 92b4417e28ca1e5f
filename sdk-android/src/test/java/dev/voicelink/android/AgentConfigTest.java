package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Map;
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
  }
}
