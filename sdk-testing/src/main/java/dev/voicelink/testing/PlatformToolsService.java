package dev.voicelink.testing;

import java.util.List;
import java.util.Map;
import okhttp3.mockwebserver.MockResponse;
import org.jspecify.annotations.Nullable;

/**
 * The platform tools upload (protocol 4.7, 5.2, 7.2.1): 200 {@code {sid}} or 400 {@code {code, message, sid}}
 * (401 for a token it does not take, with {@link PlatformVariant#UPLOAD_ENTITIES_TOKEN_401}).
 * The token must fit the type: a device-flow token (user and device) for {@code user} and
 * {@code device}, a cloud token for {@code client}; the resource's account needs the dynamic-entity
 * permission (protocol 1.7), as on the web API.
 */
final class PlatformToolsService {
  static final String BAD_CONTENT_TYPE = "40001";
  static final String BAD_BODY = "40002";
  static final String BAD_TYPE = "40003";
  static final String BAD_RESOURCE_NAME = "40004";
  static final String UNKNOWN_RESOURCE = "40005";
  static final String TYPE_MISMATCH = "40006";
  static final String BAD_APPID = "40007";
  static final String BAD_DATA = "40008";
  static final String BAD_RECORD = "40009";
  static final String NO_TOKEN = "40101";
  static final String TOKEN_SCHEME = "40102";
  static final String BAD_TOKEN = "40103";
  static final String WRONG_TOKEN_KIND = "40301";
  static final String NO_PERMISSION = "40302";

  private final Console console;
  private final AuthState auth;
  private final ResourceStore store;

  PlatformToolsService(Console console, AuthState auth, ResourceStore store) {
    this.console = console;
    this.auth = auth;
    this.store = store;
  }

  MockResponse upload(HttpCall call) {
    String sid = Ids.random("ptu", 12);
    if (!"POST".equals(call.method)) return refuse(BAD_CONTENT_TYPE, "use POST", sid);
    if (!call.isJson()) return refuse(BAD_CONTENT_TYPE, "Content-Type must be application/json", sid);
    String token = call.header("Authorization");
    if (token == null || token.isEmpty()) return refuse(NO_TOKEN, "Authorization header is required", sid);
    if (token.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return refuse(TOKEN_SCHEME, "Authorization must be the raw token, without a Bearer prefix", sid);
    }
    AuthState.TokenGrant grant = auth.validAccessToken(token, call.now);
    if (grant == null) {
      return refuse(console.has(PlatformVariant.UPLOAD_ENTITIES_TOKEN_401) ? 401 : 400, BAD_TOKEN,
          "the token is unknown or has expired", sid);
    }
    String notUtf8 = call.notUtf8();
    if (notUtf8 != null) return refuse(BAD_BODY, notUtf8, sid);
    Map<String, Object> body = Json.parseObject(call.body);
    if (body == null) return refuse(BAD_BODY, "body must be a JSON object", sid);
    Object type = body.get("type");
    if (!"user".equals(type) && !"client".equals(type) && !"device".equals(type)) {
      return refuse(BAD_TYPE, "type must be user, client or device; was: " + type, sid);
    }
    Object resName = body.get("resource_name");
    if (!(resName instanceof String) || !((String) resName).matches("[^.]+\\.[^.]+")) {
      return refuse(BAD_RESOURCE_NAME, "resource_name must be <namespace>.<name>, e.g. OS123.contacts; was: " + resName, sid);
    }
    EntityDefinition def = console.entity((String) resName);
    if (def == null) return refuse(UNKNOWN_RESOURCE, "no resource " + resName + " is defined", sid);
    String dimension = "user".equals(type) ? EntityDefinition.USER
        : "device".equals(type) ? EntityDefinition.DEVICE : EntityDefinition.APPLICATION;
    if (!dimension.equals(def.dimension())) {
      return refuse(TYPE_MISMATCH, "type " + type + " needs a resource of dimension " + dimension + "; " + resName
          + " has dimension " + def.dimension(), sid);
    }
    boolean wantsCloud = "client".equals(type);
    if (wantsCloud != (grant.kind == AuthState.TokenKind.CLOUD)) {
      return refuse(WRONG_TOKEN_KIND, "type " + type + " needs a " + (wantsCloud
          ? "cloud token (client credentials)" : "user/device token (device authorization)") + "; this is a "
          + (grant.kind == AuthState.TokenKind.CLOUD ? "cloud token" : "device-flow token"), sid);
    }
    Account account = console.account(def.namespace());
    if (account == null || !account.dynamicEntityPermission()) {
      // Protocol 1.7: the dynamic entity HTTP interfaces, this one included, need the permission.
      return refuse(NO_PERMISSION, "no permission: dynamic entities are not enabled for namespace "
          + def.namespace(), sid);
    }
    Object appid = body.get("appid");
    if (appid != null && (!(appid instanceof String) || !appid.equals(account.appid()))) {
      return refuse(BAD_APPID, "appid " + appid + " is not an application of namespace " + def.namespace(), sid);
    }
    Object data = body.get("data");
    if (!(data instanceof List)) return refuse(BAD_DATA, "data must be an array of records", sid);
    List<Map<String, String>> records;
    try {
      records = ResourceData.records((List<?>) data, def);
    } catch (ResourceData.Invalid e) {
      return refuse(e.code.equals(WebApiCodes.NO_RECORDS) ? BAD_DATA : BAD_RECORD, e.getMessage(), sid);
    }
    @Nullable String owner;
    switch ((String) type) {
      case "user": owner = grant.authId; break;
      case "device": owner = InteractionService.deviceOwner(grant.clientId, grant.deviceId); break;
      default: owner = appid != null ? (String) appid : console.appidFor(grant.clientId);
    }
    ResourceStore.Upload u = store.add(def, owner, records, call.now);
    return HttpCall.json(200, console.has(PlatformVariant.UPLOAD_ENTITIES_CODE)
        ? Json.obj("code", "0", "message", "success", "sid", u.sid) : Json.obj("sid", u.sid));
  }

  private static MockResponse refuse(String code, String message, String sid) {
    return refuse(400, code, message, sid);
  }

  private static MockResponse refuse(int status, String code, String message, String sid) {
    return HttpCall.json(status, Json.obj("code", code, "message", message, "sid", sid));
  }
}
