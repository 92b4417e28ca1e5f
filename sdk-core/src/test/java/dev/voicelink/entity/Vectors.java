package dev.voicelink.entity;

import com.squareup.moshi.JsonAdapter;
import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import okio.Okio;

/** The shared conformance vectors, read from {@code ../shared/conformance/vectors.json} beside the repository. */
final class Vectors {
  private static Map<String, Object> all;

  private Vectors() {
  }

  static synchronized Map<String, Object> all() throws IOException {
    if (all == null) {
      // Tests run from the module directory; the repository root is one level up.
      File file = new File("../../shared/conformance/vectors.json").getCanonicalFile();
      if (!file.isFile()) {
        throw new AssertionError("conformance vectors not found at " + file
            + ": clone the shared/ folder beside the repository");
      }
      JsonAdapter<Map<String, Object>> adapter = new Moshi.Builder().build()
          .adapter(Types.newParameterizedType(Map.class, String.class, Object.class));
      all = adapter.fromJson(Okio.buffer(Okio.source(file)));
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
