package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.DemoSession.seconds;
import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.UploadReceipt;
import java.util.concurrent.TimeUnit;

/**
 * Step 8: the contacts' upload checked no earlier than 10 s after it, as the spec requires; the
 * server's journal proves the delay.
 */
final class TenSecondCheckStep implements DemoStep {
  @Override public String title() {
    return "Check the upload, no earlier than 10 s after it";
  }

  @Override public void run(DemoSession demo) throws Exception {
    UploadReceipt receipt = demo.contacts;
    Progress.sleep(demo.out, "waiting for the 10-second rule",
        demo.time.realMillis(Math.max(0, receipt.earliestCheckAtMillis() - demo.time.wallMillis())));
    CheckResult result = demo.webApi.checkResource(receipt.sid()).execute();
    long waited = demo.checkDelayMillis(receipt.sid(), "");
    if (waited < TimeUnit.SECONDS.toMillis(10)) {
      throw new DemoFailure("the first check came " + waited + " ms after the upload");
    }
    demo.out.record(fields("step", demo.step(), "sid", result.sid(), "error", result.error(),
        "reply", result.reply(), "first_check_after_ms", waited),
        "  first check " + seconds(waited) + " after the upload (server time): error "
            + result.error() + ", \"" + result.reply() + "\"");
  }
}
