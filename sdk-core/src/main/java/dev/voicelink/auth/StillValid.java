package dev.voicelink.auth;

import org.jspecify.annotations.Nullable;

/**
 * A refresh failed while the token it would replace is still valid: {@link TokenKeeper} serves
 * {@link #record} to callers that only want a token, and gives {@link #failure} to a forced refresh.
 * A control-flow signal inside the keeper; never thrown to the app.
 */
final class StillValid extends Exception {
  private static final long serialVersionUID = 1L;
  /** Transient: a serialized exception must not carry the tokens. */
  final transient TokenRecord record;
  final Exception failure;

  StillValid(@Nullable TokenRecord record, Exception failure) {
    if (record == null) throw new IllegalStateException("no record to serve");
    this.record = record;
    this.failure = failure;
  }

  @Override public synchronized Throwable fillInStackTrace() {
    return this; // no stack trace to take
  }
}
