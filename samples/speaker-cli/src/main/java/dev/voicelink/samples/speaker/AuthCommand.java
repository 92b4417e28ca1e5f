package dev.voicelink.samples.speaker;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.CorruptTokenFileException;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.Callable;
import okio.ByteString;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** What the authorization commands share: options, output and the mapping of errors to exit codes. */
abstract class AuthCommand implements Callable<Integer> {
  static final String DEFAULT_TOKEN_FILE = "voicelink-token.json";

  @CommandLine.ParentCommand SpeakerCli parent;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @EnvDefault("VOICELINK_AUTH_URL")
  @Option(names = "--auth-url", paramLabel = "URL",
      description = "Address of the authorization service (default: $VOICELINK_AUTH_URL)")
  String authUrl;

  @EnvDefault("VOICELINK_ISSUER")
  @Option(names = "--issuer", paramLabel = "URL",
      description = "Issuer of a standard OAuth 2.0 server (third-party accounts), in place of"
          + " --auth-url; its endpoints are discovered (default: $VOICELINK_ISSUER)")
  String issuer;

  @Option(names = "--scope", paramLabel = "SCOPE",
      description = "With --issuer: the scope to ask for, space-separated (default: the server's)")
  String scope;

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
      String problem = chooseServer();
      if (problem == null) problem = optionProblem(issuer != null);
      if (problem != null) return usage(problem);
      prepare(); // local input (secrets, token files) is read before anything is sent
      String local = localProblem();
      if (local != null) return invalid(local);
      VoiceLinkClient client;
      try {
        VoiceLinkClient.Builder builder = parent.clientBuilder();
        if (issuer == null) builder.authUrl(authUrl);
        client = builder.build();
      } catch (IllegalArgumentException e) {
        return invalid(e.getMessage().replace("auth_url", "--auth-url"));
      }
      try {
        OAuthServer server;
        try {
          server = issuer == null ? null : OAuthServer.discover(client, issuer).execute();
        } catch (IllegalArgumentException e) {
          return invalid("--" + e.getMessage()); // "issuer must ..." names the option
        }
        return run(client, server);
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
          "re-authorization required: " + e.getMessage() + "; run 'speaker-cli " + signInCommand()
              + "' again");
      return ExitCodes.REAUTHORIZATION_REQUIRED;
    } catch (ServerRefusalException e) {
      return refused(e);
    } catch (IOException e) {
      output.failure(Output.failed(String.valueOf(e.getMessage())), "failed: " + e.getMessage());
      return ExitCodes.FAILURE;
    } finally {
      out.flush();
    }
  }

  /**
   * Runs the command with {@code client}; {@code server} is the standard OAuth 2.0 server discovered
   * from {@code --issuer}, or null for the platform at {@code --auth-url}.
   */
  abstract int run(VoiceLinkClient client, @Nullable OAuthServer server)
      throws IOException, ServerRefusalException;

  /**
   * Settles which server the command talks to, leaving exactly one of {@link #authUrl} and {@link
   * #issuer} set: the one on the command line, else the one the environment gives. Returns what is
   * wrong with the command line, or null.
   */
  private @Nullable String chooseServer() {
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    boolean issuerGiven = parsed.hasMatchedOption("--issuer");
    boolean authUrlGiven = parsed.hasMatchedOption("--auth-url");
    if (issuerGiven && authUrlGiven) {
      return "--issuer and --auth-url are mutually exclusive: --issuer names a standard OAuth 2.0"
          + " server, --auth-url the platform's authorization service";
    }
    if (issuerGiven) {
      authUrl = null; // VOICELINK_AUTH_URL gives way to the command line
    } else if (authUrlGiven) {
      issuer = null;
    } else if (authUrl != null && issuer != null) {
      return "both VOICELINK_AUTH_URL and VOICELINK_ISSUER are set: choose with --auth-url or"
          + " --issuer";
    }
    if (authUrl == null && issuer == null) {
      return "Missing required option: '--auth-url=URL' (or set VOICELINK_AUTH_URL), or"
          + " '--issuer=URL' for a standard OAuth 2.0 server (or set VOICELINK_ISSUER)";
    }
    if (issuer == null && scope != null) {
      return "--scope needs --issuer: the platform's scope is fixed";
    }
    return null;
  }

  /**
   * What is wrong with this command's own options for the chosen kind of server ({@code standard}:
   * {@code --issuer}), or null; checked before anything is sent.
   */
  @Nullable String optionProblem(boolean standard) {
    return null;
  }

  /**
   * Reads and checks this command's local input (a secret, the token file) before anything is sent,
   * even the discovery of {@code --issuer}.
   *
   * @throws IllegalArgumentException naming the option at fault (exit 2)
   */
  void prepare() throws IOException {
  }

  /**
   * Refuses a {@link #tokenFile} that could not be written, so that the user does not authorize a
   * device whose token would then be lost.
   */
  void checkTokenFileWritable() {
    String problem = tokenFileProblem(tokenFile);
    if (problem != null) throw new IllegalArgumentException(problem);
  }

  /** The command that gets this command's credential anew: a device sign-in, unless said otherwise. */
  String signInCommand() {
    return "login";
  }

  /**
   * The refusal of a {@link #tokenFile} that holds no record, which {@code firstCommand} writes. A path
   * the user typed that names nothing is not repeated: it may be a token, typed in the wrong place.
   */
  IllegalArgumentException noRecord(String firstCommand) {
    String where = tokenFile.exists() || tokenFile.getPath().equals(DEFAULT_TOKEN_FILE)
        ? "no token record in " + tokenFile : "no token record: " + SecretInput.namesNoFile("--token-file");
    return new IllegalArgumentException(where + ": run 'speaker-cli " + firstCommand + "' first");
  }

  /** Why {@code --token-file tokenFile} could not be written, or null. */
  static @Nullable String tokenFileProblem(File tokenFile) {
    File file = tokenFile.getAbsoluteFile();
    File folder = file.getParentFile();
    if (file.isDirectory()) return "--token-file " + tokenFile + " is a folder";
    if (folder == null || !folder.isDirectory()) {
      // named as the user gave it, not as an absolute path
      return "--token-file " + tokenFile + ": the folder " + tokenFile.getParent() + " does not exist";
    }
    if (!Files.isWritable(folder.toPath()) || file.exists() && !Files.isWritable(file.toPath())) {
      return "--token-file " + tokenFile + " cannot be written";
    }
    return null;
  }

  /** A mistake in the command line, reported as picocli reports its own. */
  int usage(String message) {
    output.problem(message);
    spec.commandLine().getErr().println("Try 'speaker-cli " + spec.name() + " --help' for usage.");
    return ExitCodes.INVALID_INPUT;
  }

  Map<String, String> env() {
    return parent.env;
  }

  int invalid(String message) {
    output.problem(message);
    return ExitCodes.INVALID_INPUT;
  }

  int refused(ServerRefusalException e) {
    output.failure(Output.refusal(e), "the server refused: " + e.getMessage());
    return ExitCodes.SERVER_REFUSED;
  }

  /**
   * Why {@code stored} cannot be refreshed at {@code server} (null: the platform), or null if it can:
   * a record names its dialect and token endpoint, and is refreshed only there.
   */
  static @Nullable String dialectMismatch(TokenRecord stored, @Nullable OAuthServer server) {
    String dialect = dialectMismatch(stored, server != null);
    if (dialect != null) return dialect;
    if (server != null && !server.tokenEndpoint().equals(stored.tokenEndpoint())) {
      return "the token file holds a token of " + stored.tokenEndpoint() + ", not of --issuer's"
          + " token endpoint " + server.tokenEndpoint();
    }
    return null;
  }

  /** As above, from the options alone ({@code --issuer} or not), before any discovery. */
  static @Nullable String dialectMismatch(TokenRecord stored, boolean issuer) {
    boolean standard = stored.dialect() == TokenRecord.Dialect.STANDARD;
    if (!issuer && standard) {
      return "the token file holds a token of the standard server " + stored.tokenEndpoint()
          + ": use --issuer, not --auth-url";
    }
    if (issuer && !standard) {
      return "the token file holds a platform token: use --auth-url, not --issuer";
    }
    return null;
  }

  /** A problem of the local input read by {@link #prepare}, found without the network; or null. */
  @Nullable String localProblem() {
    return null;
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

  /**
   * First 8 hex digits of the SHA-256 of a secret: enough to match two outputs, useless to steal. None
   * for a secret under 16 characters, whose fingerprint could be reversed by trying every value (the
   * SDK's logs show it as {@code ‹secret›}).
   */
  static String fingerprint(String secret) {
    if (secret.length() < 16) return "(short: not shown)";
    return ByteString.encodeUtf8(secret).sha256().hex().substring(0, 8);
  }
}
