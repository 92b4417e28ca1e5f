package dev.voicelink.entity;

import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.util.concurrent.atomic.AtomicLong;

/** Uploads one file in a JVM with a small heap; run by {@link LargeUploadTest}. */
public final class LargeUploadMain {
  /** The exit status when the SDK refused the records before sending. */
  static final int REFUSED = 3;

  private LargeUploadMain() {
  }

  public static void main(String[] args) throws Exception {
    VoiceLinkClient config = VoiceLinkClient.builder().baseUrl(args[0]).build();
    EntityWebApi api = EntityWebApi.builder(config).namespace("OS123").accountKey("k").build();
    ResourceDefinition contacts = ResourceDefinition.builder().name("OS123.contacts")
        .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
    AtomicLong calls = new AtomicLong();
    AtomicLong last = new AtomicLong();
    UploadReceipt receipt;
    try {
      receipt = api.uploadResource(UploadRequest.builder().appid("5f1a2b3c")
          .definition(contacts).persParam(PersParam.user("d41d8cd98f00b204e9800998ecf8427e"))
          .records(RecordSource.fromFile(new File(args[1])))
          .progressListener(Runnable::run, (written, total) -> {
            calls.incrementAndGet();
            last.set(written);
          })
          .build()).execute();
    } catch (InvalidResourceException e) {
      System.out.println("refused: " + e.getMessage());
      System.exit(REFUSED);
      return;
    }
    Runtime runtime = Runtime.getRuntime();
    System.out.println("progress=" + last.get() + " calls=" + calls.get());
    System.out.println(receipt.sid() + " maxHeap=" + runtime.maxMemory());
    System.exit(0);
  }
}
