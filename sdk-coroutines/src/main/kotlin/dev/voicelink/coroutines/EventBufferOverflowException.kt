package dev.voicelink.coroutines

/**
 * A flow of listener news (token states, interaction-channel news, Agent events) failed because its
 * collector fell further behind than the flow's buffer holds: the news is never dropped silently
 * instead, and memory stays bounded. Collect faster (hand slow work to another coroutine), or choose
 * the policy with an operator right after the flow: `.buffer(n)` for a larger buffer,
 * `.buffer(Channel.UNLIMITED)` for no bound, `.conflate()` to keep only the latest. The listener was
 * removed when the flow failed. Immutable.
 *
 * @param source the flow that failed, such as `Agent.events()`
 */
public class EventBufferOverflowException(source: String) : IllegalStateException(
    "$source: the collector fell behind by more news than the flow's buffer holds (64 unless .buffer(n)" +
        " chose another), and news is never dropped: collect faster, or choose .buffer(n), " +
        ".buffer(Channel.UNLIMITED) or .conflate() (docs/kotlin.md)") {
  private companion object {
    private const val serialVersionUID: Long = 1L
  }
}
