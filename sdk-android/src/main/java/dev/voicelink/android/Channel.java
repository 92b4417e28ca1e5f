package dev.voicelink.android;

import javax.annotation.Nullable;
import okio.ByteString;

/** One open interaction channel connection. */
interface Channel {
  /** False when the connection is already closing; the listener then hears of the close. */
  boolean sendText(String text);

  boolean sendBinary(ByteString bytes);

  /** Closes normally; the listener is not called for a close the agent asked for. */
  void close();

  /** Opens channel connections. */
  interface Connector {
    /** Starts connecting without blocking; outcomes arrive at {@code listener} on any thread. */
    Channel open(String accessToken, Listener listener);
  }

  /** Hears from one connection; callbacks may come on any thread. */
  interface Listener {
    void onText(String text);

    /**
     * The connection is gone. {@code httpCode} is the handshake's status when the server refused the
     * upgrade (401 when the token was not accepted), otherwise 0.
     */
    void onClosed(@Nullable Throwable failure, int httpCode);
  }
}
