package dev.voicelink.samples.speaker;

/** The exit codes of every speaker-cli command. */
final class ExitCodes {
  static final int SUCCESS = 0;
  static final int FAILURE = 1;
  static final int INVALID_INPUT = 2;
  static final int ACCESS_DENIED = 3;
  static final int CODE_EXPIRED = 4;
  static final int REAUTHORIZATION_REQUIRED = 5;
  static final int SERVER_REFUSED = 6;

  private ExitCodes() {
  }
}
