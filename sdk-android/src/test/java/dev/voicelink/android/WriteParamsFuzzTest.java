package dev.voicelink.android;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Map;

/**
 * Fuzzes the CMD_WRITE params text ({@code data_type=text,pers_param={"g":"a,b=c"}}, protocol 4.10).
 * Property: the pairs, or IllegalArgumentException whose message says which param is at fault; a JSON
 * object value keeps its commas and {@code =}.
 */
class WriteParamsFuzzTest {
  @FuzzTest
  void writeParams(byte[] input) {
    String params = new String(input, UTF_8);
    Map<String, String> pairs;
    try {
      pairs = WriteParams.parse(params);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).startsWith("CMD_WRITE param");
      return;
    }
    for (Map.Entry<String, String> pair : pairs.entrySet()) {
      assertThat(pair.getKey()).isNotEmpty().doesNotContain("=", ",");
      assertThat(params).contains(pair.getKey());
      assertThat(params).contains(pair.getValue());
    }
  }
}
