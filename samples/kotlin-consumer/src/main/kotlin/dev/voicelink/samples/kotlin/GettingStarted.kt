package dev.voicelink.samples.kotlin

import dev.voicelink.auth.DeviceAuthorizer
import dev.voicelink.auth.DeviceFlowOutcome
import dev.voicelink.auth.FileTokenStore
import dev.voicelink.auth.NotSignedInException
import dev.voicelink.auth.TokenManager
import dev.voicelink.core.VoiceLinkCall
import dev.voicelink.core.VoiceLinkClient
import dev.voicelink.entity.CheckResult
import dev.voicelink.entity.Dimension
import dev.voicelink.entity.EntityWebApi
import dev.voicelink.entity.PersParam
import dev.voicelink.entity.RecordSource
import dev.voicelink.entity.ResourceDefinition
import dev.voicelink.entity.UploadReceipt
import dev.voicelink.entity.UploadRequest
import dev.voicelink.interact.InteractionChannel
import java.io.File
import java.util.concurrent.TimeUnit

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

fun signIn(client: VoiceLinkClient, tokenFile: File, screen: Screen): TokenManager {
  // snippet:getting-started-kotlin
  val authorizer = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build()
  val outcome = authorizer
      .authorize("SN-0001-DEMO") { code -> screen.show(code.userCode(), code.link()) }
      .execute()                                      // blocks until the user decides
  check(outcome.kind() == DeviceFlowOutcome.Kind.AUTHORIZED) { "sign-in ended: ${outcome.kind()}" }

  val tokens = TokenManager.builder(client)
      .deviceGrant("vl-speaker-01")
      .store(FileTokenStore(tokenFile))               // survives reboots; owner-only file
      .build()
  tokens.setRecord(outcome.token())                   // saved before it is used
  // end-snippet
  return tokens
}

fun upload(client: VoiceLinkClient, accountKey: String): UploadReceipt {
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
      .execute()
  // end-snippet
  return receipt
}

fun awaitProcessed(api: EntityWebApi, receipt: UploadReceipt): CheckResult {
  // snippet:getting-started-kotlin-check
  val result = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).execute()  // returns once in effect, 5-5.5 min after the upload
  check(result.processed()) { "not processed yet: ${result.reply()}" }
  // end-snippet
  return result
}

/** What an app shows; the test records it. */
fun interface Show {
  fun show(text: String)
}

fun uploadInBackground(api: EntityWebApi, request: UploadRequest, ui: Show): VoiceLinkCall<UploadReceipt> {
  // snippet:getting-started-kotlin-async
  val upload = api.uploadResource(request)
  upload.enqueue { result ->                          // on the main thread on Android
    when {
      result.isSuccess -> ui.show("uploaded: sid ${result.value().sid()}")
      result.isCancelled -> Unit                      // the user left; nothing to show
      else -> ui.show("upload failed: ${result.failure()?.message}")
    }
  }
  // when the screen goes away (onStop): aborts the request, even half-way through its body
  // upload.cancel()
  // end-snippet
  return upload
}

fun tokenInBackground(tokens: TokenManager, ui: Show): VoiceLinkCall<String> {
  val call = tokens.accessTokenCall()
  call.enqueue { result ->
    when {
      result.isSuccess -> ui.show("token ${result.value().length} characters")
      result.failure() is NotSignedInException -> ui.show("sign in first")
      else -> ui.show(if (result.isCancelled) "cancelled" else "failed")
    }
  }
  return call
}

fun channel(client: VoiceLinkClient, tokens: TokenManager, ui: Show): InteractionChannel =
    InteractionChannel.builder(client, tokens)
        .listener { result -> ui.show(result.text()) }  // one abstract method: a lambda will do
        .build()
