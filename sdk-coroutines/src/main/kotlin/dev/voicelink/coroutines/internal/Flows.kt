package dev.voicelink.coroutines.internal

import dev.voicelink.auth.DeviceFlowListener
import dev.voicelink.auth.DeviceFlowOutcome
import dev.voicelink.core.CallCancelledException
import dev.voicelink.core.VoiceLinkCall
import dev.voicelink.core.internal.AbstractVoiceLinkCall
import dev.voicelink.coroutines.EventBufferOverflowException
import dev.voicelink.coroutines.SignInEvent
import dev.voicelink.coroutines.await
import java.util.concurrent.Executor
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.flow.channelFlow

/** Runs a task on the thread that hands it over. */
private val handOver = Executor { task -> task.run() }

/**
 * Enqueues this call with [callback] run on the SDK thread that ends it, when it is one of the SDK's
 * calls (voicelink-core's internal API, kept on this artifact's version by the BOM): a coroutine that
 * resumes on its own dispatcher needs no trip through the client's callback executor (Android's main
 * thread). Any other call is enqueued as it is.
 */
internal fun <T : Any> VoiceLinkCall<T>.enqueueHandingOver(callback: VoiceLinkCall.Callback<T>) {
  val sdkCall: VoiceLinkCall<*> = this
  if (sdkCall is AbstractVoiceLinkCall<*>) {
    AbstractVoiceLinkCall.enqueue(this, handOver, callback)
  } else {
    enqueue(callback)
  }
}

/** What a coroutine that waited for a call throws when the call was cancelled elsewhere. */
internal fun callCancelled(): CancellationException =
    CancellationException("the VoiceLink call was cancelled", CallCancelledException())

/**
 * A flow of what a listener hears, registered by [register] while the flow is collected: [register]
 * adds a listener that hands each item to the function it is given and returns what removes it. The
 * items wait in the flow's buffer (`Channel.BUFFERED`, 64, unless a `buffer` or `conflate` operator
 * after it chose another): when the collector falls so far behind that it is full, the flow fails with
 * [EventBufferOverflowException] naming [source], and the listener is removed. Nothing is dropped.
 */
internal fun <T : Any> listenerFlow(
    source: String,
    register: (emit: (T) -> Unit) -> () -> Unit,
): Flow<T> = callbackFlow {
  // The producer starts even when its collector was cancelled first: then it registers nothing (an
  // events(connect = true) would otherwise connect for nobody), as await() starts no call.
  ensureActive()
  val unregister = register { item ->
    val sent = trySend(item)
    if (sent.isFailure && !sent.isClosed) close(EventBufferOverflowException(source))
  }
  awaitClose(unregister)
}

/**
 * A device flow as a flow: [start] makes the sign-in call with the listener it is given; its code is
 * told as [SignInEvent.CodeIssued], then its outcome as [SignInEvent.Finished], and the flow ends.
 * Cancelling the collector cancels the call.
 */
internal fun signInEvents(
    start: (DeviceFlowListener) -> VoiceLinkCall<DeviceFlowOutcome>,
): Flow<SignInEvent> = channelFlow {
  val call = start(DeviceFlowListener { code -> trySend(SignInEvent.CodeIssued(code)) })
  // await() cancels the call on the thread that cancels the collector, at once
  send(SignInEvent.Finished(call.await()))
}
