package dev.voicelink.android;

import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.internal.Log;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceName;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.entity.internal.RecordStreams;
import java.util.Map;

/**
 * CMD_SYNC and CMD_QUERY_SYNC_STATUS on sdk-core's {@link EntityWebApi}: the owner pair becomes the
 * upload {@link PersParam} ({@code uid} → {@code auth_id}, {@code appid}, or the custom dimension).
 * The records are decoded from the command's Base64 as the upload reads them, and checked against the
 * resource's registered definition before anything is sent; a resource without one (the established
 * SDK needs none) is checked for what needs no definition: Base64, UTF-8, and one JSON object per
 * line.
 */
final class WebApiEntityBackend implements EntityBackend {
  private static final String TAG = "VoiceLinkAgent";
  private final EntityWebApi api;
  private final Map<String, ResourceDefinition> definitions;

  WebApiEntityBackend(EntityWebApi api, Map<String, ResourceDefinition> definitions) {
    this.api = api;
    this.definitions = definitions;
  }

  @Override public VoiceLinkCall<UploadReceipt> upload(SyncRequest request) {
    ResourceName name = ResourceName.parse(request.resName);
    PersParam owner = persParam(request.idName, request.idValue);
    RecordSource records = RecordStreams.SEAM.get().lines(name.value(), "data.data of " + name.value()
        + " is not UTF-8 once Base64-decoded; encode the records as UTF-8 before Base64",
        request.resource::open);
    ResourceDefinition definition = definitions.get(name.value());
    if (definition == null) {
      Log.debug(TAG, "CMD_SYNC of " + name + ": no definition registered; each record is checked"
          + " to be a JSON object, its fields by the platform");
      return api.uploadResource(request.appid, name, owner, records);
    }
    UploadRequest upload = UploadRequest.builder()
        .appid(request.appid)
        .definition(definition)
        .persParam(owner)
        .records(records)
        .build();
    return api.uploadResource(upload);
  }

  static PersParam persParam(String idName, String idValue) {
    if (idName.equals("uid")) return PersParam.user(idValue);
    if (idName.equals("appid")) return PersParam.application(idValue);
    return PersParam.custom(idName, idValue);
  }

  @Override public VoiceLinkCall<CheckResult> check(String sid) {
    return api.checkResource(sid);
  }
}
