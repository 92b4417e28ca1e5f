package dev.voicelink.coroutines

import dev.voicelink.auth.DeviceCode
import dev.voicelink.auth.InMemoryTokenStore
import dev.voicelink.auth.TokenManager
import dev.voicelink.auth.TokenStore
import dev.voicelink.core.VoiceLinkClient
import dev.voicelink.entity.Dimension
import dev.voicelink.entity.EntityWebApi
import dev.voicelink.entity.PersParam
import dev.voicelink.entity.RecordSource
import dev.voicelink.entity.ResourceDefinition
import dev.voicelink.entity.UploadRequest
import dev.voicelink.testing.DefaultConsole
import dev.voicelink.testing.ReferenceServer
import dev.voicelink.testing.ServerClock
import dev.voicelink.testing.SimulatedTester
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.test.TestScope

/**
 * The reference server and a client of it, the SDK on the test's virtual time ([SdkOnVirtualTime]) when a
 * test scope is given, else on its own clock and scheduler. A call that has a deadline timer pending
 * while its request is on the wire (a sign-in's poll, the channel's greeting) needs the latter: the
 * test scheduler would skip to the deadline while the test waits for the socket.
 */
class ReferencePlatform(scope: TestScope?) : AutoCloseable {
  val server: ReferenceServer =
      ReferenceServer.builder().clock(ServerClock.manual(SdkOnVirtualTime.WALL_START_MILLIS)).build().start()
  val time: SdkOnVirtualTime? = scope?.let { SdkOnVirtualTime(it, server.clock()) }

  init {
    // On the machine's clock a sign-in polls every second, not every 5.
    if (scope == null) server.console().setPollIntervalSeconds(1)
  }
  val client: VoiceLinkClient = client()

  fun client(callbackExecutor: java.util.concurrent.Executor? = null): VoiceLinkClient {
    val builder = VoiceLinkClient.builder().authUrl(server.authUrl()).baseUrl(server.baseUrl())
    if (time != null) builder.clock(time).scheduler(time)
    if (callbackExecutor != null) builder.callbackExecutor(callbackExecutor)
    return builder.build()
  }

  fun tokens(store: TokenStore = InMemoryTokenStore(), on: VoiceLinkClient = client): TokenManager =
      TokenManager.builder(on).deviceGrant(DefaultConsole.CLIENT_ID).store(store).build()

  fun api(on: VoiceLinkClient = client, accountKey: String = DefaultConsole.ACCOUNT_KEY): EntityWebApi =
      EntityWebApi.builder(on).namespace(DefaultConsole.NAMESPACE).accountKey(accountKey).build()

  /** The user approves [code] on the verification page. */
  fun approve(code: DeviceCode) = SimulatedTester(server).approve(code.userCode())

  /** The user refuses [code] on the verification page. */
  fun refuse(code: DeviceCode) = SimulatedTester(server).refuse(code.userCode())

  override fun close() {
    client.close()
    server.close()
  }

  /** Upload records whose reading waits for [release]; [reading] opens once an upload reads them. */
  class HeldRecords {
    val reading = CountDownLatch(1)
    val release = CountDownLatch(1)
    val source: RecordSource = RecordSource.of(Iterable {
      reading.countDown()
      release.await(10, TimeUnit.SECONDS)
      listOf(mapOf("name" to "Yesterday", "alias" to "")).iterator()
    })
  }

  companion object {
    val SONGS: ResourceDefinition = ResourceDefinition.builder().name(DefaultConsole.SONGS).mainField("name")
        .secondaryFields("alias").dimension(Dimension.APPLICATION).build()

    fun songs(records: RecordSource = RecordSource.fromText(
        "{\"name\":\"Blue Moon\",\"alias\":\"moon song\"}\n{\"name\":\"Yesterday\",\"alias\":\"\"}\n")):
        UploadRequest = UploadRequest.builder().appid(DefaultConsole.APPID).definition(SONGS)
        .persParam(PersParam.application(DefaultConsole.APPID)).records(records).build()
  }
}
