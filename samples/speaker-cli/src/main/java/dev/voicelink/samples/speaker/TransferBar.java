package dev.voicelink.samples.speaker;

import dev.voicelink.core.Clock;
import dev.voicelink.entity.UploadProgressListener;
import java.util.Locale;

/**
 * The progress bar of an upload on a terminal: one line, redrawn in place, with the share sent, the
 * throughput so far and the time left at that rate; when the upload ends, a one-line summary takes
 * its place.
 *
 * <pre>{@code
 * [##########--------------]  42%  28.0 MB of 66.7 MB  9.3 MB/s  4 s left
 * sent 66.7 MB in 7.2 s (9.3 MB/s)
 * }</pre>
 *
 * <p>Called by the SDK at most every 100 ms, on the uploading thread.
 */
final class TransferBar implements UploadProgressListener {
  static final int WIDTH = 24;

  private final Output out;
  private final Clock clock;
  private final long startNanos;
  private long written;
  private long elapsedNanos;

  /** Starts timing now: create it right before the upload. */
  TransferBar(Output out, Clock clock) {
    this.out = out;
    this.clock = clock;
    this.startNanos = clock.monotonicNanos();
  }

  @Override public void onProgress(long bytesWritten, long totalBytes) {
    written = bytesWritten;
    elapsedNanos = clock.monotonicNanos() - startNanos;
    out.overwrite(render(bytesWritten, totalBytes, elapsedNanos));
  }

  /** Replaces the bar with the summary of what was sent, or only clears it if the upload failed. */
  void finish(boolean sent) {
    out.overwrite("");
    if (sent) out.say(summary(written, elapsedNanos));
  }

  static String render(long written, long total, long elapsedNanos) {
    int percent = total <= 0 ? 100 : (int) (written * 100 / total);
    int filled = total <= 0 ? WIDTH : (int) (written * WIDTH / total);
    StringBuilder line = new StringBuilder("[");
    for (int i = 0; i < WIDTH; i++) line.append(i < filled ? '#' : '-');
    line.append(String.format(Locale.ROOT, "] %3d%%  %s of %s", percent, size(written), size(total)));
    double perSecond = rate(written, elapsedNanos);
    if (perSecond > 0) {
      long leftSeconds = (long) Math.ceil((total - written) / perSecond);
      line.append("  ").append(size((long) perSecond)).append("/s  ")
          .append(duration(leftSeconds)).append(" left");
    }
    return line.toString();
  }

  static String summary(long bytes, long elapsedNanos) {
    double perSecond = rate(bytes, elapsedNanos);
    return "sent " + size(bytes) + " in " + String.format(Locale.ROOT, "%.1f s",
        elapsedNanos / 1e9) + (perSecond > 0 ? " (" + size((long) perSecond) + "/s)" : "");
  }

  /** Bytes per second so far; 0 while nothing can be said. */
  private static double rate(long bytes, long elapsedNanos) {
    return elapsedNanos <= 0 || bytes <= 0 ? 0 : bytes * 1e9 / elapsedNanos;
  }

  /** Decimal units, as disks and networks count: 1 MB = 1,000,000 bytes. */
  static String size(long bytes) {
    if (bytes < 1_000) return bytes + " B";
    if (bytes < 1_000_000) return String.format(Locale.ROOT, "%.1f kB", bytes / 1e3);
    if (bytes < 1_000_000_000) return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    return String.format(Locale.ROOT, "%.2f GB", bytes / 1e9);
  }

  static String duration(long seconds) {
    if (seconds < 60) return seconds + " s";
    if (seconds < 3600) return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, seconds % 3600 / 60);
  }
}
