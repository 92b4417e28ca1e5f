package dev.voicelink.docs;

import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.NotSignedInException;
import dev.voicelink.auth.ReauthorizationRequiredException;
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
import dev.voicelink.interact.InteractionChannel;
import java.io.File;
import java.util.concurrent.TimeUnit;

/**
 * The complete user-level program of docs/dynamic-entities.md ("The user's auth_id"): a firmware
 * signs in, learns its user's auth_id, uploads that user's resource, waits until it is in effect and
 * exits. {@code UserLevelUploadTest} runs it against the reference server, in simulated time.
 */
final class UserLevelUpload {
  /** Shows the user code; a real device draws a QR code of the link or speaks the code. */
  interface Screen {
    void show(String userCode, String link);
  }

  private UserLevelUpload() {
  }

  // snippet:user-level-upload
  public static void main(String[] args) throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder()
        .authUrl(args[0])     // {auth_url}
        .baseUrl(args[1])     // {base_url}: web API and interaction channel
        .build();
    try {
      CheckResult result = uploadContacts(client, new File("/data/voicelink/token.json"),
          (userCode, link) -> System.out.println("Open " + link + " and approve " + userCode),
          System.getenv("VOICELINK_ACCOUNT_KEY"));
      System.out.println("in effect: " + result.reply());
    } finally {
      client.close();
      client.awaitTermination(5, TimeUnit.SECONDS);   // a refresh on the wire is saved first
    }
  }

  static CheckResult uploadContacts(VoiceLinkClient client, File tokenFile, Screen screen,
      String accountKey) throws Exception {
    TokenManager tokens = TokenManager.builder(client)
        .deviceGrant("vl-speaker-01")
        .store(new FileTokenStore(tokenFile))        // the sign-in survives reboots
        .build();
    try {
      tokens.accessToken();                          // reads the store; refreshes when due
    } catch (NotSignedInException | ReauthorizationRequiredException signInFirst) {
      DeviceFlowOutcome outcome = tokens
          .signIn("SN-0001-DEMO", code -> screen.show(code.userCode(), code.link()))
          .execute();                                // blocks until the user decides; saved
      if (outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
        throw new IllegalStateException("sign-in ended: " + outcome.kind());
      }
    }

    // The platform names its user on the interaction channel only: connect, read the uid, close.
    String authId = InteractionChannel.fetchUid(client, tokens).execute();

    ResourceDefinition contacts = ResourceDefinition.builder()
        .name("OS123.contacts")
        .mainField("name")
        .secondaryFields("alias")
        .dimension(Dimension.USER)
        .build();
    EntityWebApi api = EntityWebApi.builder(client)
        .namespace("OS123")
        .accountKey(accountKey)                      // see security.md before shipping a key
        .build();
    UploadReceipt receipt = api.uploadResource(UploadRequest.builder()
        .appid("5f1a2b3c")
        .definition(contacts)
        .persParam(PersParam.user(authId))           // {"auth_id":"…"}: this user's copy
        .records(RecordSource.fromText("{\"name\":\"Zhang Wei\",\"alias\":\"laozhang\"}"))
        .build())
        .execute();
    CheckResult result = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES)
        .execute();                                  // 5 to 5.5 min after the upload
    if (!result.processed()) {
      throw new IllegalStateException("not in effect yet: " + result.reply());
    }
    return result;   // used by interactions whose pers_param has "uid":"" (the signed-in user)
  }
  // end-snippet
}
