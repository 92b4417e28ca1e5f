package dev.voicelink.entity;

/**
 * Told how far an upload's request body has been sent, to drive a progress bar. Set it on the request
 * with {@link UploadRequest.Builder#progressListener}, together with the executor it is called on:
 *
 * <pre>{@code
 * UploadRequest request = UploadRequest.builder()
 *     ...
 *     .progressListener(mainThread, (bytesWritten, totalBytes) ->
 *         bar.setProgress((int) (100 * bytesWritten / totalBytes)))
 *     .build();
 * }</pre>
 *
 * <p>Calls come at most every 100 ms (measured on the SDK's {@link dev.voicelink.core.Clock}) while the
 * body is written, and always once more when all of it has been written ({@code bytesWritten ==
 * totalBytes}), even a small one written at once. They never overlap and arrive in order; a slow
 * executor gets the latest figure, not a backlog. If the connection fails and the request is sent again,
 * the count starts again from 0. The body is counted as it streams: progress costs no memory. Calls
 * are handed to the executor, so the last one may come after the upload's result; a figure the
 * executor refuses (it was shut down) is logged and dropped.
 *
 * <p>An exception thrown by the listener is logged and does not stop the upload.
 */
public interface UploadProgressListener {
  /**
   * @param bytesWritten bytes of the request body handed to the connection so far
   * @param totalBytes the whole body's length, known before its first byte is sent
   */
  void onProgress(long bytesWritten, long totalBytes);
}
