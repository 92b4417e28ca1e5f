package dev.voicelink.entity;

import com.squareup.moshi.JsonAdapter;
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
 * puts on the test class path as {@code /conformance/vectors.json}.
 */
final class Vectors {
  private static Map<String, Object> all;

  private Vectors() {
  }

  static synchronized Map<String, Object> all() throws IOException {
    if (all == null) {
      InputStream in = Vectors.class.getResourceAsStream("/conformance/vectors.json");
      if (in == null) {
        throw new AssertionError("/conformance/vectors.json is not on the test class path: the"
            + " module's pom.xml adds conformance/ as a test resource");
      }
      JsonAdapter<Map<String, Object>> adapter = new Moshi.Builder().build()
          .adapter(Types.newParameterizedType(Map.class, String.class, Object.class));
      try (BufferedSource source = Okio.buffer(Okio.source(in))) {
        all = adapter.fromJson(source);
      }
    }
    return all;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(String name) throws IOException {
    return (List<Map<String, Object>>) all().get(name);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(String name) throws IOException {
    return (Map<String, Object>) all().get(name);
  }

  static String toJson(Object value) {
    return new Moshi.Builder().build().adapter(Object.class).toJson(value);
  }
}
