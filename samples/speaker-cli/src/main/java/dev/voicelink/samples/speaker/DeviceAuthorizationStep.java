package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.DemoSession.secret;
import static dev.voicelink.samples.speaker.DemoSession.seconds;
import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.SimulatedTester;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Step 2: the OAuth device flow, as one {@link TokenManager#signIn} that keeps the sign-in in the
 * token file. The device shows the link, its QR code and the user code, and polls while a person
 * ({@code --interactive}) or the simulated tester approves it.
 */
final class DeviceAuthorizationStep implements DemoStep {
  @Override public String title() {
    return "Device authorization (OAuth device flow)";
  }

  @Override public void run(DemoSession demo) throws Exception {
    Output out = demo.out;
    TokenManager tokens = TokenManager.builder(demo.client)
        .deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new FileTokenStore(demo.tokenFile))
        .build();
    BlockingQueue<DeviceCode> codes = new LinkedBlockingQueue<>();
    BlockingQueue<CallResult<DeviceFlowOutcome>> outcome = new LinkedBlockingQueue<>();
    int[] polls = {0};
    // One step: the flow, then the record saved to the token file before the outcome is told.
    VoiceLinkCall<DeviceFlowOutcome> flow = tokens.signIn(DefaultConsole.DEVICE_ID,
        new DeviceFlowListener() {
          @Override public void onCodeIssued(DeviceCode code) {
            codes.add(code);
          }

          @Override public void onPoll(int pollNumber, String result, long nextPollDelayMillis) {
            polls[0] = pollNumber;
          }
        });
    flow.enqueue(outcome::add);
    DeviceCode code = codes.poll(30, TimeUnit.SECONDS);
    if (code == null) {
      flow.cancel();
      CallResult<DeviceFlowOutcome> early = outcome.poll();
      throw new DemoFailure("no user code came: " + (early == null ? "no answer in 30 s"
          : String.valueOf(early.failure())));
    }
    out.record(fields("step", demo.step(), "event", "user_code", "user_code", code.userCode(),
        "verification_uri", code.verificationUri(), "link", code.link(),
        "expires_in", code.expiresInSeconds(), "interval", code.intervalSeconds()),
        "  Open " + code.link() + "\n  and enter the code " + code.userCode()
            + " (valid " + seconds(demo.time.realMillis(code.expiresInSeconds() * 1000))
            + " of real time; the device polls every " + code.intervalSeconds()
            + " s of demo time).");
    out.say(TerminalQr.render(code.link()));
    if (demo.interactive) {
      out.record(Output.fields("step", demo.step(), "event", "log_in", "phone",
          DefaultConsole.TESTER_PHONE), "  Log in with the tester phone "
          + DefaultConsole.TESTER_PHONE + "; its one-time code will appear here.");
      demo.startSmsRelay();
    } else {
      out.say("  A simulated tester opens the page, logs in with " + DefaultConsole.TESTER_PHONE
          + " and presses Authorize...");
      new SimulatedTester(demo.server).approve(code.userCode());
    }
    CallResult<DeviceFlowOutcome> result = Progress.await(out, outcome, "waiting for the user",
        TimeUnit.MILLISECONDS.toMillis(demo.time.realMillis(code.expiresInSeconds() * 1000) + 5000));
    if (result == null) {
      flow.cancel();
      throw new DemoFailure("the device flow did not end before the code expired");
    }
    if (!result.isSuccess()) {
      throw new DemoFailure("the device flow failed: " + (result.isCancelled() ? "cancelled"
          : String.valueOf(result.failure())));
    }
    DeviceFlowOutcome ended = result.value();
    if (ended.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
      throw new DemoFailure("the device flow ended " + ended.kind() + " instead of AUTHORIZED");
    }
    TokenRecord token = ended.token();
    out.record(fields("step", demo.step(), "status", "authorized", "polls", polls[0] + 1,
        "access_token", secret(token.accessToken())),
        "  Authorized after " + (polls[0] + 1) + " polls; access token "
            + secret(token.accessToken()) + ".");
    demo.deviceToken = token;
    demo.deviceTokens = tokens;
  }
}
