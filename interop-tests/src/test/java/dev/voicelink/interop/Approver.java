package dev.voicelink.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Cookie;
import okhttp3.CookieJar;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jsoup.Connection.KeyVal;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.FormElement;

/**
 * A person approving (or refusing) a device on the server's own pages, over HTTP as a browser without
 * scripts does it: one session with its cookies, every redirect followed, each page's form read and
 * submitted with its hidden fields (the login page's CSRF token, the consent page's state). Where the
 * consent page's Cancel button runs a script (clear every box, then submit), the approver submits the form
 * with no box ticked, which is what that script sends.
 *
 * <p>Start from {@code verification_uri} and type the user code ({@link #approve}, {@link #deny}), or follow
 * {@code verification_uri_complete} ({@link #approveAt}, {@link #denyAt}). Each call is a new browser session.
 * Thread-safe (nothing is shared between calls).
 */
public final class Approver {
  private Approver() {}

  /** What the person does on the consent page. */
  public enum Decision { APPROVE, DENY }

  /** How many pages a person goes through at most before the approver gives up. */
  static final int MAX_PAGES = 12;

  /**
   * The page the person ended on, and every request on the way ({@code METHOD path -> status}, secrets not
   * included). Immutable.
   */
  public record Outcome(int status, String url, String title, String text, List<String> steps) {
    /** True when the person landed on the server's success page. */
    public boolean connected() {
      HttpUrl parsed = HttpUrl.get(url);
      return status == 200 && parsed.encodedPath().equals("/") && parsed.queryParameterNames().contains("success");
    }
  }

  /** Opens {@code verification_uri}, signs in as {@code user}, types {@code userCode} and approves every scope. */
  public static Outcome approve(StandardAuthServer server, String userCode, InteropAccounts.User user) {
    return decide(server.verificationUri(), userCode, user, Decision.APPROVE);
  }

  /** Opens {@code verification_uri}, signs in as {@code user}, types {@code userCode} and presses Cancel. */
  public static Outcome deny(StandardAuthServer server, String userCode, InteropAccounts.User user) {
    return decide(server.verificationUri(), userCode, user, Decision.DENY);
  }

  /** Follows {@code verification_uri_complete} (the link or QR code), signs in and approves every scope. */
  public static Outcome approveAt(String verificationUriComplete, InteropAccounts.User user) {
    return decide(verificationUriComplete, null, user, Decision.APPROVE);
  }

  /** Follows {@code verification_uri_complete}, signs in and presses Cancel. */
  public static Outcome denyAt(String verificationUriComplete, InteropAccounts.User user) {
    return decide(verificationUriComplete, null, user, Decision.DENY);
  }

  /**
   * Opens {@code startUrl} and goes through what the server shows: the login page (signs in as {@code user}),
   * the code page (types {@code userCode}; null when the URL carries it), the consent page ({@code decision}).
   * Stops on the first page that is none of these, or on one of them shown a second time (a wrong password,
   * an unknown code): that page is the outcome.
   */
  public static Outcome decide(String startUrl, String userCode, InteropAccounts.User user, Decision decision) {
    Session session = new Session();
    Page page = session.get(startUrl);
    boolean signedIn = false;
    boolean typed = false;
    boolean decided = false;
    for (int pages = 0; pages < MAX_PAGES; pages++) {
      Document document = Jsoup.parse(page.body, page.url);
      FormElement login = form(document, "form:has(input[name=username]):has(input[name=password])");
      FormElement code = form(document, "form:has(input[name=user_code]:not([type=hidden]))");
      FormElement consent = form(document, "form[name=consent_form]");
      if (login != null && !signedIn) {
        login.selectFirst("input[name=username]").val(user.username());
        login.selectFirst("input[name=password]").val(user.password());
        signedIn = true;
        page = session.submit(login);
      } else if (code != null && userCode != null && !typed) {
        code.selectFirst("input[name=user_code]").val(userCode);
        typed = true;
        page = session.submit(code);
      } else if (consent != null && !decided) {
        for (Element box : consent.select("input[type=checkbox][name=scope]:not([disabled])")) {
          if (decision == Decision.APPROVE) box.attr("checked", "checked");
          else box.removeAttr("checked");
        }
        decided = true;
        page = session.submit(consent);
      } else {
        return new Outcome(page.status, page.url, document.title(), document.body() == null ? "" : document.body().text(),
            List.copyOf(session.steps));
      }
    }
    throw new IllegalStateException("no end after " + MAX_PAGES + " pages: " + session.steps);
  }

  private static FormElement form(Document document, String selector) {
    Element found = document.selectFirst(selector);
    return found instanceof FormElement form ? form : null;
  }

  private record Page(int status, String url, String body) {}

  /** One browser: its cookies, redirects followed one by one (and counted), HTML asked for. */
  private static final class Session {
    final List<String> steps = new ArrayList<>();
    private final Map<String, Cookie> cookies = new HashMap<>();
    private final OkHttpClient http = Wire.HTTP.newBuilder()
        .cookieJar(new CookieJar() {
          @Override public void saveFromResponse(HttpUrl url, List<Cookie> received) {
            synchronized (cookies) {
              for (Cookie cookie : received) cookies.put(cookie.name(), cookie);
            }
          }

          @Override public List<Cookie> loadForRequest(HttpUrl url) {
            synchronized (cookies) {
              List<Cookie> matching = new ArrayList<>();
              for (Cookie cookie : cookies.values()) if (cookie.matches(url)) matching.add(cookie);
              return matching;
            }
          }
        })
        .connectTimeout(10, TimeUnit.SECONDS)
        .build();

    Page get(String url) {
      return follow(new Request.Builder().url(url).get());
    }

    Page submit(FormElement form) {
      String action = form.absUrl("action");
      if (action.isEmpty()) action = form.ownerDocument().location();
      List<KeyVal> fields = form.formData();
      if ("post".equalsIgnoreCase(form.attr("method"))) {
        FormBody.Builder body = new FormBody.Builder();
        for (KeyVal field : fields) body.add(field.key(), field.value());
        return follow(new Request.Builder().url(action).post(body.build()));
      }
      HttpUrl.Builder url = HttpUrl.get(action).newBuilder().query(null);
      for (KeyVal field : fields) url.addQueryParameter(field.key(), field.value());
      return follow(new Request.Builder().url(url.build()).get());
    }

    private Page follow(Request.Builder request) {
      Request next = request.header("Accept", "text/html,application/xhtml+xml").build();
      for (int hops = 0; hops < MAX_PAGES; hops++) {
        try (Response response = http.newCall(next).execute()) {
          String location = response.header("Location");
          steps.add(next.method() + " " + next.url().encodedPath() + " -> " + response.code()
              + (location == null ? "" : " " + HttpUrl.get(next.url().toString()).resolve(location).encodedPath()));
          if (response.isRedirect() && location != null) {
            HttpUrl target = next.url().resolve(location);
            if (target == null) throw new IllegalStateException("bad redirect: " + location);
            next = new Request.Builder().url(target).header("Accept", "text/html,application/xhtml+xml").get().build();
            continue;
          }
          return new Page(response.code(), next.url().toString(), response.body().string());
        } catch (IOException e) {
          throw new UncheckedIOException(next.method() + " " + next.url().encodedPath() + " failed", e);
        }
      }
      throw new IllegalStateException("more than " + MAX_PAGES + " redirects: " + steps);
    }
  }
}
