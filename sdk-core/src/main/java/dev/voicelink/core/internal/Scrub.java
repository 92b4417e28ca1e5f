package dev.voicelink.core.internal;

import com.squareup.moshi.JsonReader;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.Buffer;
import okio.ByteString;

/**
 * Takes the secrets out of text that is about to be logged: header values, query strings, form and
 * JSON bodies. What counts as a secret is decided by name, so that a value never seen before is
 * caught too.
 */
public final class Scrub {
  static final String REDACTED = "‹redacted›";
  /**
   * A value after a secret name in free text: {@code name=v}, {@code name: v}, {@code "name":"v"},
   * {@code "name"=>"v"}, {@code [name] => v}, {@code <name>v} (an error page that echoes the request; a closing tag's name is not one), the
   * names in snake or camel case, within a longer name too ({@code user_password}): and every word
   * that ends in {@code token}, as {@link #isSecretName} has it, and {@code Authorization}, whose
   * value the platform takes without a scheme (a scheme before the value is kept).
   */
  private static final Pattern TEXT_SECRET = Pattern.compile(
      "(?i)((?:(?<!/)(?:access_?token|refresh_?token|id_?token|client_?secret|device_?code"
          + "|sms_?code|verification_?code|account_?key|password|x-checksum|x-nonce"
          + "|(?:proxy-)?authorization)|(?<![/\\w-])[a-z0-9_-]*token)"
          + "[\"'\\]]?\\s*(?:=>|[:=>])\\s*[\"']?(?:(?:bearer|basic)\\s+)?)([^\"'&\\s,;}<]+)");
  /** The credentials of an {@code Authorization} value: a bearer token, or Basic id and secret. */
  private static final Pattern BEARER =
      Pattern.compile("(?i)(\\b(?:bearer|basic)\\s+)[A-Za-z0-9._~+/=-]+");
  /** An {@code Authorization} value's scheme and credentials. */
  private static final Pattern CREDENTIAL = Pattern.compile("(?i)(bearer|basic)\\s+(\\S+)");
  /** Secrets shorter than this are not looked for in a server's text. */
  static final int MIN_ECHO_LENGTH = 6;
  /** A request body larger than this is not read again for its secrets: the SDK's own are small. */
  private static final long MAX_SECRETS_BODY_BYTES = 64 * 1024;
  private Scrub() {
  }

  /** Whether a header, form field, query parameter or JSON member of this name holds a secret. */
  public static boolean isSecretName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    String joined = n.replace("_", "").replace("-", "");
    return n.endsWith("token") || n.contains("secret") || n.contains("password")
        || joined.equals("devicecode") || joined.equals("smscode") || joined.equals("verificationcode")
        || joined.equals("accountkey")
        || n.equals("authorization") || n.equals("proxy-authorization")
        || n.equals("cookie") || n.equals("set-cookie")
        // The web API's signature: whoever has it can replay the request for 5 minutes.
        || n.equals("x-checksum") || n.equals("x-nonce");
  }

  /** A secret value as it may be logged: a fingerprint when it is long enough, else nothing. */
  public static String value(String secret) {
    // Shorter values are shown as REDACTED: a fingerprint of a 6-digit code is reversible.
    return secret.length() >= Redact.FINGERPRINT_MIN_LENGTH ? Redact.secret(secret) : REDACTED;
  }

  /** The value of a header as it may be logged; an address (a redirect's) loses its secrets too. */
  public static String header(String name, String value) {
    if (isSecretName(name)) return value(value);
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals("location") || n.equals("content-location") || n.equals("link")
        || n.equals("refresh")) {
      return address(value);
    }
    return value;
  }

  /**
   * An endpoint given as text, as a record or message shows it: its secret query parameters (any
   * name {@link #isSecretName} takes, such as {@code app_secret}) redacted; text that is not an
   * address as {@link #address} shows it. Null stays null.
   */
  public static @Nullable String endpoint(@Nullable String text) {
    if (text == null) return null;
    HttpUrl url = HttpUrl.parse(text);
    return url != null ? url(url) : address(text);
  }

  /** The address with the values of secret query parameters redacted. */
  public static String url(HttpUrl url) {
    if (url.querySize() == 0) return url.toString();
    String text = url.toString();
    StringBuilder out = new StringBuilder(text.substring(0, text.indexOf('?') + 1));
    for (int i = 0; i < url.querySize(); i++) {
      if (i > 0) out.append('&');
      String name = url.queryParameterName(i);
      String value = url.queryParameterValue(i);
      out.append(name);
      if (value != null) {
        out.append('=').append(isSecretName(name) ? value(value) : value);
      }
    }
    return out.toString();
  }

  /**
   * A form body ({@code a=1&b=2}) with the values of secret fields redacted. {@code bulkField}, when
   * given, names a field shown only by its length. A cut-off body ({@code truncated}) may end inside
   * a value: a secret one is then redacted without a fingerprint.
   */
  public static String form(String body, @Nullable String bulkField, boolean truncated) {
    StringBuilder out = new StringBuilder(body.length());
    String[] pairs = body.split("&", -1);
    for (int i = 0; i < pairs.length; i++) {
      if (i > 0) out.append('&');
      String pair = pairs[i];
      int eq = pair.indexOf('=');
      if (eq < 0) {
        out.append(pair);
        continue;
      }
      String name = decodeForm(pair.substring(0, eq));
      String raw = pair.substring(eq + 1);
      boolean last = i == pairs.length - 1;
      out.append(pair, 0, eq + 1);
      if (name.equals(bulkField)) {
        out.append("‹").append(raw.length()).append(last && truncated ? "+" : "")
            .append(" characters›");
      } else if (isSecretName(name)) {
        out.append(last && truncated ? REDACTED : value(decodeForm(raw)));
      } else {
        out.append(raw);
      }
    }
    return out.toString();
  }

  /**
   * A JSON text with the values of secret members redacted, compacted. {@code bulkField}, when given,
   * names a member shown only by its size. Text after a point where the JSON ends early ({@code
   * truncated}) or is not JSON is left out, with a note.
   */
  public static String json(String text, @Nullable String bulkField, boolean truncated) {
    JsonReader reader = JsonReader.of(new Buffer().writeUtf8(text));
    reader.setLenient(true);
    JsonText writer = JsonText.serializingNulls();
    String note = "";
    try {
      copy(reader, writer, bulkField);
    } catch (IOException | RuntimeException e) {
      note = truncated || e instanceof EOFException ? "…" : "… (not JSON from here on; left out)";
    }
    return writer.text() + note;
  }

  private static void copy(JsonReader reader, JsonText writer, @Nullable String bulkField)
      throws IOException {
    while (true) {
      switch (reader.peek()) {
        case BEGIN_OBJECT: reader.beginObject(); writer.beginObject(); break;
        case END_OBJECT: reader.endObject(); writer.endObject(); break;
        case BEGIN_ARRAY: reader.beginArray(); writer.beginArray(); break;
        case END_ARRAY: reader.endArray(); writer.endArray(); break;
        case NAME: {
          String name = reader.nextName();
          writer.name(name);
          if (isSecretName(name)) {
            writer.value(reader.peek() == JsonReader.Token.STRING
                ? value(reader.nextString()) : skip(reader, REDACTED));
          } else if (name.equals(bulkField)) {
            writer.value(bulk(reader));
          }
          break;
        }
        case STRING: writer.value(named(reader.nextString())); break; // free text may name one
        case NUMBER: writer.rawValue(reader.nextString()); break;
        case BOOLEAN: writer.value(reader.nextBoolean()); break;
        case NULL: writer.nullValue(); reader.nextNull(); break;
        case END_DOCUMENT: return;
        default: throw new IOException("unexpected " + reader.peek());
      }
    }
  }

  private static String bulk(JsonReader reader) throws IOException {
    switch (reader.peek()) {
      case STRING: return "‹" + reader.nextString().length() + " characters›";
      case BEGIN_ARRAY: {
        int items = 0;
        reader.beginArray();
        while (reader.hasNext()) {
          reader.skipValue();
          items++;
        }
        reader.endArray();
        return "‹" + items + " records›";
      }
      default: return skip(reader, "‹left out›");
    }
  }

  private static String skip(JsonReader reader, String shown) throws IOException {
    reader.skipValue();
    return shown;
  }

  /**
   * Text a server sent in answer to {@code request}, such as an error's description, as it may be
   * told: without the secrets that request carried, which a server may echo ("refresh token rt-…
   * is revoked"), and as {@link #text}.
   */
  public static String serverText(Request request, String text) {
    return echoesOf(request).inServerText(text);
  }

  /**
   * {@code request} as it is sent, remembering the body the SDK built (in memory) under a tag that
   * survives the interceptors: {@link #withoutSecretsOf} reads that body again, never the one on the
   * wire, which an app's interceptor may have wrapped (a progress counter, a body written from a
   * file).
   */
  public static Request rememberingBody(Request request) {
    RequestBody body = request.body();
    return body == null ? request : request.newBuilder().tag(BuiltBody.class, new BuiltBody(body)).build();
  }

  /**
   * {@code text} with every secret that {@code request} carried redacted where it appears: the values
   * of its secret headers (and the credentials inside them), secret query parameters, and secret
   * fields of the form or JSON body the SDK built ({@link #rememberingBody}). Values shorter than
   * {@value #MIN_ECHO_LENGTH} characters are left, as they would match ordinary text.
   */
  public static String withoutSecretsOf(Request request, String text) {
    return echoesOf(request).from(text);
  }

  /** The secrets {@code request} carried, to take out of the several texts of its answer. */
  public static Echoes echoesOf(Request request) {
    return new Echoes(request);
  }

  /**
   * The secrets one request carried, collected once, at the first text long enough to hold one, and
   * redacted from every text of its answer that is told: the status line, headers and body, each
   * field. Thread-safe: a channel's texts come on its socket's threads.
   */
  public static final class Echoes {
    private final Request request;
    /** Longest first, so that a secret containing another is redacted whole; null until needed. */
    private volatile @Nullable List<String> longestFirst;

    Echoes(Request request) {
      this.request = request;
    }

    /** {@code text} without the request's secrets, as {@link #withoutSecretsOf} says. */
    public String from(String text) {
      if (text.length() < MIN_ECHO_LENGTH) return text;
      List<String> secrets = longestFirst;
      if (secrets == null) {
        // Two threads may both collect: the same list, at no other cost.
        secrets = new ArrayList<>();
        for (String secret : secretsOf(request)) {
          if (secret.length() >= MIN_ECHO_LENGTH) secrets.add(secret);
        }
        Collections.sort(secrets, (a, b) -> b.length() - a.length());
        longestFirst = secrets;
      }
      String out = text;
      for (String secret : secrets) out = out.replace(secret, REDACTED);
      return out;
    }

    /** A server's text as it may be told, as {@link #serverText} says. */
    public String inServerText(String text) {
      return text(from(text));
    }
  }

  private static List<String> secretsOf(Request request) {
    List<String> secrets = new ArrayList<>();
    Headers headers = request.headers();
    for (int i = 0; i < headers.size(); i++) {
      if (!isSecretName(headers.name(i))) continue;
      String value = headers.value(i);
      secrets.add(value);
      Matcher credential = CREDENTIAL.matcher(value);
      if (credential.matches()) {
        secrets.add(credential.group(2));
        if (credential.group(1).equalsIgnoreCase("basic")) addBasic(secrets, credential.group(2));
      }
    }
    HttpUrl url = request.url();
    String query = url.encodedQuery();
    if (query != null) addFormSecrets(secrets, query);
    BuiltBody built = request.tag(BuiltBody.class);
    RequestBody body = built == null ? null : built.body;
    MediaType type = body == null ? null : body.contentType();
    if (body == null || type == null) return secrets;
    try {
      if (body.contentLength() < 0 || body.contentLength() > MAX_SECRETS_BODY_BYTES) return secrets;
      Buffer buffer = new Buffer();
      body.writeTo(buffer);
      String subtype = type.subtype().toLowerCase(Locale.ROOT);
      if (subtype.equals("x-www-form-urlencoded")) {
        addFormSecrets(secrets, buffer.readUtf8());
      } else if (subtype.contains("json")) {
        addJsonSecrets(secrets, JsonReader.of(buffer));
      }
    } catch (IOException | RuntimeException e) {
      // not readable after all: its secrets in headers and the address are what is known
    }
    return secrets;
  }

  /** The values of secret fields of {@code encoded} ({@code a=1&b=2}), as sent and decoded. */
  private static void addFormSecrets(List<String> secrets, String encoded) {
    for (String pair : encoded.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && isSecretName(decodeForm(pair.substring(0, eq)))) {
        secrets.add(pair.substring(eq + 1));
        secrets.add(decodeForm(pair.substring(eq + 1)));
      }
    }
  }

  /** The body the SDK built for a request, before any interceptor. */
  private static final class BuiltBody {
    final RequestBody body;

    BuiltBody(RequestBody body) {
      this.body = body;
    }
  }

  /** The id and the secret of a Basic credential, as sent (form-encoded) and decoded. */
  private static void addBasic(List<String> secrets, String encoded) {
    ByteString decoded = ByteString.decodeBase64(encoded);
    if (decoded == null) return;
    String idAndSecret = decoded.utf8();
    int colon = idAndSecret.indexOf(':');
    if (colon < 0) return;
    String secret = idAndSecret.substring(colon + 1);
    secrets.add(secret);
    secrets.add(decodeForm(secret));
  }

  /** The string values of secret members, at any depth. */
  private static void addJsonSecrets(List<String> secrets, JsonReader reader) throws IOException {
    reader.setLenient(true);
    String name = null;
    while (reader.peek() != JsonReader.Token.END_DOCUMENT) {
      switch (reader.peek()) {
        case BEGIN_OBJECT: reader.beginObject(); break;
        case END_OBJECT: reader.endObject(); break;
        case BEGIN_ARRAY: reader.beginArray(); break;
        case END_ARRAY: reader.endArray(); break;
        case NAME: name = reader.nextName(); continue;
        case STRING:
        case NUMBER:
          String value = reader.nextString();
          if (name != null && isSecretName(name)) secrets.add(value);
          break;
        default: reader.skipValue();
      }
      name = null;
    }
  }

  /** Any other text: values after secret-looking names, and bearer credentials, are redacted. */
  public static String text(String text) {
    return BEARER.matcher(named(text)).replaceAll("$1" + Matcher.quoteReplacement(REDACTED));
  }

  /**
   * Text with the values after secret-looking names redacted: a JSON string's value, where the word
   * after "basic" is more often prose ("the basic plan") than a credential.
   */
  private static String named(String text) {
    return TEXT_SECRET.matcher(text).replaceAll("$1" + Matcher.quoteReplacement(REDACTED));
  }

  /**
   * An address given as text, as it may appear in a message: user credentials and values after
   * secret-looking names are redacted; the rest is left as it was written, even if it does not parse.
   */
  public static String address(String text) {
    return text(withoutUserInfo(text));
  }

  /**
   * {@code text} with the user information of every address in it redacted, parsed or not: in each
   * run without spaces that holds a {@code //} ({@code scheme://user:password@host}, or a reference
   * {@code //user:password@host}), everything from there to the last {@code @}, since a password
   * may hold {@code /}, {@code ?}, {@code #} or {@code @} itself (a later {@code @} in a path or query
   * is redacted with it: safer than a leak). The first run needs only a scheme ({@code
   * htps:/user:password@host}). One pass over the text: a header value may be long.
   */
  private static String withoutUserInfo(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int n = text.length();
    int i = 0;
    while (i < n && isSpace(text.charAt(i))) i++;
    out.append(text, 0, i);
    boolean first = true;
    while (i < n) {
      int start = i;
      int slashes = -1;
      int at = -1;
      for (; i < n && !isSpace(text.charAt(i)); i++) {
        char c = text.charAt(i);
        if (c == '@') {
          at = i;
        } else if (c == '/' && slashes < 0 && i + 1 < n && text.charAt(i + 1) == '/') {
          slashes = i + 2;
        }
      }
      int userInfo = first ? afterScheme(text, start, i) : -1;
      if (userInfo < 0) userInfo = slashes;
      if (userInfo >= 0 && at >= userInfo) {
        out.append(text, start, userInfo).append(REDACTED).append(text, at, i);
      } else {
        out.append(text, start, i);
      }
      first = false;
      int spaces = i;
      while (i < n && isSpace(text.charAt(i))) i++;
      out.append(text, spaces, i);
    }
    return out.toString();
  }

  /** Where the user information starts after {@code scheme:} and its slashes at {@code from}, or -1. */
  private static int afterScheme(String text, int from, int end) {
    if (from >= end || !isAsciiLetter(text.charAt(from))) return -1;
    int i = from + 1;
    while (i < end && (isAsciiLetter(text.charAt(i)) || Character.isDigit(text.charAt(i))
        || text.charAt(i) == '+' || text.charAt(i) == '.' || text.charAt(i) == '-')) {
      i++;
    }
    if (i >= end || text.charAt(i) != ':') return -1;
    i++;
    while (i < end && text.charAt(i) == '/') i++;
    return i;
  }

  /** The spaces that the other patterns' {@code \s} matches: ASCII ones only, never a Unicode one. */
  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }

  private static boolean isAsciiLetter(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  /** Percent-decoding of a form name or value; a malformed escape is kept as it is. */
  private static String decodeForm(String encoded) {
    Buffer out = new Buffer();
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c == '+') {
        out.writeByte(' ');
      } else if (c == '%' && i + 2 < encoded.length() && hex(encoded.charAt(i + 1)) >= 0
          && hex(encoded.charAt(i + 2)) >= 0) {
        out.writeByte(hex(encoded.charAt(i + 1)) * 16 + hex(encoded.charAt(i + 2)));
        i += 2;
      } else {
        int codePoint = encoded.codePointAt(i);
        out.writeUtf8CodePoint(codePoint);
        i += Character.charCount(codePoint) - 1;
      }
    }
    return out.readUtf8();
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
}
