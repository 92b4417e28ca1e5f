package app;

import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadRequest;
import java.io.File;

/**
 * A speaker's use of sdk-core as docs/getting-started.md shows it: the sign-in kept in a file by a
 * token manager that keeps its token alive, then an upload. The core app's flow plus the token engine.
 */
public final class App {
  private App() {}

  public static void main(String[] args) throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().authUrl(args[0]).baseUrl(args[1]).build();
    TokenManager tokens = TokenManager.builder(client).deviceGrant(args[2])
        .store(new FileTokenStore(new File(args[9]))).build();
    DeviceFlowOutcome outcome = tokens.signIn(args[3], code -> System.out.println(code.link())).execute();
    System.out.println(outcome.kind());
    System.out.println(tokens.accessToken().length());
    EntityWebApi api = EntityWebApi.builder(client).namespace(args[4]).accountKey(args[5]).build();
    ResourceDefinition contacts = ResourceDefinition.builder().name(args[4] + ".contacts")
        .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
    System.out.println(api.uploadResource(UploadRequest.builder().appid(args[6]).definition(contacts)
        .persParam(PersParam.user(args[7])).records(RecordSource.fromFile(new File(args[8]))).build())
        .execute().sid());
    client.close();
  }
}
