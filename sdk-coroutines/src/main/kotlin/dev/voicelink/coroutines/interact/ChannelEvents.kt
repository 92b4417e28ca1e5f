package dev.voicelink.coroutines.interact

import dev.voicelink.coroutines.EventBufferOverflowException
import dev.voicelink.coroutines.internal.listenerFlow
import dev.voicelink.interact.Disconnect
import dev.voicelink.interact.InteractionChannel
import dev.voicelink.interact.InteractionResult
import kotlinx.coroutines.flow.Flow

/**
 * The news of an [InteractionChannel], one class per method of [InteractionChannel.Listener]. Immutable;
 * the constructors are public so that an app's tests can fake a flow.
 */
public sealed class ChannelEvent {
  /** The server accepted the connection and named the user: [uid], the 32-character auth_id. */
  public class Connected(public val uid: String) : ChannelEvent() {
    override fun equals(other: Any?): Boolean = other is Connected && other.uid == uid
    override fun hashCode(): Int = uid.hashCode()
    override fun toString(): String = "Connected($uid)"
  }

  /** The [result] of the write with sequence number `result.seq()`. */
  public class Result(public val result: InteractionResult) : ChannelEvent() {
    override fun equals(other: Any?): Boolean = other is Result && other.result == result
    override fun hashCode(): Int = result.hashCode()
    override fun toString(): String = "Result($result)"
  }

  /**
   * The server refused the write [seq] (or a message, when [seq] is 0), or the client gave up on it
   * ([code] `InteractionChannel.RESULT_TIMEOUT` or `MALFORMED_MESSAGE`).
   */
  public class WriteError(
      public val seq: Int,
      public val code: String,
      public val description: String,
  ) : ChannelEvent() {
    override fun equals(other: Any?): Boolean =
        other is WriteError && other.seq == seq && other.code == code && other.description == description
    override fun hashCode(): Int = (31 * seq + code.hashCode()) * 31 + description.hashCode()
    override fun toString(): String = "WriteError($seq, $code, $description)"
  }

  /** The connection was lost or an attempt failed; [disconnect] says why and whether it retries. */
  public class Disconnected(public val disconnect: Disconnect) : ChannelEvent() {
    override fun equals(other: Any?): Boolean = other is Disconnected && other.disconnect == disconnect
    override fun hashCode(): Int = disconnect.hashCode()
    override fun toString(): String = "Disconnected($disconnect)"
  }
}

/**
 * The channel's news as a cold flow: collecting adds a listener ([InteractionChannel.addListener]),
 * which is told the news noticed from then on, in the channel's order; cancelling the collector removes
 * it. The builder's listener, if any, and other collectors hear the same news.
 *
 * With [connect] true, the flow connects the channel ([InteractionChannel.connect]) once its listener
 * is in place, so it hears the connection's news from the first, on any dispatcher: the listener is
 * added when the flow's producer starts, which on a dispatching dispatcher is after `launch` returns,
 * and a `connect()` right after `launch` could race it. Cancelling the collector does not close the
 * channel: close it where its scope ends. A collector that starts while the channel is connected
 * already (a screen collecting again under `repeatOnLifecycle`) hears no [ChannelEvent.Connected] for
 * that connection, news being told only to the listeners in place when it came: read
 * [InteractionChannel.state] and [InteractionChannel.uid] when the collection starts.
 *
 * ```
 * channel.events(connect = true).collect { event ->
 *   when (event) {
 *     is ChannelEvent.Connected -> channel.writeText("call Zhang San", """{"uid":""}""")
 *     is ChannelEvent.Result -> show(event.result.text())
 *     is ChannelEvent.WriteError -> show(event.description)
 *     is ChannelEvent.Disconnected -> show(event.disconnect.detail())
 *   }
 * }
 * ```
 *
 * No news is dropped: it waits in the flow's buffer of 64 (`Channel.BUFFERED`), and a collector more
 * than that behind fails the flow with [EventBufferOverflowException]; `.buffer(n)` or `.conflate()`
 * right after it chooses another policy. The flow ends only when its collector is cancelled, not when the
 * channel closes: collect it in the scope whose end closes the channel. The channel calls its listeners
 * on a `voicelink-io` thread; the collector runs on its own dispatcher.
 *
 * @throws IllegalStateException when collected, if the channel is already closed
 */
public fun InteractionChannel.events(connect: Boolean = false): Flow<ChannelEvent> =
    listenerFlow("InteractionChannel.events()") { emit ->
      val listener = object : InteractionChannel.Listener {
        override fun onConnected(uid: String) = emit(ChannelEvent.Connected(uid))

        override fun onResult(result: InteractionResult) = emit(ChannelEvent.Result(result))

        override fun onWriteError(seq: Int, code: String, description: String) =
            emit(ChannelEvent.WriteError(seq, code, description))

        override fun onDisconnected(disconnect: Disconnect) = emit(ChannelEvent.Disconnected(disconnect))
      }
      addListener(listener) // no effect on a closed channel, which close() and this decide under one lock
      try {
        check(state() != InteractionChannel.State.CLOSED) {
          "the interaction channel is closed: it has no news to tell; collect before close()"
        }
        if (connect) connect()
      } catch (closed: IllegalStateException) {
        removeListener(listener)
        throw closed
      }
      return@listenerFlow { removeListener(listener) }
    }
