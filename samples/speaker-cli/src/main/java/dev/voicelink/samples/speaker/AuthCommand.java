package dev.voicelink.samples.speaker;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.CorruptTokenFileException;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import okio.ByteString;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** What the authorization commands share: options, output and the mapping of errors to exit codes. */
abstract class AuthCommand implements Callable<Integer> {
  static final String DEFAULT_TOKEN_FILE = "voicelink-token.json";

  @CommandLine.ParentCommand SpeakerCli parent;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @EnvDefault("VOICELINK_AUTH_URL")
  @Option(names = "--auth-url", required = true, paramLabel = "URL",
      description = "Address of the authorization service (default: $VOICELINK_AUTH_URL)")
  String authUrl;

  @Option(names = "--token-file", paramLabel = "FILE", defaultValue = DEFAULT_TOKEN_FILE,
      description = "Where the token record is kept (default: ${DEFAULT-VALUE}); owner-only")
  File tokenFile;

  @Option(names = "--json", description = "One JSON object per line on stdout")
  boolean json;

  Output output;

  @Override public final Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    output = new Output(out, err, json);
    try {
      VoiceLinkClient client;
      try {
        client = VoiceLinkClient.builder().authUrl(authUrl).httpLogging(parent.httpLogging()).build();
      } catch (IllegalArgumentException e) {
        return invalid(e.getMessage().replace("auth_url", "--auth-url"));
      }
      try {
        return run(client);
      } finally {
        client.close();
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      return invalid(e.getMessage());
    } catch (CorruptTokenFileException e) {
      return invalid(e.getMessage());
    } catch (ReauthorizationRequiredException e) {
      output.failure(Output.fields("status", "reauthorization_required", "error", e.code(),
          "message", e.description()),
          "re-authorization required: " + e.getMessage() + "; run 'speaker-cli login' again");
      return ExitCodes.REAUTHORIZATION_REQUIRED;
    } catch (ServerRefusalException e) {
      return refused(e);
    } catch (IOException e) {
      output.failure(Output.fields("status", "failed", "message", String.valueOf(e.getMessage())),
          "failed: " + e.getMessage());
      return ExitCodes.FAILURE;
    } finally {
      out.flush();
    }
  }

  abstract int run(VoiceLinkClient client) throws IOException, ServerRefusalException;

  Map<String, String> env() {
    return parent.env;
  }

  int invalid(String message) {
    output.problem(message);
    return ExitCodes.INVALID_INPUT;
  }

  int refused(ServerRefusalException e) {
    output.failure(Output.fields("status", "refused", "error", e.code(), "message", e.description()),
        "the server refused: " + e.getMessage());
    return ExitCodes.SERVER_REFUSED;
  }

  /** The fields that describe a token record without revealing it. */
  static Map<String, Object> describe(TokenRecord record, File file, String status) {
    Map<String, Object> fields = Output.fields(
        "status", status,
        "grant", record.grant().wireName(),
        "client_id", record.clientId(),
        "access_token_fingerprint", fingerprint(record.accessToken()),
        "refresh_token_fingerprint",
        record.refreshToken() == null ? null : fingerprint(record.refreshToken()),
        "expires_in", record.expiresInSeconds(),
        "created_at", record.createdAtEpochSeconds(),
        "token_file", file.getPath());
    return fields;
  }

  static String describeText(TokenRecord record, File file) {
    return "access token " + fingerprint(record.accessToken())
        + (record.refreshToken() == null ? "" : ", refresh token "
        + fingerprint(record.refreshToken()))
        + ", valid " + record.expiresInSeconds() + " s; saved to " + file.getPath();
  }

  /** First 8 hex digits of the SHA-256 of a secret: enough to match two outputs, useless to steal. */
  static String fingerprint(String secret) {
    return ByteString.encodeUtf8(secret).sha256().hex().substring(0, 8);
  }
}
