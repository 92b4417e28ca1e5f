package dev.voicelink.android;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.entity.BigUploadServer;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CMD_SYNC of a 20 MB resource (27 MB of Base64 in its data) is read, checked and uploaded by a JVM
 * whose heap is less than twice the command: the command's bytes are the one copy of the resource;
 * decoding it to text, or into a second buffer, fails there with OutOfMemoryError.
 */
class SyncLargeResourceTest {
  private static final long TEXT_BYTES = 20L * 1024 * 1024;
  @TempDir File dir;

  @Test void aCommandOfTwentyMegabytesOfRecordsUploadsWithAHeapUnderTwiceItsSize() throws Exception {
    File command = new File(dir, "cmd-sync.json");
    long textBytes = 0;
    try (OutputStream out = new BufferedOutputStream(new FileOutputStream(command))) {
      out.write("{\"param\":{\"id_name\":\"uid\",\"res_name\":\"OS123.contacts\"},\"data\":\""
          .getBytes(UTF_8));
      try (OutputStream base64 = Base64.getEncoder().wrap(new NotClosing(out))) {
        for (int i = 0; textBytes < TEXT_BYTES; i++) {
          byte[] line = ((i > 0 ? "\n" : "") + SyncLargeResourceMain.line(i)).getBytes(UTF_8);
          base64.write(line);
          textBytes += line.length;
        }
      }
      out.write("\"}".getBytes(UTF_8));
    }
    assertUploaded(textBytes, 2 * command.length(), "-Xmx48m", "file", command.getPath());
  }

  /**
   * The builder holds the Base64 while it makes the message's bytes: two copies at its peak (104 MB
   * was enough when measured). The builder before it (the Base64 as a String, the whole message as
   * JSON text, then as bytes, then copied twice) failed at 144 MB.
   */
  @Test void aCommandBuiltFromTwentyMegabytesOfRecordsUploadsWithAHeapUnderFiveTimesItsSize()
      throws Exception {
    int records = 0;
    long textBytes = 0;
    while (textBytes < TEXT_BYTES) {
      textBytes += (records > 0 ? 1 : 0)
          + SyncLargeResourceMain.line(records++).getBytes(UTF_8).length;
    }
    long commandBytes = (textBytes + 2) / 3 * 4; // and its envelope
    assertUploaded(textBytes, 5 * commandBytes, "-Xmx120m", "records", String.valueOf(records));
  }

  /** Runs {@link SyncLargeResourceMain} with {@code heap}; the upload went out whole. */
  private void assertUploaded(long textBytes, long heapBelow, String heap, String... command)
      throws Exception {
    MockWebServer server = BigUploadServer.start();
    try {
      File log = new File(dir, "child.log");
      String[] java = {new File(System.getProperty("java.home"), "bin/java").getPath(), heap,
          "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
          SyncLargeResourceMain.class.getName(), server.url("/").toString()};
      String[] all = new String[java.length + command.length];
      System.arraycopy(java, 0, all, 0, java.length);
      System.arraycopy(command, 0, all, java.length, command.length);
      Process child = new ProcessBuilder(all).redirectErrorStream(true).redirectOutput(log).start();
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
      String printed = new String(Files.readAllBytes(log.toPath()), UTF_8);
      assertThat(child.exitValue()).as(printed).isZero();
      assertThat(BigUploadServer.maxHeapPrinted(printed)).isLessThan(heapBelow);
      BigUploadServer.takeWholeUpload(server, textBytes);
    } finally {
      server.shutdown();
    }
  }

  /** Lets the Base64 encoder write its padding at close without closing the file under it. */
  private static final class NotClosing extends FilterOutputStream {
    NotClosing(OutputStream out) {
      super(out);
    }

    @Override public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
    }

    @Override public void close() throws IOException {
      flush();
    }
  }
}
