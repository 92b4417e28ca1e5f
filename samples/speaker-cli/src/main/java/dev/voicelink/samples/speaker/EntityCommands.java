package dev.voicelink.samples.speaker;

import dev.voicelink.auth.CorruptTokenFileException;
import dev.voicelink.auth.ReauthorizationRequiredException;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.entity.InvalidResourceException;
import dev.voicelink.entity.IpNotWhitelistedException;
import java.io.IOException;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;

/** What the entity subcommands share: turning the SDK's three kinds of failure into exit codes. */
final class EntityCommands {
  interface Action {
    int run() throws Exception;
  }

  /** The command that gets a refused credential anew, named once the token file is read. */
  interface SignIn {
    String command();
  }

  private EntityCommands() {
  }

  static int run(Output output, Action action) {
    return run(output, () -> "login", action);
  }

  static int run(Output output, SignIn signIn, Action action) {
    try {
      return action.run();
    } catch (InvalidResourceException e) {
      output.problem("invalid resource, nothing was sent: " + ResourceLimit.inCliTerms(e.getMessage()));
      return ExitCodes.INVALID_INPUT;
    } catch (IllegalArgumentException | IllegalStateException e) {
      output.problem("invalid input, nothing was sent: " + e.getMessage());
      return ExitCodes.INVALID_INPUT;
    } catch (CorruptTokenFileException e) {
      // A bad --token-file is the user's input, not a failure of the network.
      output.problem("invalid input, nothing was sent: " + e.getMessage());
      return ExitCodes.INVALID_INPUT;
    } catch (ReauthorizationRequiredException e) {
      output.failure(Output.fields("status", "reauthorization_required", "error", e.code(),
          "message", e.description()), "re-authorization required, nothing was uploaded: "
          + e.getMessage() + "; run 'speaker-cli " + signIn.command() + "' again");
      return ExitCodes.REAUTHORIZATION_REQUIRED;
    } catch (IpNotWhitelistedException e) {
      output.failure(Output.refusal(e), e.getMessage());
      return ExitCodes.SERVER_REFUSED;
    } catch (ServerRefusalException e) {
      output.failure(Output.refusal(e), "the server refused: " + e.getMessage());
      return ExitCodes.SERVER_REFUSED;
    } catch (IOException e) {
      output.failure(Output.failed(String.valueOf(e.getMessage())), "failed: " + e.getMessage());
      return ExitCodes.FAILURE;
    } catch (Exception e) {
      return output.unexpected(e);
    }
  }

  static String iso(long epochMillis) {
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT);
    format.setTimeZone(TimeZone.getTimeZone("UTC"));
    return format.format(new Date(epochMillis));
  }
}
