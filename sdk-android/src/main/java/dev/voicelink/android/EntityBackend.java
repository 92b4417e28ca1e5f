package dev.voicelink.android;

import dev.voicelink.core.VoiceLinkCall;

/**
 * The dynamic entity web API as the agent uses it: calls that the agent runs off its worker thread
 * and cancels when it is destroyed.
 */
interface EntityBackend {
  /**
   * An upload that ends with the sid. Checks its input first and throws IllegalArgumentException (or
   * IllegalStateException for an unregistered resource) before anything is sent.
   */
  VoiceLinkCall<String> upload(SyncRequest request);

  /** A check of an upload that ends with the result as JSON text with {@code sid, csid, reply, error}. */
  VoiceLinkCall<String> check(String sid);
}
