package dev.voicelink.coroutines

import dev.voicelink.auth.DeviceCode
import dev.voicelink.auth.DeviceFlowOutcome
import dev.voicelink.auth.TokenManager
import dev.voicelink.coroutines.internal.signInEvents
import kotlinx.coroutines.flow.Flow

/**
 * What a sign-in flow ([signInFlow]) tells its collector: [CodeIssued] once, then [Finished] once, and
 * the flow ends; only [Finished] when the code itself could not be had (offline, or the server refused
 * the device: [DeviceFlowOutcome.Kind.FAILED]). Immutable; the constructors are public so that an
 * app's tests can fake a flow.
 */
public sealed class SignInEvent {
  /** The server issued [code]: show its user code and its link (a QR code of it) to the user. */
  public class CodeIssued(public val code: DeviceCode) : SignInEvent() {
    override fun equals(other: Any?): Boolean = other is CodeIssued && other.code == code
    override fun hashCode(): Int = code.hashCode()
    override fun toString(): String = "CodeIssued($code)"
  }

  /**
   * The device flow ended with [outcome]. When the user authorized the device, the record was saved in
   * the token manager and its store before this event was sent.
   */
  public class Finished(public val outcome: DeviceFlowOutcome) : SignInEvent() {
    override fun equals(other: Any?): Boolean = other is Finished && other.outcome == outcome
    override fun hashCode(): Int = outcome.hashCode()
    override fun toString(): String = "Finished($outcome)"
  }
}

/**
 * Signs the device in as [TokenManager.signIn] does, as a cold flow: each collection requests a code
 * for [deviceId] ([SignInEvent.CodeIssued]), polls until the user decides, keeps the record, and ends
 * with [SignInEvent.Finished]. For the outcome alone, `signIn(deviceId) { code -> show(code) }.await()`
 * is the same sign-in as one suspending call.
 *
 * ```
 * tokens.signInFlow("SN-0001-DEMO").collect { event ->
 *   when (event) {
 *     is SignInEvent.CodeIssued -> screen.showQr(event.code.link())
 *     is SignInEvent.Finished -> screen.show(event.outcome.kind())
 *   }
 * }
 * ```
 *
 * Cancelling the collecting coroutine cancels the sign-in (a token answer already on its way is still
 * saved, as [TokenManager.signIn] says); a sign-in cancelled elsewhere (its client closed) cancels the
 * collector. The flow fails as the call fails: `IllegalArgumentException` for an invalid [deviceId]
 * (nothing is sent), `IllegalStateException` for a manager without a device credential, `IOException`
 * when the record could not be saved. Collecting never blocks its thread; events reach the collector
 * on its own dispatcher.
 */
public fun TokenManager.signInFlow(deviceId: String): Flow<SignInEvent> =
    signInEvents { listener -> signIn(deviceId, listener) }

/**
 * As [signInFlow] with a device id, at the standard OAuth 2.0 server whose credential this manager
 * keeps (RFC 8628), which takes no device id ([TokenManager.signIn] without one).
 */
public fun TokenManager.signInFlow(): Flow<SignInEvent> =
    signInEvents { listener -> signIn(listener) }
