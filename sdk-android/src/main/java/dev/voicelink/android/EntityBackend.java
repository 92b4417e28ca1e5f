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
   * The upload of {@code request}. Throws IllegalArgumentException (or IllegalStateException for an
   * unregistered resource) for its name and owner; the call decodes and checks the records (their
   * Base64, UTF-8 and fields) before it sends them, and fails with an IllegalArgumentException for
   * the first wrong one.
   */
  VoiceLinkCall<UploadReceipt> upload(SyncRequest request);

  /** A check of the upload {@code sid}. */
  VoiceLinkCall<CheckResult> check(String sid);
}
