package app;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.VoiceLinkConfig;
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
    VoiceLinkConfig config = VoiceLinkConfig.builder().authUrl(args[0]).baseUrl(args[1]).build();
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config).clientId(args[2]).build();
    DeviceCode code = authorizer.requestCode(args[3]);
    System.out.println(code.link());
    DeviceFlowOutcome outcome = authorizer.poll(code);
    System.out.println(outcome.kind());
    EntityWebApi api = EntityWebApi.builder(config).namespace(args[4]).accountKey(args[5]).build();
    ResourceDefinition contacts = ResourceDefinition.builder().name(args[4] + ".contacts")
        .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
    System.out.println(api.uploadResource(UploadRequest.builder().appid(args[6]).definition(contacts)
        .persParam(PersParam.user(args[7])).records(RecordSource.fromFile(new File(args[8]))).build()).sid());
  }
}
