package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The conformance vectors for CMD_WRITE params (conformance/vectors.json). */
class WriteParamsVectorsTest {
  @TestFactory List<DynamicTest> everyVectorParsesOrFailsNamingItsField() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map<String, Object> vector : ConformanceVectors.list("cmd_write_params")) {
      String params = (String) vector.get("params");
      Object expected = vector.get("expect");
      String field = (String) vector.get("error");
      tests.add(DynamicTest.dynamicTest(params, () -> {
        if (field == null) {
          assertThat(WriteParams.parse(params)).isEqualTo(expected);
        } else {
          assertThatThrownBy(() -> WriteParams.parse(params))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining(field);
        }
      }));
    }
    assertThat(tests).hasSizeGreaterThanOrEqualTo(8);
    return tests;
  }
}
