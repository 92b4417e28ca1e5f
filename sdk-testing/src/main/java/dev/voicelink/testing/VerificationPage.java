package dev.voicelink.testing;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import okhttp3.mockwebserver.MockResponse;
import org.jspecify.annotations.Nullable;

/**
 * The user verification page (spec 4.2): phone login with a one-time SMS code, then Authorize / Refuse.
 * Plain HTML forms, no scripts, no external assets; the login session travels in a hidden form field.
 */
final class VerificationPage {
  static final long SMS_CODE_LIFETIME_MILLIS = 5 * 60_000L;
  static final int SMS_CODE_MAX_ATTEMPTS = 5;
  private static final Logger LOG = Logger.getLogger(VerificationPage.class.getName());

  private static final class SmsCode {
    final String code;
    final long expiresAt;
    int failures;
    boolean used;

    SmsCode(String code, long expiresAt) {
      this.code = code;
      this.expiresAt = expiresAt;
    }
  }

  private static final class Session {
    final String phone;
    final AuthState.DeviceGrant grant;

    Session(String phone, AuthState.DeviceGrant grant) {
      this.phone = phone;
      this.grant = grant;
    }
  }

  private final Console console;
  private final AuthState state;
  private final String basePath;
  private final Map<String, SmsCode> smsCodes = new HashMap<>();
  private final Map<String, String> lastSms = new HashMap<>();
  private final Map<String, Session> sessions = new HashMap<>();
  private volatile @Nullable SmsListener smsListener;

  interface SmsListener {
    void onSms(String phone, String code);
  }

  /** @param basePath the path of the page, e.g. {@code /auth/verify} */
  VerificationPage(Console console, AuthState state, String basePath) {
    this.console = console;
    this.state = state;
    this.basePath = basePath;
  }

  void smsListener(SmsListener listener) {
    smsListener = listener;
  }

  synchronized @Nullable String lastSmsCode(String phone) {
    return lastSms.get(phone);
  }

  synchronized String summary() {
    return "sms=" + smsCodes.size() + " sessions=" + sessions.size();
  }

  MockResponse handle(HttpCall call) {
    String sub = call.route.substring(basePath.length());
    Map<String, String> form;
    try {
      form = HttpCall.parseForm("GET".equals(call.method) ? call.query() : call.body);
    } catch (HttpCall.FormException e) {
      return page(400, "Bad request", "<p class=\"error\">" + esc(e.getMessage()) + "</p>");
    }
    if (sub.isEmpty() || "/".equals(sub)) {
      if (!"GET".equals(call.method)) return methodNotAllowed();
      return start(call, form.get("user_code"));
    }
    if (!"POST".equals(call.method)) return methodNotAllowed();
    if (!call.isForm()) return page(415, "Unsupported form", "<p class=\"error\">Send this form as application/x-www-form-urlencoded.</p>");
    switch (sub) {
      case "/send-code": return sendCode(call, form);
      case "/login": return login(call, form);
      case "/decide": return decide(call, form);
      default: return page(404, "Page not found", "<p class=\"error\">There is no such page.</p>");
    }
  }

  private MockResponse start(HttpCall call, String userCode) {
    if (userCode == null || userCode.isEmpty()) {
      return page(200, "Connect a device",
          "<form method=\"get\" action=\"" + basePath + "\"><label>Code shown on your device "
              + "<input id=\"user_code\" name=\"user_code\" autocomplete=\"off\" required></label>"
              + "<button id=\"continue\" type=\"submit\">Continue</button></form>");
    }
    MockResponse problem = grantProblem(call, userCode);
    if (problem != null) return problem;
    return page(200, "Connect a device", codeBox(userCode) + phoneForm(userCode, ""));
  }

  private MockResponse sendCode(HttpCall call, Map<String, String> form) {
    String userCode = nonNull(form.get("user_code"));
    MockResponse problem = grantProblem(call, userCode);
    if (problem != null) return problem;
    String phone = nonNull(form.get("phone")).trim();
    if (!phone.matches("\\+?[0-9]{5,20}")) {
      return page(400, "Connect a device", codeBox(userCode)
          + "<p class=\"error\" id=\"error\">Enter a phone number (digits only).</p>" + phoneForm(userCode, phone));
    }
    if (!console.isTester(phone)) {
      return page(403, "Connect a device", codeBox(userCode)
          + "<p class=\"error\" id=\"error\">The phone number " + esc(phone) + " is not on the tester whitelist. "
          + "Add it on the console's device test page, or use a whitelisted number.</p>" + phoneForm(userCode, phone));
    }
    String code = Ids.smsCode();
    synchronized (this) {
      smsCodes.put(phone, new SmsCode(code, call.now + SMS_CODE_LIFETIME_MILLIS));
      lastSms.put(phone, code);
    }
    // This is the SMS stand-in: the code must reach whoever runs the server, like a text message would.
    LOG.info("SMS to " + phone + ": your VoiceLink verification code is " + code);
    SmsListener l = smsListener;
    if (l != null) l.onSms(phone, code);
    return page(200, "Connect a device", codeBox(userCode)
        + "<p id=\"sent\">A verification code was sent to " + esc(mask(phone)) + ".</p>" + loginForm(userCode, phone));
  }

  private MockResponse login(HttpCall call, Map<String, String> form) {
    String userCode = nonNull(form.get("user_code"));
    MockResponse problem = grantProblem(call, userCode);
    if (problem != null) return problem;
    String phone = nonNull(form.get("phone"));
    String entered = nonNull(form.get("sms_code")).trim();
    String session;
    synchronized (this) {
      SmsCode sms = smsCodes.get(phone);
      boolean ok = sms != null && !sms.used && call.now < sms.expiresAt && Ids.constantTimeEquals(sms.code, entered);
      if (!ok) {
        if (sms != null && ++sms.failures >= SMS_CODE_MAX_ATTEMPTS) smsCodes.remove(phone);
        return page(401, "Connect a device", codeBox(userCode)
            + "<p class=\"error\" id=\"error\">The verification code is wrong or has expired. "
            + "Request a new code if needed.</p>" + loginForm(userCode, phone) + phoneForm(userCode, phone));
      }
      sms.used = true;
      smsCodes.remove(phone);
      session = Ids.random("s_", 16);
      sessions.put(session, new Session(phone, state.byUserCode(userCode)));
    }
    AuthState.DeviceGrant g = state.byUserCode(userCode);
    Console.Client client = console.client(g.clientId);
    String clientName = client == null ? g.clientId : client.name();
    return page(200, "Allow access?",
        "<p id=\"request\"><strong id=\"client_name\">" + esc(clientName) + "</strong> (device <code id=\"device_id\">"
            + esc(g.deviceId) + "</code>) asks for access to your account, signed in as " + esc(mask(phone)) + ".</p>"
            + "<div class=\"buttons\">"
            + decisionForm(session, "authorize", "Authorize") + decisionForm(session, "refuse", "Refuse")
            + "</div>");
  }

  private MockResponse decide(HttpCall call, Map<String, String> form) {
    String decision = nonNull(form.get("decision"));
    if (!"authorize".equals(decision) && !"refuse".equals(decision)) {
      return page(400, "Bad request", "<p class=\"error\" id=\"error\">decision must be authorize or refuse.</p>");
    }
    Session s;
    synchronized (this) {
      s = sessions.get(nonNull(form.get("session")));
    }
    if (s == null) {
      return page(401, "Sign in again", "<p class=\"error\" id=\"error\">Your sign-in is not valid any more. "
          + "Open the link from your device again.</p>");
    }
    MockResponse problem = grantProblem(call, s.grant.userCode);
    if (problem != null) return problem;
    boolean authorize = "authorize".equals(decision);
    if (!state.decide(s.grant, authorize, Ids.authIdForPhone(s.phone), call.now)) {
      return grantProblem(call, s.grant.userCode);
    }
    synchronized (this) {
      sessions.values().removeIf(x -> x.grant == s.grant);
    }
    return authorize
        ? page(200, "Device connected", "<p id=\"result\">Access granted. You can return to your device.</p>")
        : page(200, "Access refused", "<p id=\"result\">Access refused. The device was not connected.</p>");
  }

  /** An error page when the user code cannot be acted on any more; null when it is pending and valid. */
  private @Nullable MockResponse grantProblem(HttpCall call, String userCode) {
    AuthState.DeviceGrant g = userCode.isEmpty() ? null : state.byUserCode(userCode);
    if (g == null) {
      return page(404, "Unknown code", "<p class=\"error\" id=\"error\">The code " + esc(userCode)
          + " is not known. Check the code shown on your device.</p>");
    }
    synchronized (state) {
      if (g.expired(call.now)) {
        return page(410, "Code expired", "<p class=\"error\" id=\"error\">The code " + esc(userCode)
            + " has expired. Start the connection on your device again.</p>");
      }
      if (g.state != AuthState.GrantState.PENDING) {
        return page(409, "Code already used", "<p class=\"error\" id=\"error\">The code " + esc(userCode)
            + " was already used.</p>");
      }
    }
    return null;
  }

  private String codeBox(String userCode) {
    return "<p>Code: <code id=\"shown_user_code\">" + esc(userCode) + "</code></p>";
  }

  private String phoneForm(String userCode, String phone) {
    return "<form method=\"post\" action=\"" + basePath + "/send-code\">"
        + hidden("user_code", userCode)
        + "<label>Phone number <input id=\"phone\" name=\"phone\" type=\"tel\" value=\"" + esc(phone) + "\" required></label>"
        + "<button id=\"send_code\" type=\"submit\">Send code</button></form>";
  }

  private String loginForm(String userCode, String phone) {
    return "<form method=\"post\" action=\"" + basePath + "/login\">"
        + hidden("user_code", userCode) + hidden("phone", phone)
        + "<label>Verification code <input id=\"sms_code\" name=\"sms_code\" inputmode=\"numeric\" "
        + "autocomplete=\"one-time-code\" required></label>"
        + "<button id=\"login\" type=\"submit\">Sign in</button></form>";
  }

  private String decisionForm(String session, String decision, String label) {
    return "<form method=\"post\" action=\"" + basePath + "/decide\">" + hidden("session", session)
        + hidden("decision", decision) + "<button id=\"" + decision + "\" type=\"submit\">" + label + "</button></form>";
  }

  private static String hidden(String name, String value) {
    return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + esc(value) + "\">";
  }

  private static MockResponse methodNotAllowed() {
    return page(405, "Not allowed", "<p class=\"error\">This page does not accept that request method.</p>");
  }

  static MockResponse page(int status, String title, String content) {
    return HttpCall.html(status, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" + esc(title)
        + " - VoiceLink</title><style>body{font-family:sans-serif;max-width:28em;margin:2em auto;padding:0 1em}"
        + "code{font-size:1.3em}label{display:block;margin:1em 0}.error{color:#b00020}"
        + ".buttons form{display:inline-block;margin-right:1em}button{font-size:1em;padding:.4em 1.2em}</style>"
        + "</head><body><h1>" + esc(title) + "</h1>" + content + "</body></html>");
  }

  static String mask(String phone) {
    return phone.length() <= 7 ? "****" : phone.substring(0, 3) + "****" + phone.substring(phone.length() - 4);
  }

  static String esc(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<': sb.append("&lt;"); break;
        case '>': sb.append("&gt;"); break;
        case '&': sb.append("&amp;"); break;
        case '"': sb.append("&quot;"); break;
        case '\'': sb.append("&#39;"); break;
        default: sb.append(c);
      }
    }
    return sb.toString();
  }

  private static String nonNull(@Nullable String s) {
    return s == null ? "" : s;
  }
}
