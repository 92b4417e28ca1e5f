package dev.voicelink.android;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Uploads one CMD_SYNC's resource as the Agent does, in a JVM with a small heap; run by {@link
 * SyncLargeResourceTest}. The command is read from a file ({@code <url> file <path>}), or built with
 * {@code AgentCommands.sync} from records made one at a time ({@code <url> records <count>}).
 */
public final class SyncLargeResourceMain {
  static final ResourceDefinition CONTACTS = ResourceDefinition.builder().name("OS123.contacts")
      .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();

  private SyncLargeResourceMain() {
  }

  public static void main(String[] args) throws Exception {
    byte[] command = args[1].equals("file") ? Files.readAllBytes(Paths.get(args[2]))
        : AgentCommands.sync(CONTACTS).records(records(Integer.parseInt(args[2]))).build()
            .dataUnsafe();
    try (VoiceLinkClient client = VoiceLinkClient.builder().baseUrl(args[0]).build()) {
      EntityWebApi api = EntityWebApi.builder(client).namespace("OS123").accountKey("k").build();
      SyncRequest request = CommandParams.syncRequest(command, "d41d8cd98f00b204e9800998ecf8427e",
          "5f1a2b3c");
      UploadReceipt receipt = new WebApiEntityBackend(api,
          Collections.singletonMap(CONTACTS.name().value(), CONTACTS)).upload(request).execute();
      System.out.println(receipt.sid() + " maxHeap=" + Runtime.getRuntime().maxMemory());
    }
    System.exit(0);
  }

  /** Record {@code i} of a test resource; its JSON line is {@link #line}. */
  static Map<String, String> record(int i) {
    Map<String, String> record = new LinkedHashMap<>();
    record.put("name", String.format("联系人%07d", i));
    record.put("alias", String.format("c%07d|d%07d", i, i));
    return record;
  }

  static String line(int i) {
    return String.format("{\"name\":\"联系人%07d\",\"alias\":\"c%07d|d%07d\"}", i, i, i);
  }

  private static Iterable<Map<String, String>> records(final int count) {
    return () -> new Iterator<Map<String, String>>() {
      int next;

      @Override public boolean hasNext() {
        return next < count;
      }

      @Override public Map<String, String> next() {
        return record(next++);
      }
    };
  }
}
