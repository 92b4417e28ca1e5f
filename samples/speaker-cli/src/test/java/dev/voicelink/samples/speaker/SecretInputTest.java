package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretInputTest {
  @TempDir File dir;

  @Test void fileWinsAndLosesItsBomAndLineBreak() throws Exception {
    File file = new File(dir, "key");
    Files.write(file.toPath(), "\uFEFFs3cret\n".getBytes(StandardCharsets.UTF_8));
    assertThat(SecretInput.read(file, "--account-key-file", "VOICELINK_ACCOUNT_KEY",
        Collections.singletonMap("VOICELINK_ACCOUNT_KEY", "from-env"))).isEqualTo("s3cret");
  }

  @Test void environmentIsTheFallback() throws Exception {
    assertThat(SecretInput.read(null, "--account-key-file", "VOICELINK_ACCOUNT_KEY",
        Collections.singletonMap("VOICELINK_ACCOUNT_KEY", "from-env"))).isEqualTo("from-env");
  }

  @Test void missingSecretNamesBothSources() {
    assertThatThrownBy(() -> SecretInput.read(null, "--account-key-file", "VOICELINK_ACCOUNT_KEY",
        Collections.emptyMap()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the secret is missing: give --account-key-file FILE or set the environment"
            + " variable VOICELINK_ACCOUNT_KEY");
  }

  @Test void emptyFileIsRefused() throws Exception {
    File file = new File(dir, "empty");
    Files.write(file.toPath(), "\n".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> SecretInput.read(file, "--client-secret-file",
        "VOICELINK_CLIENT_SECRET", Collections.emptyMap()))
        .hasMessage("--client-secret-file " + file + " is empty");
  }

  @Test void dashReadsStdinToItsEndAndWinsOverTheEnvironment() throws Exception {
    ByteArrayInputStream stdin = new ByteArrayInputStream(
        "\uFEFFs3cret\r\n".getBytes(StandardCharsets.UTF_8));
    assertThat(SecretInput.read(new File("-"), "--client-secret-file", "VOICELINK_CLIENT_SECRET",
        Collections.singletonMap("VOICELINK_CLIENT_SECRET", "from-env"), stdin)).isEqualTo("s3cret");
    assertThat(stdin.read()).isEqualTo(-1);
  }

  @Test void emptyStdinIsRefused() {
    assertThatThrownBy(() -> SecretInput.read(new File("-"), "--account-key-file",
        "VOICELINK_ACCOUNT_KEY", Collections.emptyMap(), new ByteArrayInputStream(new byte[0])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--account-key-file - (standard input) is empty");
  }

  @Test void aLongStdinOrFileIsRefusedAsNoSecret() throws Exception {
    byte[] big = new byte[SecretInput.MAX_SECRET_BYTES + 1];
    java.util.Arrays.fill(big, (byte) 'x');
    assertThatThrownBy(() -> SecretInput.read(new File("-"), "--account-key-file",
        "VOICELINK_ACCOUNT_KEY", Collections.emptyMap(), new ByteArrayInputStream(big)))
        .hasMessage("--account-key-file - (standard input) is longer than 65536 bytes: it is not a secret");
    File file = new File(dir, "big");
    Files.write(file.toPath(), big);
    assertThatThrownBy(() -> SecretInput.read(file, "--client-secret-file",
        "VOICELINK_CLIENT_SECRET", Collections.emptyMap()))
        .hasMessage("--client-secret-file " + file + " is longer than 65536 bytes: it is not a secret");
  }
}
