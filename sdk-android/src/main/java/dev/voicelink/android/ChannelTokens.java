package dev.voicelink.android;

import dev.voicelink.core.ServerRefusalException;
import java.io.IOException;

/** The device access token for the interaction channel. */
interface ChannelTokens {
  /** A valid token; may block while it is refreshed. */
  String accessToken() throws IOException, ServerRefusalException;

  /** The server did not accept {@code token}: the next {@link #accessToken()} must be a fresh one. */
  void rejected(String token);
}
