package dev.voicelink.coroutines

import dev.voicelink.android.Agent
import dev.voicelink.android.AgentConstants
import dev.voicelink.android.AgentEvent
import dev.voicelink.android.AgentMessage
import dev.voicelink.auth.TokenSource
import dev.voicelink.coroutines.android.events
import java.util.Collections
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.assertj.core.api.Assertions.assertThat
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.annotation.Config

/**
 * `Agent.events()` on Robolectric's Android (SDK 35), events delivered on the calling thread: what the
 * Agent tells reaches the collector in its order, and cancelling the collector removes its listener.
 */
@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35])
class AgentFlowsTest {
  @Test
  fun eventsArriveInTheAgentsOrderAndCancellingRemovesTheListener() = runTest(timeout = 60.seconds) {
    ReferencePlatform(null).use { platform ->
      val told = Collections.synchronizedList(mutableListOf<AgentEvent>())
      val config = "{\"login\":{\"appid\":\"5f1a2b3c\"},\"server\":{\"base_url\":\"" + platform.server.baseUrl() +
          "\",\"auth_url\":\"" + platform.server.authUrl() + "\"}}"
      val agent = Agent.builder(RuntimeEnvironment.getApplication(), config) { event -> told.add(event) }
          .client(platform.client)
          .tokenSource(TokenSource { "not-signed-in" })
          .eventExecutor { task -> task.run() }
          .build()
      try {
        val builders = listeners(agent)
        val seen = Channel<AgentEvent>(Channel.UNLIMITED)
        val collecting = launch { agent.events().collect { seen.send(it) } }
        runCurrent()
        assertThat(listeners(agent)).isEqualTo(builders + 1)

        // unknown commands: each gets its error event, which names it
        for (type in 991..993) agent.sendMessage(AgentMessage(type, 0, 0, "", null))
        val replies = mutableListOf<AgentEvent>()
        val received = mutableListOf<AgentEvent>()
        while (replies.size < 3) {
          val event = seen.receive()
          received.add(event)
          if (event.info().startsWith("msgType 99")) replies.add(event)
        }

        assertThat(replies.map { it.info().substring(0, 11) })
            .containsExactly("msgType 991", "msgType 992", "msgType 993")
        assertThat(replies).allSatisfy { assertThat(it.eventType()).isEqualTo(AgentConstants.EVENT_ERROR) }
        assertThat(Collections.indexOfSubList(ArrayList(told), received))
            .`as`("what the flow told is what the Agent told its own listener, in the same order").isNotNegative()
        collecting.cancel()
        collecting.join()
        assertThat(listeners(agent)).`as`("no listener left").isEqualTo(builders)
      } finally {
        agent.destroy()
      }
    }
  }

  private fun listeners(agent: Agent): Int {
    val field = Agent::class.java.getDeclaredField("listeners")
    field.isAccessible = true
    return (field.get(agent) as Collection<*>).size
  }
}
