package dev.voicelink.coroutines.android

import dev.voicelink.android.Agent
import dev.voicelink.android.AgentEvent
import dev.voicelink.android.AgentListener
import dev.voicelink.coroutines.EventBufferOverflowException
import dev.voicelink.coroutines.SignInEvent
import dev.voicelink.coroutines.internal.listenerFlow
import dev.voicelink.coroutines.internal.signInEvents
import kotlinx.coroutines.flow.Flow

/**
 * The Agent's events as a cold flow: collecting adds a listener ([Agent.addListener]), which is told
 * every event delivered from then on, in the Agent's order; cancelling the collector removes it. Read
 * them with the typed readers (`SyncReturn.from(event)`, `ConnectionEvent.from(event)`, ...).
 *
 * ```
 * agent.events().collect { event ->
 *   SyncReturn.from(event)?.let { show(if (it.isSuccess) "synced ${it.sid()}" else it.info()) }
 * }
 * ```
 *
 * No event is dropped: events wait in the flow's buffer of 64 (`Channel.BUFFERED`), and a collector
 * more than that behind fails the flow with [EventBufferOverflowException]; `.buffer(n)` or
 * `.conflate()` right after it chooses another policy. The flow ends only when its collector is
 * cancelled, not when the Agent is destroyed: collect it in the scope whose end destroys the Agent (the
 * `ViewModel`'s, the screen's). The Agent delivers on its event executor (the main thread by default);
 * the collector runs on its own dispatcher.
 */
public fun Agent.events(): Flow<AgentEvent> =
    listenerFlow("Agent.events()") { emit ->
      val listener = AgentListener { event -> emit(event) }
      addListener(listener)
      return@listenerFlow { removeListener(listener) }
    }

/**
 * Signs the device in with the Agent's token manager ([Agent.signIn]) as a cold flow:
 * [SignInEvent.CodeIssued], then [SignInEvent.Finished] once the user decided and the record is saved;
 * the Agent then connects with it. When the code itself could not be had, only `Finished` (`FAILED`).
 * Cancelling the collector cancels the sign-in. For the outcome alone,
 * `agent.signIn { code -> show(code) }.await()` is the same as one suspending call.
 *
 * The flow fails with `IllegalStateException` if the Agent's tokens come from an app's `TokenSource`
 * that is not a `TokenManager`, as [Agent.signIn] throws.
 */
public fun Agent.signInFlow(): Flow<SignInEvent> = signInEvents { listener -> signIn(listener) }
