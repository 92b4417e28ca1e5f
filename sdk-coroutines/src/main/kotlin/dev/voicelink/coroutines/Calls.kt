package dev.voicelink.coroutines

import dev.voicelink.coroutines.internal.callCancelled
import dev.voicelink.coroutines.internal.enqueueHandingOver
import dev.voicelink.core.VoiceLinkCall
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * Runs this call and suspends until it ends, without blocking a thread: the value, or the failure
 * thrown as [VoiceLinkCall.execute] throws it (an `IOException`, a `ServerRefusalException` such as a
 * `WebApiException`, an `IllegalArgumentException` for input found invalid while the call ran, an
 * `IllegalStateException` if the call already ran or its client is closed).
 *
 * ```
 * val receipt = api.uploadResource(request).await()
 * val outcome = tokens.signIn("SN-0001-DEMO") { code -> show(code.link()) }.await()
 * ```
 *
 * **Cancellation goes both ways.** Cancelling the coroutine cancels the call: the request in flight and
 * every wait the call scheduled are aborted, as [VoiceLinkCall.cancel] says (a token refresh already
 * sent still finishes and is saved). A call cancelled elsewhere ([VoiceLinkCall.cancel], or closing its
 * `VoiceLinkClient`) cancels the coroutine: `await()` throws a `CancellationException` whose cause is
 * the `CallCancelledException` that `execute()` would have thrown, so the scope around it is not
 * failed.
 *
 * **Threads.** Nothing blocks the calling thread, which may be Android's main thread. The coroutine
 * resumes on its own dispatcher: the result of one of the SDK's calls is handed to it straight from the
 * SDK thread that ended the call, not through the client's callback executor (a device flow's result
 * comes after its listener's news, on that executor). Any other [VoiceLinkCall] (an app's fake, a
 * `voicelink-fixtures` call) is enqueued as it is.
 *
 * Like [VoiceLinkCall.execute], it runs a call once: a call already run throws
 * `IllegalStateException`.
 */
public suspend fun <T : Any> VoiceLinkCall<T>.await(): T = suspendCancellableCoroutine { continuation ->
  // A coroutine cancelled before it got here starts nothing: the call's work (an upload, a sign-out)
  // would otherwise be handed to a worker and might run before the cancel below reached it. Nor does
  // it cancel the call: it may be running for another caller, whose it is (see below).
  if (!continuation.isActive) return@suspendCancellableCoroutine
  val endedCancelled = AtomicBoolean()
  enqueueHandingOver { result ->
    val failure = result.failure()
    when {
      result.isSuccess -> continuation.resume(result.value())
      failure != null -> continuation.resumeWithException(failure)
      else -> {
        endedCancelled.set(true) // the handler below runs now: the call is not to be cancelled again
        continuation.cancel(callCancelled())
      }
    }
  }
  // Only once this coroutine runs the call: a call that enqueue refused (it already runs for another
  // caller) is not this coroutine's to cancel. A cancellation that came first runs the handler at once.
  continuation.invokeOnCancellation { if (!endedCancelled.get()) cancel() }
}
