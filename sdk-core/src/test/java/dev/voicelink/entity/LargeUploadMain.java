package dev.voicelink.entity;

import dev.voicelink.core.VoiceLinkClient;
import java.io.File;

/** Uploads one file in a JVM with a small heap; run by {@link LargeUploadTest}. */
public final class LargeUploadMain {
  private LargeUploadMain() {
  }

  public static void main(String[] args) throws Exception {
    VoiceLinkClient config = VoiceLinkClient.builder().baseUrl(args[0]).build();
    EntityWebApi api = EntityWebApi.builder(config).namespace("OS123").accountKey("k").build();
    ResourceDefinition contacts = ResourceDefinition.builder().name("OS123.contacts")
        .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
    UploadReceipt receipt = api.uploadResource(UploadRequest.builder().appid("5f1a2b3c")
        .definition(contacts).persParam(PersParam.user("d41d8cd98f00b204e9800998ecf8427e"))
        .records(RecordSource.fromFile(new File(args[1]))).build()).execute();
    Runtime runtime = Runtime.getRuntime();
    System.out.println(receipt.sid() + " maxHeap=" + runtime.maxMemory());
    System.exit(0);
  }
}
