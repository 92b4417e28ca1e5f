package dev.voicelink.samples.speaker;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code login}: the device authorization flow, from user code to a saved token record. */
@Command(name = "login", mixinStandardHelpOptions = true,
    description = {"Signs this device in: shows a link and a user code (and a QR code on a terminal),"
        + " waits while the user authorizes on a phone, then saves the token record.",
        "With --json the first line is the user_code event and the last the status."})
final class LoginCommand extends AuthCommand {
  @Option(names = "--client-id", required = true, paramLabel = "ID",
      description = "client_id from the device-access console, or as registered at --issuer")
  String clientId;

  @Option(names = "--device-id", paramLabel = "ID",
      description = "This device's ID as imported in the console (its serial number); required with"
          + " --auth-url, not used with --issuer")
  String deviceId;

  @Option(names = "--interval-unit", paramLabel = "UNIT",
      description = "The unit of the server's poll interval: seconds or milliseconds; by default"
          + " seconds unless the value cannot be (not below expires_in)")
  @Nullable String intervalUnit;
  private @Nullable TimeUnit pollIntervalUnit;

  @Override @Nullable String optionProblem(boolean standard) {
    if (intervalUnit != null) {
      pollIntervalUnit = unit(intervalUnit);
      if (pollIntervalUnit == null) {
        return "--interval-unit must be seconds or milliseconds; was: " + intervalUnit;
      }
    }
    if (!standard && deviceId == null) {
      return "Missing required option: '--device-id=ID' (the platform authorizes a device it knows)";
    }
    if (standard && deviceId != null) {
      return "--device-id is for the platform (--auth-url): a standard server knows no device IDs";
    }
    return null;
  }

  @Override void prepare() {
    checkTokenFileWritable();
  }

  @Override int run(VoiceLinkClient client, @Nullable OAuthServer server)
      throws IOException, ServerRefusalException {
    TokenManager.Builder builder = server == null ? TokenManager.builder(client)
        : TokenManager.builder(client, server);
    builder.deviceGrant(clientId).store(new FileTokenStore(tokenFile));
    if (scope != null) builder.scope(scope);
    if (pollIntervalUnit != null) builder.intervalUnit(pollIntervalUnit);
    TokenManager tokens = builder.build();
    DeviceFlowListener listener = new DeviceFlowListener() {
      @Override public void onCodeIssued(DeviceCode code) {
        output.record(Output.fields(
            "event", "user_code",
            "user_code", code.userCode(),
            "verification_uri", code.verificationUri(),
            "link", code.link(),
            "expires_in", code.expiresInSeconds(),
            "interval", code.intervalSeconds()),
            "To sign this speaker in, open\n\n    " + code.link() + "\n\nand confirm the code "
                + code.userCode() + " (valid " + code.expiresInSeconds() + " s).");
        if (!json && parent.terminal) {
          output.say(TerminalQr.render(code.link()));
        }
        output.say("Waiting for authorization...");
      }

      @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
        if (json) {
          output.record(Output.fields("event", "poll", "poll", pollNumber, "result", result,
              "next_poll_ms", nextPollDelayMillis), "");
        }
      }
    };
    // One step: the flow, and the record saved in the token file before the outcome is told.
    DeviceFlowOutcome outcome = (server == null ? tokens.signIn(deviceId, listener)
        : tokens.signIn(listener)).execute();
    switch (outcome.kind()) {
      case AUTHORIZED:
        TokenRecord record = outcome.token();
        output.record(describe(record, tokenFile, "authorized"),
            "Authorized: " + describeText(record, tokenFile));
        return ExitCodes.SUCCESS;
      case DENIED:
        output.failure(Output.fields("status", "denied"), "the user refused to authorize this device");
        return ExitCodes.ACCESS_DENIED;
      case EXPIRED:
        Exception lastPoll = outcome.failure();
        if (lastPoll instanceof IOException) {
          // The polls were failing when the code ran out: the user may have approved meanwhile.
          output.failure(Output.fields("status", "expired", "message", lastPoll.getMessage()),
              "the code expired while the polls were failing (" + lastPoll.getMessage()
                  + "); check the network and the server, then run login again");
        } else {
          output.failure(Output.fields("status", "expired"),
              "the code expired before anyone authorized it; run login again");
        }
        return ExitCodes.CODE_EXPIRED;
      default:
        Exception failure = outcome.failure();
        if (failure instanceof AuthorizationException) {
          return refused((AuthorizationException) failure);
        }
        output.failure(Output.failed(String.valueOf(failure == null ? null : failure.getMessage())),
            "failed: " + (failure == null ? "unknown" : failure.getMessage()));
        return ExitCodes.FAILURE;
    }
  }

  /** The unit an {@code --interval-unit} value names, in the words of the Agent's config; or null. */
  private static @Nullable TimeUnit unit(String value) {
    switch (value) {
      case "seconds": return TimeUnit.SECONDS;
      case "milliseconds": return TimeUnit.MILLISECONDS;
      default: return null;
    }
  }
}
