package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.voicelink.core.internal.AtomicFiles;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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

  @Test void storeInstancesOnOneFileTakeTurnsOnIt() throws Exception {
    // Two instances (an Agent's and the app's) would otherwise delete each other's temporary file
    // and rename a half-written one over the record.
    File file = new File(dir, "token.json");
    FileTokenStore first = new FileTokenStore(file);
    FileTokenStore second = new FileTokenStore(new File(dir, "./token.json"));
    first.save(TokenRecordTest.record("at-1", "rt-1"));
    AtomicReference<TokenRecord> loaded = new AtomicReference<>();
    Thread reader;
    synchronized (AtomicFiles.lockFor(file)) { // what the first instance holds while it saves
      reader = new Thread(() -> {
        try {
          loaded.set(second.load());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, "second-store");
      reader.start();
      awaitBlocked(reader);
      first.save(TokenRecordTest.record("at-2", "rt-2")); // while the second instance waits
    }
    reader.join(10_000);
    assertThat(reader.isAlive()).isFalse();
    assertThat(loaded.get().refreshToken()).as("read after the save, not during it").isEqualTo("rt-2");
  }

  private static void awaitBlocked(Thread thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (thread.getState() != Thread.State.BLOCKED) {
      assertThat(System.nanoTime() - deadline).as(thread.getName() + " blocks on the file's lock")
          .isNegative();
      Thread.yield();
    }
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
}
