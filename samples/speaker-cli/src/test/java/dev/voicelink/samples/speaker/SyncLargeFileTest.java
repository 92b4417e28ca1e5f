package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.entity.BigUploadServer;
import dev.voicelink.testing.DefaultConsole;
import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code speaker-cli sync --progress} of a 50 MB resource in a JVM whose whole heap is 16 MB: the CLI streams
 * the file into the request as the SDK does, and the progress bar counts the streamed body up to its end. The
 * resource is over the default limit of 32 MiB, so {@code --max-resource-bytes} raises it.
 */
class SyncLargeFileTest {
  private static final String HEAP = "-Xmx16m";
  private static final long TEXT_BYTES = 50L * 1000 * 1000;

  @TempDir File dir;

  @Test void fiftyMegabytesWithASixteenMegabyteHeapShowProgressToTheEnd() throws Exception {
    File records = new File(dir, "contacts.jsonl");
    long textBytes = 0;
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(records),
        StandardCharsets.UTF_8))) {
      for (int i = 0; textBytes < TEXT_BYTES; i++) {
        String line = String.format("{\"name\":\"联系人%07d\",\"alias\":\"c%07d\"}\n", i, i);
        out.write(line);
        textBytes += line.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    File key = new File(dir, "key");
    Files.write(key.toPath(), DefaultConsole.ACCOUNT_KEY.getBytes(StandardCharsets.UTF_8));

    MockWebServer server = BigUploadServer.start();
    try {
      File stdout = new File(dir, "stdout");
      File stderr = new File(dir, "stderr");
      Process cli = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/java").getPath(),
          HEAP, "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
          SpeakerCli.class.getName(), "sync", "--progress",
          "--base-url", server.url("/").toString(), "--namespace", "OS123", "--appid", DefaultConsole.APPID,
          "--res-name", "OS123.contacts", "--fields", "name,alias", "--level", "user",
          "--auth-id", EntityCommandsTest.AUTH_ID, "--account-key-file", key.getPath(),
          "--file", records.getPath(), "--max-resource-bytes", String.valueOf(64L * 1024 * 1024))
          .redirectOutput(stdout).redirectError(stderr).start();
      assertThat(cli.waitFor(120, TimeUnit.SECONDS)).isTrue();
      String out = new String(Files.readAllBytes(stdout.toPath()), StandardCharsets.UTF_8);
      String err = new String(Files.readAllBytes(stderr.toPath()), StandardCharsets.UTF_8);
      assertThat(cli.exitValue()).as(err).isZero();
      assertThat(err).isEmpty();

      RecordedRequest upload = server.takeRequest();
      long body = upload.getBodySize();
      assertThat(body).isGreaterThan((textBytes + 2) / 3 * 4)
          .isEqualTo(Long.parseLong(upload.getHeader("Content-Length")));
      String total = TransferBar.size(body);
      String[] parts = out.split(Pattern.quote(SyncProgressTest.CLEAR_LINE), -1);
      assertThat(parts.length - 2).as("frames of the bar").isGreaterThanOrEqualTo(1);
      SyncProgressTest.assertEndsWithTheWholeBodyThenTheSummary(parts, total, BigUploadServer.SID);
    } finally {
      server.shutdown();
    }
  }
}
