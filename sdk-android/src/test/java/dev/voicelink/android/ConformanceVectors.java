package dev.voicelink.android;

import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import okio.BufferedSource;
import okio.Okio;

/**
 * The conformance vectors, the repository's one copy (conformance/vectors.json), which the build
 * puts on the test class path as {@code /conformance/vectors.json}; one section at a time.
 */
final class ConformanceVectors {
  private ConformanceVectors() {
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(String section) throws IOException {
    InputStream in = ConformanceVectors.class.getResourceAsStream("/conformance/vectors.json");
    if (in == null) {
      throw new AssertionError("/conformance/vectors.json is not on the test class path: the"
          + " module's pom.xml adds conformance/ as a test resource");
    }
    try (BufferedSource source = Okio.buffer(Okio.source(in))) {
      Map<String, Object> all = new Moshi.Builder().build()
          .<Map<String, Object>>adapter(Types.newParameterizedType(Map.class, String.class, Object.class))
          .fromJson(source);
      return (List<Map<String, Object>>) all.get(section);
    }
  }
}
