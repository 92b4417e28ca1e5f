package dev.voicelink.testing;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.regex.Pattern;
import okhttp3.mockwebserver.MockResponse;
import org.jspecify.annotations.Nullable;

/**
 * The dynamic-entity web API (protocol 4.8, 4.9, 5.3, 5.4, 7.2). Checks run in a fixed order: request shape,
 * the four headers, namespace, checksum, CurTime window, IP whitelist, permission, then the parameters.
 * Every answer is the envelope {@code {code, data, desc, sid}} with HTTP 200 (a refusal's status and
 * code type change with {@link PlatformVariant#WEB_API_REFUSALS_HTTP_400}, {@link
 * PlatformVariant#WEB_API_REFUSALS_BY_KIND} and {@link PlatformVariant#REFUSAL_CODES_NUMERIC}).
 */
final class WebApiService {
  static final long CUR_TIME_WINDOW_MILLIS = 5 * 60_000L;
  static final int MAX_NONCE = 128;
  static final Pattern AUTH_ID = Pattern.compile("[a-z0-9]{32}");
  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,12}");

  private final Console console;
  private final ResourceStore store;
  /** The caller of a request fed to the router without a socket (fuzzing): the bound address. */
  private final String defaultCallerIp;

  WebApiService(Console console, ResourceStore store, String defaultCallerIp) {
    this.console = console;
    this.store = store;
    this.defaultCallerIp = defaultCallerIp;
  }

  /** The account the request is signed for, plus its form; or the refusal to send. */
  private static final class Checked {
    final @Nullable Account account;
    final @Nullable Map<String, String> form;
    final @Nullable MockResponse refusal;

    Checked(@Nullable Account account, @Nullable Map<String, String> form,
        @Nullable MockResponse refusal) {
      this.account = account;
      this.form = form;
      this.refusal = refusal;
    }
  }

  MockResponse upload(HttpCall call) {
    String callId = Ids.random("vls", 12);
    Checked c = check(call, callId);
    if (c.refusal != null) return c.refusal;
    Map<String, String> form = c.form;
    Account account = c.account;
    for (String name : new String[] {"appid", "res_name", "pers_param", "data"}) {
      if (form.get(name) == null || form.get(name).isEmpty()) return refuse(WebApiCodes.MISSING, name + " is required", callId);
    }
    String appid = form.get("appid");
    if (!appid.equals(account.appid())) {
      return refuse(WebApiCodes.ILLEGAL_VALUE, "appid " + appid + " is not an application of namespace " + account.namespace(), callId);
    }
    String resName = form.get("res_name");
    int dot = resName.indexOf('.');
    if (dot <= 0 || dot == resName.length() - 1) {
      return refuse(WebApiCodes.ILLEGAL_VALUE, "res_name must be <namespace>.<name>, e.g. " + account.namespace()
          + ".contacts; was: " + resName, callId);
    }
    if (!resName.substring(0, dot).equals(account.namespace())) {
      return refuse(WebApiCodes.UNKNOWN_NAMESPACE, "res_name namespace " + resName.substring(0, dot)
          + " is not the namespace of this account (" + account.namespace() + ")", callId);
    }
    EntityDefinition def = console.entity(resName);
    if (def == null) return refuse(WebApiCodes.UNKNOWN_RESOURCE, "no resource " + resName + " is defined", callId);
    if (EntityDefinition.DEVICE.equals(def.dimension())) {
      return refuse(WebApiCodes.DIMENSION_NOT_SUPPORTED, resName + " has dimension os_device_id, which the web API does "
          + "not accept; use the platform tools upload", callId);
    }
    String owner;
    try {
      owner = owner(form.get("pers_param"), def, account);
    } catch (ResourceData.Invalid e) {
      return refuse(e.code, e.getMessage(), callId);
    }
    List<Map<String, String>> records;
    try {
      records = ResourceData.decode(form.get("data"), def);
    } catch (ResourceData.Invalid e) {
      return refuse(e.code, e.getMessage(), callId);
    }
    ResourceStore.Upload u = store.add(def, owner, records, call.now);
    return success(withCsid(Json.obj("sid", u.sid), callId), callId);
  }

  /** pers_param → the owner of the data, consistent with the resource's dimension (protocol 2.4). */
  private static String owner(String persParam, EntityDefinition def, Account account)
      throws ResourceData.Invalid {
    Map<String, Object> p = Json.parseObject(persParam);
    if (p == null) throw new ResourceData.Invalid(WebApiCodes.ILLEGAL_VALUE, "pers_param must be a JSON object");
    String key;
    if (EntityDefinition.USER.equals(def.dimension())) {
      key = "auth_id";
    } else if (EntityDefinition.APPLICATION.equals(def.dimension())) {
      key = "appid";
    } else {
      key = def.dimension();
    }
    if (p.size() != 1 || !p.containsKey(key)) {
      throw new ResourceData.Invalid(WebApiCodes.ILLEGAL_VALUE, "pers_param for " + def.resName() + " (dimension "
          + def.dimension() + ") must be an object with the single key " + key + "; was: " + p.keySet());
    }
    Object v = p.get(key);
    if (!(v instanceof String) || ((String) v).isEmpty()) {
      throw new ResourceData.Invalid(WebApiCodes.ILLEGAL_VALUE, "pers_param." + key + " must be a non-empty string");
    }
    String value = (String) v;
    if (key.equals("auth_id") && !AUTH_ID.matcher(value).matches()) {
      throw new ResourceData.Invalid(WebApiCodes.ILLEGAL_VALUE,
          "pers_param.auth_id must be 32 lowercase letters or digits; was: " + value);
    }
    if (key.equals("appid") && !value.equals(account.appid())) {
      throw new ResourceData.Invalid(WebApiCodes.ILLEGAL_VALUE, "pers_param.appid " + value
          + " is not an application of namespace " + account.namespace());
    }
    return value;
  }

  MockResponse check(HttpCall call) {
    String callId = Ids.random("vls", 12);
    Checked c = check(call, callId);
    if (c.refusal != null) return c.refusal;
    String sid = c.form.get("sid");
    if (sid == null || sid.isEmpty()) return refuse(WebApiCodes.MISSING, "sid is required", callId);
    if (!sid.startsWith("psn")) return refuse(WebApiCodes.ILLEGAL_VALUE, "sid must begin with psn; was: " + sid, callId);
    ResourceStore.Upload u = store.bySid(sid);
    if (u == null || !u.namespace.equals(c.account.namespace())) {
      return refuse(WebApiCodes.UNKNOWN_SID, "no upload with sid " + sid + " in namespace " + c.account.namespace(), callId);
    }
    int error;
    String reply;
    long effectiveAt = u.uploadedAt + ResourceStore.IN_EFFECT_AFTER_MILLIS;
    switch (u.stage(call.now)) {
      case UPLOADED:
        error = WebApiCodes.CHECK_UPLOADED;
        reply = "still processing: uploaded, processing has not started; check again at least 10 s after the upload";
        break;
      case PROCESSING:
        error = WebApiCodes.CHECK_PROCESSING;
        reply = "still processing: the data is being processed";
        break;
      case PACKAGED:
        error = WebApiCodes.CHECK_PACKAGED;
        reply = "still processing: packaged, takes effect at " + iso(effectiveAt);
        break;
      default:
        error = WebApiCodes.CHECK_IN_EFFECT;
        reply = "in effect since " + iso(effectiveAt) + " (" + u.recordCount + " records)";
    }
    Map<String, Object> data = withCsid(Json.obj("sid", sid), callId);
    data.put("reply", reply);
    data.put("error", error);
    return success(data, callId);
  }

  private Checked check(HttpCall call, String callId) {
    if (!"POST".equals(call.method)) return refused(WebApiCodes.MISSING, "use POST", callId);
    if (!call.isForm()) {
      return refused(WebApiCodes.MISSING, "Content-Type must be application/x-www-form-urlencoded; charset=utf-8", callId);
    }
    if (call.charset() != null && !"utf-8".equals(call.charset())) {
      return refused(WebApiCodes.ILLEGAL_VALUE, "charset must be utf-8; was: " + call.charset(), callId);
    }
    for (String h : new String[] {"X-NameSpace", "X-Nonce", "X-CurTime", "X-CheckSum"}) {
      String v = call.header(h);
      if (v == null || v.isEmpty()) return refused(WebApiCodes.MISSING, "header " + h + " is required", callId);
    }
    String nonce = call.header("X-Nonce");
    if (nonce.length() > MAX_NONCE) {
      return refused(WebApiCodes.ILLEGAL_VALUE, "X-Nonce must be at most 128 characters; was: " + nonce.length(), callId);
    }
    String curTime = call.header("X-CurTime");
    if (!DIGITS.matcher(curTime).matches()) {
      return refused(WebApiCodes.ILLEGAL_VALUE, "X-CurTime must be UTC seconds since 1970 as digits; was: " + curTime, callId);
    }
    Account account = console.account(call.header("X-NameSpace"));
    if (account == null) {
      return refused(WebApiCodes.UNKNOWN_NAMESPACE, "unknown namespace " + call.header("X-NameSpace"), callId);
    }
    String expected = Ids.md5Hex(account.accountKey() + nonce + curTime);
    if (!Ids.constantTimeEquals(expected, call.header("X-CheckSum"))) {
      return refused(WebApiCodes.NO_PERMISSION, "illegal access: X-CheckSum does not match "
          + "md5(accountKey + X-Nonce + X-CurTime) in lowercase hex", callId);
    }
    if (Math.abs(call.now - Long.parseLong(curTime) * 1000L) > CUR_TIME_WINDOW_MILLIS) {
      return refused(WebApiCodes.STALE_TIME, "X-CurTime " + curTime + " is more than 5 minutes away from the server time "
          + call.now / 1000L, callId);
    }
    String caller = ServerConnections.caller();
    if (caller == null) caller = defaultCallerIp;
    if (account.ipWhitelistEnabled() && !account.ipWhitelist().contains(caller)) {
      return refused(WebApiCodes.IP_NOT_ALLOWED, "illegal IP: " + caller + " is not in the IP whitelist",
          callId);
    }
    if (!account.dynamicEntityPermission()) {
      return refused(WebApiCodes.NO_PERMISSION, "no permission: dynamic entities are not enabled for namespace "
          + account.namespace(), callId);
    }
    try {
      return new Checked(account, call.form(), null);
    } catch (HttpCall.FormException e) {
      return refused(WebApiCodes.ILLEGAL_VALUE, e.getMessage(), callId);
    }
  }

  /** {@code data} with its {@code csid}, the call's id, but for {@link PlatformVariant#NO_CSID}. */
  private Map<String, Object> withCsid(Map<String, Object> data, String callId) {
    if (!console.has(PlatformVariant.NO_CSID)) data.put("csid", callId);
    return data;
  }

  /**
   * {@code "00000"}, or the code of a success variant: the text {@code "0"} or the number 0 (spec
   * 7.2.3 does not show the success code).
   */
  private Object successCode() {
    if (console.has(PlatformVariant.SUCCESS_CODE_NUMERIC)) return 0;
    return console.has(PlatformVariant.SUCCESS_CODE_ZERO) ? WebApiCodes.SUCCESS_ZERO : WebApiCodes.SUCCESS;
  }

  private Checked refused(String code, String desc, String callId) {
    return new Checked(null, null, refuse(code, desc, callId));
  }

  /**
   * A refusal: HTTP 200 and the code as text, as protocol 2.6 types it; HTTP 400, a status by kind and a
   * numeric code in their variants.
   */
  private MockResponse refuse(String code, String desc, String callId) {
    Object value = console.has(PlatformVariant.REFUSAL_CODES_NUMERIC) ? Long.valueOf(code) : code;
    return HttpCall.json(refusalStatus(code), Json.obj("code", value, "data", null, "desc", desc, "sid", callId));
  }

  /** The HTTP status of a refusal: 200 in the reference reading, 400 or one by kind in the variants. */
  private int refusalStatus(String code) {
    if (console.has(PlatformVariant.WEB_API_REFUSALS_BY_KIND)) {
      switch (code) {
        case WebApiCodes.NO_PERMISSION:
        case WebApiCodes.STALE_TIME:
          return 401;
        case WebApiCodes.IP_NOT_ALLOWED:
          return 403;
        case WebApiCodes.UNKNOWN_NAMESPACE:
        case WebApiCodes.UNKNOWN_RESOURCE:
        case WebApiCodes.UNKNOWN_SID:
          return 404;
        default:
          return 400;
      }
    }
    return console.has(PlatformVariant.WEB_API_REFUSALS_HTTP_400) ? 400 : 200;
  }

  /**
   * The envelope of a success: {@code data} inside it, the call's id as its {@code sid}; in {@link
   * PlatformVariant#IDS_AT_TOP_LEVEL}, {@code data} null and its fields (the upload's {@code sid}
   * among them) at the top.
   */
  private MockResponse success(Map<String, Object> data, String callId) {
    Map<String, Object> envelope = Json.obj("code", successCode(), "data", data, "desc", "success", "sid", callId);
    if (console.has(PlatformVariant.IDS_AT_TOP_LEVEL)) {
      envelope.put("data", null);
      envelope.putAll(data);
    }
    return HttpCall.json(200, envelope);
  }

  static String iso(long millis) {
    SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT);
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    return f.format(new Date(millis));
  }
}
