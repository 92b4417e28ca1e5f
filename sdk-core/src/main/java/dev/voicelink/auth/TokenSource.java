package dev.voicelink.auth;

import dev.voicelink.core.ServerRefusalException;
import java.io.IOException;

/**
 * Hands out an access token that is valid now. The token manager of the device flow and of the cloud
 * (client-credentials) flow implement it; the platform upload client and the interaction channel
 * consume it, so they never see refresh tokens or storage.
 *
 * <p>Implementations are thread-safe and may block while a refresh is in flight.
 */
public interface TokenSource {
  /**
   * A currently valid access token, refreshed first if it was about to expire.
   *
   * @throws IOException if the token could not be obtained because of a transport failure
   * @throws ServerRefusalException if the server refused to issue one (for example the refresh token
   *     is no longer valid and the user must authorize the device again)
   */
  String accessToken() throws IOException, ServerRefusalException;

  /**
   * Tells the source that a server rejected {@code rejectedToken} (for example an HTTP 401), so that
   * the next {@link #accessToken()} refreshes instead of returning it again. Sources that cannot
   * refresh ignore it.
   */
  default void invalidate(String rejectedToken) {
  }
}
