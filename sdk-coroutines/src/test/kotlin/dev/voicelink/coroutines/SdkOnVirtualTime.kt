package dev.voicelink.coroutines

import dev.voicelink.core.Cancellable
import dev.voicelink.core.Clock
import dev.voicelink.core.Scheduler
import dev.voicelink.testing.ServerClock
import java.util.Collections
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock
import kotlin.time.Duration.Companion.nanoseconds
import kotlinx.coroutines.Job
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.TestScope

/**
 * The SDK's clock and scheduler on a coroutine test's virtual time: a wait the SDK schedules (a polling
 * interval, the 10 seconds before a check) is a `delay` in the test's background scope, which the test
 * scheduler skips as soon as the test waits, and runs on the test thread when due. The reference
 * server's manual clock follows, so the platform's time rules see the same time as the SDK.
 *
 * Only for tests whose real waits (HTTP) overlap no SDK timer: an SDK deadline pending while the test
 * waits for a socket (the interaction channel's greeting and result timeouts) would be skipped to at
 * once.
 */
class SdkOnVirtualTime(private val scope: TestScope, private val server: ServerClock) : Clock(), Scheduler {
  private val lock = Any()
  private var serverAtMillis = 0L
  private val waiting: MutableSet<Job> = Collections.synchronizedSet(LinkedHashSet())
  private val scheduling = ReentrantLock()
  private val scheduled = scheduling.newCondition()

  /** Virtual milliseconds since the test began; moves the server's clock up to them. */
  fun nowMillis(): Long {
    val now = scope.testScheduler.currentTime
    synchronized(lock) {
      if (now > serverAtMillis) {
        server.advance(now - serverAtMillis, TimeUnit.MILLISECONDS)
        serverAtMillis = now
      }
    }
    return now
  }

  override fun monotonicNanos(): Long = TimeUnit.MILLISECONDS.toNanos(MONOTONIC_START_MILLIS + nowMillis())

  override fun wallMillis(): Long = WALL_START_MILLIS + nowMillis()

  override fun schedule(task: Runnable, delay: Long, unit: TimeUnit): Cancellable {
    val job = scope.backgroundScope.launch {
      delay(unit.toNanos(delay).nanoseconds)
      nowMillis()
      task.run()
    }
    waiting.add(job)
    job.invokeOnCompletion { waiting.remove(job) }
    scheduling.withLock { scheduled.signalAll() }
    return object : Cancellable {
      override fun cancel() = job.cancel()

      override fun isCancelled(): Boolean = job.isCancelled
    }
  }

  /** How many scheduled SDK waits have neither run nor been cancelled. */
  fun pendingWaits(): Int = synchronized(waiting) { waiting.count { it.isActive } }

  /**
   * Waits (10 s of real time at most) until an SDK wait is pending, scheduled from an SDK thread;
   * returns whether one is.
   */
  fun awaitPendingWait(): Boolean = scheduling.withLock {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10)
    while (pendingWaits() == 0) {
      val left = deadline - System.nanoTime()
      if (left <= 0) return false
      scheduled.awaitNanos(left)
    }
    true
  }

  companion object {
    /** The wall time, epoch milliseconds, at which the SDK's and the server's clocks start. */
    const val WALL_START_MILLIS: Long = 1_763_712_000_000L
    private const val MONOTONIC_START_MILLIS: Long = 3L * 24 * 3600 * 1000
  }
}
