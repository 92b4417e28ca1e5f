package app;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadRequest;
import java.io.File;

/** A speaker's use of sdk-core: sign the device in, then upload a resource. */
public final class App {
  private App() {}

  public static void main(String[] args) throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().authUrl(args[0]).baseUrl(args[1]).build();
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client).clientId(args[2]).build();
    DeviceFlowOutcome outcome = authorizer
        .authorize(args[3], code -> System.out.println(code.link())).execute();
    System.out.println(outcome.kind());
    EntityWebApi api = EntityWebApi.builder(client).namespace(args[4]).accountKey(args[5]).build();
    ResourceDefinition contacts = ResourceDefinition.builder().name(args[4] + ".contacts")
        .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
    System.out.println(api.uploadResource(UploadRequest.builder().appid(args[6]).definition(contacts)
        .persParam(PersParam.user(args[7])).records(RecordSource.fromFile(new File(args[8]))).build())
        .execute().sid());
    client.close();
  }
}
