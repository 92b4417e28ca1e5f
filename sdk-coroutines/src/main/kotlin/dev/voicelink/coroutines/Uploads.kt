package dev.voicelink.coroutines

import dev.voicelink.entity.EntityWebApi
import dev.voicelink.entity.UploadReceipt
import dev.voicelink.entity.UploadRequest
import java.util.concurrent.Executor
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.channelFlow
import kotlinx.coroutines.flow.conflate

/**
 * What an upload flow ([uploadResourceFlow]) tells its collector: [Progress] figures while the body is
 * sent, then [Uploaded] once, and the flow ends. Immutable; the constructors are public so that an
 * app's tests can fake a flow.
 */
public sealed class UploadEvent {
  /** [bytesWritten] of the request body's [totalBytes] have been handed to the connection. */
  public class Progress(public val bytesWritten: Long, public val totalBytes: Long) : UploadEvent() {
    override fun equals(other: Any?): Boolean =
        other is Progress && other.bytesWritten == bytesWritten && other.totalBytes == totalBytes
    // Long.hashCode(long) is Java 8's, which Android 21 lacks
    override fun hashCode(): Int = 31 * (bytesWritten xor (bytesWritten ushr 32)).toInt() +
        (totalBytes xor (totalBytes ushr 32)).toInt()
    override fun toString(): String = "Progress($bytesWritten/$totalBytes)"
  }

  /** The platform took the upload: [receipt] has its `sid` and when it will be in effect. */
  public class Uploaded(public val receipt: UploadReceipt) : UploadEvent() {
    override fun equals(other: Any?): Boolean = other is Uploaded && other.receipt == receipt
    override fun hashCode(): Int = receipt.hashCode()
    override fun toString(): String = "Uploaded($receipt)"
  }
}

/** Runs the progress listener on the thread that writes the body. */
private val writingThread = Executor { task -> task.run() }

/**
 * Uploads [request] as [EntityWebApi.uploadResource] does, as a cold flow: each collection checks the
 * records, sends the body while telling [UploadEvent.Progress] figures (at most every 100 ms and once
 * when all of it is written, as `UploadProgressListener` says), and ends with [UploadEvent.Uploaded].
 * The request's own progress listener, if it has one, is not called: the flow tells the figures.
 *
 * ```
 * api.uploadResourceFlow(request).collect { event ->
 *   when (event) {
 *     is UploadEvent.Progress -> bar.progress = (100 * event.bytesWritten / event.totalBytes).toInt()
 *     is UploadEvent.Uploaded -> show("uploaded: sid ${event.receipt.sid()}")
 *   }
 * }
 * ```
 *
 * Progress figures are conflated: a slow collector gets the latest one, not a backlog, and
 * [UploadEvent.Uploaded] always comes, last. Cancelling the collecting coroutine cancels the upload,
 * even half-way through its body; an upload cancelled elsewhere (its client closed) cancels the
 * collector. The flow fails as the call fails: `InvalidResourceException` for a record that does not
 * fit (nothing is sent), `WebApiException` for a refusal, `IOException` for a transport failure.
 * Collecting never blocks its thread; events reach the collector on its own dispatcher.
 */
public fun EntityWebApi.uploadResourceFlow(request: UploadRequest): Flow<UploadEvent> = channelFlow {
  val call = uploadResource(request.newBuilder()
      .progressListener(writingThread) { written, total -> trySend(UploadEvent.Progress(written, total)) }
      .build())
  // await() cancels the call on the thread that cancels the collector, at once: not once the producer
  // is dispatched again, by when the records may have been read and sent
  send(UploadEvent.Uploaded(call.await()))
}.conflate()
