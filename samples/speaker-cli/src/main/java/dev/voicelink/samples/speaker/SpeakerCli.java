package dev.voicelink.samples.speaker;

import dev.voicelink.core.Clock;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.ReferenceServer;
import java.io.Console;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.AnnotatedElement;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * A smart speaker's command line: what firmware on an embedded JVM does with the VoiceLink SDK,
 * one subcommand per capability.
 *
 * <p>The conventions every subcommand follows are kept here and in the classes it names, so that a
 * new subcommand or option follows them without saying so:
 *
 * <ul>
 *   <li>results on stdout, problems on stderr ({@link Output});
 *   <li>no log line anywhere unless {@code --verbose}, an option of every subcommand ({@link
 *       CliLogging});
 *   <li>an address option takes its default from the environment variable its {@link EnvDefault}
 *       names;
 *   <li>the same exit codes for every subcommand, listed in each one's help ({@link ExitCodes});
 *   <li>secrets from files, standard input ({@code -}) or the environment, never from arguments
 *       ({@link SecretInput}).
 * </ul>
 */
@Command(
    name = "speaker-cli",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Smart-speaker sample of the VoiceLink SDK: device sign-in, tokens, dynamic entities.",
    subcommands = {
        LoginCommand.class,
        RefreshCommand.class,
        CloudTokenCommand.class,
        DemoCommand.class,
        UploadResourceCommand.class,
        CheckCommand.class,
        UploadEntitiesCommand.class,
        CommandLine.HelpCommand.class
    })
public final class SpeakerCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
      description = "Write every log line (the SDK's, and the HTTP traffic with secrets redacted) to"
          + " stderr")
  boolean verbose;

  /** The HTTP logging of the commands' clients: with bodies (secrets redacted) when verbose. */
  HttpLogLevel httpLogging() {
    return verbose ? HttpLogLevel.BODY : HttpLogLevel.NONE;
  }

  /**
   * Where every subcommand's client starts: this CLI's clock, scheduler and HTTP logging. The
   * subcommand adds its addresses, builds the client and closes it before it returns.
   */
  VoiceLinkClient.Builder clientBuilder() {
    VoiceLinkClient.Builder builder = VoiceLinkClient.builder().clock(clock).httpLogging(httpLogging());
    if (scheduler != null) builder.scheduler(scheduler);
    return builder;
  }

  /** The process environment; tests pass their own. */
  Map<String, String> env = System.getenv();
  /**
   * Whether stdout is a terminal (then login also draws the link as a QR code and sync a progress
   * bar). Tests set it to draw on a fake terminal.
   */
  boolean terminal = stdoutIsTerminal();
  /** The clock of the SDK and of the progress bar; tests pass a controllable one. */
  Clock clock = Clock.system();
  /**
   * Where the SDK's waits run (sync --wait's checks); tests pass one that agrees with {@link
   * #clock}. Null: each client's own, on the system clock.
   */
  @Nullable Scheduler scheduler;
  /** The reference servers that {@code demo} started, so that tests can read their journals. */
  final List<ReferenceServer> embeddedServers = new ArrayList<>();

  /**
   * Whether stdout is a terminal. Up to Java 21 {@link System#console()} exists only when stdin and
   * stdout both are one; from Java 22 it may exist anyway, and {@code Console.isTerminal()} tells.
   */
  static boolean stdoutIsTerminal() {
    Console console = System.console();
    if (console == null) return false;
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException beforeJava22) {
      return true;
    }
  }

  /**
   * Output is UTF-8 whatever the locale: JSON lines must be (RFC 8259), and in a C or POSIX locale
   * (a container's default) the platform charset would print every non-ASCII character, a contact's
   * name or the QR code's blocks, as {@code ?}.
   */
  public static void main(String[] args) {
    System.exit(run(utf8(System.out), utf8(System.err), args));
  }

  private static PrintWriter utf8(OutputStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }

  /** Runs the CLI with the given streams and returns its exit code; used by main and by tests. */
  static int run(PrintWriter out, PrintWriter err, String... args) {
    return run(new SpeakerCli(), out, err, args);
  }

  /** Runs {@code cli} (with its environment) with the given streams and returns its exit code. */
  @SuppressWarnings("try") // the logging resource only routes the log while the command runs
  static int run(SpeakerCli cli, PrintWriter out, PrintWriter err, String... args) {
    CommandLine commandLine = new CommandLine(cli)
        .setOut(out)
        .setErr(err)
        .setDefaultValueProvider(option -> {
          EnvDefault fromEnv = envDefault(option);
          return fromEnv == null ? null : cli.env.get(fromEnv.value());
        })
        .setExecutionStrategy(parsed -> {
          try (CliLogging logging = CliLogging.route(cli.verbose, err)) {
            return new CommandLine.RunLast().execute(parsed);
          }
        })
        .setParameterExceptionHandler((ex, arguments) -> {
          ex.getCommandLine().getErr().println("speaker-cli: " + describe(ex));
          CommandLine where = ex.getCommandLine();
          where.getErr().println("Try 'speaker-cli " + (where.getParent() == null ? ""
              : where.getCommandName() + " ") + "--help' for usage.");
          return ExitCodes.INVALID_INPUT;
        });
    listExitCodes(commandLine);
    return commandLine.execute(args);
  }

  /** Every command's help ends with the exit codes, all from {@link ExitCodes}. */
  private static void listExitCodes(CommandLine command) {
    command.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(ExitCodes.helpList());
    for (CommandLine sub : command.getSubcommands().values()) {
      if (!(sub.getCommand() instanceof CommandLine.HelpCommand)) listExitCodes(sub);
    }
  }

  /**
   * The problem with the command line, without echoing what follows an unknown option: picocli's own
   * message repeats every unmatched word, so {@code --client-secret s3cr3t} would print the secret.
   */
  static String describe(CommandLine.ParameterException ex) {
    if (ex instanceof CommandLine.MissingParameterException) return missing(
        (CommandLine.MissingParameterException) ex);
    if (!(ex instanceof CommandLine.UnmatchedArgumentException)) return ex.getMessage();
    List<String> unmatched = ((CommandLine.UnmatchedArgumentException) ex).getUnmatched();
    List<String> options = new ArrayList<>();
    for (String word : unmatched) {
      if (!word.startsWith("-")) continue;
      int equals = word.indexOf('=');
      options.add("'" + (equals < 0 ? word : word.substring(0, equals)) + "'");
    }
    if (options.isEmpty()) {
      // A mistyped command name is worth repeating; a stray word after a command may be a secret
      // typed without its option (cloud-token --client-id X s3cr3t).
      if (ex.getCommandLine().getParent() == null) return ex.getMessage();
      int words = unmatched.size();
      return "Unmatched argument" + (words == 1 ? "" : "s") + ": " + words + " word"
          + (words == 1 ? "" : "s") + " that no option takes, not repeated here since it may be a"
          + " secret; give each value right after its option";
    }
    StringBuilder message = new StringBuilder(options.size() == 1 ? "Unknown option: "
        : "Unknown options: ");
    for (int i = 0; i < options.size(); i++) {
      message.append(i == 0 ? "" : ", ").append(options.get(i));
    }
    String joined = message.toString().toLowerCase(Locale.ROOT);
    if (joined.contains("secret") || joined.contains("key") || joined.contains("password")) {
      message.append(" (secrets are never command-line arguments, which every user of the machine"
          + " can see: use the --...-file option or the environment variable named in --help)");
    }
    return message.toString();
  }

  /** picocli's message, with the environment variable that could have given a missing option. */
  private static String missing(CommandLine.MissingParameterException ex) {
    StringBuilder message = new StringBuilder(ex.getMessage());
    for (CommandLine.Model.ArgSpec arg : ex.getMissing()) {
      EnvDefault fromEnv = envDefault(arg);
      if (fromEnv != null) message.append(" (or set ").append(fromEnv.value()).append(')');
    }
    return message.toString();
  }

  /** The {@link EnvDefault} on the field of {@code arg}, or null. */
  static EnvDefault envDefault(CommandLine.Model.ArgSpec arg) {
    Object field = arg.userObject();
    return field instanceof AnnotatedElement
        ? ((AnnotatedElement) field).getAnnotation(EnvDefault.class) : null;
  }

  @Override public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
