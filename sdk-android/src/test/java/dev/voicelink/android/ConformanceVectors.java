package dev.voicelink.android;

import com.squareup.moshi.Moshi;
import com.squareup.moshi.Types;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import okio.Okio;

/** The shared conformance vectors (../shared/conformance/vectors.json), one section at a time. */
final class ConformanceVectors {
  private ConformanceVectors() {
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(String section) throws IOException {
    // Tests run from the module directory; shared/ sits beside the repository.
    File file = new File("../../shared/conformance/vectors.json").getCanonicalFile();
    if (!file.isFile()) {
      throw new AssertionError("conformance vectors not found at " + file
          + ": clone the shared/ folder beside the repository");
    }
    Map<String, Object> all = new Moshi.Builder().build()
        .<Map<String, Object>>adapter(Types.newParameterizedType(Map.class, String.class, Object.class))
        .fromJson(Okio.buffer(Okio.source(file)));
    return (List<Map<String, Object>>) all.get(section);
  }
}
