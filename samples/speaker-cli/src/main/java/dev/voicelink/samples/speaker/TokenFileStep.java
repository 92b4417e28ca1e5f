package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenRecord;
import java.io.File;

/** Step 3: the token file the sign-in saved, read back and compared with what the flow gave. */
final class TokenFileStep implements DemoStep {
  @Override public String title() {
    return "Token stored in a file";
  }

  @Override public void run(DemoSession demo) throws Exception {
    File tokenFile = demo.tokenFile;
    TokenRecord reloaded = new FileTokenStore(tokenFile).load();
    if (reloaded == null || !reloaded.accessToken().equals(demo.deviceToken.accessToken())) {
      throw new DemoFailure("the token file did not hold the record that was saved");
    }
    demo.out.record(fields("step", demo.step(), "token_file", tokenFile.getPath(), "bytes",
        tokenFile.length()),
        "  " + tokenFile.getPath() + " (" + tokenFile.length() + " bytes; reloaded and matched)");
  }
}
