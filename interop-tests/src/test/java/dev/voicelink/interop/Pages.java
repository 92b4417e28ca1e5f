package dev.voicelink.interop;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.util.HtmlUtils;

/**
 * The two pages the server leaves to each deployment (its reference documentation shows them as part of
 * the application): where a person types the code shown on the device ({@code verification_uri} without a
 * code), and where they land after approving ({@code /?success}). Plain forms, no script, nothing loaded
 * from elsewhere. Everything else here is the server's own: login, consent, errors.
 */
final class Pages extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final String verificationPath;

  Pages(String verificationPath) {
    this.verificationPath = verificationPath;
  }

  @Override protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String path = request.getRequestURI();
    if (path.equals(verificationPath)) {
      page(response, "Connect a device", "<h1>Connect a device</h1>"
          + "<form id=\"activate\" method=\"get\" action=\"" + HtmlUtils.htmlEscape(verificationPath) + "\">"
          + "<label for=\"user_code\">Enter the code shown on your device</label>"
          + "<input id=\"user_code\" name=\"user_code\" autocomplete=\"off\" autofocus>"
          + "<button id=\"submit-code\" type=\"submit\">Continue</button></form>");
    } else if (path.equals("/") && request.getParameter("success") != null) {
      page(response, "Device connected", "<h1 id=\"connected\">Device connected</h1>"
          + "<p>You may close this page and go back to your device.</p>");
    } else {
      response.sendError(HttpServletResponse.SC_NOT_FOUND);
    }
  }

  private static void page(HttpServletResponse response, String title, String body) throws IOException {
    response.setContentType("text/html;charset=UTF-8");
    response.setHeader("Cache-Control", "no-store");
    response.getWriter().write("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" + title + "</title>"
        + "</head><body><main>" + body + "</main></body></html>");
  }
}
