package dev.voicelink.samples.speaker;

/**
 * One step of the demo: it does what a smart speaker does at that point, checks that the platform
 * answered as the spec says (else throws {@link DemoFailure}), and reports under its title.
 */
interface DemoStep {
  String title();

  void run(DemoSession demo) throws Exception;
}
