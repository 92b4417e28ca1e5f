package dev.voicelink.coroutines

import dev.voicelink.auth.TokenManager
import dev.voicelink.coroutines.internal.listenerFlow
import kotlinx.coroutines.flow.Flow

/**
 * The manager's state changes as a cold flow: the last change first (`LOADING` while the store is read,
 * which collecting starts), then every change, each with its state, cause and time, in the order the
 * manager told them. Collecting adds a [TokenManager.Listener]; cancelling the collector removes it.
 *
 * ```
 * tokens.stateChanges().collect { change ->
 *   if (change.state() == TokenManager.State.REAUTHORIZATION_REQUIRED) screen.askToSignInAgain()
 * }
 * ```
 *
 * No change is dropped: changes wait in the flow's buffer of 64 (`Channel.BUFFERED`) for the collector,
 * and a collector more than that behind fails the flow with [EventBufferOverflowException] rather than
 * miss one. `.conflate()` after it keeps only the latest change instead. The flow ends only when its
 * collector is cancelled. The manager tells its listeners on its listener executor (Android's main
 * thread by default); the collector runs on its own dispatcher.
 */
public fun TokenManager.stateChanges(): Flow<TokenManager.StateChange> =
    listenerFlow("TokenManager.stateChanges()") { emit ->
      val listener = TokenManager.Listener { change -> emit(change) }
      addListener(listener)
      return@listenerFlow { removeListener(listener) }
    }
