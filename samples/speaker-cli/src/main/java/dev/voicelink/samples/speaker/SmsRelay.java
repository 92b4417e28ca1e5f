package dev.voicelink.samples.speaker;

import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;

/**
 * Stands in for the tester's phone in {@code demo --interactive}: prints each one-time code the
 * reference server "sends" by SMS, so that a person can log in on the verification page.
 */
final class SmsRelay extends Thread {
  private static final long POLL_MILLIS = 250;

  private final ReferenceServer server;
  private final Output out;
  private final int step;

  SmsRelay(ReferenceServer server, Output out, int step) {
    super("demo-sms-relay");
    setDaemon(true);
    this.server = server;
    this.out = out;
    this.step = step;
  }

  @Override public void run() {
    String shown = null;
    try {
      while (!isInterrupted()) {
        String code = server.lastSmsCode(DefaultConsole.TESTER_PHONE);
        if (code != null && !code.equals(shown)) {
          shown = code;
          // In JSON mode too: the person at the page needs it, and it is the demo's, not a secret.
          out.record(Output.fields("step", step, "event", "sms_code", "phone",
              DefaultConsole.TESTER_PHONE, "code", code),
              "  SMS to " + DefaultConsole.TESTER_PHONE + ": your code is " + code);
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (InterruptedException stopped) {
      // the demo is over
    }
  }
}
