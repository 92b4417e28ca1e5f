package dev.voicelink.benchmarks.harness;

import com.squareup.moshi.Moshi;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;

/** Writes and reads the harnesses' result files (JSON objects). */
public final class Results {
  private static final Moshi MOSHI = new Moshi.Builder().build();

  private Results() {
  }

  public static void write(File file, Map<String, Object> result) throws IOException {
    File dir = file.getAbsoluteFile().getParentFile();
    if (dir != null && !dir.isDirectory() && !dir.mkdirs()) throw new IOException("cannot create " + dir);
    String json = MOSHI.adapter(Object.class).indent("  ").toJson(result) + "\n";
    Files.write(file.toPath(), json.getBytes(StandardCharsets.UTF_8));
  }

  public static Object read(File file) throws IOException {
    return MOSHI.adapter(Object.class).fromJson(new String(Files.readAllBytes(file.toPath()),
        StandardCharsets.UTF_8));
  }
}
