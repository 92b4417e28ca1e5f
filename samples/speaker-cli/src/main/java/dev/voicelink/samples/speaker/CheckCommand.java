package dev.voicelink.samples.speaker;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.EntityWebApi;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Asks the web API whether an upload was processed. */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = {"Checks an upload (web API check-resource). Call it at least 10 s after the upload.",
        "The account key comes from --account-key-file or VOICELINK_ACCOUNT_KEY."})
final class CheckCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SpeakerCli parent;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin WebApiAccount account;
  @Option(names = "--sid", required = true, paramLabel = "SID",
      description = "the sid printed by sync")
  String sid;
  @Option(names = "--json", description = "one JSON object per line on stdout")
  boolean json;

  @Override public Integer call() {
    Output output = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), json);
    return EntityCommands.run(output, () -> {
      String accountKey = account.accountKey(parent.env);
      try (VoiceLinkClient client = account.at(parent.clientBuilder()).build()) {
        EntityWebApi api = account.api(client, accountKey).build();
        CheckResult result = api.checkResource(sid).execute();
        output.record(Output.fields("sid", result.sid(), "csid", result.csid(), "error",
            result.error(), "reply", result.reply(), "processed", result.processed()),
            (result.processed() ? "processed: " : "not processed yet (error " + result.error()
                + "): ") + result.reply());
        return ExitCodes.SUCCESS;
      }
    });
  }
}
