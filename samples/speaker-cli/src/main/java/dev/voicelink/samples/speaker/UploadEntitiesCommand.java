package dev.voicelink.samples.speaker;

import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceName;
import java.io.File;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Uploads entities through the platform tools endpoint with the token the type needs. With an
 * authorization address the token file's record is kept alive by a {@link TokenManager}: refreshed
 * when it has expired (the rotated record saved back to the file), and refreshed once more when the
 * platform answers HTTP 401, after which the upload is retried once.
 */
@Command(name = "upload-entities", mixinStandardHelpOptions = true,
    description = {"Uploads entities (platform tools upload_entities) from a file of JSON lines.",
        "With --auth-url (or VOICELINK_AUTH_URL) the token in --token-file is refreshed when it has"
        + " expired, the rotated record is saved back to the file, and an HTTP 401 is answered by"
        + " one refresh and one retry."})
final class UploadEntitiesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand SpeakerCli parent;

  @EnvDefault("VOICELINK_PLATFORM_URL")
  @Option(names = "--platform-url", required = true, paramLabel = "URL",
      description = "platform tools address (default: $VOICELINK_PLATFORM_URL)")
  String platformUrl;
  @Option(names = "--type", required = true, paramLabel = "TYPE",
      description = "user (user token), device (device token) or client (cloud token)")
  String type;
  @Option(names = "--resource-name", required = true, paramLabel = "NAME",
      description = "<namespace>.<name>")
  String resourceName;
  @Option(names = "--file", required = true, paramLabel = "FILE",
      description = "records: UTF-8 JSON lines")
  File file;
  @Option(names = "--token-file", required = true, paramLabel = "FILE",
      description = "token file of that kind, as written by the device sign-in (or a raw token)")
  File tokenFile;
  @EnvDefault("VOICELINK_AUTH_URL")
  @Option(names = "--auth-url", paramLabel = "URL",
      description = "authorization service address, to refresh the token of --token-file"
          + " (default: $VOICELINK_AUTH_URL)")
  String authUrl;
  @Option(names = "--appid", paramLabel = "APPID",
      description = "only for uploads effective for the front interceptor")
  String appid;
  @Option(names = "--fields", split = ",", paramLabel = "FIELD",
      description = "MAIN[,SECONDARY...]: check every record for these fields before sending")
  List<String> fields;
  @Option(names = "--json", description = "one JSON object per line on stdout")
  boolean json;
  @CommandLine.Mixin ResourceLimit limit;

  /** The token file, once checked: it says which command signs in again. */
  private @Nullable TokenFileSource token;

  @Override public Integer call() {
    Output output = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), json);
    EntityCommands.SignIn signIn = () -> token != null ? token.signInCommand() : "login";
    return EntityCommands.run(output, signIn, () -> {
      Dimension dimension;
      switch (type) {
        case "user": dimension = Dimension.USER; break;
        case "device": dimension = Dimension.DEVICE; break;
        case "client": dimension = Dimension.APPLICATION; break;
        default: throw new IllegalArgumentException("--type must be user, client or device; was: " + type);
      }
      ResourceName name = ResourceName.parse(resourceName);
      if (!file.isFile()) throw new IllegalArgumentException("--file " + file + " is not a file");
      long maxResourceBytes = limit.bytes();
      TokenFileSource token = this.token = TokenFileSource.check(tokenFile, authUrl);
      VoiceLinkClient.Builder platform = parent.clientBuilder().platformUrl(platformUrl);
      if (!token.refreshable()) {
        try (VoiceLinkClient voiceLink = platform.build()) {
          String sid = upload(voiceLink, dimension, name, maxResourceBytes, token.tokens(voiceLink));
          output.record(Output.fields("sid", sid), "uploaded " + name + " (" + type + "): sid " + sid);
          return ExitCodes.SUCCESS;
        }
      }
      // One connection pool, the command's own; a 401 gets one refresh and one retry (the body is
      // sent again). --verbose shows the token refresh too, not only the upload.
      OkHttpClient http = new OkHttpClient();
      try (VoiceLinkClient auth = token.client(parent.clientBuilder().httpClient(http))) {
        TokenManager manager = token.manager(auth);
        try (VoiceLinkClient voiceLink = platform
            .httpClient(http.newBuilder().authenticator(manager.authenticator()).build()).build()) {
          String sid = upload(voiceLink, dimension, name, maxResourceBytes, manager);
          boolean refreshed = !Objects.equals(token.record(), manager.record());
          output.record(Output.fields("sid", sid, "token_refreshed", refreshed),
              "uploaded " + name + " (" + type + "): sid " + sid + (refreshed
                  ? "; the token was refreshed and the rotated record saved to " + tokenFile : ""));
          return ExitCodes.SUCCESS;
        }
      } finally {
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
      }
    });
  }

  private String upload(VoiceLinkClient voiceLink, Dimension dimension, ResourceName name,
      long maxResourceBytes, TokenSource tokens) throws Exception {
    PlatformToolsClient.Builder builder = PlatformToolsClient.builder(voiceLink)
        .maxResourceBytes(maxResourceBytes);
    if (dimension.equals(Dimension.USER)) builder.userTokens(tokens);
    if (dimension.equals(Dimension.DEVICE)) builder.deviceTokens(tokens);
    if (dimension.equals(Dimension.APPLICATION)) builder.cloudTokens(tokens);
    PlatformToolsClient client = builder.build();
    RecordSource records = RecordSource.fromFile(file);
    if (fields != null && !fields.isEmpty()) {
      return client.uploadEntities(ResourceDefinition.builder().name(name).mainField(fields.get(0))
          .secondaryFields(fields.subList(1, fields.size()).toArray(new String[0]))
          .dimension(dimension).build(), records, appid).execute();
    }
    return client.uploadEntities(dimension, name, records, appid).execute();
  }
}
