package dev.voicelink.samples.speaker;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import picocli.CommandLine.Command;

/** {@code refresh}: the refresh token grant for the record in the token file. */
@Command(name = "refresh", mixinStandardHelpOptions = true,
    description = "Refreshes the token in the token file now and saves the rotated record"
        + " (device tokens at oauth/ivs/token, cloud tokens at oauth/token).")
final class RefreshCommand extends AuthCommand {
  @Override int run(VoiceLinkClient client) throws IOException, ServerRefusalException {
    FileTokenStore store = new FileTokenStore(tokenFile);
    if (store.load() == null) {
      return invalid("no token record in " + tokenFile + ": run 'speaker-cli login' first");
    }
    TokenManager manager = TokenManager.builder(client).store(store).build();
    TokenRecord record = manager.refresh().execute();
    output.record(describe(record, tokenFile, "refreshed"),
        "Refreshed: " + describeText(record, tokenFile));
    return ExitCodes.SUCCESS;
  }
}
