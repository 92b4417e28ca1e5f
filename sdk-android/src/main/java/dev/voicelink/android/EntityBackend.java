package dev.voicelink.android;

import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.UploadReceipt;

/**
 * The dynamic entity web API as the agent uses it: the SDK's calls, which the agent enqueues with
 * their results delivered to its worker, and cancels when it is destroyed.
 */
interface EntityBackend {
  /**
   * The upload of {@code request}. Decodes its data first, on the calling thread: work in proportion
   * to the resource, so not for the agent's worker. Throws IllegalArgumentException (or
   * IllegalStateException for an unregistered resource) before anything is sent; the call checks
   * the records before it sends them.
   */
  VoiceLinkCall<UploadReceipt> upload(SyncRequest request);

  /** A check of the upload {@code sid}. */
  VoiceLinkCall<CheckResult> check(String sid);
}
