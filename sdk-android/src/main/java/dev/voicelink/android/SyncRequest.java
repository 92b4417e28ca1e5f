package dev.voicelink.android;

/**
 * What one {@code CMD_SYNC} asks to upload, with {@code uid}/{@code appid} already filled: the owner
 * pair (id_name, id_value), the resource's name, and its text, still in the command's bytes.
 */
final class SyncRequest {
  final String appid;
  final String resName;
  final String idName;
  final String idValue;
  final SyncResource resource;

  SyncRequest(String appid, String resName, String idName, String idValue, SyncResource resource) {
    this.appid = appid;
    this.resName = resName;
    this.idName = idName;
    this.idValue = idValue;
    this.resource = resource;
  }

  @Override public String toString() {
    return "SyncRequest{appid=" + appid + ", res_name=" + resName + ", id_name=" + idName
        + ", id_value=" + idValue + ", data=" + resource + "}";
  }
}
