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

      // Scanned before anything else is asserted: a failing assertion prints the text it looked at.
      ReferenceServer server = cli.embeddedServers.get(0);
      LeakScan scan = LeakScan.of(server);
      scan.scan("stdout", out.toString()).scan("stderr", err.toString());
      keep("demo" + (json ? "-json" : "") + "-stderr.txt", err.toString());
      keep("demo" + (json ? "-json" : "") + "-stdout.txt", out.toString());
      scan.assertNoLeak();

      assertThat(exit).as("exit code; stdout in target/leak-scan").isZero();
      assertThat(scan.counts()).containsKeys("client_secret", "account_key", "device_code",
          "access_token", "refresh_token", "sms_code", "x_checksum");
      assertThat(scan.counts().get("access_token")).isGreaterThanOrEqualTo(3); // device, cloud, refreshed
      // Logging really was on, at every level and with bodies, where the secrets go by.
      for (String expected : new String[] {"D/http: --> POST ", "D/http: --> body of POST ",
          "/oauth/ivs/device_code", "/oauth/ivs/token", "/oauth/token", "/entity/upload-resource",
          "/entity/check-resource", "/tools/upload_entities",
          "/v2/voicelink/interact (WebSocket upgrade)", "\"access_token\":\"‹secret ",
          "\"refresh_token\":\"‹secret ", "\"device_code\":\"‹secret ",
          "\"client_secret\":\"‹secret ", "X-CheckSum: ‹secret ", "Authorization: ‹secret ",
          "V/interact: frame --> ", "V/interact: frame <-- ", "I/auth: ", "D/auth: "}) {
        assertThat(err.toString().contains(expected)).as("stderr has " + expected).isTrue();
      }
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
