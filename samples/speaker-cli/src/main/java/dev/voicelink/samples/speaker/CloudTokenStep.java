package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.DemoSession.secret;
import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.testing.DefaultConsole;

/** Step 4: a cloud token for the vendor's backend, by the client credentials grant. */
final class CloudTokenStep implements DemoStep {
  @Override public String title() {
    return "Cloud token for the vendor backend (client credentials)";
  }

  @Override public void run(DemoSession demo) throws Exception {
    TokenManager cloud = TokenManager.builder(demo.client)
        .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
        .store(new InMemoryTokenStore())
        .build();
    String token = cloud.accessToken();
    demo.out.record(fields("step", demo.step(), "access_token", secret(token)),
        "  cloud token " + secret(token));
    demo.cloudTokens = cloud;
  }
}
