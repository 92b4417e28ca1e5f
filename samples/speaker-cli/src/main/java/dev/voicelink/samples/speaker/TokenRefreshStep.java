package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.DemoSession.secret;
import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenRecord;

/** Step 11: the device token refreshed; the refresh token rotates and the file holds the new one. */
final class TokenRefreshStep implements DemoStep {
  @Override public String title() {
    return "Token refresh (the refresh token rotates)";
  }

  @Override public void run(DemoSession demo) throws Exception {
    TokenRecord before = demo.deviceToken;
    TokenRecord after = demo.deviceTokens.refresh().execute();
    TokenRecord stored = new FileTokenStore(demo.tokenFile).load();
    if (after.refreshToken() == null || after.refreshToken().equals(before.refreshToken())) {
      throw new DemoFailure("the refresh did not rotate the refresh token");
    }
    if (stored == null || !after.refreshToken().equals(stored.refreshToken())) {
      throw new DemoFailure("the token file does not hold the rotated refresh token");
    }
    demo.out.record(fields("step", demo.step(), "refresh_token_before",
        secret(before.refreshToken()), "refresh_token_after", secret(after.refreshToken())),
        "  refresh token " + secret(before.refreshToken()) + " -> "
            + secret(after.refreshToken()) + " (saved before use)");
  }
}
