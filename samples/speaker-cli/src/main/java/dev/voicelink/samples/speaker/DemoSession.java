package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What the demo's steps share: where they report, what they run against, and what one step hands to
 * the next (the device token, the token managers, the channel, the upload's receipt). Used by one
 * thread, the demo's, step after step.
 */
final class DemoSession implements AutoCloseable {
  final Output out;
  final ReferenceServer server;
  final AcceleratedTime time;
  /** The device's client: every step's SDK calls go through it. */
  final VoiceLinkClient client;
  final File tokenFile;
  final double speed;
  final boolean interactive;

  private int step;
  private @Nullable SmsRelay smsRelay;

  // Handed from step to step, in the order the script runs them.
  TokenRecord deviceToken;
  TokenManager deviceTokens;
  TokenManager cloudTokens;
  @Nullable DemoChannel channel;
  String uid;
  EntityWebApi webApi;
  UploadReceipt contacts;

  DemoSession(Output out, ReferenceServer server, AcceleratedTime time, VoiceLinkClient client,
      File tokenFile, double speed, boolean interactive) {
    this.out = out;
    this.server = server;
    this.time = time;
    this.client = client;
    this.tokenFile = tokenFile;
    this.speed = speed;
    this.interactive = interactive;
  }

  /** Starts the next step: its number and title. */
  void begin(String title) {
    step++;
    out.record(fields("step", step, "title", title), "\n[" + step + "] " + title);
  }

  /** The number of the step under way. */
  int step() {
    return step;
  }

  /** Closes the interaction channel once its last step is done. */
  void closeChannel() {
    if (channel != null) channel.close();
    channel = null;
  }

  /**
   * Server time from the upload of {@code sid} to the first check of it whose answer contains
   * {@code answerPart}. The server's journal is the judge: the device's clock measures from when
   * the upload's answer arrived, which at the demo's speed can be seconds after the server's.
   */
  long checkDelayMillis(String sid, String answerPart) {
    long uploadedAt = -1;
    for (RecordedCall call : server.journal().snapshot()) {
      if (call.path().endsWith("/entity/upload-resource") && call.responseBody().contains(sid)) {
        uploadedAt = call.receivedAtMillis();
      } else if (uploadedAt >= 0 && call.path().endsWith("/entity/check-resource")
          && call.body().contains(sid) && call.responseBody().contains(answerPart)) {
        return call.receivedAtMillis() - uploadedAt;
      }
    }
    throw new DemoFailure("the server journal shows no such check of " + sid);
  }

  /** Prints the SMS codes the server sends the tester's phone, until the demo closes. */
  void startSmsRelay() {
    smsRelay = new SmsRelay(server, out, step());
    smsRelay.start();
  }

  @Override public void close() {
    closeChannel();
    client.close();
    time.stop();
    if (smsRelay != null) smsRelay.interrupt();
  }

  /** A secret as the demo shows it: a fingerprint that matches two lines and reveals nothing. */
  static String secret(@Nullable String secret) {
    return secret == null ? "‹none›" : "‹secret " + AuthCommand.fingerprint(secret) + "›";
  }

  static String format(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
