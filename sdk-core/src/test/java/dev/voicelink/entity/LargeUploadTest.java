package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 20 MB resource uploaded by a JVM whose whole heap (16 MB) is smaller than the resource: only a
 * streaming encoder can do it. The child JVM fails with OutOfMemoryError otherwise. It reports its
 * progress as it goes, which must not change that. A 20 MB export written as one JSON array on one
 * line is refused there, from its first character, before it is read whole.
 */
class LargeUploadTest {
  static final String HEAP = "-Xmx16m";
  @TempDir File dir;

  @Test void twentyMegabytesWithASixteenMegabyteHeap() throws Exception {
    File file = new File(dir, "large.jsonl");
    long textBytes = 0;
    int records = 0;
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(file),
        StandardCharsets.UTF_8))) {
      out.write('\uFEFF');
      while (textBytes < 20L * 1024 * 1024) {
        String line = String.format("{\"name\":\"联系人%07d\",\"alias\":\"c%07d|d%07d\"}", records,
            records, records);
        if (records > 0) {
          out.write('\n');
          textBytes++;
        }
        out.write(line);
        textBytes += line.getBytes(StandardCharsets.UTF_8).length;
        records++;
      }
    }
    MockWebServer server = BigUploadServer.start();
    try {
      String log = uploadInAChildJvm(server, file, 0);
      assertThat(BigUploadServer.maxHeapPrinted(log)).isLessThan(textBytes);

      RecordedRequest request = BigUploadServer.takeWholeUpload(server, textBytes);
      assertThat(log).contains("progress=" + request.getBodySize() + " calls=");
    } finally {
      server.shutdown();
    }
  }

  @Test void aContactsExportWrittenAsOneJsonArrayLineIsRefusedWithoutBeingReadWhole()
      throws Exception {
    assertRefusedUnread(oneLineExport("\uFEFF[", "]\n"),
        "refused: record 1 of OS123.contacts must be a JSON object; was BEGIN_ARRAY");
  }

  /** The same export as a JSON object on one line, as serializers write one: it is not read whole. */
  @Test void aContactsExportWrittenAsOneJsonObjectLineIsRefusedWithoutBeingReadWhole()
      throws Exception {
    assertRefusedUnread(oneLineExport("{\"contacts\":[", "]}\n"), "refused: line 1 of the resource file"
        + " export.json is longer than 1048576 characters, which no record is: give one JSON object per"
        + " line (JSON Lines), not a JSON document on one line");
  }

  /** 20 MB of contacts as one JSON array between {@code open} and {@code close}, on one line. */
  private File oneLineExport(String open, String close) throws IOException {
    File file = new File(dir, "export.json");
    long textBytes = 0;
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(file),
        StandardCharsets.UTF_8))) {
      out.write(open);
      for (int i = 0; textBytes < 20L * 1024 * 1024; i++) {
        String record = String.format("%s{\"name\":\"联系人%07d\",\"alias\":\"c%07d\"}",
            i > 0 ? "," : "", i, i);
        out.write(record);
        textBytes += record.getBytes(StandardCharsets.UTF_8).length;
      }
      out.write(close);
    }
    return file;
  }

  /** The upload of {@code file} with the small heap ends with {@code refusal}, nothing sent. */
  private void assertRefusedUnread(File file, String refusal) throws Exception {
    MockWebServer server = BigUploadServer.start();
    try {
      String log = uploadInAChildJvm(server, file, LargeUploadMain.REFUSED);
      assertThat(log.trim()).isEqualTo(refusal);
      assertThat(server.getRequestCount()).isZero();
    } finally {
      server.shutdown();
    }
  }

  /** Runs {@link LargeUploadMain} on {@code records} with the small heap; returns what it printed. */
  private String uploadInAChildJvm(MockWebServer server, File records, int exitStatus)
      throws Exception {
    File log = new File(dir, "child.log");
    Process child = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/java").getPath(),
        HEAP, "-cp", System.getProperty("java.class.path"), LargeUploadMain.class.getName(),
        server.url("/").toString(), records.getPath())
        .redirectErrorStream(true).redirectOutput(log).start();
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String printed = new String(Files.readAllBytes(log.toPath()), StandardCharsets.UTF_8);
    assertThat(child.exitValue()).as(printed).isEqualTo(exitStatus);
    return printed;
  }
}
