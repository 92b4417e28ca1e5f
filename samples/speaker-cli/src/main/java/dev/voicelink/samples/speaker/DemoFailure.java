package dev.voicelink.samples.speaker;

/** A step of the demo did not behave as the spec says; the demo reports it and exits 1. */
final class DemoFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  DemoFailure(String message) {
    super(message);
  }
}
