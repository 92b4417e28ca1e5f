package dev.voicelink.coroutines

import dev.voicelink.core.CallCancelledException
import dev.voicelink.core.CallResult
import dev.voicelink.core.ResourceCensus
import dev.voicelink.core.VoiceLinkCall
import dev.voicelink.entity.CheckResult
import dev.voicelink.entity.UploadReceipt
import dev.voicelink.entity.WebApiException
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.minutes
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.advanceTimeBy
import kotlinx.coroutines.test.currentTime
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** `await()` against the reference server, the SDK on the test's virtual time. */
class AwaitTest {
  @Test
  fun awaitReturnsTheValueOfTheCallAndTheUploadIsOnTheWire() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val receipt = platform.api().uploadResource(ReferencePlatform.songs()).await()

      assertThat(receipt.sid()).startsWith("psn")
      val upload = platform.server.journal().calls("/entity/upload-resource").single()
      assertThat(upload.header("X-NameSpace")).isEqualTo("OS123")
      assertThat(upload.body()).contains("appid=5f1a2b3c", "res_name=OS123.songs")
      assertThat(upload.responseBody()).contains(receipt.sid())
    }
  }

  @Test
  fun awaitProcessedWaitsOnVirtualTimeAndChecksNoSoonerThanTenSeconds() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val api = platform.api()
      val receipt = api.uploadResource(ReferencePlatform.songs()).await()
      val uploadedAt = currentTime

      val result: CheckResult = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).await()

      assertThat(result.processed()).isTrue()
      assertThat(currentTime - uploadedAt).`as`("in effect 5 minutes after the upload, on virtual time")
          .isBetween(5.minutes.inWholeMilliseconds, 5.5.minutes.inWholeMilliseconds)
      val checks = platform.server.journal().calls("/entity/check-resource")
      assertThat(checks).isNotEmpty()
      assertThat(checks.first().receivedAtMillis() - platform.server.journal()
          .calls("/entity/upload-resource").single().receivedAtMillis())
          .`as`("the first check, by the server's clock").isGreaterThanOrEqualTo(10_000L)
      assertThat(checks.last().body()).isEqualTo("sid=" + receipt.sid())
    }
  }

  @Test
  fun failuresAreThrownAsExecuteThrowsThem() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val wrongKey = platform.api(accountKey = "00000000000000000000000000000000")
      val executed = runCatching { wrongKey.uploadResource(ReferencePlatform.songs()).execute() }
          .exceptionOrNull()
      val awaited = runCatching { wrongKey.uploadResource(ReferencePlatform.songs()).await() }
          .exceptionOrNull()

      assertThat(executed).isInstanceOf(WebApiException::class.java)
      assertThat(awaited).isInstanceOf(WebApiException::class.java)
      assertThat((awaited as WebApiException).code()).isEqualTo((executed as WebApiException).code())
      assertThat(awaited.message).`as`("the same refusal; only the request's sid differs")
          .startsWith(executed.message!!.substringBefore(" (sid "))

      val ran = platform.api().checkResource("psn0000")
      ran.cancel()
      runCatching { ran.execute() }
      assertThat(runCatching { ran.await() }.exceptionOrNull())
          .isInstanceOf(IllegalStateException::class.java).hasMessage("the call already ran; make a new one")
    }
  }

  @Test
  fun awaitingACallThatRunsForAnotherCallerThrowsAndLeavesItRunning() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val time = platform.time!!
      val call = processedCall(platform)
      val owner = async { call.await() }
      runCurrent()

      val intruder = async { runCatching { call.await() }.exceptionOrNull() }
      assertThat(intruder.await()).isInstanceOf(IllegalStateException::class.java)
          .hasMessage("the call already ran; make a new one")

      assertThat(call.isCancelled).`as`("the refused coroutine ended; the owner's call goes on").isFalse()
      assertThat(time.pendingWaits()).`as`("the 10 seconds before the first check").isEqualTo(1)
      assertThat(owner.await().processed()).isTrue()
      assertThat(platform.server.journal().count("/entity/check-resource")).isPositive()
    }
  }

  @Test
  fun cancellingTheCoroutineCancelsTheCallAndItsWait() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val time = platform.time!!
      val call = processedCall(platform)
      val waiting = launch { call.await() }
      runCurrent()
      assertThat(time.pendingWaits()).`as`("the 10 seconds before the first check").isEqualTo(1)

      waiting.cancel()
      advanceTimeBy(10.minutes)
      runCurrent()

      assertThat(call.isCancelled).isTrue()
      assertThat(time.pendingWaits()).`as`("the wait was unscheduled").isZero()
      assertThat(platform.server.journal().count("/entity/check-resource")).`as`("no check on the wire").isZero()
    }
  }

  @Test
  fun cancellingAnUploadWhileItsRecordsAreReadSendsNothingAndLeavesNoThread() = runTest(timeout = 60.seconds) {
    val before = ResourceCensus.take()
    ReferencePlatform(this).use { platform ->
      val records = ReferencePlatform.HeldRecords()
      val call = platform.api().uploadResource(ReferencePlatform.songs(records.source))
      val uploading = launch { call.await() }
      runCurrent()
      assertThat(records.reading.await(10, TimeUnit.SECONDS)).isTrue()

      uploading.cancel()
      records.release.countDown()
      uploading.join()

      assertThat(call.isCancelled).isTrue()
      assertThat(platform.server.journal().count("/entity/upload-resource")).isZero()
    }
    assertThat(ResourceCensus.take(before).newSdkThreads(before)).`as`("SDK threads left").isEmpty()
  }

  @Test
  fun aCallCancelledElsewhereCancelsTheCoroutineNotItsScope() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val call = processedCall(platform)
      val waiting = async { call.await() }
      val sibling = launch(start = CoroutineStart.LAZY) { }
      runCurrent()

      call.cancel()
      val thrown = runCatching { waiting.await() }.exceptionOrNull()

      assertThat(thrown).isInstanceOf(CancellationException::class.java)
          .hasMessage("the VoiceLink call was cancelled")
          // the root cause: with assertions on, kotlinx.coroutines wraps what it rethrows in a copy
          .hasRootCauseInstanceOf(CallCancelledException::class.java)
      assertThat(waiting.isCancelled).isTrue()
      sibling.start()
      sibling.join()
      assertThat(sibling.isCancelled).`as`("the scope goes on").isFalse()
    }
  }

  @Test
  fun closingTheClientCancelsTheCoroutinesThatAwaitItsCalls() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val other = platform.client()
      val api = platform.api(on = other)
      val receipt = api.uploadResource(ReferencePlatform.songs()).await()
      val waiting = async { api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).await() }
      runCurrent()

      other.close()

      assertThat(runCatching { waiting.await() }.exceptionOrNull())
          .isInstanceOf(CancellationException::class.java)
          .hasRootCauseInstanceOf(CallCancelledException::class.java)
      assertThat(platform.time!!.pendingWaits()).isZero()
    }
  }

  @Test
  fun theResultGoesStraightToTheCoroutineNotThroughTheCallbackExecutor() = runTest(timeout = 60.seconds) {
    ReferencePlatform(this).use { platform ->
      val handedOver = AtomicInteger()
      val client = platform.client { task ->
        handedOver.incrementAndGet()
        task.run()
      }

      val receipt: UploadReceipt = platform.api(on = client).uploadResource(ReferencePlatform.songs()).await()

      assertThat(receipt.sid()).startsWith("psn")
      assertThat(handedOver).`as`("the callback executor (Android's main thread) was not used").hasValue(0)
      client.close()
    }
  }

  @Test
  fun anAppsOwnCallIsEnqueuedAndCancelledThroughItsInterface() = runTest(timeout = 60.seconds) {
    val finished = FakeCall<String>()
    val awaited = async { finished.await() }
    runCurrent()
    finished.callback!!.onResult(CallResult.success("done"))
    assertThat(awaited.await()).isEqualTo("done")

    val cancelled = FakeCall<String>()
    val waiting = launch { cancelled.await() }
    runCurrent()
    waiting.cancel()
    waiting.join()
    assertThat(cancelled.cancels).hasValue(1)
  }

  @Test
  fun aCoroutineCancelledBeforeItAwaitsStartsNothing() = runTest(timeout = 60.seconds) {
    val call = FakeCall<String>()
    val awaiting = launch {
      cancel() // by work that did not suspend, before the call is awaited
      call.await()
    }
    awaiting.join()

    assertThat(awaiting.isCancelled).isTrue()
    assertThat(call.callback).`as`("never enqueued, so no worker ever ran it").isNull()
    assertThat(call.cancels).`as`("not this coroutine's to cancel: it may run for another caller")
        .hasValue(0)
  }

  @Test
  fun aCallThatEndsCancelledIsNotCancelledAgainFromItsOwnCallback() = runTest(timeout = 60.seconds) {
    val call = FakeCall<String>()
    val awaiting = launch { call.await() }
    runCurrent()

    call.callback!!.onResult(CallResult.cancelled())
    awaiting.join()

    assertThat(awaiting.isCancelled).isTrue()
    assertThat(call.cancels).`as`("it ended cancelled by itself").hasValue(0)
  }

  /** The awaitProcessed call of an upload, not started yet: its first check waits 10 s. */
  private suspend fun processedCall(platform: ReferencePlatform): VoiceLinkCall<CheckResult> {
    val api = platform.api()
    return api.awaitProcessed(api.uploadResource(ReferencePlatform.songs()).await(), 10, TimeUnit.MINUTES)
  }

  /** An app's own call, as a test double of its would be. */
  private class FakeCall<T : Any> : VoiceLinkCall<T> {
    var callback: VoiceLinkCall.Callback<T>? = null
    val cancels = AtomicInteger()

    override fun execute(): T = throw UnsupportedOperationException()

    override fun enqueue(callback: VoiceLinkCall.Callback<T>) {
      this.callback = callback
    }

    override fun cancel() {
      cancels.incrementAndGet()
    }

    override fun isCancelled(): Boolean = cancels.get() > 0
  }
}
