package dev.voicelink.testing;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import okhttp3.mockwebserver.MockResponse;
import org.jspecify.annotations.Nullable;

/**
 * The user verification page (protocol 4.2): phone login with a one-time SMS code, then Authorize / Refuse.
 * Plain HTML forms, no scripts, no external assets; the login session travels in a hidden form field.
 *
 * <p>Made for the phone that scans the device's QR code: one column that fills a phone's width and
 * becomes a centred card on a wide screen, inputs and buttons at least 48 px high with text the
 * browser does not zoom into, the device's code large at the top of every step, a three-step
 * indicator, and each outcome (code sent, wrong code, authorized, refused, expired) in a coloured
 * panel with a symbol, so that it does not depend on colour alone. Light and dark schemes.
 */
final class VerificationPage {
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

  /** Told each SMS code instead of the log. */
  interface SmsListener {
    void onSms(String phone, String code);
  }

  /**
   * The one wording of an SMS code, logged and printed alike: {@code SMS to 13800000000: verification
   * code 123456}. Scripts parse it ({@link StandaloneServerOutput}); keep it stable.
   */
  static String smsLine(String phone, String code) {
    return "SMS to " + phone + ": verification code " + code;
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
      form = "GET".equals(call.method) ? HttpCall.parseForm(call.query()) : call.form();
    } catch (HttpCall.FormException e) {
      return page(400, "Bad request", state(ERROR, "error", esc(e.getMessage())));
    }
    if (sub.isEmpty() || "/".equals(sub)) {
      if (!"GET".equals(call.method)) return methodNotAllowed();
      return start(call, form.get("user_code"));
    }
    if (!"POST".equals(call.method)) return methodNotAllowed();
    if (!call.isForm()) {
      return page(415, "Unsupported form", state(ERROR, "error",
          "Send this form as application/x-www-form-urlencoded."));
    }
    switch (sub) {
      case "/send-code": return sendCode(call, form);
      case "/login": return login(call, form);
      case "/decide": return decide(call, form);
      default: return page(404, "Page not found", state(ERROR, "error", "There is no such page."));
    }
  }

  private MockResponse start(HttpCall call, String userCode) {
    if (userCode == null || userCode.isEmpty()) {
      return page(200, "Connect a device",
          "<p>Enter the code that your device shows.</p>"
              + "<form method=\"get\" action=\"" + basePath + "\"><label>Code shown on your device "
              + "<input id=\"user_code\" name=\"user_code\" autocomplete=\"off\" autocapitalize=\"characters\""
              + " spellcheck=\"false\" required></label>"
              + "<button id=\"continue\" type=\"submit\">Continue</button></form>");
    }
    MockResponse problem = grantProblem(call, userCode);
    if (problem != null) return problem;
    return page(200, "Connect a device", steps(1) + codeBox(userCode)
        + "<p class=\"hint\">Check that this is the code on your device, then sign in with your phone.</p>"
        + phoneForm(userCode, ""));
  }

  private MockResponse sendCode(HttpCall call, Map<String, String> form) {
    String userCode = nonNull(form.get("user_code"));
    MockResponse problem = grantProblem(call, userCode);
    if (problem != null) return problem;
    String phone = nonNull(form.get("phone")).trim();
    if (!phone.matches("\\+?[0-9]{5,20}")) {
      return page(400, "Connect a device", steps(1) + codeBox(userCode)
          + state(ERROR, "error", "Enter a phone number (digits only).") + phoneForm(userCode, phone));
    }
    if (!console.isTester(phone)) return notATester(userCode, phone);
    String code = Ids.smsCode();
    synchronized (this) {
      smsCodes.put(phone, new SmsCode(code,
          call.now + console.getSmsCodeLifetimeSeconds() * 1000L));
      lastSms.put(phone, code);
    }
    // This is the SMS stand-in: the code must reach whoever runs the server, like a text message
    // would. Once: to the listener when there is one (the standalone server prints it), else to the log.
    SmsListener l = smsListener;
    if (l != null) {
      l.onSms(phone, code);
    } else {
      LOG.info(smsLine(phone, code));
    }
    return page(200, "Connect a device", steps(2) + codeBox(userCode)
        + state(INFO, "sent", "A verification code was sent to " + esc(mask(phone)) + ".")
        + loginForm(userCode, phone));
  }

  /**
   * Protocol 4.2.3: a tester's phone must be on the whitelist, or authorization fails. Checked when the
   * code is sent, at sign-in and at the decision, so that a number taken off the list meanwhile
   * authorizes nothing.
   */
  private MockResponse notATester(String userCode, String phone) {
    return page(403, "Connect a device", steps(1) + codeBox(userCode)
        + state(ERROR, "error", "The phone number " + esc(phone) + " is not on the tester whitelist. "
        + "Add it on the console's device test page, or use a whitelisted number.") + phoneForm(userCode, phone));
  }

  private MockResponse login(HttpCall call, Map<String, String> form) {
    String userCode = nonNull(form.get("user_code"));
    MockResponse problem = grantProblem(call, userCode);
    if (problem != null) return problem;
    String phone = nonNull(form.get("phone"));
    if (!console.isTester(phone)) return notATester(userCode, phone);
    String entered = nonNull(form.get("sms_code")).trim();
    String session;
    synchronized (this) {
      SmsCode sms = smsCodes.get(phone);
      boolean ok = sms != null && !sms.used && call.now < sms.expiresAt && Ids.constantTimeEquals(sms.code, entered);
      if (!ok) {
        if (sms != null && ++sms.failures >= SMS_CODE_MAX_ATTEMPTS) smsCodes.remove(phone);
        return page(401, "Connect a device", steps(2) + codeBox(userCode)
            + state(ERROR, "error", "The verification code is wrong or has expired. "
            + "Request a new code if needed.") + loginForm(userCode, phone) + phoneForm(userCode, phone));
      }
      sms.used = true;
      smsCodes.remove(phone);
      session = Ids.random("s_", 16);
      // A session whose code expired undecided can decide nothing: forgotten, so none piles up.
      sessions.values().removeIf(x -> call.now >= x.grant.expiresAt);
      sessions.put(session, new Session(phone, state.byUserCode(userCode)));
    }
    AuthState.DeviceGrant g = state.byUserCode(userCode);
    RegisteredClient client = console.client(g.clientId);
    String clientName = client == null ? g.clientId : client.name();
    return page(200, "Allow access?", steps(3) + codeBox(userCode)
        + "<p id=\"request\"><strong id=\"client_name\">" + esc(clientName) + "</strong> (device <code id=\"device_id\">"
            + esc(g.deviceId) + "</code>) asks for access to your account, signed in as " + esc(mask(phone)) + ".</p>"
            + "<div class=\"buttons\">"
            + decisionForm(session, "authorize", "Authorize") + decisionForm(session, "refuse", "Refuse")
            + "</div>");
  }

  private MockResponse decide(HttpCall call, Map<String, String> form) {
    String decision = nonNull(form.get("decision"));
    if (!"authorize".equals(decision) && !"refuse".equals(decision)) {
      return page(400, "Bad request", state(ERROR, "error", "decision must be authorize or refuse."));
    }
    Session s;
    synchronized (this) {
      s = sessions.get(nonNull(form.get("session")));
    }
    if (s == null) {
      return page(401, "Sign in again", state(ERROR, "error", "Your sign-in is not valid any more. "
          + "Open the link from your device again."));
    }
    MockResponse problem = grantProblem(call, s.grant.userCode);
    if (problem != null) return problem;
    boolean authorize = "authorize".equals(decision);
    if (authorize && !console.isTester(s.phone)) return notATester(s.grant.userCode, s.phone);
    if (!state.decide(s.grant, authorize, Ids.authIdForPhone(s.phone), call.now)) {
      return grantProblem(call, s.grant.userCode);
    }
    synchronized (this) {
      sessions.values().removeIf(x -> x.grant == s.grant);
    }
    return authorize
        ? page(200, "Device connected", state(OK, "result", "Access granted. You can return to your device.")
            + "<p class=\"hint\">You can close this page.</p>")
        : page(200, "Access refused", state(REFUSED, "result", "Access refused. The device was not connected.")
            + "<p class=\"hint\">To connect it after all, start again on the device.</p>");
  }

  /** An error page when the user code cannot be acted on any more; null when it is pending and valid. */
  private @Nullable MockResponse grantProblem(HttpCall call, String userCode) {
    AuthState.DeviceGrant g = userCode.isEmpty() ? null : state.byUserCode(userCode);
    if (g == null) {
      return page(404, "Unknown code", state(ERROR, "error", "The code " + esc(userCode)
          + " is not known. Check the code shown on your device."));
    }
    synchronized (state) {
      if (g.expired(call.now)) {
        return page(410, "Code expired", state(ERROR, "error", "The code " + esc(userCode)
            + " has expired. Start the connection on your device again."));
      }
      if (g.state != AuthState.GrantState.PENDING) {
        return page(409, "Code already used", state(ERROR, "error", "The code " + esc(userCode)
            + " was already used."));
      }
    }
    return null;
  }

  /** The device's code, large, so that the user can compare it with the device's screen. */
  private static String codeBox(String userCode) {
    return "<div class=\"device\"><span>Code on your device</span><code id=\"shown_user_code\">" + esc(userCode)
        + "</code></div>";
  }

  /** Where the user is: sign in with the phone, enter the texted code, allow the device. */
  private static String steps(int current) {
    String[] names = {"Phone", "Code", "Allow"};
    StringBuilder html = new StringBuilder("<ol class=\"steps\" aria-label=\"Steps\">");
    for (int i = 1; i <= names.length; i++) {
      html.append("<li class=\"").append(i < current ? "done" : i == current ? "now" : "next").append('"')
          .append(i == current ? " aria-current=\"step\"" : "").append('>').append(i).append(". ")
          .append(names[i - 1]).append("</li>");
    }
    return html.append("</ol>").toString();
  }

  /** An outcome in a panel of its kind, with a symbol that says it without colour. */
  private static String state(String kind, String id, String escapedText) {
    return "<div class=\"state " + kind + "\" role=\"" + (kind.equals(INFO) || kind.equals(OK) ? "status" : "alert")
        + "\"><span class=\"icon\" aria-hidden=\"true\">" + SYMBOLS.get(kind) + "</span><p id=\"" + id + "\">"
        + escapedText + "</p></div>";
  }

  private String phoneForm(String userCode, String phone) {
    boolean again = !phone.isEmpty();
    return "<form method=\"post\" action=\"" + basePath + "/send-code\">"
        + hidden("user_code", userCode)
        + "<label>Phone number <input id=\"phone\" name=\"phone\" type=\"tel\" inputmode=\"tel\" autocomplete=\"tel\""
        + " value=\"" + esc(phone) + "\" required></label>"
        + "<button id=\"send_code\" type=\"submit\"" + (again ? " class=\"secondary\"" : "") + ">"
        + (again ? "Send a new code" : "Send code") + "</button></form>";
  }

  private String loginForm(String userCode, String phone) {
    return "<form method=\"post\" action=\"" + basePath + "/login\">"
        + hidden("user_code", userCode) + hidden("phone", phone)
        + "<label>Verification code <input id=\"sms_code\" name=\"sms_code\" inputmode=\"numeric\" "
        + "autocomplete=\"one-time-code\" maxlength=\"6\" required></label>"
        + "<p class=\"hint\">The code is valid for 5 minutes.</p>"
        + "<button id=\"login\" type=\"submit\">Sign in</button></form>";
  }

  private String decisionForm(String session, String decision, String label) {
    return "<form method=\"post\" action=\"" + basePath + "/decide\">" + hidden("session", session)
        + hidden("decision", decision) + "<button id=\"" + decision + "\" type=\"submit\" class=\"" + decision + "\">"
        + label + "</button></form>";
  }

  private static String hidden(String name, String value) {
    return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + esc(value) + "\">";
  }

  private static MockResponse methodNotAllowed() {
    return page(405, "Not allowed", state(ERROR, "error", "This page does not accept that request method."));
  }

  static MockResponse page(int status, String title, String content) {
    return HttpCall.html(status, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<meta name=\"color-scheme\" content=\"light dark\">"
        + "<link rel=\"icon\" href=\"data:,\">" // no favicon request: the page loads nothing else
        + "<title>" + esc(title)
        + " - VoiceLink</title><style>" + STYLE + "</style></head><body><main><p class=\"brand\">VoiceLink</p><h1>"
        + esc(title) + "</h1>" + content + "</main></body></html>");
  }

  static final String OK = "ok";
  static final String INFO = "info";
  static final String ERROR = "error";
  static final String REFUSED = "refused";
  private static final Map<String, String> SYMBOLS = new HashMap<>();

  static {
    SYMBOLS.put(OK, "\u2713");      // check mark
    SYMBOLS.put(INFO, "i");
    SYMBOLS.put(ERROR, "!");
    SYMBOLS.put(REFUSED, "\u2715"); // multiplication x
  }

  /**
   * One column on a phone, a card from 40em up. Inputs are 1.25rem (20 px): browsers zoom into
   * anything under 16 px. Colours meet WCAG AA contrast in both schemes.
   */
  private static final String STYLE = "*{box-sizing:border-box}"
      + "html{-webkit-text-size-adjust:100%;--bg:#eef1f6;--card:#fff;--ink:#1b1f24;--muted:#4f5966;--line:#c3cad5;"
      + "--accent:#2348b8;--ok-bg:#e6f4ea;--ok:#0f5132;--info-bg:#e8f0fe;--info:#173a8c;--err-bg:#fdecea;"
      + "--err:#8c1d18;--off-bg:#eceef1;--off:#3b4350}"
      + "@media (prefers-color-scheme:dark){html{--bg:#0f1217;--card:#1a1f27;--ink:#e8ebf0;--muted:#aab3bf;"
      + "--line:#3a4350;--accent:#8fb0ff;--ok-bg:#12301f;--ok:#9be0b4;--info-bg:#172640;--info:#b5caff;"
      + "--err-bg:#3b1715;--err:#ffb4ab;--off-bg:#262c35;--off:#c4cbd6}}"
      + "body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,'Segoe UI',"
      + "Roboto,'Noto Sans',sans-serif}"
      + "main{background:var(--card);min-height:100vh;padding:1.25rem 1.25rem 2rem;max-width:32rem;margin:0 auto}"
      + "@media (min-width:40em){body{padding:3rem 1rem}main{min-height:0;border-radius:16px;padding:2rem 2.5rem;"
      + "box-shadow:0 6px 30px rgba(0,0,0,.12)}}"
      + ".brand{margin:0 0 .75rem;font-weight:700;letter-spacing:.06em;color:var(--accent)}"
      + "h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem}p{margin:0 0 1rem}"
      + ".steps{display:flex;gap:.5rem;list-style:none;padding:0;margin:0 0 1.25rem;font-size:.9rem;color:var(--muted)}"
      + ".steps li{flex:1;border-top:4px solid var(--line);padding-top:.3rem}"
      + ".steps .done,.steps .now{border-color:var(--accent)}.steps .now{color:var(--ink);font-weight:700}"
      + ".device{border:2px dashed var(--line);border-radius:12px;padding:.75rem 1rem;margin:0 0 1.25rem;text-align:center}"
      + ".device span{display:block;font-size:.9rem;color:var(--muted)}"
      + ".device code{display:block;font:700 2rem/1.25 ui-monospace,Menlo,Consolas,'DejaVu Sans Mono',monospace;"
      + "letter-spacing:.12em;overflow-wrap:anywhere}"
      + "code{font-family:ui-monospace,Menlo,Consolas,'DejaVu Sans Mono',monospace}"
      + "label{display:block;font-weight:600;margin:0 0 1rem}"
      + "input{display:block;width:100%;margin-top:.4rem;font:inherit;font-size:1.25rem;min-height:3.25rem;"
      + "padding:.6rem .8rem;border:2px solid var(--line);border-radius:10px;background:var(--card);color:var(--ink)}"
      + "input:focus{outline:3px solid var(--accent);outline-offset:1px}"
      + "#sms_code,#user_code{font-family:ui-monospace,Menlo,Consolas,'DejaVu Sans Mono',monospace;letter-spacing:.2em}"
      + "form{margin:0 0 1rem}"
      + "button{display:block;width:100%;min-height:3.25rem;padding:.6rem 1rem;border:2px solid var(--accent);"
      + "border-radius:10px;background:var(--accent);color:var(--card);font:inherit;font-size:1.15rem;font-weight:700;"
      + "cursor:pointer}"
      + "button.secondary,button.refuse{background:transparent;color:var(--accent)}"
      + "button.refuse{border-color:var(--err);color:var(--err)}"
      + ".buttons{display:flex;flex-direction:column;gap:.75rem}.buttons form{margin:0;flex:1}"
      + "@media (min-width:40em){.buttons{flex-direction:row}}"
      + ".state{display:flex;gap:.75rem;align-items:flex-start;border-radius:12px;padding:.9rem 1rem;margin:0 0 1.25rem}"
      + ".state p{margin:0;font-weight:600}"
      + ".icon{flex:none;width:1.9rem;height:1.9rem;border-radius:50%;display:flex;align-items:center;"
      + "justify-content:center;font-weight:700;color:var(--card)}"
      + ".ok{background:var(--ok-bg);color:var(--ok)}.ok .icon{background:var(--ok)}"
      + ".info{background:var(--info-bg);color:var(--info)}.info .icon{background:var(--info)}"
      + ".error{background:var(--err-bg);color:var(--err)}.error .icon{background:var(--err)}"
      + ".refused{background:var(--off-bg);color:var(--off)}.refused .icon{background:var(--off)}"
      + ".hint{color:var(--muted);font-size:.95rem}";

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
