package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okio.Okio;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The shared conformance vectors for CMD_WRITE params (../shared/conformance/vectors.json). */
class WriteParamsVectorsTest {
  @TestFactory List<DynamicTest> everyVectorParsesOrFailsNamingItsField() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map<String, Object> vector : vectors()) {
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

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> vectors() throws IOException {
    // Tests run from the module directory; shared/ sits beside the repository.
    File file = new File("../../shared/conformance/vectors.json").getCanonicalFile();
    if (!file.isFile()) {
      throw new AssertionError("conformance vectors not found at " + file
          + ": clone the shared/ folder beside the repository");
    }
    Map<String, Object> all = new Moshi.Builder().build()
        .<Map<String, Object>>adapter(Types.newParameterizedType(Map.class, String.class, Object.class))
        .fromJson(Okio.buffer(Okio.source(file)));
    return (List<Map<String, Object>>) all.get("cmd_write_params");
  }
}
