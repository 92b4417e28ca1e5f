package dev.voicelink.interact;

import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.Scrub;
import okhttp3.WebSocket;
import okio.ByteString;
import org.jspecify.annotations.Nullable;

/**
 * Puts a write on a socket as frames (its header; for audio, the audio in binary frames, then the end
 * message), and logs the frames each way at VERBOSE when HTTP bodies are logged, with secrets scrubbed.
 * Stateless, so thread-safe.
 */
final class ChannelFrames {
  private static final String TAG = "interact";
  private static final int AUDIO_FRAME_BYTES = 16 * 1024;

  private final HttpLogLevel httpLogging;

  ChannelFrames(HttpLogLevel httpLogging) {
    this.httpLogging = httpLogging;
  }

  /** Queues write {@code seq} on {@code socket}: text when {@code audio} is null, else audio. */
  void sendWrite(WebSocket socket, int seq, @Nullable String text, byte @Nullable [] audio,
      int sampleRate, @Nullable String persParam) {
    send(socket, InteractionCodec.writeHeader(seq, audio == null ? "text" : "audio", text,
        sampleRate, persParam));
    if (audio == null) return;
    for (int offset = 0; offset < audio.length; offset += AUDIO_FRAME_BYTES) {
      int count = Math.min(AUDIO_FRAME_BYTES, audio.length - offset);
      if (logging()) Log.verbose(TAG, "frame --> binary, " + count + " bytes");
      socket.send(ByteString.of(audio, offset, count));
    }
    send(socket, InteractionCodec.endMessage(seq));
  }

  /** Logs a text frame that came from the server. */
  void received(String text) {
    if (logging()) Log.verbose(TAG, "frame <-- " + Scrub.json(text, null, false));
  }

  private void send(WebSocket socket, String frame) {
    if (logging()) Log.verbose(TAG, "frame --> " + Scrub.json(frame, null, false));
    socket.send(frame);
  }

  /** Frames are logged with HTTP bodies, at the finest level. */
  private boolean logging() {
    return httpLogging == HttpLogLevel.BODY && Log.isLoggable(VoiceLinkLog.Level.VERBOSE, TAG);
  }
}
