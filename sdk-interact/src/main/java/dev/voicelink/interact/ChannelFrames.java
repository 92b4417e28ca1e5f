package dev.voicelink.interact;

import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.core.internal.HttpLogger;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.Scrub;
import okhttp3.WebSocket;
import okio.ByteString;
import okio.Utf8;
import org.jspecify.annotations.Nullable;

/**
 * Puts a write on a socket as frames (its header; for audio, the audio in binary frames, then the end
 * message), and logs the frames each way at VERBOSE when HTTP bodies are logged, with secrets scrubbed.
 * Stateless, so thread-safe.
 */
final class ChannelFrames {
  private static final String TAG = "interact";
  private static final int AUDIO_FRAME_BYTES = 16 * 1024;
  /** What OkHttp queues on a web socket at most (16 MiB); the server refuses more audio (60004). */
  static final long MAX_QUEUED_BYTES = 16L * 1024 * 1024;

  /** The client's; null when it logs nothing. */
  private final @Nullable HttpLogger httpLogger;

  ChannelFrames(@Nullable HttpLogger httpLogger) {
    this.httpLogger = httpLogger;
  }

  /**
   * Queues write {@code seq} on {@code socket}: text when {@code audio} is null, else audio. Returns
   * the bytes it queues, as the socket counts them in its {@code queueSize()}; or -1 if the socket
   * took no more frames because it is closing (some may have been queued before). Nothing is queued
   * when it throws.
   *
   * @throws IllegalArgumentException if the write's frames are more than the socket can ever queue
   * @throws IllegalStateException if they are more than it can queue now, behind earlier writes
   */
  long sendWrite(WebSocket socket, int seq, @Nullable String text, byte @Nullable [] audio,
      int sampleRate, @Nullable String persParam) {
    String header = InteractionCodec.writeHeader(seq, audio == null ? "text" : "audio", text,
        sampleRate, persParam);
    String end = InteractionCodec.endMessage(seq);
    long bytes = Utf8.size(header) + (audio == null ? 0 : audio.length + Utf8.size(end));
    // OkHttp closes a socket whose queue a frame would take past its limit: refused here instead.
    if (bytes > MAX_QUEUED_BYTES) {
      throw new IllegalArgumentException((audio == null ? "text" : "audio") + " must fit the"
          + " socket's send queue of " + MAX_QUEUED_BYTES + " bytes with its messages; this write"
          + " is " + bytes + " bytes");
    }
    long queued = socket.queueSize();
    if (queued + bytes > MAX_QUEUED_BYTES) {
      throw new IllegalStateException("the socket still has " + queued + " bytes to send, and this"
          + " write of " + bytes + " bytes would overflow its queue of " + MAX_QUEUED_BYTES
          + " bytes; wait for the results of earlier writes");
    }
    if (!send(socket, header)) return -1;
    if (audio == null) return bytes;
    for (int offset = 0; offset < audio.length; offset += AUDIO_FRAME_BYTES) {
      int count = Math.min(AUDIO_FRAME_BYTES, audio.length - offset);
      if (logging()) Log.verbose(TAG, "frame --> binary, " + count + " bytes");
      if (!socket.send(ByteString.of(audio, offset, count))) return -1;
    }
    return send(socket, end) ? bytes : -1;
  }

  /** Logs a text frame that came from the server, without the upgrade's {@code echoes}. */
  void received(Scrub.Echoes echoes, String text) {
    if (logging()) Log.verbose(TAG, "frame <-- " + echoes.from(Scrub.json(text, null, false)));
  }

  private boolean send(WebSocket socket, String frame) {
    if (logging()) Log.verbose(TAG, "frame --> " + Scrub.json(frame, null, false));
    return socket.send(frame);
  }

  /** Frames are logged with HTTP bodies, at the finest level. */
  private boolean logging() {
    return httpLogger != null && httpLogger.logsBodies()
        && Log.isLoggable(VoiceLinkLog.Level.VERBOSE, TAG);
  }
}
