package dev.voicelink.samples.kotlin

import dev.voicelink.auth.DeviceFlowOutcome
import dev.voicelink.auth.FileTokenStore
import dev.voicelink.auth.NotSignedInException
import dev.voicelink.auth.TokenManager
import dev.voicelink.core.ServerRefusalException
import dev.voicelink.core.VoiceLinkClient
import dev.voicelink.entity.CheckResult
import dev.voicelink.entity.Dimension
import dev.voicelink.entity.EntityWebApi
import dev.voicelink.entity.InvalidResourceException
import dev.voicelink.entity.PersParam
import dev.voicelink.entity.RecordSource
import dev.voicelink.entity.ResourceDefinition
import dev.voicelink.entity.UploadReceipt
import dev.voicelink.entity.UploadRequest
import dev.voicelink.coroutines.SignInEvent
import dev.voicelink.coroutines.UploadEvent
import dev.voicelink.coroutines.await
import dev.voicelink.coroutines.signInFlow
import dev.voicelink.coroutines.stateChanges
import dev.voicelink.coroutines.uploadResourceFlow
import dev.voicelink.interact.InteractionChannel
import java.io.File
import java.io.IOException
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Job
import kotlinx.coroutines.launch

/** Shows the user code; a real device draws a QR code of the link or speaks the code. */
fun interface Screen {
  fun show(userCode: String, link: String)
}

fun client(authUrl: String, baseUrl: String): VoiceLinkClient {
  // snippet:getting-started-kotlin-config
  val client = VoiceLinkClient.builder()
      .authUrl(authUrl)     // {auth_url}: device flow and token refresh
      .baseUrl(baseUrl)     // {base_url}: dynamic entity web API and interaction channel
      .build()              // one per app; client.close() when the app is done with VoiceLink
  // end-snippet
  return client
}

/**
 * Signs the device in and keeps its record in [tokenFile]; suspends until the user decides, on no
 * thread: the code is shown as the flow tells it.
 */
suspend fun signIn(client: VoiceLinkClient, tokenFile: File, screen: Screen): TokenManager {
  // snippet:getting-started-kotlin
  val tokens = TokenManager.builder(client)
      .deviceGrant("vl-speaker-01")                   // the client_id in the console
      .store(FileTokenStore(tokenFile))               // survives reboots; owner-only file
      .build()
  tokens.signInFlow("SN-0001-DEMO").collect { event ->  // the device_id in the console
    when (event) {
      is SignInEvent.CodeIssued -> screen.show(event.code.userCode(), event.code.link())
      is SignInEvent.Finished ->                      // the user decided; the sign-in is saved
        check(event.outcome.kind() == DeviceFlowOutcome.Kind.AUTHORIZED) { "sign-in ended: ${event.outcome.kind()}" }
    }
  }
  val accessToken = tokens.accessTokenCall().await()  // fresh: refreshed when due
  // end-snippet
  check(accessToken.isNotEmpty())
  return tokens
}

/**
 * Watches the token in [scope] (the application's): the manager refreshes it by itself; the app only
 * hears when the user must sign in again.
 */
fun keepTokenFresh(scope: CoroutineScope, tokens: TokenManager, ui: Show): Job {
  // snippet:getting-started-kotlin-fresh
  val watching = scope.launch {                       // the Application's scope: as long as the app
    tokens.stateChanges().collect { change ->
      if (change.state() == TokenManager.State.REAUTHORIZATION_REQUIRED) ui.show("sign in again")
    }
  }
  // end-snippet
  return watching
}

suspend fun upload(client: VoiceLinkClient, accountKey: String): UploadReceipt {
  // snippet:getting-started-kotlin-upload
  val songs = ResourceDefinition.builder()
      .name("OS123.songs")                  // <namespace>.<name>, as defined in the console
      .mainField("name")
      .secondaryFields("alias")
      .dimension(Dimension.APPLICATION)
      .build()
  val api = EntityWebApi.builder(client)
      .namespace("OS123")
      .accountKey(accountKey)               // see security.md before shipping a key on a device
      .build()
  val receipt = api.uploadResource(UploadRequest.builder()
      .appid("5f1a2b3c")
      .definition(songs)
      .persParam(PersParam.application("5f1a2b3c"))
      .records(RecordSource.fromText("""{"name":"Blue Moon","alias":"moon song"}""" + "\n"
          + """{"name":"Yesterday","alias":""}"""))
      .build())
      .await()                              // suspends; cancelling the coroutine cancels the upload
  // end-snippet
  return receipt
}

suspend fun awaitProcessed(api: EntityWebApi, receipt: UploadReceipt): CheckResult {
  // snippet:getting-started-kotlin-check
  val result = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).await()  // resumes once in effect, 5-5.5 min after the upload
  check(result.processed()) { "not processed yet: ${result.reply()}" }
  // end-snippet
  return result
}

/** What an app shows; the test records it. */
fun interface Show {
  fun show(text: String)
}

fun uploadInBackground(scope: CoroutineScope, api: EntityWebApi, request: UploadRequest, ui: Show): Job {
  // snippet:getting-started-kotlin-async
  val upload = scope.launch {                         // a ViewModel's viewModelScope, a screen's lifecycleScope
    try {
      api.uploadResourceFlow(request).collect { event ->
        when (event) {
          is UploadEvent.Progress -> ui.show("${100 * event.bytesWritten / event.totalBytes}%")
          is UploadEvent.Uploaded -> ui.show("uploaded: sid ${event.receipt.sid()}")
        }
      }
    } catch (e: IOException) {                        // the network, or records that could not be read
      ui.show("upload failed: ${e.message}")
    } catch (e: ServerRefusalException) {             // a WebApiException: the platform refused it
      ui.show("upload refused: ${e.message}")
    } catch (e: InvalidResourceException) {           // a record that breaks its definition: nothing sent
      ui.show("not sent: ${e.message}")
    }
  }
  // when the scope ends (the screen goes away), the upload is cancelled, even half-way through its
  // body; or at once: upload.cancel()
  // end-snippet
  return upload
}

suspend fun tokenNow(tokens: TokenManager): String =
    try {
      "token ${tokens.accessTokenCall().await().length} characters"
    } catch (e: NotSignedInException) {
      "sign in first"
    }

fun channel(client: VoiceLinkClient, tokens: TokenManager, ui: Show): InteractionChannel =
    InteractionChannel.builder(client, tokens)
        .listener { result -> ui.show(result.text()) }  // one abstract method: a lambda will do
        .build()
