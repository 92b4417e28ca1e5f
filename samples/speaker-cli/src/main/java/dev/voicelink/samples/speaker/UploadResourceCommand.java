package dev.voicelink.samples.speaker;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceEncoder;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.interact.InteractionChannel;
import java.io.File;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Uploads a dynamic entity resource through the signed web API, and optionally waits for it. */
@Command(name = "sync", mixinStandardHelpOptions = true,
    description = {"Uploads a dynamic entity resource (web API upload-resource) from a file of JSON"
        + " lines and prints its sid. With --wait, checks it from 10 s after the upload until it is"
        + " processed, which is when it takes effect: 5 minutes after the upload.",
        "For --level user, --token-file names the user signed in on this device instead of --auth-id:"
        + " the interaction channel says who that is.",
        "On a terminal a progress bar shows how much is sent, the throughput and the time left.",
        "The account key comes from --account-key-file or the environment variable"
        + " VOICELINK_ACCOUNT_KEY, never from an argument."})
final class UploadResourceCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SpeakerCli parent;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin WebApiAccount account;
  @Option(names = "--appid", required = true, paramLabel = "APPID",
      description = "application identifier")
  String appid;
  @Option(names = "--res-name", required = true, paramLabel = "NAME",
      description = "<namespace>.<name>, e.g. OS123.contacts")
  String resName;
  @Option(names = "--fields", required = true, split = ",", paramLabel = "FIELD",
      description = "MAIN[,SECONDARY...]: the fields of the resource definition")
  List<String> fields;
  @Option(names = "--level", required = true, paramLabel = "LEVEL",
      description = "app, user or custom")
  String level;
  @Option(names = "--auth-id", paramLabel = "ID",
      description = "the user's 32-character auth_id (--level user)")
  String authId;
  @Option(names = "--token-file", paramLabel = "FILE",
      description = "instead of --auth-id (--level user): the token file of the user signed in on"
          + " this device, as login writes it; the user's auth_id is asked of the interaction"
          + " channel at --base-url")
  File tokenFile;
  @EnvDefault("VOICELINK_AUTH_URL")
  @Option(names = "--auth-url", paramLabel = "URL",
      description = "authorization service address, to refresh the token of --token-file when it"
          + " has expired (default: $VOICELINK_AUTH_URL)")
  String authUrl;
  @Option(names = "--dimension", paramLabel = "NAME",
      description = "custom dimension name (--level custom)")
  String dimension;
  @Option(names = "--value", paramLabel = "VALUE",
      description = "custom dimension value (--level custom)")
  String value;
  @Option(names = "--file", required = true, paramLabel = "FILE",
      description = "records: UTF-8 JSON lines")
  File file;
  @Option(names = "--wait", description = "check the upload until it is processed, which is when it"
      + " takes effect: 5 to 5.5 minutes after it")
  boolean await;
  @Option(names = "--timeout", defaultValue = "600", paramLabel = "SECONDS",
      description = "seconds to wait with --wait (default ${DEFAULT-VALUE}); the first check is 10 s"
          + " after the upload, and it is processed 5 to 5.5 minutes after it: give 360 or more")
  long timeoutSeconds;
  @Option(names = "--json", description = "one JSON object per line on stdout")
  boolean json;
  @Option(names = "--progress", negatable = true,
      description = "draw a progress bar while uploading (default: when stdout is a terminal);"
          + " --no-progress never draws it; not with --json")
  Boolean progress;
  @CommandLine.Mixin ResourceLimit limit;

  @Override public Integer call() {
    final Output output = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), json);
    return EntityCommands.run(output, () -> {
      // Every option is checked before the upload: a mistake found after it would have sent data.
      if (json && Boolean.TRUE.equals(progress)) {
        throw new IllegalArgumentException("--progress and --json do not go together: --json keeps"
            + " stdout for JSON lines");
      }
      if (await && timeoutSeconds <= 0) {
        throw new IllegalArgumentException("--timeout must be a positive number of seconds; was: "
            + timeoutSeconds);
      }
      CommandLine.ParseResult given = spec.commandLine().getParseResult();
      if (!await && given.hasMatchedOption("--timeout")) {
        throw new IllegalArgumentException("--timeout is for --wait; was given without it");
      }
      if (tokenFile == null && given.hasMatchedOption("--auth-url")) {
        throw new IllegalArgumentException("--auth-url refreshes the token of --token-file; was given"
            + " without it");
      }
      String accountKey = account.accountKey(parent.env);
      if (!level.equals("app") && !level.equals("user") && !level.equals("custom")) {
        throw new IllegalArgumentException("--level must be app, user or custom; was: " + level);
      }
      // An option that the level ignores is a mistake to report, not to drop: uploading for another
      // owner than the one the user named would be silently wrong.
      if (authId != null && !level.equals("user")) {
        throw new IllegalArgumentException("--auth-id is for --level user; was given with --level "
            + level);
      }
      if (tokenFile != null && !level.equals("user")) {
        throw new IllegalArgumentException("--token-file is for --level user; was given with --level "
            + level);
      }
      if ((dimension != null || value != null) && !level.equals("custom")) {
        throw new IllegalArgumentException("--dimension and --value are for --level custom; were given"
            + " with --level " + level);
      }
      Dimension dim;
      PersParam owner;
      switch (level) {
        case "app":
          dim = Dimension.APPLICATION;
          owner = PersParam.application(appid);
          break;
        case "user":
          if (authId == null && tokenFile == null) {
            throw new IllegalArgumentException("--level user needs --auth-id, or --token-file of the"
                + " signed-in user");
          }
          if (authId != null && tokenFile != null) {
            throw new IllegalArgumentException("--auth-id and --token-file do not go together: each"
                + " names the user");
          }
          dim = Dimension.USER;
          owner = authId != null ? PersParam.user(authId) : null; // asked of the channel below
          break;
        case "custom":
          if (dimension == null || value == null) {
            throw new IllegalArgumentException("--level custom needs --dimension NAME and --value V");
          }
          dim = Dimension.custom(dimension);
          owner = PersParam.custom(dimension, value);
          break;
        default:
          throw new AssertionError(level);
      }
      if (!file.isFile()) throw new IllegalArgumentException("--file " + file + " is not a file");
      long maxResourceBytes = limit.bytes();
      ResourceDefinition definition = ResourceDefinition.builder().name(resName)
          .mainField(fields.get(0))
          .secondaryFields(fields.subList(1, fields.size()).toArray(new String[0]))
          .dimension(dim).build();
      TokenFileSource user = tokenFile != null ? TokenFileSource.check(tokenFile, authUrl) : null;
      VoiceLinkClient.Builder builder = account.at(parent.clientBuilder());
      if (owner == null) {
        // What needs no network first: the user's token must not be used, nor refreshed and
        // rotated, for an upload that cannot be sent.
        UploadRequest.builder().appid(appid);
        ResourceEncoder.check(definition, RecordSource.fromFile(file), maxResourceBytes);
      }
      try (VoiceLinkClient client = user != null ? user.client(builder) : builder.build()) {
        // Built first: a namespace or account key it refuses must not cost the user's token either.
        EntityWebApi api = account.api(client, accountKey).maxResourceBytes(maxResourceBytes).build();
        if (owner == null) owner = PersParam.user(signedInUser(client, user, output));
        return upload(api, definition, owner, output);
      }
    });
  }

  /** The auth_id of the user whose token is in --token-file, as the interaction channel names it. */
  private static String signedInUser(VoiceLinkClient client, TokenFileSource user, Output output)
      throws Exception {
    String authId = InteractionChannel.fetchUid(client, user.tokens(client)).execute();
    output.say("the signed-in user's auth_id: " + authId);
    return authId;
  }

  private int upload(EntityWebApi api, ResourceDefinition definition, PersParam owner,
      Output output) throws Exception {
    UploadRequest.Builder request = UploadRequest.builder().appid(appid).definition(definition)
        .persParam(owner).records(RecordSource.fromFile(file));
    TransferBar bar = !json && (progress != null ? progress : parent.terminal)
        ? new TransferBar(output, parent.clock) : null;
    if (bar != null) request.progressListener(Runnable::run, bar);
    UploadReceipt receipt = null;
    try {
      receipt = api.uploadResource(request.build()).execute();
    } finally {
      if (bar != null) bar.finish(receipt != null);
    }
    output.record(Output.fields("sid", receipt.sid(), "csid", receipt.csid()),
        "uploaded " + definition.name() + ": sid " + receipt.sid() + " (in effect at "
            + EntityCommands.iso(receipt.inEffectAtMillis()) + ")");
    if (!await) return ExitCodes.SUCCESS;
    output.say("checking from " + EntityCommands.iso(receipt.earliestCheckAtMillis()) + " ...");
    CheckResult result = api.awaitProcessed(receipt, timeoutSeconds, TimeUnit.SECONDS).execute();
    output.record(Output.fields("sid", result.sid(), "error", result.error(), "reply", result.reply(),
        "in_effect_at", EntityCommands.iso(receipt.inEffectAtMillis())),
        (result.processed() ? "processed: " : "not processed yet (error " + result.error() + "): ")
            + result.reply() + "; in effect at " + EntityCommands.iso(receipt.inEffectAtMillis()));
    if (result.processed()) return ExitCodes.SUCCESS;
    String why = "not processed within --timeout " + timeoutSeconds + " s (error " + result.error()
        + "); check later with 'speaker-cli check --sid " + result.sid() + "'";
    output.failure(Output.failed(why), why);
    return ExitCodes.FAILURE;
  }
}
