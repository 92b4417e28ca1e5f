package dev.voicelink.samples.speaker;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/** {@code refresh}: the refresh token grant for the record in the token file. */
@Command(name = "refresh", mixinStandardHelpOptions = true,
    description = "Refreshes the token in the token file now and saves the rotated record"
        + " (device tokens at oauth/ivs/token, cloud tokens at oauth/token; with --issuer at the"
        + " standard server's token endpoint).")
final class RefreshCommand extends AuthCommand {
  private TokenRecord stored;

  /** A refresh asks for no scope of its own: the record's grant decides (RFC 6749 section 6). */
  @Override @Nullable String optionProblem(boolean standard) {
    return scope == null ? null : "--scope is for login and cloud-token: a refresh keeps the scope of"
        + " the token file's record";
  }

  @Override void prepare() throws IOException {
    if (!tokenFile.exists()) throw noRecord("login"); // before a message that repeats the path
    checkTokenFileWritable(); // the refresh rotates the token: it must be saved
    TokenRecord record = new FileTokenStore(tokenFile).load();
    if (record == null) {
      throw noRecord("login");
    }
    stored = record;
  }

  @Override String signInCommand() {
    return TokenFileSource.signInCommand(stored);
  }

  @Override @Nullable String localProblem() {
    return dialectMismatch(stored, issuer != null);
  }

  @Override int run(VoiceLinkClient client, @Nullable OAuthServer server)
      throws IOException, ServerRefusalException {
    FileTokenStore store = new FileTokenStore(tokenFile);
    String mismatch = dialectMismatch(stored, server);
    if (mismatch != null) return invalid(mismatch);
    TokenManager manager = (server == null ? TokenManager.builder(client)
        : TokenManager.builder(client, server)).store(store).build();
    TokenRecord record = manager.refresh().execute();
    output.record(describe(record, tokenFile, "refreshed"),
        "Refreshed: " + describeText(record, tokenFile));
    return ExitCodes.SUCCESS;
  }
}
