package dev.voicelink.samples.kotlin

import dev.voicelink.auth.InMemoryTokenStore
import dev.voicelink.auth.TokenManager
import dev.voicelink.entity.Dimension
import dev.voicelink.entity.EntityWebApi
import dev.voicelink.entity.PersParam
import dev.voicelink.entity.RecordSource
import dev.voicelink.entity.ResourceDefinition
import dev.voicelink.entity.UploadRequest
import dev.voicelink.testing.DefaultConsole
import dev.voicelink.testing.ReferenceServer
import dev.voicelink.testing.SimulatedTester
import java.io.File
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.test.runTest
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

/** Runs the Kotlin getting-started code against the reference server, in coroutines. */
class KotlinConsumerTest {
  @TempDir lateinit var dir: File

  @Test
  fun signInUploadAndCancelFromKotlin() = runTest(timeout = 60.seconds) {
    ReferenceServer.builder().build().start().use { server ->
      server.console().setPollIntervalSeconds(1)
      val client = client(server.authUrl(), server.baseUrl())

      val empty = TokenManager.builder(client).deviceGrant(DefaultConsole.CLIENT_ID).store(InMemoryTokenStore())
          .build()
      assertThat(tokenNow(empty)).isEqualTo("sign in first")

      val shown = Collections.synchronizedList(mutableListOf<String>())
      val tokens = signIn(client, File(dir, "token.json")) { userCode, link ->
        shown.add(link)
        SimulatedTester(server).approve(userCode)
      }
      assertThat(shown.single()).startsWith(server.verificationUri() + "?user_code=")
      assertThat(tokens.state()).isEqualTo(TokenManager.State.VALID)
      assertThat(tokenNow(tokens)).startsWith("token ")

      val ui = Collections.synchronizedList(mutableListOf<String>())
      val watching = keepTokenFresh(this, tokens, ui::add)

      val receipt = upload(client, DefaultConsole.ACCOUNT_KEY)
      assertThat(receipt.sid()).startsWith("psn")

      val api = EntityWebApi.builder(client).namespace("OS123").accountKey(DefaultConsole.ACCOUNT_KEY).build()
      val songs = ResourceDefinition.builder().name("OS123.songs").mainField("name").secondaryFields("alias")
          .dimension(Dimension.APPLICATION).build()
      fun request(records: RecordSource) = UploadRequest.builder().appid("5f1a2b3c").definition(songs)
          .persParam(PersParam.application("5f1a2b3c")).records(records).build()

      // In the background, with progress, to the end.
      uploadInBackground(this, api, request(RecordSource.fromText("""{"name":"Yesterday","alias":""}""")), ui::add)
          .join()
      assertThat(ui.last()).startsWith("uploaded: sid psn")
      assertThat(ui.dropLast(1)).`as`("progress before the receipt").isNotEmpty()
          .allSatisfy { assertThat(it).endsWith("%") }
      assertThat(ui.dropLast(1).last()).isEqualTo("100%")

      // A record that breaks the definition: shown, not thrown out of the scope, nothing sent.
      ui.clear()
      val refusedBefore = server.journal().count("/entity/upload-resource")
      uploadInBackground(this, api, request(RecordSource.fromText("""{"name":"","alias":""}""")), ui::add).join()
      assertThat(ui).containsExactly("not sent: record 1 of OS123.songs: main field name must not be empty")
      assertThat(server.journal().count("/entity/upload-resource")).isEqualTo(refusedBefore)

      // Cancelled while its records are read: nothing shown for it, nothing reaches the server.
      ui.clear()
      val uploadsBefore = server.journal().count("/entity/upload-resource")
      val reading = CountDownLatch(1)
      val release = CountDownLatch(1)
      val upload = uploadInBackground(this, api, request(RecordSource.of(Iterable {
        reading.countDown()
        release.await(10, TimeUnit.SECONDS)
        listOf(mapOf("name" to "Yesterday", "alias" to "")).iterator()
      })), ui::add)
      while (!reading.await(10, TimeUnit.MILLISECONDS)) yield() // lets the upload's coroutines start
      upload.cancel()
      release.countDown()
      upload.join()
      assertThat(ui).`as`("nothing shown for a cancelled upload").isEmpty()

      watching.cancel()
      client.close()
      for (thread in Thread.getAllStackTraces().keys) {
        if (thread.name.startsWith("voicelink-")) thread.join(10_000)
      }
      assertThat(server.journal().count("/entity/upload-resource")).isEqualTo(uploadsBefore)
    }
  }
}
