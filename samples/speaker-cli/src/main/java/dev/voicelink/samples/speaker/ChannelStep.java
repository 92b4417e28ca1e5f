package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

/**
 * Step 5: the interaction channel connects with the device token, and the platform names the user.
 * The channel stays open for the activation step.
 */
final class ChannelStep implements DemoStep {
  @Override public String title() {
    return "Interaction channel";
  }

  @Override public void run(DemoSession demo) throws Exception {
    DemoChannel channel = new DemoChannel(demo.client, demo.deviceTokens, demo.speed);
    demo.channel = channel;
    String uid = channel.connect();
    demo.out.record(fields("step", demo.step(), "uid", uid),
        "  connected; the platform names the user " + uid);
    demo.uid = uid;
  }
}
