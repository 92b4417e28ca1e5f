package dev.voicelink.docs;

import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.AuthId;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityDiagnostics;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformUploadException;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The code of docs/dynamic-entities.md, docs/troubleshooting.md and docs/errors.md, compiled; {@code
 * DynamicEntitiesSnippetsTest} runs the parts that need no platform.
 */
final class DynamicEntitiesSnippets {
  /** The reference server's code for a token it no longer accepts; a real platform's is not shown. */
  static final String TOKEN_REFUSED = "40103";

  private DynamicEntitiesSnippets() {
  }

  static ResourceDefinition definition() {
    // snippet:entities-definition
    ResourceDefinition contacts = ResourceDefinition.builder()
        .name("OS123.contacts")          // ResourceName.parse: the namespace prefix is required
        .mainField("name")
        .secondaryFields("alias")
        .dimension(Dimension.USER)       // APPLICATION, USER, DEVICE or Dimension.custom("family")
        .build();
    // end-snippet
    return contacts;
  }

  static void records(List<Map<String, String>> listOfMaps) {
    // snippet:entities-records
    RecordSource.fromFile(new File("contacts.jsonl"));   // may start with a BOM: it is dropped
    RecordSource.fromText("{\"name\":\"张三\",\"alias\":\"小张|老张\"}\n{\"name\":\"Li Lei\",\"alias\":\"\"}");
    RecordSource.of(listOfMaps);                          // Iterable<Map<String, String>>
    // end-snippet
  }

  static UploadReceipt upload(VoiceLinkClient client, String accountKey, ResourceDefinition contacts,
      String authId, File file) throws Exception {
    // snippet:entities-upload-web-api
    EntityWebApi api = EntityWebApi.builder(client)   // the client's {base_url}
        .namespace("OS123")
        .accountKey(accountKey)                        // stays inside the signer; never logged
        .build();
    UploadReceipt receipt = api.uploadResource(UploadRequest.builder()
        .appid("5f1a2b3c")
        .definition(contacts)
        .persParam(PersParam.user(authId))
        .records(RecordSource.fromFile(file))
        .build())
        .execute();                // or .enqueue(callback); cancel() aborts it, even mid-body
    receipt.sid();                // "psn…", keep it to check
    receipt.inEffectAtMillis();   // upload time + 5 minutes
    // end-snippet
    return receipt;
  }

  static UploadReceipt uploadWithProgress(EntityWebApi api, ResourceDefinition contacts, String authId,
      File file, Executor mainThread, AtomicInteger percent) throws Exception {
    // snippet:entities-upload-progress
    UploadReceipt receipt = api.uploadResource(UploadRequest.builder()
        .appid("5f1a2b3c")
        .definition(contacts)
        .persParam(PersParam.user(authId))
        .records(RecordSource.fromFile(file))
        .progressListener(mainThread, (written, total) ->   // at most every 100 ms, and at the end
            percent.set((int) (100 * written / total)))
        .build())
        .execute();
    // end-snippet
    return receipt;
  }

  static String platformTools(VoiceLinkClient client, TokenSource userTokenSource,
      TokenSource deviceTokenSource, TokenSource cloudTokenSource, ResourceDefinition contacts,
      File file) throws Exception {
    // snippet:entities-upload-platform-tools
    PlatformToolsClient tools = PlatformToolsClient.builder(client)   // the client's {platform_url}
        .userTokens(userTokenSource)      // type user
        .deviceTokens(deviceTokenSource)  // type device
        .cloudTokens(cloudTokenSource)    // type client
        .build();
    String sid = tools.uploadEntities(contacts, RecordSource.fromFile(file), null /* appid */)
        .execute();
    // end-snippet
    return sid;
  }

  static String uploadRefreshingARefusedToken(PlatformToolsClient tools, TokenManager tokens,
      ResourceDefinition contacts, RecordSource records) throws Exception {
    String sid;
    // snippet:errors-platform-upload-token-refused
    try {
      sid = tools.uploadEntities(contacts, records, null).execute();
    } catch (PlatformUploadException e) {
      if (!TOKEN_REFUSED.equals(e.code())) throw e; // TOKEN_REFUSED: your platform's code
      tokens.refresh().execute();
      sid = tools.uploadEntities(contacts, records, null).execute();
    }
    // end-snippet
    return sid;
  }

  static VoiceLinkCall<CheckResult> check(EntityWebApi api, UploadReceipt receipt,
      VoiceLinkCall.Callback<CheckResult> callback) throws Exception {
    // snippet:entities-check
    CheckResult result = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).execute();  // blocking
    VoiceLinkCall<CheckResult> wait = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES);
    wait.enqueue(callback);        // on the callback executor; wait.cancel() stops the checks
    // end-snippet
    result.processed();
    return wait;
  }

  static String activate() {
    // snippet:entities-activate
    String persParam = PersParam.activation().application().user().custom("family", "f-01").build().toJson();
    // {"appid":"","uid":"","family":"f-01"}  → CMD_WRITE's pers_param (CMD_SET_PARAMS: audio writes)
    // end-snippet
    return persParam;
  }

  static List<EntityDiagnostics.Cause> diagnose(ResourceDefinition contacts, File file, String authId,
      String appid) throws Exception {
    // snippet:troubleshooting-diagnostics
    List<EntityDiagnostics.Cause> causes = EntityDiagnostics.builder()
        .resName("contacts").definition(contacts).records(RecordSource.fromFile(file))
        .uploadedWith(PersParam.user(authId)).activation(null).clientAppid(appid)
        .build().causes();   // [MISSING_NAMESPACE_PREFIX, PERS_PARAM_NOT_SET]
    // end-snippet
    return causes;
  }

  static PersParam thirdPartyUser(String issuer, String subject) {
    // snippet:third-party-auth-id
    // issuer: the server's "iss"; subject: "sub" from its userinfo endpoint or a verified ID token
    String authId = AuthId.fromThirdPartyIdentity(issuer, subject);
    PersParam owner = PersParam.user(authId);               // the user's dynamic entities
    // end-snippet
    return owner;
  }
}
