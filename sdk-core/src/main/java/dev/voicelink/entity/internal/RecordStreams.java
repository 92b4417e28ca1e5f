package dev.voicelink.entity.internal;

import dev.voicelink.core.internal.Seam;
import dev.voicelink.entity.RecordSource;
import java.io.IOException;
import java.io.InputStream;

/**
 * Makes a {@link RecordSource} of UTF-8 JSON lines read from a stream opened again for every read, for
 * the Android Agent's {@code CMD_SYNC}, whose records arrive as Base64 inside the command's JSON and
 * are decoded as they are read rather than held as text. Not API.
 */
public interface RecordStreams {
  Seam<RecordStreams> SEAM = new Seam<>(RecordSource.class);

  /** Opens the resource text's UTF-8 bytes from their start; called once per read of the records. */
  interface Opener {
    InputStream open() throws IOException;
  }

  /**
   * Records read from what {@code opener} opens. {@code description} names the resource in messages
   * ("line 3 of the resource {@code description} is longer than ..."); {@code notUtf8} is the whole
   * message of the {@code InvalidResourceException} for bytes that are not UTF-8.
   */
  RecordSource lines(String description, String notUtf8, Opener opener);
}
