package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.UploadReceipt;
import java.util.concurrent.TimeUnit;

/**
 * Step 9: the contacts' upload checked with backoff until it is processed, which the spec says is
 * not before 5 minutes after the upload.
 */
final class InEffectStep implements DemoStep {
  @Override public String title() {
    return "Wait until the upload is processed and in effect (5 minutes after it)";
  }

  @Override public void run(DemoSession demo) throws Exception {
    UploadReceipt receipt = demo.contacts;
    CheckResult result = Progress.call(demo.out, "checking with backoff until processed",
        () -> demo.webApi.awaitProcessed(receipt, 10, TimeUnit.MINUTES).execute());
    if (!result.processed()) {
      throw new DemoFailure("the upload was not processed: " + result.reply());
    }
    if (demo.checkDelayMillis(receipt.sid(), "\"error\":0") < TimeUnit.MINUTES.toMillis(5)) {
      throw new DemoFailure("processed before the 5-minute rule allows");
    }
    demo.out.record(fields("step", demo.step(), "sid", result.sid(), "error", result.error(),
        "reply", result.reply(), "in_effect_at", receipt.inEffectAtMillis()),
        "  error " + result.error() + ", \"" + result.reply()
            + "\" (5 minutes of demo time after the upload)");
  }
}
