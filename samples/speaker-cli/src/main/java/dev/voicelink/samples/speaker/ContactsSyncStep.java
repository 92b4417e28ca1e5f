package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.DefaultConsole;

/** Step 7: the user's contacts, synced at user level through the signed web API. */
final class ContactsSyncStep implements DemoStep {
  static final String CONTACTS = "{\"name\":\"Zhang San\",\"alias\":\"Xiao Zhang|Lao Zhang\"}\n"
      + "{\"name\":\"Li Lei\",\"alias\":\"\"}";

  @Override public String title() {
    return "User-level contacts synced through the web API";
  }

  @Override public void run(DemoSession demo) throws Exception {
    EntityWebApi api = EntityWebApi.builder(demo.client)
        .namespace(DefaultConsole.NAMESPACE)
        .accountKey(DefaultConsole.ACCOUNT_KEY)
        .build();
    UploadReceipt receipt = api.uploadResource(UploadRequest.builder()
        .appid(DefaultConsole.APPID)
        .definition(ResourceDefinition.builder()
            .name(DefaultConsole.NAMESPACE + ".contacts")
            .mainField("name").secondaryFields("alias")
            .dimension(Dimension.USER)
            .build())
        .persParam(PersParam.user(demo.uid))
        .records(RecordSource.fromText(CONTACTS))
        .build()).execute();
    demo.out.record(fields("step", demo.step(), "sid", receipt.sid(), "csid", receipt.csid()),
        "  sid " + receipt.sid() + " (upload accepted; processing is asynchronous)");
    demo.webApi = api;
    demo.contacts = receipt;
  }
}
