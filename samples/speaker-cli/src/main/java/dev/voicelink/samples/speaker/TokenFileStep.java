package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.testing.DefaultConsole;
import java.io.File;

/** Step 3: the device token saved to a file by a {@link TokenManager}, read back and compared. */
final class TokenFileStep implements DemoStep {
  @Override public String title() {
    return "Token stored in a file";
  }

  @Override public void run(DemoSession demo) throws Exception {
    File tokenFile = demo.tokenFile;
    TokenManager tokens = TokenManager.builder(demo.client)
        .deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new FileTokenStore(tokenFile))
        .build();
    tokens.setRecord(demo.deviceToken);
    TokenRecord reloaded = new FileTokenStore(tokenFile).load();
    if (reloaded == null || !reloaded.accessToken().equals(demo.deviceToken.accessToken())) {
      throw new DemoFailure("the token file did not hold the record that was saved");
    }
    demo.out.record(fields("step", demo.step(), "token_file", tokenFile.getPath(), "bytes",
        tokenFile.length()),
        "  " + tokenFile.getPath() + " (" + tokenFile.length() + " bytes; reloaded and matched)");
    demo.deviceTokens = tokens;
  }
}
