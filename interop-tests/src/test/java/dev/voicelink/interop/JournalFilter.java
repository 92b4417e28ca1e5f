package dev.voicelink.interop;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.util.ContentCachingResponseWrapper;

/** The first filter of the server: records every request and its answer into the {@link Journal}. */
final class JournalFilter extends HttpFilter {
  private static final List<String> KEPT_RESPONSE_HEADERS =
      List.of("Cache-Control", "Pragma", "Location", "WWW-Authenticate");

  private final Journal journal;

  JournalFilter(Journal journal) {
    this.journal = journal;
  }

  @Override protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    long received = System.nanoTime();
    long sequence = journal.nextSequence();
    // Reading the parameters parses a form body once; the server's own filters read the same parsed values.
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
      parameters.put(parameter.getKey(), Arrays.asList(parameter.getValue()));
    }
    String authorization = request.getHeader("Authorization");
    String scheme = null;
    String basicClientId = null;
    if (authorization != null) {
      int space = authorization.indexOf(' ');
      scheme = space < 0 ? authorization : authorization.substring(0, space);
      if (space > 0 && scheme.equalsIgnoreCase("Basic")) basicClientId = basicUser(authorization.substring(space + 1));
    }
    ContentCachingResponseWrapper recorded = new ContentCachingResponseWrapper(response);
    try {
      chain.doFilter(request, recorded);
    } finally {
      Map<String, String> headers = new LinkedHashMap<>();
      for (String name : KEPT_RESPONSE_HEADERS) {
        String value = recorded.getHeader(name);
        if (value != null) headers.put(name, value);
      }
      journal.add(new Exchange(sequence, received, request.getMethod(), request.getRequestURI(), request.getQueryString(),
          request.getContentType(), parameters, scheme, basicClientId, recorded.getStatus(), recorded.getContentType(),
          headers, new String(recorded.getContentAsByteArray(), StandardCharsets.UTF_8)));
      recorded.copyBodyToResponse();
    }
  }

  private static String basicUser(String credentials) {
    try {
      String decoded = new String(Base64.getDecoder().decode(credentials.trim()), StandardCharsets.UTF_8);
      int colon = decoded.indexOf(':');
      return URLDecoder.decode(colon < 0 ? decoded : decoded.substring(0, colon), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notBase64) {
      return "(not Base64)";
    }
  }
}
