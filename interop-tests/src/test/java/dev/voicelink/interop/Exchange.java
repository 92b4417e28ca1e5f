package dev.voicelink.interop;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One request that {@link StandardAuthServer} received and what it answered, as its journal recorded it.
 * Values are kept as received so that tests can compare them; {@link #toString()} masks every secret
 * (client secrets, passwords, device codes, tokens), so a failing assertion prints none. The
 * {@code Authorization} header is never kept: only its scheme and, for HTTP Basic, the client id. Immutable.
 */
public final class Exchange {
  /** Request parameters whose values are secrets. */
  static final Set<String> SECRET_PARAMETERS = Set.of("client_secret", "password", "device_code", "refresh_token",
      "code", "code_verifier", "client_assertion", "assertion", "token", "access_token", "_csrf");
  /** JSON members of an answer whose values are secrets. */
  static final Pattern SECRET_MEMBERS =
      Pattern.compile("\"(access_token|refresh_token|id_token|device_code)\"\\s*:\\s*\"[^\"]*\"");

  private final long sequence;
  private final long receivedNanos;
  private final String method;
  private final String path;
  private final String query;
  private final String contentType;
  private final Map<String, List<String>> parameters;
  private final String authorizationScheme;
  private final String basicClientId;
  private final int status;
  private final String responseContentType;
  private final Map<String, String> responseHeaders;
  private final String responseBody;

  Exchange(long sequence, long receivedNanos, String method, String path, String query, String contentType,
      Map<String, List<String>> parameters, String authorizationScheme, String basicClientId, int status,
      String responseContentType, Map<String, String> responseHeaders, String responseBody) {
    this.sequence = sequence;
    this.receivedNanos = receivedNanos;
    this.method = method;
    this.path = path;
    this.query = query;
    this.contentType = contentType;
    this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    this.authorizationScheme = authorizationScheme;
    this.basicClientId = basicClientId;
    this.status = status;
    this.responseContentType = responseContentType;
    this.responseHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(responseHeaders));
    this.responseBody = responseBody;
  }

  /** Its place in the journal, from 1. */
  public long sequence() { return sequence; }
  /**
   * When the request arrived, on {@link System#nanoTime()}'s clock: the gaps between a device's polls are
   * differences of these.
   */
  public long receivedNanos() { return receivedNanos; }
  public String method() { return method; }
  /** The path, without the query. */
  public String path() { return path; }
  /** The raw query string, or null when the URL had none. */
  public String query() { return query; }
  /** The request's Content-Type, or null. */
  public String contentType() { return contentType; }
  /** Every request parameter (query and form body) in the order received, each with all its values. */
  public Map<String, List<String>> parameters() { return parameters; }

  /** The single value of a parameter, or null when absent; fails when the parameter was repeated. */
  public String param(String name) {
    List<String> values = parameters.get(name);
    if (values == null) return null;
    if (values.size() != 1) throw new IllegalStateException(name + " was sent " + values.size() + " times");
    return values.get(0);
  }

  /** The names of the parameters sent. */
  public Set<String> parameterNames() { return parameters.keySet(); }

  /** The scheme of the Authorization header ({@code Basic}, {@code Bearer}, as sent), or null without one. */
  public String authorizationScheme() { return authorizationScheme; }

  /** For HTTP Basic: the client id it carried (form-urlencoded per RFC 6749 2.3.1, decoded); else null. */
  public String basicClientId() { return basicClientId; }

  public int status() { return status; }
  public String responseContentType() { return responseContentType; }
  /** Headers of the answer worth asserting on: Cache-Control, Pragma, Location, WWW-Authenticate. */
  public Map<String, String> responseHeaders() { return responseHeaders; }
  /** The answer's body as text ("" when it had none). */
  public String responseBody() { return responseBody; }

  /** The answer's JSON body as a map (numbers as Double), for JSON answers. */
  public Map<String, Object> responseJson() {
    return Wire.json(responseBody);
  }

  static String maskJson(String body) {
    Matcher m = SECRET_MEMBERS.matcher(body);
    return m.replaceAll("\"$1\":\"[masked]\"");
  }

  @Override public String toString() {
    StringBuilder out = new StringBuilder().append('#').append(sequence).append(' ').append(method).append(' ')
        .append(path);
    if (!parameters.isEmpty()) {
      out.append(" {");
      String separator = "";
      for (Map.Entry<String, List<String>> parameter : parameters.entrySet()) {
        boolean secret = SECRET_PARAMETERS.contains(parameter.getKey());
        for (String value : parameter.getValue()) {
          out.append(separator).append(parameter.getKey()).append('=').append(secret ? "[masked]" : value);
          separator = ", ";
        }
      }
      out.append('}');
    }
    if (authorizationScheme != null) {
      out.append(" Authorization: ").append(authorizationScheme);
      if (basicClientId != null) out.append(" (client ").append(basicClientId).append(')');
      out.append(" [masked]");
    }
    out.append(" -> ").append(status);
    if (responseContentType != null && responseContentType.contains("json")) {
      out.append(' ').append(maskJson(responseBody));
    } else if (responseHeaders.containsKey("Location")) {
      out.append(" Location: ").append(responseHeaders.get("Location"));
    }
    return out.toString();
  }
}
