package dev.voicelink.testing;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;

/**
 * A tester who approves or refuses a device on the real verification page, over HTTP, step by step:
 * open {@code {verification_uri}?user_code=...}, send a code to the phone, read the "SMS" from the server,
 * sign in, press Authorize or Refuse.
 *
 * <pre>{@code
 * new SimulatedTester(server).approve(userCode);
 * }</pre>
 *
 * <p>Blocking; safe to use from any thread; each call is a complete, independent visit to the page.
 */
public final class SimulatedTester {
  private static final Pattern SESSION = Pattern.compile("name=\"session\" value=\"([^\"]+)\"");
  private static final Pattern ERROR = Pattern.compile("id=\"error\">([^<]*)<");

  private final Page page;
  private final String phone;
  /** One client for all testers: its threads and connections are shared, as OkHttp recommends. */
  private static final OkHttpClient HTTP = new OkHttpClient.Builder()
      .callTimeout(10, TimeUnit.SECONDS)
      .build();

  /** A tester using {@link DefaultConsole#TESTER_PHONE}. */
  public SimulatedTester(ReferenceServer server) {
    this(server, DefaultConsole.TESTER_PHONE);
  }

  public SimulatedTester(final ReferenceServer server, String phone) {
    if (server == null) throw new IllegalArgumentException("server must not be null");
    this.page = new Page() {
      @Override public String verificationUri() {
        return server.verificationUri();
      }

      @Override public @Nullable String lastSmsCode(String to) {
        return server.lastSmsCode(to);
      }
    };
    this.phone = requirePhone(phone);
  }

  /**
   * A tester on the page of a server running elsewhere, for example one started standalone: {@code
   * inbox} reads the codes it prints ("SMS to PHONE: verification code CODE"), as a {@link
   * StandaloneServerOutput} does.
   */
  public SimulatedTester(final String verificationUri, String phone, final SmsInbox inbox) {
    if (verificationUri == null || verificationUri.isEmpty()) {
      throw new IllegalArgumentException("verificationUri must not be empty");
    }
    if (inbox == null) throw new IllegalArgumentException("inbox must not be null");
    this.page = new Page() {
      @Override public String verificationUri() {
        return verificationUri;
      }

      @Override public @Nullable String lastSmsCode(String to) {
        return inbox.lastSmsCode(to);
      }
    };
    this.phone = requirePhone(phone);
  }

  /**
   * Where a tester reads the one-time code the verification page "texted" to a phone. Called on the
   * thread that calls {@link #approve} or {@link #refuse}, right after the page sent the code: an
   * inbox fed by another process's output may have to wait for the line.
   */
  public interface SmsInbox {
    /** The last code sent to {@code phone}, or null if none was. */
    @Nullable String lastSmsCode(String phone);
  }

  private interface Page extends SmsInbox {
    String verificationUri();
  }

  private static String requirePhone(String phone) {
    if (phone == null || phone.isEmpty()) throw new IllegalArgumentException("phone must not be empty");
    return phone;
  }

  /** Signs in and presses Authorize. @throws IllegalStateException with the page's message if a step is refused */
  public void approve(String userCode) throws IOException {
    decide(userCode, "authorize");
  }

  /** Signs in and presses Refuse. @throws IllegalStateException with the page's message if a step is refused */
  public void refuse(String userCode) throws IOException {
    decide(userCode, "refuse");
  }

  private void decide(String userCode, String decision) throws IOException {
    String verify = page.verificationUri();
    HttpUrl start = HttpUrl.get(verify).newBuilder().addQueryParameter("user_code", userCode).build();
    page(new Request.Builder().url(start).build(), "open the verification page");
    page(post(verify + "/send-code", new FormBody.Builder().add("user_code", userCode).add("phone", phone).build()),
        "send the SMS code");
    String sms = page.lastSmsCode(phone);
    if (sms == null) throw new IllegalStateException("no SMS code was sent to " + VerificationPage.mask(phone));
    String confirm = page(post(verify + "/login", new FormBody.Builder().add("user_code", userCode).add("phone", phone)
        .add("sms_code", sms).build()), "sign in");
    Matcher session = SESSION.matcher(confirm);
    if (!session.find()) throw new IllegalStateException("the confirmation page has no session field");
    page(post(verify + "/decide", new FormBody.Builder().add("session", session.group(1)).add("decision", decision)
        .build()), "press " + decision);
  }

  private static Request post(String url, FormBody form) {
    return new Request.Builder().url(url).post(form).build();
  }

  private String page(Request request, String step) throws IOException {
    try (Response response = HTTP.newCall(request).execute()) {
      ResponseBody body = response.body();
      String html = body == null ? "" : body.string();
      if (!response.isSuccessful()) {
        Matcher m = ERROR.matcher(html);
        throw new IllegalStateException("could not " + step + ": HTTP " + response.code()
            + (m.find() ? ": " + m.group(1) : ""));
      }
      return html;
    }
  }

  @Override public String toString() {
    return "SimulatedTester{phone=" + VerificationPage.mask(phone) + "}";
  }
}
