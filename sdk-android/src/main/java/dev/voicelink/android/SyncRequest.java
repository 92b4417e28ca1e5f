package dev.voicelink.android;

/**
 * What one {@code CMD_SYNC} asks to upload, with {@code uid}/{@code appid} already filled: the owner
 * pair (id_name, id_value), the resource, and its Base64 data as given.
 */
final class SyncRequest {
  final String appid;
  final String resName;
  final String idName;
  final String idValue;
  final String dataBase64;

  SyncRequest(String appid, String resName, String idName, String idValue, String dataBase64) {
    this.appid = appid;
    this.resName = resName;
    this.idName = idName;
    this.idValue = idValue;
    this.dataBase64 = dataBase64;
  }

  @Override public String toString() {
    return "SyncRequest{appid=" + appid + ", res_name=" + resName + ", id_name=" + idName
        + ", id_value=" + idValue + ", data=" + dataBase64.length() + " Base64 chars}";
  }
}
