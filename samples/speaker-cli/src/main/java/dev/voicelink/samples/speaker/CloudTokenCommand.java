package dev.voicelink.samples.speaker;

import dev.voicelink.auth.CorruptTokenFileException;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cloud-token}: a cloud token by the client credentials grant, or its refresh. */
@Command(name = "cloud-token", mixinStandardHelpOptions = true,
    description = {"Obtains a cloud token (client credentials) and saves it to the token file;"
        + " with --refresh, refreshes the cloud token already saved there.",
        "The client secret comes from --client-secret-file or the environment variable"
            + " VOICELINK_CLIENT_SECRET, never from the command line."})
final class CloudTokenCommand extends AuthCommand {
  static final String SECRET_ENV = "VOICELINK_CLIENT_SECRET";

  @Option(names = "--client-id", required = true, paramLabel = "ID",
      description = "client_id from the device-access console, or as registered at --issuer")
  String clientId;

  @Option(names = "--client-secret-file", paramLabel = "FILE",
      description = "File holding the client secret, - for stdin (else $" + SECRET_ENV + ")")
  File clientSecretFile;

  @Option(names = "--client-auth", paramLabel = "METHOD",
      description = "With --issuer: how the client sends its secret, basic or post, as it is registered"
          + " at the server (default: basic if the server offers it, else post)")
  String clientAuth;

  @Option(names = "--refresh", description = "Refresh the saved cloud token instead of a new one")
  boolean refresh;

  @Override @Nullable String optionProblem(boolean standard) {
    if (clientAuth == null) return null;
    if (!standard) return "--client-auth needs --issuer: the platform's client authentication is fixed";
    if (!clientAuth.equals("basic") && !clientAuth.equals("post")) {
      return "--client-auth must be basic or post; was: " + clientAuth;
    }
    return null;
  }

  private String secret;
  private @Nullable TokenRecord stored;

  @Override String signInCommand() {
    return "cloud-token";
  }

  @Override void prepare() throws IOException {
    secret = SecretInput.read(clientSecretFile, "--client-secret-file", SECRET_ENV, env());
    if (refresh && !tokenFile.exists()) throw noRecord("cloud-token"); // before a message with the path
    checkTokenFileWritable();
    if (!refresh) {
      refuseToReplaceAnotherGrant();
      return;
    }
    stored = new FileTokenStore(tokenFile).load();
    if (stored == null) {
      throw noRecord("cloud-token");
    }
    if (stored.grant() != TokenRecord.Grant.CLOUD) {
      throw new IllegalArgumentException(tokenFile + " holds a " + stored.grant().wireName()
          + " token, not a cloud token: use 'speaker-cli refresh' for it");
    }
  }

  /**
   * A new cloud token replaces the file's record: never a device or user token, whose refresh token
   * only a new sign-in could bring back (both commands default to the same file).
   */
  private void refuseToReplaceAnotherGrant() throws IOException {
    TokenRecord existing;
    try {
      existing = new FileTokenStore(tokenFile).load();
    } catch (CorruptTokenFileException unreadable) {
      return; // nothing in it can be lost
    }
    if (existing != null && existing.grant() != TokenRecord.Grant.CLOUD) {
      throw new IllegalArgumentException(tokenFile + " holds a " + existing.grant().wireName()
          + " token: a cloud token would replace it, and the device would have to be signed in"
          + " again; give another --token-file");
    }
  }

  @Override @Nullable String localProblem() {
    return stored == null ? null : dialectMismatch(stored, issuer != null);
  }

  @Override int run(VoiceLinkClient client, @Nullable OAuthServer discovered)
      throws IOException, ServerRefusalException {
    OAuthServer server = discovered == null || clientAuth == null ? discovered
        : discovered.newBuilder().clientAuthentication(clientAuth.equals("post")
            ? OAuthServer.ClientAuthentication.CLIENT_SECRET_POST
            : OAuthServer.ClientAuthentication.CLIENT_SECRET_BASIC).build();
    FileTokenStore file = new FileTokenStore(tokenFile);
    TokenManager.Builder credential = (server == null ? TokenManager.builder(client)
        : TokenManager.builder(client, server)).cloudGrant(clientId, secret);
    if (scope != null) credential.scope(scope);
    TokenRecord record;
    if (stored != null) {
      String mismatch = dialectMismatch(stored, server);
      if (mismatch != null) return invalid(mismatch);
      record = credential.store(file).build().refresh().execute();
    } else {
      record = credential.store(new InMemoryTokenStore()).build().refresh().execute();
      file.save(record);
    }
    output.record(describe(record, tokenFile, refresh ? "refreshed" : "issued"),
        (refresh ? "Refreshed cloud token: " : "Cloud token: ") + describeText(record, tokenFile));
    return ExitCodes.SUCCESS;
  }
}
