package dev.voicelink.coroutines

import dev.voicelink.auth.DeviceFlowOutcome
import dev.voicelink.auth.TokenManager
import dev.voicelink.auth.TokenSource
import dev.voicelink.core.ResourceCensus
import dev.voicelink.core.internal.ClientCore
import dev.voicelink.coroutines.interact.ChannelEvent
import dev.voicelink.coroutines.interact.events
import dev.voicelink.coroutines.internal.listenerFlow
import dev.voicelink.interact.InteractionChannel
import dev.voicelink.testing.DefaultConsole
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.flow.transformWhile
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.advanceTimeBy
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * The flows against the reference server: what they tell, in which order, and that a collector that is
 * cancelled (or done) leaves no listener, wait or thread behind.
 */
class FlowsTest {
  /** On the machine's clock: the poll's deadline timer is pending while the poll is on the wire. */
  @Test
  fun signInFlowTellsTheCodeThenTheOutcomeAndTheStatesFollowInOrder() = runTest(timeout = 60.seconds) {
    ReferencePlatform(null).use { platform ->
      val tokens = platform.tokens()
      val states = async {
        tokens.stateChanges().transformWhile { change ->
          emit(change)
          change.cause() != TokenManager.Cause.SIGNED_IN
        }.toList()
      }
      runCurrent()

      val events = tokens.signInFlow(DefaultConsole.DEVICE_ID)
          .onEach { event -> if (event is SignInEvent.CodeIssued) platform.approve(event.code) }
          .toList()

      assertThat(events).hasSize(2)
      assertThat(events[0]).isInstanceOf(SignInEvent.CodeIssued::class.java)
      assertThat((events[1] as SignInEvent.Finished).outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED)
      assertThat(states.await().map { it.state() }).`as`("every change, in the manager's order")
          .containsExactly(TokenManager.State.LOADING, TokenManager.State.NO_TOKEN, TokenManager.State.VALID)
      assertThat(Registrations.of(tokens)).`as`("the ended collection removed its listener").isZero()
    }
  }

  @Test
  fun signInAsOneSuspendingCall() = runTest(timeout = 60.seconds) {
    ReferencePlatform(null).use { platform ->
      val tokens = platform.tokens()

      val outcome = tokens.signIn(DefaultConsole.DEVICE_ID) { code -> platform.approve(code) }.await()

      assertThat(outcome.kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED)
      assertThat(tokens.state()).isEqualTo(TokenManager.State.VALID)
    }
  }

  @Test
  fun cancellingTheSignInCollectorCancelsThePollingAndRemovesTheStateListener() = runTest(timeout = 60.seconds) {
    val before = ResourceCensus.take()
    ReferencePlatform(this).use { platform ->
      val time = platform.time!!
      val tokens = platform.tokens()
      val codes = Channel<SignInEvent>(Channel.UNLIMITED)
      val watching = launch { tokens.stateChanges().collect() }
      val signingIn = launch { tokens.signInFlow(DefaultConsole.DEVICE_ID).collect { codes.send(it) } }
      assertThat(codes.receive()).isInstanceOf(SignInEvent.CodeIssued::class.java)
      // the poller schedules its first wait on its own thread, once the code was told
      assertThat(time.awaitPendingWait()).`as`("the wait before the first poll").isTrue()
      assertThat(Registrations.of(tokens)).isEqualTo(1)
      val polls = platform.server.journal().size

      signingIn.cancel()
      watching.cancel()
      signingIn.join()
      watching.join()
      assertThat(ClientCore.of(platform.client).runningCalls()).`as`("the sign-in's call ended").isZero()
      // Well within the code's lifetime, so that a flow left running could not have ended by itself.
      advanceTimeBy(30.seconds)
      runCurrent()

      assertThat(time.pendingWaits()).`as`("the poll was unscheduled").isZero()
      assertThat(platform.server.journal().size).`as`("nothing more on the wire").isEqualTo(polls)
      assertThat(Registrations.of(tokens)).`as`("no listener left").isZero()
    }
    assertThat(ResourceCensus.take(before).newSdkThreads(before)).`as`("SDK threads left").isEmpty()
  }

  @Test
  fun uploadFlowTellsProgressThenTheReceipt() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val events = platform.api().uploadResourceFlow(ReferencePlatform.songs()).toList()

      val uploaded = events.last() as UploadEvent.Uploaded
      assertThat(uploaded.receipt.sid()).startsWith("psn")
      val progress = events.dropLast(1).map { it as UploadEvent.Progress }
      assertThat(progress).`as`("progress before the receipt").isNotEmpty()
      assertThat(progress).allSatisfy { assertThat(it.bytesWritten).isBetween(0L, it.totalBytes) }
      assertThat(progress.map { it.bytesWritten }).isSorted()
      assertThat(progress.last().bytesWritten).`as`("the whole body").isEqualTo(progress.last().totalBytes)
      assertThat(platform.server.journal().count("/entity/upload-resource")).isEqualTo(1)
    }
  }

  @Test
  fun cancellingTheUploadCollectorCancelsTheUpload() = runTest(timeout = 60.seconds) {
    val before = ResourceCensus.take()
    ReferencePlatform(this).use { platform ->
      val records = ReferencePlatform.HeldRecords()
      val uploading = launch { platform.api().uploadResourceFlow(ReferencePlatform.songs(records.source)).collect() }
      runCurrent()
      assertThat(records.reading.await(10, TimeUnit.SECONDS)).isTrue()

      uploading.cancel()
      uploading.join()
      assertThat(ClientCore.of(platform.client).runningCalls())
          .`as`("the upload ended with its collector, its records still being read").isZero()
      records.release.countDown()

      assertThat(platform.server.journal().count("/entity/upload-resource")).isZero()
    }
    assertThat(ResourceCensus.take(before).newSdkThreads(before)).`as`("SDK threads left").isEmpty()
  }

  /** On the machine's clock: the channel's greeting deadline is pending while it connects. */
  @Test
  fun channelNewsArriveInOrderAndCancellingRemovesTheListener() = runTest(timeout = 60.seconds) {
    ReferencePlatform(null).use { platform ->
      val tokens = platform.tokens()
      tokens.signIn(DefaultConsole.DEVICE_ID) { code -> platform.approve(code) }.await()
      val channel = InteractionChannel.builder(platform.client, tokens).listener { }.build()
      val builders = Registrations.of(channel) // the builder's listener: the flow's is one more
      val news = Channel<ChannelEvent>(Channel.UNLIMITED)
      val collecting = launch { channel.events().collect { news.send(it) } }
      runCurrent()
      assertThat(Registrations.of(channel)).isEqualTo(builders + 1)

      channel.connect()
      val connected = news.receive() as ChannelEvent.Connected
      val seq = channel.writeText("call Zhang San", null)
      val result = news.receive()

      assertThat(connected.uid).hasSize(32)
      assertThat(result).isInstanceOf(ChannelEvent.Result::class.java)
      assertThat((result as ChannelEvent.Result).result.seq()).isEqualTo(seq)
      collecting.cancel()
      collecting.join()
      assertThat(Registrations.of(channel)).`as`("no listener left").isEqualTo(builders)
      channel.close()
    }
  }

  /** On the machine's clock, as above; the channel has no builder's listener, only the flow's. */
  @Test
  fun eventsWithConnectConnectsOnceItsListenerIsInPlace() = runTest(timeout = 60.seconds) {
    ReferencePlatform(null).use { platform ->
      val tokens = platform.tokens()
      tokens.signIn(DefaultConsole.DEVICE_ID) { code -> platform.approve(code) }.await()
      lateinit var channel: InteractionChannel
      val listenersAtConnect = AtomicInteger(-1)
      // connect() asks for the token first: what is registered then is what hears the greeting.
      val recording = object : TokenSource {
        override fun accessToken(): String {
          listenersAtConnect.compareAndSet(-1, Registrations.of(channel))
          return tokens.accessToken()
        }

        override fun invalidate(rejectedToken: String) = tokens.invalidate(rejectedToken)
      }
      channel = InteractionChannel.builder(platform.client, recording).build()

      val first = async { channel.events(connect = true).first() }
      assertThat(channel.state()).`as`("nothing connects before the flow is collected")
          .isEqualTo(InteractionChannel.State.IDLE)
      assertThat(Registrations.of(channel)).isZero()

      val connected = first.await() as ChannelEvent.Connected
      assertThat(listenersAtConnect.get()).`as`("the flow's listener, in place before connect()")
          .isEqualTo(1)
      assertThat(connected.uid).hasSize(32)
      assertThat(Registrations.of(channel)).`as`("first() ended the collection: no listener left").isZero()
      assertThat(channel.state()).`as`("the collection's end does not close the channel")
          .isEqualTo(InteractionChannel.State.CONNECTED)
      channel.close()
    }
  }

  /** A collector cancelled before the flow's producer ran: nothing is registered, nothing connects. */
  @Test
  fun eventsWithConnectCancelledBeforeItsProducerRanConnectsNothing() = runTest(timeout = 60.seconds) {
    ReferencePlatform(null).use { platform ->
      val channel = InteractionChannel.builder(platform.client, TokenSource { "unused" }).build()
      val builders = Registrations.of(channel)

      val collecting = launch(start = CoroutineStart.UNDISPATCHED) { channel.events(connect = true).collect() }
      collecting.cancel()
      collecting.join()

      assertThat(channel.state()).isEqualTo(InteractionChannel.State.IDLE)
      assertThat(Registrations.of(channel)).isEqualTo(builders)
      channel.close()
    }
  }

  @Test
  fun aClosedChannelCannotBeCollected() = runTest(timeout = 60.seconds) {
    ReferencePlatform(null).use { platform ->
      val channel = InteractionChannel.builder(platform.client, TokenSource { "unused" }).build()
      channel.close()
      val builders = Registrations.of(channel)

      val failure = runCatching { channel.events().collect() }.exceptionOrNull()

      assertThat(failure).isInstanceOf(IllegalStateException::class.java).hasMessageContaining("closed")
      assertThat(Registrations.of(channel)).isEqualTo(builders)
    }
  }

  @Test
  fun aCollectorTooFarBehindFailsTheFlowAndRemovesTheListenerButNothingIsDroppedBefore() = runTest {
    val removed = AtomicInteger()
    var emit: ((Int) -> Unit)? = null
    val source = listenerFlow<Int>("Test.news()") { e ->
      emit = e
      return@listenerFlow { removed.incrementAndGet() }
    }
    val seen = mutableListOf<Int>()
    val collecting = async { runCatching { source.collect { seen.add(it) } }.exceptionOrNull() }
    runCurrent()

    (1..100).forEach { emit!!(it) } // no collector step between them: more than the 64 the buffer holds

    val failure = collecting.await()
    assertThat(failure).isInstanceOf(EventBufferOverflowException::class.java)
        .hasMessageStartingWith("Test.news(): the collector fell behind")
    // the first went straight to the waiting collector, the next 64 filled the buffer
    assertThat(seen).`as`("what was buffered arrived, in order, before the failure").isEqualTo((1..65).toList())
    assertThat(removed).hasValue(1)
  }

  @Test
  fun aLargerBufferChosenAfterTheFlowHoldsMore() = runTest {
    var emit: ((Int) -> Unit)? = null
    val source = listenerFlow<Int>("Test.news()") { e ->
      emit = e
      return@listenerFlow { }
    }
    val seen = async { source.buffer(1000).take(500).toList() }
    runCurrent()

    (1..500).forEach { emit!!(it) }

    assertThat(seen.await()).isEqualTo((1..500).toList())
  }
}
