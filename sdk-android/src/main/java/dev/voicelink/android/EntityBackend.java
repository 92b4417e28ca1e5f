package dev.voicelink.android;

import dev.voicelink.core.ServerRefusalException;
import java.io.IOException;

/** The dynamic entity web API as the agent uses it: blocking calls, run off the worker thread. */
interface EntityBackend {
  /** Uploads; returns the sid. Checks its input before sending (IllegalArgumentException). */
  String upload(SyncRequest request) throws IOException, ServerRefusalException;


  /** Checks an upload; returns the result as JSON text with {@code sid, csid, reply, error}. */
  String check(String sid) throws IOException, ServerRefusalException;
}
