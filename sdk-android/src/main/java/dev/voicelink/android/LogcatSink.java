package dev.voicelink.android;

import android.util.Log;
import dev.voicelink.core.VoiceLinkLog;
import org.jspecify.annotations.Nullable;

/**
 * Writes the SDK's log to Logcat under the tag {@value #TAG}. It is the SDK's {@linkplain
 * VoiceLinkLog#defaultSink() default sink} on Android: an app that includes this library sees the
 * SDK's lines in Logcat without doing anything, from the first line on (sdk-core's device flow and
 * token refresh included).
 *
 * <p>Each line reads {@code [<area>] <message>}, the area being the SDK's own tag ({@code auth},
 * {@code entity}, {@code http}, ...). Levels map one to one: {@code VERBOSE}, {@code DEBUG}, {@code
 * INFO}, {@code WARN} and {@code ERROR} to {@link Log#VERBOSE} ... {@link Log#ERROR}. Following the
 * Android convention, {@code INFO} and above are always written; {@code DEBUG} and {@code VERBOSE}
 * (HTTP traffic, interaction frames) only when the tag is enabled on the device:
 *
 * <pre>{@code
 * adb shell setprop log.tag.VoiceLink DEBUG     # or VERBOSE
 * }</pre>
 *
 * <p>What reaches the sink is what the SDK logs everywhere: secrets are already redacted (shown as
 * short fingerprints at most). A message longer than one Logcat entry takes is split at line breaks.
 *
 * <p>To route the lines elsewhere install another sink, and to silence them install {@link
 * VoiceLinkLog#silent()}; both replace this one:
 *
 * <pre>{@code
 * VoiceLinkLog.setSink(VoiceLinkLog.silent());
 * }</pre>
 *
 * <p>Thread-safe and stateless; {@code android.util.Log} does not block.
 */
public final class LogcatSink implements VoiceLinkLog.Sink {
  /** The Logcat tag of every line of the SDK. */
  public static final String TAG = "VoiceLink";
  /**
   * The most UTF-8 bytes written as one Logcat entry: the logger keeps about 4 KiB per entry (tag and
   * header included) and cuts off the rest.
   */
  static final int MAX_ENTRY_BYTES = 4000;

  /**
   * Creates the sink. Apps rarely need to: it is the default on Android.
   *
   * @throws RuntimeException or {@link LinkageError} off Android, where {@code android.util.Log} does
   *     not work
   */
  public LogcatSink() {
    Log.isLoggable(TAG, Log.INFO); // fails at once where the framework is missing or a stub
  }

  @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
    int priority = priority(level);
    return priority >= Log.INFO || Log.isLoggable(TAG, priority);
  }

  @Override public void log(VoiceLinkLog.Level level, String tag, String message,
      @Nullable Throwable error) {
    int priority = priority(level);
    String text = "[" + tag + "] " + message;
    int start = 0;
    while (true) {
      int end = chunkEnd(text, start, MAX_ENTRY_BYTES);
      boolean last = end == text.length();
      write(priority, text.substring(start, end), last ? error : null);
      if (last) return;
      start = end < text.length() && text.charAt(end) == '\n' ? end + 1 : end;
    }
  }

  private static void write(int priority, String text, @Nullable Throwable error) {
    switch (priority) {
      case Log.VERBOSE: Log.v(TAG, text, error); break;
      case Log.DEBUG: Log.d(TAG, text, error); break;
      case Log.INFO: Log.i(TAG, text, error); break;
      case Log.WARN: Log.w(TAG, text, error); break;
      default: Log.e(TAG, text, error); break;
    }
  }

  static int priority(VoiceLinkLog.Level level) {
    switch (level) {
      case VERBOSE: return Log.VERBOSE;
      case DEBUG: return Log.DEBUG;
      case INFO: return Log.INFO;
      case WARN: return Log.WARN;
      default: return Log.ERROR;
    }
  }

  /**
   * Where the entry that starts at {@code start} ends: the whole rest if it fits in {@code maxBytes}
   * of UTF-8, else at the last line break that fits, else (one very long line) at the last character
   * that fits, never inside a surrogate pair.
   */
  static int chunkEnd(String text, int start, int maxBytes) {
    int bytes = 0;
    int lastBreak = -1;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      int size = c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
      if (bytes + size > maxBytes) {
        if (lastBreak > start) return lastBreak;
        return Character.isLowSurrogate(c) && i - 1 > start ? i - 1 : i;
      }
      bytes += size;
      if (c == '\n') lastBreak = i;
    }
    return text.length();
  }
}
