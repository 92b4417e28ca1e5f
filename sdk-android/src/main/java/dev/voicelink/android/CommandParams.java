package dev.voicelink.android;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reads the params and data of the JSON-based commands. Errors name the field. */
final class CommandParams {
  private CommandParams() {
  }

  /** The {@code tag} of an optional JSON params text, or null. */
  static @Nullable String tag(String params, String command) {
    if (params.trim().isEmpty()) return null;
    Map<String, Object> object = JsonObjects.parseObject(params, command + " params");
    return JsonObjects.optString(object, "tag", command + " params.tag");
  }

  /** The {@code sid} of CMD_QUERY_SYNC_STATUS params. */
  static String sid(String params) {
    if (params.trim().isEmpty()) {
      throw new IllegalArgumentException("CMD_QUERY_SYNC_STATUS params must be {\"sid\":\"<sid from the"
          + " CMD_SYNC reply>\"}; were empty");
    }
    Map<String, Object> object = JsonObjects.parseObject(params, "CMD_QUERY_SYNC_STATUS params");
    String sid = JsonObjects.optString(object, "sid", "CMD_QUERY_SYNC_STATUS params.sid");
    if (sid == null || sid.trim().isEmpty()) {
      throw new IllegalArgumentException("CMD_QUERY_SYNC_STATUS params.sid is required: the sid from"
          + " the CMD_SYNC reply");
    }
    if (!sid.trim().startsWith("psn")) {
      throw new IllegalArgumentException("CMD_QUERY_SYNC_STATUS params.sid must begin with psn, as the"
          + " sid of the CMD_SYNC reply does; was: " + sid.trim());
    }
    return sid.trim();
  }

  /**
   * The {@code audioparams.pers_param} of CMD_SET_PARAMS params: a JSON object text, {@code ""} to
   * clear the setting, or null when the params do not set it. Other keys (the established SDK has many
   * audio and global params) are ignored; a known key of the wrong type is an error.
   */
  static @Nullable String setParamsPersParam(String params) {
    if (params.trim().isEmpty()) return null;
    Map<String, Object> object = JsonObjects.parseObject(params, "CMD_SET_PARAMS params");
    Map<String, Object> audioparams = JsonObjects.optObject(object, "audioparams",
        "CMD_SET_PARAMS params.audioparams");
    if (audioparams == null) return null;
    String persParam = JsonObjects.optString(audioparams, "pers_param",
        "CMD_SET_PARAMS params.audioparams.pers_param");
    if (persParam == null || persParam.trim().isEmpty()) return persParam == null ? null : "";
    JsonObjects.checkPersParam(persParam, "CMD_SET_PARAMS params.audioparams.pers_param");
    return persParam;
  }

  /**
   * The upload a CMD_SYNC data object asks for, with empty {@code uid}/{@code appid} values filled from
   * the connection and the config. Its resource stays in {@code data}, to be decoded as the upload
   * reads it.
   */
  static SyncRequest syncRequest(byte @Nullable [] data, String uid, String configAppid) {
    if (data == null || data.length == 0) {
      throw new IllegalArgumentException("CMD_SYNC data is required: the UTF-8 bytes of "
          + "{\"param\":{\"id_name\":..,\"id_value\":..,\"res_name\":..},\"data\":\"<Base64>\"}");
    }
    Map<String, Object> object = JsonObjects.parseObject(data, "CMD_SYNC data", "CMD_SYNC data is not"
        + " valid UTF-8: send the UTF-8 bytes of its JSON object", SyncResource.MEMBER,
        SyncResource.member(data));
    Map<String, Object> param = JsonObjects.optObject(object, "param", "CMD_SYNC data.param");
    if (param == null) throw new IllegalArgumentException("CMD_SYNC data.param is required");
    String idName = trimmed(JsonObjects.optString(param, "id_name", "CMD_SYNC data.param.id_name"));
    if (idName.isEmpty()) {
      throw new IllegalArgumentException("CMD_SYNC data.param.id_name is required: uid, appid or the "
          + "custom dimension name defined on the resource");
    }
    String idValue = trimmed(JsonObjects.optString(param, "id_value", "CMD_SYNC data.param.id_value"));
    String resName = trimmed(JsonObjects.optString(param, "res_name", "CMD_SYNC data.param.res_name"));
    if (resName.isEmpty()) {
      throw new IllegalArgumentException("CMD_SYNC data.param.res_name is required: "
          + "<namespace>.<name>, e.g. OS123.contacts");
    }
    String appid = trimmed(JsonObjects.optString(param, "appid", "CMD_SYNC data.param.appid"));
    if (appid.isEmpty()) appid = configAppid;
    if (idValue.isEmpty()) {
      if (idName.equals("uid")) {
        idValue = uid;
      } else if (idName.equals("appid")) {
        idValue = appid;
      } else {
        throw new IllegalArgumentException("CMD_SYNC data.param.id_value is required for the custom "
            + "dimension " + idName + "; only uid and appid are filled automatically");
      }
    }
    Object resource = object.get(SyncResource.MEMBER);
    if (resource != null && !(resource instanceof SyncResource)) {
      throw new IllegalArgumentException("CMD_SYNC data.data must be a string; was "
          + JsonObjects.describe(resource));
    }
    if (resource == null || ((SyncResource) resource).isBlank()) {
      throw new IllegalArgumentException("CMD_SYNC data.data is required: the Base64 of the resource text");
    }
    return new SyncRequest(appid, resName, idName, idValue, (SyncResource) resource);
  }

  private static String trimmed(@Nullable String value) {
    return value == null ? "" : value.trim();
  }
}
