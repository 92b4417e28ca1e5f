package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTokenStoreTest {
  @TempDir File dir;

  @Test void missingFileMeansNoRecord() throws Exception {
    assertThat(new FileTokenStore(new File(dir, "none.json")).load()).isNull();
  }

  @Test void savedRecordLoadsBackInAVersionedFile() throws Exception {
    File file = new File(dir, "sub/token.json");
    FileTokenStore store = new FileTokenStore(file);
    TokenRecord record = TokenRecordTest.record("at-1", "rt-1");
    store.save(record);

    assertThat(new FileTokenStore(file).load()).isEqualTo(record);
    assertThat(new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8)).isEqualTo(
        "{\"version\":1,\"grant\":\"device\",\"client_id\":\"vl-speaker-01\",\"token_type\":\"bearer\","
            + "\"access_token\":\"at-1\",\"refresh_token\":\"rt-1\",\"expires_in\":8640000,"
            + "\"created_at\":1763712000,\"received_at_ms\":1763712000500}\n");
    assertThat(new File(dir, "sub/token.json.tmp")).doesNotExist();
  }

  @Test void fileIsReadableByItsOwnerOnly() throws Exception {
    assumeThat(dir.toPath().getFileSystem().supportedFileAttributeViews()).contains("posix");
    File file = new File(dir, "token.json");
    new FileTokenStore(file).save(TokenRecordTest.record("at-1", "rt-1"));
    assertThat(Files.getPosixFilePermissions(file.toPath()))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"))
        .doesNotContain(PosixFilePermission.GROUP_READ);
  }

  @Test void cloudRecordWithoutRefreshTokenRoundTrips() throws Exception {
    File file = new File(dir, "cloud.json");
    TokenRecord record = TokenRecordTest.record("at-1", "rt-1").newBuilder()
        .grant(TokenRecord.Grant.CLOUD).refreshToken(null).build();
    new FileTokenStore(file).save(record);
    assertThat(new FileTokenStore(file).load()).isEqualTo(record);
  }

  @Test void corruptFileIsReportedAndKept() throws Exception {
    File file = new File(dir, "token.json");
    String garbage = "{\"version\":1,\"grant\":\"device\",\"access_tok";
    Files.write(file.toPath(), garbage.getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> new FileTokenStore(file).load())
        .isInstanceOf(CorruptTokenFileException.class)
        .hasMessage("token file " + file + " is corrupt (not a JSON object); it was kept for"
            + " inspection: delete it and authorize again");
    assertThat(new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8))
        .isEqualTo(garbage);
  }

  @Test void eachKindOfCorruptionIsNamed() throws Exception {
    assertCorrupt("[]", "not a JSON object");
    assertCorrupt("{\"grant\":\"device\"}", "no version");
    assertCorrupt("{\"version\":2}", "version 2 is not supported; this SDK reads version 1");
    assertCorrupt("{\"version\":1,\"grant\":\"robot\"}", "grant must be device or cloud");
    assertCorrupt("{\"version\":1,\"grant\":\"device\",\"client_id\":\"c\",\"token_type\":\"bearer\"}",
        "access_token is missing");
    assertCorrupt("{\"version\":1,\"grant\":\"device\",\"client_id\":\"c\",\"token_type\":\"bearer\","
        + "\"access_token\":\"a\",\"expires_in\":1.5}", "expires_in is not a whole number");
  }

  private void assertCorrupt(String content, String reason) throws Exception {
    File file = new File(dir, "c.json");
    Files.write(file.toPath(), content.getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> new FileTokenStore(file).load())
        .isInstanceOf(CorruptTokenFileException.class)
        .hasMessageContaining("(" + reason + ")");
  }

  @Test void clearRemovesTheFile() throws Exception {
    File file = new File(dir, "token.json");
    FileTokenStore store = new FileTokenStore(file);
    store.save(TokenRecordTest.record("at-1", "rt-1"));
    store.clear();
    assertThat(file).doesNotExist();
    assertThat(store.load()).isNull();
  }

  /**
   * A child JVM rewrites the file as fast as it can and is killed at random moments: every load must
   * find a whole record, never an older one than seen before, never nothing once one was written.
   */
  @Test void survivesAWriterKilledAtRandomMoments() throws Exception {
    File file = new File(dir, "token.json");
    Random random = new Random(20261121L);
    String java = new File(System.getProperty("java.home"), "bin/java").getPath();
    long lastSeen = -1;
    int kills = 12;
    for (int i = 0; i < kills; i++) {
      ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
          FileTokenStoreWriter.class.getName(), file.getPath(), String.valueOf(lastSeen + 1))
          .redirectErrorStream(true).redirectOutput(new File(dir, "writer.log"));
      Process writer = builder.start();
      // wait until the child has written at least one new record, then kill it a random moment later
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (number(new FileTokenStore(file).load()) <= lastSeen
          && System.nanoTime() < deadline && writer.isAlive()) {
        Thread.sleep(5);
      }
      Thread.sleep(random.nextInt(150));
      writer.destroyForcibly();
      assertThat(writer.waitFor(10, TimeUnit.SECONDS)).isTrue();

      TokenRecord loaded = new FileTokenStore(file).load();
      assertThat(loaded).isNotNull();
      long n = number(loaded);
      assertThat(loaded).isEqualTo(FileTokenStoreWriter.recordNumber(n));
      assertThat(n).as("each writer saved at least one new record before it was killed")
          .isGreaterThan(lastSeen);
      lastSeen = n;
    }
    List<String> leftovers = new ArrayList<>();
    for (String name : dir.list()) {
      if (!name.equals("token.json") && !name.equals("token.json.tmp") && !name.equals("writer.log")) {
        leftovers.add(name);
      }
    }
    assertThat(leftovers).isEmpty();
  }

  private static long number(TokenRecord record) {
    return record == null ? -1 : Long.parseLong(record.accessToken().substring("at-".length()));
  }
}
