package dev.voicelink.samples.kotlin

import dev.voicelink.android.Agent
import dev.voicelink.android.SyncReturn
import dev.voicelink.auth.TokenManager
import dev.voicelink.core.ServerRefusalException
import dev.voicelink.core.VoiceLinkCall
import dev.voicelink.core.VoiceLinkClient
import dev.voicelink.coroutines.EventBufferOverflowException
import dev.voicelink.coroutines.android.events
import dev.voicelink.coroutines.await
import dev.voicelink.coroutines.interact.ChannelEvent
import dev.voicelink.coroutines.interact.events
import dev.voicelink.coroutines.stateChanges
import dev.voicelink.entity.EntityWebApi
import dev.voicelink.entity.InvalidResourceException
import dev.voicelink.entity.UploadReceipt
import dev.voicelink.entity.UploadRequest
import dev.voicelink.interact.InteractionChannel
import java.io.IOException
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.launch
import kotlinx.coroutines.withTimeout

// The code of docs/kotlin.md: compiled here, with warnings as errors.

/** The app's one client and its token manager, made once, with a scope as long as the app's. */
class VoiceLinkApp(val client: VoiceLinkClient, val tokens: TokenManager, ui: Show) {
  // snippet:kotlin-application-scope
  // In the Application (or a singleton made once): lives as long as the process.
  val appScope = CoroutineScope(SupervisorJob() + Dispatchers.Default)

  init {
    appScope.launch {
      tokens.stateChanges().collect { change ->
        if (change.state() == TokenManager.State.REAUTHORIZATION_REQUIRED) ui.show("sign in again")
      }
    }
  }
  // end-snippet

  fun close() {
    appScope.cancel()
    client.close()
  }
}

/** A screen's model: its scope ends with the screen (on Android, a ViewModel's viewModelScope). */
class SongsModel(private val viewModelScope: CoroutineScope, private val api: EntityWebApi, private val ui: Show) {
  // snippet:kotlin-viewmodel-scope
  fun upload(request: UploadRequest) {
    viewModelScope.launch {                        // cancelled in onCleared(): so is the upload
      try {
        val receipt = api.uploadResource(request).await()
        ui.show("uploaded: sid ${receipt.sid()}")  // on viewModelScope's dispatcher: Main on Android
      } catch (e: IOException) {                   // not a CancellationException: that ends the coroutine
        ui.show("upload failed: ${e.message}")
      } catch (e: ServerRefusalException) {
        ui.show("upload refused: ${e.message}")
      } catch (e: InvalidResourceException) {      // a record that breaks its definition: nothing sent
        ui.show("not sent: ${e.message}")
      }
    }
  }
  // end-snippet
}

suspend fun uploadWithin30Seconds(api: EntityWebApi, request: UploadRequest): UploadReceipt {
  // snippet:kotlin-cancellation
  // The timeout cancels the coroutine, and so the call: the request is aborted, even half-way through
  // its body, and withTimeout throws TimeoutCancellationException.
  val receipt = withTimeout(30.seconds) {
    api.uploadResource(request).await()
  }
  // end-snippet
  return receipt
}

fun mixWithJava(scope: CoroutineScope, api: EntityWebApi, request: UploadRequest, ui: Show): VoiceLinkCall<UploadReceipt> {
  // snippet:kotlin-mixing
  val call = api.uploadResource(request)           // a VoiceLinkCall, as Java code makes it
  scope.launch {
    try {
      ui.show("sid ${call.await().sid()}")
    } catch (e: kotlinx.coroutines.CancellationException) {
      ui.show("cancelled")                         // call.cancel() from Java code cancels this coroutine
      throw e
    }
  }
  // later, from any code: call.cancel()
  // end-snippet
  return call
}

fun channelNews(scope: CoroutineScope, channel: InteractionChannel, ui: Show): Job {
  // snippet:kotlin-channel-events
  val news = scope.launch {
    // collecting adds a listener, then connects: no news is missed; cancelling removes the listener
    channel.events(connect = true).collect { event ->
      when (event) {
        is ChannelEvent.Connected -> channel.writeText("call Zhang San", null)
        is ChannelEvent.Result -> ui.show(event.result.text())
        is ChannelEvent.WriteError -> ui.show("write ${event.seq} refused: ${event.description}")
        is ChannelEvent.Disconnected -> ui.show("disconnected: ${event.disconnect}")
      }
    }
  }
  // end-snippet
  return news
}

fun agentEvents(viewModelScope: CoroutineScope, agent: Agent, ui: Show): Job {
  // snippet:kotlin-agent-events
  val events = viewModelScope.launch {
    agent.events().collect { event ->
      SyncReturn.from(event)?.let { ui.show(if (it.isSuccess) "synced ${it.sid()}" else it.info()) }
    }
  }
  // end-snippet
  return events
}

fun slowCollector(scope: CoroutineScope, channel: InteractionChannel, ui: Show): Job {
  // snippet:kotlin-buffer
  val news = scope.launch {
    try {
      channel.events()
          .buffer(Channel.UNLIMITED)               // or .buffer(1000), or .conflate(): the app's choice
          .collect { event -> ui.show(event.toString()) }
    } catch (e: EventBufferOverflowException) {    // a bounded buffer (64, or .buffer(n)) is full
      ui.show("fell behind: ${e.message}")
    }
  }
  // end-snippet
  return news
}
