package dev.voicelink.samples.speaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.testing.LeakScan;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole demo with every SDK log line and the HTTP traffic with bodies on stderr ({@code
 * --verbose}): no secret the reference server knows or handed out appears on stdout or stderr.
 */
class DemoLeakScanTest {
  @TempDir File dir;

  @Test void verboseDemoPrintsNoSecret() throws IOException {
    for (boolean json : new boolean[] {false, true}) {
      SpeakerCli cli = new SpeakerCli();
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      File tokenFile = new File(dir, "token-" + json + ".json");

      int exit = json
          ? SpeakerCli.run(cli, new PrintWriter(out, true), new PrintWriter(err, true), "demo",
              "--verbose", "--json", "--speed", "100", "--token-file", tokenFile.getPath())
          : SpeakerCli.run(cli, new PrintWriter(out, true), new PrintWriter(err, true), "demo",
              "--verbose", "--speed", "100", "--token-file", tokenFile.getPath());

      assertThat(exit).as(out.toString()).isZero();
      // Logging really was on, at every level and with bodies, and secrets were there to leak.
      assertThat(err.toString())
          .contains("D/http: --> POST ").contains("D/http: --> body of POST ")
          .contains("/oauth/ivs/device_code").contains("/oauth/ivs/token").contains("/oauth/token")
          .contains("/entity/upload-resource").contains("/entity/check-resource")
          .contains("/tools/upload_entities").contains("/v2/voicelink/interact (WebSocket upgrade)")
          .contains("\"access_token\":\"‹secret ").contains("\"refresh_token\":\"‹secret ")
          .contains("\"device_code\":\"‹secret ").contains("X-CheckSum: ‹secret ")
          .contains("Authorization: ‹secret ").contains("V/interact: frame --> ")
          .contains("V/interact: frame <-- ").contains("I/auth: ");
      ReferenceServer server = cli.embeddedServers.get(0);
      LeakScan scan = LeakScan.of(server);
      assertThat(scan.counts()).containsKeys("client_secret", "account_key", "device_code",
          "access_token", "refresh_token", "sms_code", "x_checksum");
      assertThat(scan.counts().get("access_token")).isGreaterThanOrEqualTo(3); // device, cloud, refreshed

      scan.scan("stdout", out.toString()).scan("stderr", err.toString());

      keep("demo" + (json ? "-json" : "") + "-stderr.txt", err.toString());
      keep("demo" + (json ? "-json" : "") + "-stdout.txt", out.toString());
      scan.assertNoLeak();
      System.out.println("demo leak scan (" + (json ? "--json" : "text") + "): " + scan.secretCount()
          + " secrets " + scan.counts() + ", " + scan.scannedChars() + " characters scanned");
    }
  }

  /** The captured output stays in target/leak-scan/ for a person to read. */
  private static void keep(String name, String text) throws IOException {
    File folder = new File("target/leak-scan");
    if (!folder.isDirectory() && !folder.mkdirs()) throw new IOException("cannot create " + folder);
    Files.write(new File(folder, name).toPath(), text.getBytes(StandardCharsets.UTF_8));
  }
}
