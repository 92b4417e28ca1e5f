package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.DemoSession.format;
import static dev.voicelink.samples.speaker.DemoSession.seconds;
import static dev.voicelink.samples.speaker.Output.fields;

import java.util.concurrent.TimeUnit;

/** Step 1: the reference server's addresses, and how much faster than real time the demo runs. */
final class ServerStep implements DemoStep {
  @Override public String title() {
    return "Reference server";
  }

  @Override public void run(DemoSession demo) {
    demo.out.record(fields("step", demo.step(), "auth_url", demo.server.authUrl(), "platform_url",
        demo.server.platformUrl(), "base_url", demo.server.baseUrl(), "speed", demo.speed),
        "  auth_url     " + demo.server.authUrl() + "\n  platform_url " + demo.server.platformUrl()
            + "\n  base_url     " + demo.server.baseUrl() + "\n  Time runs " + format(demo.speed)
            + "x faster than real time for the server and the device in this demo: 5 minutes"
            + " take " + seconds(demo.time.realMillis(TimeUnit.MINUTES.toMillis(5))) + ".");
  }
}
