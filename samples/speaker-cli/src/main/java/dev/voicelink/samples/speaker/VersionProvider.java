package dev.voicelink.samples.speaker;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the version Maven wrote into {@code speaker-cli.properties} at build time. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override public String[] getVersion() throws IOException {
    Properties properties = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("/speaker-cli.properties")) {
      if (in == null) throw new IOException("speaker-cli.properties is missing from the jar");
      properties.load(in);
    }
    return new String[] {"speaker-cli " + properties.getProperty("version")};
  }
}
