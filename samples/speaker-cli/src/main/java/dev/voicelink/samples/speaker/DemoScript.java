package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The demo's steps, in order: each checks what the spec says should have happened. */
final class DemoScript {
  static final List<DemoStep> STEPS = Collections.unmodifiableList(Arrays.asList(
      new ServerStep(),
      new DeviceAuthorizationStep(),
      new TokenFileStep(),
      new CloudTokenStep(),
      new ChannelStep(),
      // Songs first: the demo waits for the contacts to take effect, and the songs, uploaded
      // earlier, are then in effect too; the other way round they could miss by a moment.
      new SongsUploadStep(),
      new ContactsSyncStep(),
      new TenSecondCheckStep(),
      new InEffectStep(),
      new ActivationStep(),
      new TokenRefreshStep()));

  private DemoScript() {
  }

  /** Runs every step; a step that fails throws {@link DemoFailure}. */
  static int run(DemoSession demo) throws Exception {
    for (DemoStep step : STEPS) {
      demo.begin(step.title());
      step.run(demo);
    }
    demo.out.record(fields("status", "ok"), "\nEvery step behaved as the platform spec says.");
    return ExitCodes.SUCCESS;
  }
}
