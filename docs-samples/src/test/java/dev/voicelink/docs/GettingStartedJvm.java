package dev.voicelink.docs;

import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import java.io.File;
import java.util.concurrent.TimeUnit;

/** The code of docs/getting-started.md (JVM). {@code GettingStartedJvmTest} runs it. */
final class GettingStartedJvm {
  /** Shows the user code; a real device draws a QR code of the link or speaks the code. */
  interface Screen {
    void show(String userCode, String link);
  }

  private GettingStartedJvm() {
  }

  static VoiceLinkClient client(String authUrl, String baseUrl) {
    // snippet:getting-started-jvm-config
    VoiceLinkClient client = VoiceLinkClient.builder()
        .authUrl(authUrl)     // {auth_url}: device flow and token refresh
        .baseUrl(baseUrl)     // {base_url}: dynamic entity web API and interaction channel
        .build();             // one per app; client.close() when the app is done with VoiceLink
    // end-snippet
    return client;
  }

  static TokenManager signIn(VoiceLinkClient client, File tokenFile, Screen screen)
      throws Exception {
    // snippet:getting-started-jvm
    TokenManager tokens = TokenManager.builder(client)
        .deviceGrant("vl-speaker-01")                            // the client_id in the console
        .store(new FileTokenStore(tokenFile))                    // survives reboots; owner-only file
        .build();
    DeviceFlowOutcome outcome = tokens
        .signIn("SN-0001-DEMO",                                  // the device_id in the console
            code -> screen.show(code.userCode(), code.link()))   // {verification_uri}?user_code=…
        .execute();                      // blocks until the user decides; the sign-in is saved
    if (outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
      throw new IllegalStateException("sign-in ended: " + outcome.kind());
    }
    String accessToken = tokens.accessToken();                   // fresh: refreshed when due
    // end-snippet
    return tokens;
  }

  static UploadReceipt upload(VoiceLinkClient client, String accountKey) throws Exception {
    // snippet:getting-started-jvm-upload
    ResourceDefinition songs = ResourceDefinition.builder()
        .name("OS123.songs")                  // <namespace>.<name>, as defined in the console
        .mainField("name")
        .secondaryFields("alias")
        .dimension(Dimension.APPLICATION)
        .build();
    EntityWebApi api = EntityWebApi.builder(client)
        .namespace("OS123")
        .accountKey(accountKey)               // see security.md before shipping a key on a device
        .build();
    UploadReceipt receipt = api.uploadResource(UploadRequest.builder()
        .appid("5f1a2b3c")
        .definition(songs)
        .persParam(PersParam.application("5f1a2b3c"))
        .records(RecordSource.fromText("{\"name\":\"Blue Moon\",\"alias\":\"moon song\"}\n"
            + "{\"name\":\"Yesterday\",\"alias\":\"\"}"))
        .build())
        .execute();
    // end-snippet
    return receipt;
  }

  static CheckResult awaitProcessed(EntityWebApi api, UploadReceipt receipt) throws Exception {
    // snippet:getting-started-jvm-check
    CheckResult result = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES)
        .execute();                                  // returns once in effect, 5-5.5 min after the upload
    if (!result.processed()) {
      throw new IllegalStateException("not processed yet: " + result.reply());
    }
    // end-snippet
    return result;
  }

  static String activation() {
    // snippet:getting-started-jvm-activate
    String persParam = PersParam.activation().application().build().toJson();   // {"appid":""}
    // end-snippet
    return persParam;
  }
}
