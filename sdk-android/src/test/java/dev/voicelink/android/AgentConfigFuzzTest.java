package dev.voicelink.android;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes the Agent's config text (JSON with {@code //} and {@code /* *}{@code /} comments and a BOM,
 * like the platform's cfg files) and the JSON params and data of CMD_SYNC, CMD_QUERY_SYNC_STATUS and
 * CMD_SET_PARAMS. Property: a value, or IllegalArgumentException with a message naming the setting or
 * field; never another exception; the account key never in toString or {@code value("entity")}.
 */
class AgentConfigFuzzTest {
  @FuzzTest
  void configText(byte[] input) {
    String text = new String(input, UTF_8);
    AgentConfig config;
    try {
      config = AgentConfig.parse(text);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotEmpty();
      return;
    }
    assertThat(config.appid()).isNotEmpty();
    assertThat(config.baseUrl()).isNotEmpty();
    if (config.hasAccountKey() && config.accountKey().length() >= 8) {
      assertThat(config.toString()).doesNotContain(config.accountKey());
      assertThat(String.valueOf(config.value("entity"))).doesNotContain(config.accountKey());
    }
  }

  /** First byte picks the command (byte % 4), the rest is its params (or data) text. */
  @FuzzTest
  void commandParams(byte[] input) {
    int command = input.length == 0 ? 0 : (input[0] & 0xff) % 4;
    byte[] rest = new byte[Math.max(0, input.length - 1)];
    if (input.length > 1) System.arraycopy(input, 1, rest, 0, rest.length);
    String text = new String(rest, UTF_8);
    try {
      switch (command) {
        case 0:
          CommandParams.tag(text, "CMD_SYNC");
          break;
        case 1:
          assertThat(CommandParams.sid(text)).isNotEmpty();
          break;
        case 2:
          // null leaves the setting as it is, "" clears it, anything else is a JSON object text
          String persParam = CommandParams.setParamsPersParam(text);
          if (persParam != null && !persParam.isEmpty()) {
            assertThat(persParam.trim()).startsWith("{").endsWith("}");
          }
          break;
        default:
          SyncRequest request = CommandParams.syncRequest(rest, "0123456789abcdef0123456789abcdef",
              "5f1a2b3c");
          assertThat(request).isNotNull();
      }
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).startsWith("CMD_");
    }
  }
}
