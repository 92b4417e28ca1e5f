package dev.voicelink.samples.speaker;

import java.io.File;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The whole SDK in one run, as a smart speaker would use it, against the reference server started
 * in-process: sign-in, token storage, cloud token, entity uploads through both endpoints, the timing
 * rules, activation, and refresh. Exits 0 only if every step behaved as the platform spec says.
 *
 * <p>This class holds the options and their checks; {@link DemoSetup} starts what the demo runs
 * against, and {@link DemoScript} lists the steps, one class each.
 */
@Command(name = "demo",
    description = {"Runs a complete smart-speaker session against the embedded reference server.",
        "Time runs faster than real time for both the server and the device, so the 10-second and",
        "5-minute rules pass in under a minute; the demo says by how much."},
    mixinStandardHelpOptions = true)
final class DemoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @ParentCommand SpeakerCli cli;

  @Option(names = "--interactive",
      description = "Wait for a person to approve the device in a browser at the printed link.")
  boolean interactive;

  @Option(names = "--json", description = "One JSON object per line on stdout.")
  boolean json;

  @Option(names = "--speed", paramLabel = "FACTOR", defaultValue = "30",
      description = "How many times faster than real time the demo's clocks run (default: 30).")
  double speed;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Where the device token is stored, a file that does not exist yet (default: a"
          + " temporary file, deleted at exit).")
  File tokenFile;

  @Override public Integer call() {
    Output out = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), json);
    String problem = checkOptions();
    if (problem != null) {
      out.problem(problem);
      return ExitCodes.INVALID_INPUT;
    }
    try {
      return new DemoSetup(this, out).run();
    } catch (Exception e) {
      return out.unexpected(e);
    }
  }

  /** What is wrong with the options, or null: checked before anything starts. */
  String checkOptions() {
    if (!(speed >= 1 && speed <= 1000)) return "--speed must be between 1 and 1000; was: " + speed;
    if (tokenFile == null) return null;
    String problem = AuthCommand.tokenFileProblem(tokenFile);
    if (problem == null && tokenFile.length() > 0) {
      // Perhaps a real sign-in ('speaker-cli login'): the demo's own would replace it for good.
      return "--token-file " + tokenFile + " holds a token record already: the demo signs in on its"
          + " own server and would replace it; give a file that does not exist yet";
    }
    return problem;
  }
}
